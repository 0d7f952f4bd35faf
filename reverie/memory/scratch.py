"""A persona's short-term state (``bootstrap_memory/scratch.json``, 47 keys).

Field names and the file layout are the original's. Times are datetimes in memory and
``"%B %d, %Y, %H:%M:%S"`` strings in the file.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from reverie.action_text import subtask
from reverie.address import Address, parse_address
from reverie.clock import DAY_FMT, ceil_minute, format_time, parse_time
from reverie.jsonio import read_json, write_json_atomic
from reverie.memory.event import NO_EVENT, Event
from reverie.memory.schedule import PlanItem, index_at, plan_items, schedule_lines, start_minutes

T = TypeVar("T")

Tile = tuple[int, int]
TIME_KEYS = ("curr_time", "act_start_time", "chatting_end_time")
EVENT_KEYS = ("act_event", "act_obj_event")
SCHEDULE_KEYS = ("f_daily_schedule", "f_daily_schedule_hourly_org")
LIST_KEYS = (
    "act_event",
    "act_obj_event",
    "daily_req",
    "f_daily_schedule",
    "f_daily_schedule_hourly_org",
    "chatting_with_buffer",
)  # null in a file where the code needs a list or a dict: the default
SCRATCH_FILE = "scratch.json"


@dataclass(frozen=True)
class NewAction:
    """What :meth:`Scratch.add_new_action` starts: the action, its looks, and the chat it is (if any)."""

    address: Address
    duration: int  # minutes
    description: str
    pronunciatio: str
    event: Event
    obj_description: str | None = None
    obj_pronunciatio: str | None = None
    obj_event: Event = NO_EVENT
    chatting_with: str | None = None
    chat: list[list[str]] | None = None
    chatting_with_buffer: dict[str, int] | None = None
    chatting_end_time: datetime | None = None
    start_time: datetime | None = None  # None: now


@dataclass
class Scratch:
    """Every scratch.json key (in the file's order, with the original's defaults), plus the
    helpers cognition needs. Cognition changes it through its methods only."""

    vision_r: int = 4
    att_bandwidth: int = 3
    retention: int = 5
    curr_time: datetime | None = None
    curr_tile: Tile | None = None
    daily_plan_req: str | None = None
    name: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    age: int | None = None
    innate: str | None = None
    learned: str | None = None
    currently: str | None = None
    lifestyle: str | None = None
    living_area: str | None = None
    concept_forget: int = 100
    daily_reflection_time: int = 60 * 3
    daily_reflection_size: int = 5
    overlap_reflect_th: int = 2
    kw_strg_event_reflect_th: int = 4
    kw_strg_thought_reflect_th: int = 4
    recency_w: float = 1
    relevance_w: float = 1
    importance_w: float = 1
    recency_decay: float = 0.99
    importance_trigger_max: int = 150
    importance_trigger_curr: int = 150
    importance_ele_n: int = 0
    thought_count: int = 5
    daily_req: list[str] = field(default_factory=list)
    f_daily_schedule: list[PlanItem] = field(default_factory=list)  # from midnight
    f_daily_schedule_hourly_org: list[PlanItem] = field(default_factory=list)
    act_address: str | None = None
    act_start_time: datetime | None = None
    act_duration: int | None = None
    act_description: str | None = None
    act_pronunciatio: str | None = None
    act_event: Event = NO_EVENT
    act_obj_description: str | None = None
    act_obj_pronunciatio: str | None = None
    act_obj_event: Event = NO_EVENT
    chatting_with: str | None = None
    chat: list[list[str]] | None = None  # [[speaker, utterance], ...]
    chatting_with_buffer: dict[str, int] = field(default_factory=dict)
    chatting_end_time: datetime | None = None
    act_path_set: bool = False
    planned_path: list[Tile] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.curr_tile is not None:
            self.curr_tile = _tile(self.curr_tile)
        self.planned_path = [_tile(t) for t in self.planned_path]
        self.act_event, self.act_obj_event = Event.from_json(self.act_event), Event.from_json(self.act_obj_event)
        self.f_daily_schedule = plan_items(self.f_daily_schedule)
        self.f_daily_schedule_hourly_org = plan_items(self.f_daily_schedule_hourly_org)

    # -- file --------------------------------------------------------------------------
    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Scratch:
        known = {f.name for f in fields(cls)}
        values = {key: value for key, value in data.items() if key in known}
        # Each time is read on its own, whatever the others hold (docs/FIDELITY.md).
        for key in TIME_KEYS:
            values[key] = parse_time(values[key]) if values.get(key) else None
        for key in LIST_KEYS:
            if values.get(key) is None:
                values.pop(key, None)
        values["planned_path"] = values.get("planned_path") or []
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in TIME_KEYS:
                value = format_time(value) if value else None
            elif f.name == "curr_tile" and value is not None:
                value = list(value)
            elif f.name == "planned_path":
                value = [list(t) for t in value]
            elif f.name in EVENT_KEYS:
                value = list(value)
            elif f.name in SCHEDULE_KEYS:
                value = [list(item) for item in value]
            out[f.name] = value
        return out

    @classmethod
    def load(cls, path: str | Path) -> Scratch:
        return cls.from_json(read_json(path))

    def save(self, path: str | Path) -> None:
        write_json_atomic(path, self.to_json(), indent=2)

    # -- what cognition needs set --------------------------------------------------------
    def missing(self, key: str) -> ValueError:
        """The error for ``key``, a field cognition needs that this scratch has not set."""
        return ValueError(f"scratch of {self.name or 'an unnamed persona'}: no {key}")

    def persona_name(self) -> str:
        """``name`` (a simulation refuses a scratch.json without one)."""
        return self._required("name", self.name)

    def now(self) -> datetime:
        """``curr_time`` (each step sets it before its stages run)."""
        return self._required("curr_time", self.curr_time)

    def here(self) -> Tile:
        """``curr_tile`` (each step sets it before its stages run)."""
        return self._required("curr_tile", self.curr_tile)

    def chat_partner(self) -> str:
        """``chatting_with``, for a persona in a conversation."""
        return self._required("chatting_with", self.chatting_with)

    def _required(self, key: str, value: T | None) -> T:
        if value is None:
            raise self.missing(key)
        return value

    # -- identity ------------------------------------------------------------------------
    def curr_date_str(self) -> str:
        """ "Monday February 13"."""
        return self.curr_time.strftime(DAY_FMT) if self.curr_time else ""

    def identity_items(self) -> dict[str, object]:
        """The identity stable set (ISS): eight values by label, in the order prompts show them."""
        return {
            "Name": self.name,
            "Age": self.age,
            "Innate traits": self.innate,
            "Learned traits": self.learned,
            "Currently": self.currently,
            "Lifestyle": self.lifestyle,
            "Daily plan requirement": self.daily_plan_req,
            "Current Date": self.curr_date_str(),
        }

    def identity(self) -> str:
        """The identity stable set as the eight "Label: value" lines that open many prompts."""
        return "\n".join(f"{label}: {value}" for label, value in self.identity_items().items())

    # -- the day's schedule ----------------------------------------------------------------
    def _minutes_today(self, advance: int) -> int:
        now = self.curr_time
        if now is None:
            raise ValueError(f"scratch of {self.name}: no curr_time to read the day's schedule at")
        return now.hour * 60 + now.minute + advance

    def get_f_daily_schedule_index(self, advance: int = 0) -> int:
        """Index of the block of ``f_daily_schedule`` running ``advance`` minutes from now."""
        return index_at(self.f_daily_schedule, self._minutes_today(advance))

    def get_f_daily_schedule_hourly_org_index(self, advance: int = 0) -> int:
        """The same on the undecomposed hourly schedule."""
        return index_at(self.f_daily_schedule_hourly_org, self._minutes_today(advance))

    def schedule_start_minutes(self, index: int) -> int:
        """Minutes after midnight at which ``f_daily_schedule[index]`` starts."""
        return start_minutes(self.f_daily_schedule, index)

    def daily_schedule_summary(self) -> str:
        """ "HH:MM || activity" lines of ``f_daily_schedule``."""
        return schedule_lines(self.f_daily_schedule)

    def daily_schedule_hourly_org_summary(self) -> str:
        return schedule_lines(self.f_daily_schedule_hourly_org)

    def set_daily_req(self, plan: list[str]) -> None:
        """The day's broad plan (``daily_req``)."""
        self.daily_req = list(plan)

    def set_schedule(self, schedule: Iterable[Sequence[Any]], hourly: Iterable[Sequence[Any]] | None = None) -> None:
        """A new day's schedule; the undecomposed hourly one is ``hourly``, else the same blocks."""
        self.f_daily_schedule = plan_items(schedule)
        self.f_daily_schedule_hourly_org = plan_items(self.f_daily_schedule if hourly is None else hourly)

    def replace_schedule(self, start: int, end: int, items: Iterable[Sequence[Any]]) -> None:
        """``f_daily_schedule[start:end]`` becomes ``items`` (a decomposition, a re-plan, the day's end)."""
        self.f_daily_schedule[start:end] = plan_items(items)

    # -- identity, the clock, the place -----------------------------------------------------
    def set_identity(self, currently: str, daily_plan_req: str) -> None:
        """A new day's revised status and plan requirement."""
        self.currently, self.daily_plan_req = currently, daily_plan_req

    def set_currently(self, currently: str) -> None:
        self.currently = currently

    def move_to(self, tile: Tile) -> None:
        self.curr_tile = _tile(tile)

    def set_time(self, now: datetime) -> None:
        self.curr_time = now

    # -- importance (what triggers a reflection) ----------------------------------------------
    def count_importance(self, poignancy: int) -> None:
        """A new memory of ``poignancy`` brings the next reflection nearer."""
        self.importance_trigger_curr -= poignancy
        self.importance_ele_n += 1

    def reset_importance(self) -> None:
        """After a reflection: count afresh."""
        self.importance_trigger_curr = self.importance_trigger_max
        self.importance_ele_n = 0

    # -- the path ----------------------------------------------------------------------------
    def replan_path(self) -> None:
        """The path is planned afresh at the next step."""
        self.act_path_set = False

    def set_path(self, path: list[Tile]) -> None:
        self.planned_path = list(path)
        self.act_path_set = True

    def next_tile(self) -> Tile:
        """The next tile of the planned path (taken off it), or the current tile."""
        return self.planned_path.pop(0) if self.planned_path else self.here()

    # -- the current action ----------------------------------------------------------------
    def add_new_action(self, action: NewAction) -> None:
        """Start ``action`` now (or at its ``start_time``); the path is planned afresh."""
        self.act_address = str(action.address)
        self.act_duration = action.duration
        self.act_description = action.description
        self.act_pronunciatio = action.pronunciatio
        self.act_event = Event(*action.event)
        self.chatting_with = action.chatting_with
        self.chat = action.chat
        if action.chatting_with_buffer:
            self.chatting_with_buffer.update(action.chatting_with_buffer)
        self.chatting_end_time = action.chatting_end_time
        self.act_obj_description = action.obj_description
        self.act_obj_pronunciatio = action.obj_pronunciatio
        self.act_obj_event = Event(*action.obj_event)
        self.act_start_time = action.start_time or self.curr_time
        self.act_path_set = False

    def end_chat_state(self) -> None:
        """Clear chat fields once not chatting; count down the other partners' buffers."""
        if not self.act_event.is_chat:
            self.chatting_with = None
            self.chat = None
            self.chatting_end_time = None
        for name in list(self.chatting_with_buffer):
            if name != self.chatting_with:
                # The count stops at zero, which already means "may talk again" (docs/FIDELITY.md).
                self.chatting_with_buffer[name] = max(0, self.chatting_with_buffer[name] - 1)

    def address(self) -> Address:
        """``act_address`` parsed."""
        return parse_address(self.act_address)

    def act_end_time(self) -> datetime | None:
        """When the current action ends: the chat's end, else start (next whole minute) + duration."""
        if self.chatting_with:
            return self.chatting_end_time
        if self.act_start_time is None or self.act_duration is None:
            return None
        return ceil_minute(self.act_start_time) + timedelta(minutes=self.act_duration)

    def act_check_finished(self) -> bool:
        """True when there is no action or its end time has come."""
        if not self.act_address:
            return True
        end = self.act_end_time()
        # now >= end, not an exact HH:MM:SS match, so any sec_per_step works.
        return end is None or self.curr_time is None or self.curr_time >= end

    def act_time_str(self) -> str:
        """Start of the current action as "08:05 AM"."""
        return self.act_start_time.strftime("%H:%M %p") if self.act_start_time else ""

    def act_subtask(self) -> str:
        """For "<task> (<subtask>)" the subtask, else the whole description."""
        return subtask(self.act_description or "")

    def act_summary_str(self) -> str:
        """A few readable lines about the current action (for logs and `print` commands)."""
        return (
            f"[{self.curr_time.strftime('%A %B %d -- %H:%M %p') if self.curr_time else '-'}]\n"
            f"Activity: {self.name} is {self.act_description}\n"
            f"Address: {self.act_address}\n"
            f"Duration in minutes (e.g., x min): {self.act_duration} min\n"
        )

    def curr_event(self) -> tuple[str | None, ...]:
        """(subject, predicate, object, description) of the persona's own event on its tile."""
        if not self.act_address:
            return (self.name, None, None, None)
        return (*self.act_event, self.act_description)

    def curr_obj_event(self) -> tuple[str | None, ...]:
        """(object address, predicate, object, description) of the object being used."""
        if not self.act_address:
            return ("", None, None, None)
        return (self.act_address, self.act_obj_event.predicate, self.act_obj_event.object, self.act_obj_description)


def _tile(value: Any) -> Tile:
    x, y = value
    return (int(x), int(y))
