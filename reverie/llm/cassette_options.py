"""The ``--record FILE | --replay FILE`` options of the commands that run a town (the console, the
headless run and the bench): every model reply kept in a cassette, or taken from one
(:mod:`reverie.llm.cassette`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from reverie.errors import UserError

REPLAY_HELP = "answer from FILE instead of the model"


def add_cassette_options(parser: argparse.ArgumentParser, replay_help: str = REPLAY_HELP) -> None:
    """``--record FILE`` and ``--replay FILE``, one or the other."""
    cassette = parser.add_mutually_exclusive_group()
    cassette.add_argument("--record", metavar="FILE", type=Path, help="record every model reply to FILE")
    cassette.add_argument("--replay", metavar="FILE", type=Path, help=replay_help)


def cassette_files(args: argparse.Namespace) -> dict[str, Path | None]:
    """``{"record": …, "replay": …}`` from the parsed options; a cassette to replay must exist."""
    if args.replay is not None and not args.replay.is_file():
        raise UserError(f"--replay {args.replay}: no such file — record one first with --record")
    return {"record": args.record, "replay": args.replay}
