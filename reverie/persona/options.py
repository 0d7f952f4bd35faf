"""Switches of the cognitive loop, handed to each persona by the simulation (``[simulation]``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CognitionOptions:
    packed_actions: bool = False  # one structured call for the action pipeline, the day's schedule, a conversation
    reuse_answers: bool = True  # today's answers are reused for the same question
    defer_ratings: bool = True  # a new memory's poignancy is asked when first read, many at once
    schedule_passes: int = 3  # the hourly schedule's planning passes (one-call-per-hour prompt only)
