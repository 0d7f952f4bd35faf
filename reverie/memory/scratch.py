"""A persona's short-term state (``bootstrap_memory/scratch.json``, 47 keys).

Field names and the file layout are the original's. Times are datetimes in memory and
``"%B %d, %Y, %H:%M:%S"`` strings in the file.
"""

from __future__ import annotations

import copy
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from reverie.persona.clock import DAY_FMT, ceil_minute, format_time, parse_time
from reverie.simulation.storage import read_json, write_json_atomic

# Every key of scratch.json in the original's order, with the class defaults.
DEFAULTS: dict[str, Any] = {
    "vision_r": 4, "att_bandwidth": 3, "retention": 5,
    "curr_time": None, "curr_tile": None, "daily_plan_req": None,
    "name": None, "first_name": None, "last_name": None, "age": None, "innate": None,
    "learned": None, "currently": None, "lifestyle": None, "living_area": None,
    "concept_forget": 100, "daily_reflection_time": 60 * 3, "daily_reflection_size": 5,
    "overlap_reflect_th": 2, "kw_strg_event_reflect_th": 4, "kw_strg_thought_reflect_th": 4,
    "recency_w": 1, "relevance_w": 1, "importance_w": 1, "recency_decay": 0.99,
    "importance_trigger_max": 150, "importance_trigger_curr": 150, "importance_ele_n": 0,
    "thought_count": 5,
    "daily_req": [], "f_daily_schedule": [], "f_daily_schedule_hourly_org": [],
    "act_address": None, "act_start_time": None, "act_duration": None, "act_description": None,
    "act_pronunciatio": None, "act_event": [None, None, None], "act_obj_description": None,
    "act_obj_pronunciatio": None, "act_obj_event": [None, None, None],
    "chatting_with": None, "chat": None, "chatting_with_buffer": {}, "chatting_end_time": None,
    "act_path_set": False, "planned_path": [],
}
TIME_KEYS = ("curr_time", "act_start_time", "chatting_end_time")
SCRATCH_FILE = "scratch.json"


