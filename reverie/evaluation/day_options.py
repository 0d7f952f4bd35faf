"""The command-line options ``game_day`` and ``experiment`` share (``run`` too, where it takes the
same), each added with its command's own help, and the values the two read from them alike."""

from __future__ import annotations

import argparse
from pathlib import Path

from reverie.errors import UserError


def add_model(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--model",
        metavar="bundled|scripted|PATH",
        help="model file for both roles (default: the config's); scripted: the scripted town model",
    )


def add_faithful(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--faithful", action="store_true", help="the original's one-prompt-per-question pipeline")


def add_evaluate_every(parser: argparse.ArgumentParser, help: str) -> None:
    parser.add_argument("--evaluate-every", type=int, default=6, metavar="H", help=help)


def add_pairs(parser: argparse.ArgumentParser, help: str) -> None:
    parser.add_argument("--pairs", type=int, metavar="K", help=help)


def add_history(parser: argparse.ArgumentParser, help: str) -> None:
    parser.add_argument("--history", metavar="CSV|none", default="base", help=help)


def add_max_wall_minutes(parser: argparse.ArgumentParser, help: str) -> None:
    parser.add_argument("--max-wall-minutes", type=float, metavar="M", help=help)


def add_force_seed_plan(parser: argparse.ArgumentParser, help: str) -> None:
    parser.add_argument("--force-seed-plan", action="store_true", help=help)


def history_of(args: argparse.Namespace) -> str | None:
    """``--history``: a CSV file, "base" (the base world's own) or None (``none``)."""
    history = None if args.history == "none" else args.history
    if history is not None and history != "base" and not Path(history).is_file():
        raise UserError(f"--history {args.history}: no such file — give a CSV of 'Name,Whisper' rows, or none")
    return history


def max_wall_s(args: argparse.Namespace) -> float | None:
    """``--max-wall-minutes`` in seconds (None: no budget)."""
    return None if args.max_wall_minutes is None else args.max_wall_minutes * 60
