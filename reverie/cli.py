"""`python -m reverie [--config PATH] [COMMAND ...]`.

Each command lives in the room that does the work; this module only dispatches.
A command module exposes ``configure(parser)`` and ``main(args, settings) -> int``.
With no command, the interactive simulation server starts (like the original).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from reverie.errors import UserError

COMMANDS = {
    "server": ("reverie.simulation.interactive", "interactive server: fork, then `Enter option:` (the default)"),
    "run": ("reverie.simulation.headless", "fork (or resume) a simulation and run N steps without a prompt"),
    "prompts": ("reverie.tasks.cli", "list, show and evaluate the prompts in prompts/"),
    "compress": ("reverie.simulation.compress", "write compressed_storage/SIM (the demo format)"),
    "assets": ("reverie.world.assets_import", "import the original Smallville assets from a clone"),
    "bench": ("reverie.simulation.bench", "benchmark a short headless run and print figures"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m reverie", description=__doc__.splitlines()[0])
    parser.add_argument("--config", help="config file (default: $REVERIE_CONFIG or ./config.toml)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        cmd = sub.add_parser(name, help=help_text)
        cmd.set_defaults(_module=module)
        importlib.import_module(module).configure(cmd)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0].startswith("-") and not any(a in COMMANDS for a in argv):
        # No command given: the interactive server, keeping its own flags.
        argv = [*argv[:2], "server", *argv[2:]] if argv[:1] == ["--config"] else ["server", *argv]
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        from reverie.config import load_settings

        settings = load_settings(args.config)
        return int(importlib.import_module(args._module).main(args, settings) or 0)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