class Scratch:
    """Attribute access to every scratch.json key, plus the helpers cognition needs."""

    def __init__(self, **values: Any):
        for key, default in DEFAULTS.items():
            setattr(self, key, copy.deepcopy(values.get(key, default)))

    # -- file --------------------------------------------------------------------------
    @classmethod
    def from_json(cls, data: dict) -> Scratch:
        values = dict(data)
        # Each time is read on its own (the original reset curr_time when act_start_time was null).
        for key in TIME_KEYS:
            values[key] = parse_time(values[key]) if values.get(key) else None
        for key in ("act_event", "act_obj_event", "daily_req", "f_daily_schedule", "f_daily_schedule_hourly_org",
                    "chatting_with_buffer"):
            if values.get(key) is None:
                values.pop(key, None)  # null where the code needs a list or a dict: the default
        if values.get("curr_tile") is not None:
            values["curr_tile"] = tuple(values["curr_tile"])
        values["planned_path"] = [tuple(t) for t in values.get("planned_path") or []]
        return cls(**values)

    def to_json(self) -> dict:
        out = {}
        for key in DEFAULTS:
            value = getattr(self, key)
            if key in TIME_KEYS:
                value = format_time(value) if value else None
            elif key == "curr_tile" and value is not None:
                value = list(value)
            elif key == "planned_path":
                value = [list(t) for t in value]
            out[key] = value
        return out

    @classmethod
    def load(cls, path: str | Path) -> Scratch:
        return cls.from_json(read_json(path))

    def save(self, path: str | Path) -> None:
        write_json_atomic(path, self.to_json(), indent=2)

    # -- identity ------------------------------------------------------------------------
    def curr_date_str(self) -> str:
        """"Monday February 13"."""
        return self.curr_time.strftime(DAY_FMT) if self.curr_time else ""

    def identity(self) -> str:
        """The identity stable set (ISS): eight "Key: value" lines that open many prompts."""
        return "\n".join([
            f"Name: {self.name}",
            f"Age: {self.age}",
            f"Innate traits: {self.innate}",
            f"Learned traits: {self.learned}",
            f"Currently: {self.currently}",
            f"Lifestyle: {self.lifestyle}",
            f"Daily plan requirement: {self.daily_plan_req}",
            f"Current Date: {self.curr_date_str()}",
        ])

    # -- the day's schedule ----------------------------------------------------------------
    def _minutes_today(self, advance: int) -> int:
        return self.curr_time.hour * 60 + self.curr_time.minute + advance

    @staticmethod
    def _index_in(schedule: list, minutes: int) -> int:
        """First block whose end lies after ``minutes``; len(schedule) when past the end."""
        elapsed = 0
        for index, (_task, duration) in enumerate(schedule):
            elapsed += duration
            if elapsed > minutes:
                return index
        return len(schedule)

    def get_f_daily_schedule_index(self, advance: int = 0) -> int:
        """Index of the block of ``f_daily_schedule`` running ``advance`` minutes from now."""
        return self._index_in(self.f_daily_schedule, self._minutes_today(advance))

    def get_f_daily_schedule_hourly_org_index(self, advance: int = 0) -> int:
        """The same on the undecomposed hourly schedule."""
        return self._index_in(self.f_daily_schedule_hourly_org, self._minutes_today(advance))

    def schedule_start_minutes(self, index: int) -> int:
        """Minutes after midnight at which ``f_daily_schedule[index]`` starts."""
        return sum(d for _t, d in self.f_daily_schedule[:index])

    @staticmethod
    def _schedule_lines(schedule: list) -> str:
        lines, elapsed = [], 0
        for task, duration in schedule:
            lines.append(f"{elapsed // 60:02d}:{elapsed % 60:02d} || {task}")
            elapsed += duration
        return "\n".join(lines)

    def daily_schedule_summary(self) -> str:
        """"HH:MM || activity" lines of ``f_daily_schedule``."""
        return self._schedule_lines(self.f_daily_schedule)

    def daily_schedule_hourly_org_summary(self) -> str:
        return self._schedule_lines(self.f_daily_schedule_hourly_org)

    # -- the current action ----------------------------------------------------------------
    def add_new_action(self, action_address: str, action_duration: int, action_description: str,
                       action_pronunciatio: str, action_event: list, chatting_with: str | None,
                       chat: list | None, chatting_with_buffer: dict | None, chatting_end_time: datetime | None,
                       act_obj_description: str | None, act_obj_pronunciatio: str | None,
                       act_obj_event: list, act_start_time: datetime | None = None) -> None:
        """Start an action now (or at ``act_start_time``); the path is planned afresh."""
        self.act_address = action_address
        self.act_duration = action_duration
        self.act_description = action_description
        self.act_pronunciatio = action_pronunciatio
        self.act_event = list(action_event)
        self.chatting_with = chatting_with
        self.chat = chat
        if chatting_with_buffer:
            self.chatting_with_buffer.update(chatting_with_buffer)
        self.chatting_end_time = chatting_end_time
        self.act_obj_description = act_obj_description
        self.act_obj_pronunciatio = act_obj_pronunciatio
        self.act_obj_event = list(act_obj_event)
        self.act_start_time = act_start_time or self.curr_time
        self.act_path_set = False

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
        desc = self.act_description or ""
        if "(" in desc:
            return desc.split("(")[-1].split(")")[0]
        return desc

    def act_summary(self) -> dict:
        return {
            "persona": self.name,
            "address": self.act_address,
            "start_datetime": self.act_start_time,
            "duration": self.act_duration,
            "description": self.act_description,
            "pronunciatio": self.act_pronunciatio,
        }

    def act_summary_str(self) -> str:
        """A few readable lines about the current action (for logs and `print` commands)."""
        return (
            f"[{self.curr_time.strftime('%A %B %d -- %H:%M %p') if self.curr_time else '-'}]\n"
            f"Activity: {self.name} is {self.act_description}\n"
            f"Address: {self.act_address}\n"
            f"Duration in minutes (e.g., x min): {self.act_duration} min\n"
        )

    def curr_event(self) -> tuple:
        """(subject, predicate, object, description) of the persona's own event on its tile."""
        if not self.act_address:
            return (self.name, None, None, None)
        return (*self.act_event, self.act_description)

    def curr_obj_event(self) -> tuple:
        """(object address, predicate, object, description) of the object being used."""
        if not self.act_address:
            return ("", None, None, None)
        return (self.act_address, self.act_obj_event[1], self.act_obj_event[2], self.act_obj_description)
