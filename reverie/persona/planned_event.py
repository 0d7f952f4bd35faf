"""An event fixed in a persona's day ahead of planning (a party it hosts), as a seed gives it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlannedEvent:
    day: str  # "February 13, 2023"
    start: int  # minutes after midnight
    end: int
    sector: str
    arena: str
    description: str  # what the persona does, e.g. "hosting the spring party at the cafe"

    @property
    def activity(self) -> str:
        # The "(...)" keeps the block whole: decomposition leaves such entries alone. No clock
        # in it: the schedule already holds the time (an hourly activity names none).
        return f"{self.description} ({self.sector})"
