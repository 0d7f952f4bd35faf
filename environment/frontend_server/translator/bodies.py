"""Checking the JSON bodies the game page posts. Anything else is a 400 with a reason."""

from __future__ import annotations

import json
import math

from django.conf import settings
from django.core.exceptions import RequestDataTooBig

MAX_STEP = 10**9 - 1
MAX_COORD = 100_000


class BadBody(Exception):
    """A request body that is not the JSON object expected; the message names the problem."""


def parse(request) -> dict:
    ctype = request.content_type or ""
    if ctype != "application/json":
        raise BadBody("send the body as JSON with Content-Type: application/json")
    try:
        body = request.body
    except RequestDataTooBig:
        raise BadBody(f"the body is too large (at most {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes)") from None
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise BadBody("the body is not valid JSON") from None
    except RecursionError:
        raise BadBody("the body is nested too deeply") from None
    if not isinstance(data, dict):
        raise BadBody("the body must be a JSON object")
    return data


def exact_keys(obj, keys: set[str], what: str) -> dict:
    if not isinstance(obj, dict):
        raise BadBody(f"{what} must be a JSON object")
    if set(obj) != keys:
        raise BadBody(f"{what} must have exactly the keys {sorted(keys)}")
    return obj


def integer(value, what: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise BadBody(f"{what} must be a whole number from {lo} to {hi}")
    return value


def number(value, what: str, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise BadBody(f"{what} must be a number")
    if not lo <= value <= hi:
        raise BadBody(f"{what} must be between {lo} and {hi}")
    return value


def text(value, what: str, max_len: int = 200) -> str:
    if not isinstance(value, str) or not value or len(value) > max_len:
        raise BadBody(f"{what} must be a non-empty string of at most {max_len} characters")
    return value


def step_request(data: dict) -> tuple[int, str]:
    """{"step": int, "sim_code": str}"""
    exact_keys(data, {"step", "sim_code"}, "the body")
    return integer(data["step"], "step", 0, MAX_STEP), text(data["sim_code"], "sim_code")


def environment_request(data: dict, names: list[str], maze: str, width: int, height: int) -> tuple[int, str, dict]:
    """{"step": int, "sim_code": str, "environment": {name: {"maze", "x", "y"}}} for exactly `names`."""
    exact_keys(data, {"step", "sim_code", "environment"}, "the body")
    step = integer(data["step"], "step", 0, MAX_STEP)
    sim_code = text(data["sim_code"], "sim_code")
    env = exact_keys(data["environment"], set(names), "environment (one entry per persona)")
    clean = {}
    for name in names:
        rec = exact_keys(env[name], {"maze", "x", "y"}, f"environment[{name!r}]")
        if rec["maze"] != maze:
            raise BadBody(f"environment[{name!r}].maze must be {maze!r}")
        clean[name] = {
            "maze": maze,
            "x": integer(rec["x"], f"environment[{name!r}].x", 0, max(width - 1, 0)),
            "y": integer(rec["y"], f"environment[{name!r}].y", 0, max(height - 1, 0)),
        }
    return step, sim_code, clean


def camera_request(data: dict, mazes: list[str]) -> dict:
    """{"camera": {"maze": str, "x": px, "y": px}}"""
    exact_keys(data, {"camera"}, "the body")
    cam = exact_keys(data["camera"], {"maze", "x", "y"}, "camera")
    if cam["maze"] not in mazes:
        raise BadBody("camera.maze must name a maze in the assets folder")
    return {
        "maze": cam["maze"],
        "x": number(cam["x"], "camera.x", 0, MAX_COORD),
        "y": number(cam["y"], "camera.y", 0, MAX_COORD),
    }
