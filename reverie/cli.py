"""Run the generative-agents simulation: `python -m reverie [--config PATH] [COMMAND ...]`.

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
    "server": ("reverie.console.interactive", "interactive server: fork, then `Enter option:` (the default)"),
    "run": ("reverie.console.headless", "fork (or resume) a simulation and run N steps without a prompt"),
    "prompts": ("reverie.prompt_tools.cli", "list, show and evaluate the prompts in prompts/"),
    "compress": ("reverie.console.compress", "write compressed_storage/SIM (the demo format)"),
    "assets": ("reverie.worldgen.assets_import", "import the original Smallville assets from a clone"),
    "bench": ("reverie.benchmarks.bench", "benchmark a short headless run and print figures"),
    "doctor": ("reverie.doctor.doctor", "check the configured model, memory and storage before a long run"),
    "experiment": (
        "reverie.evaluation.experiment",
        "the paper's two-day diffusion experiment on any base (default "
        "the 25-person town), its table beside the paper's",
    ),
    "evaluate": (
        "reverie.evaluation.evaluation",
        "interview every persona: information diffusion, relationships, coordination",
    ),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; only the chosen command's module is imported (start-up stays quick)."""
    parser = argparse.ArgumentParser(prog="python -m reverie", description=__doc__.splitlines()[0])
    parser.add_argument("--config", help="config file (default: $REVERIE_CONFIG or ./config.toml)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        cmd = sub.add_parser(name, help=help_text)
        cmd.set_defaults(_module=module)
        if name == command:
            importlib.import_module(module).configure(cmd)
    return parser


def _command_of(argv: list[str]) -> str | None:
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--config":
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = _command_of(argv)
    if command not in COMMANDS and not (command is None and {"-h", "--help"} & set(argv)):
        # No command given: the interactive server, like the original, with its own flags.
        at = 2 if argv[:1] == ["--config"] else 0
        argv.insert(at, "server")
        command = "server"
    args = build_parser(command).parse_args(argv)
    try:
        from reverie.config import load_settings
        from reverie.simulation.stop_signals import as_interrupts

        settings = load_settings(args.config)
        with as_interrupts():  # SIGTERM and SIGHUP stop a command as Ctrl-C does
            return int(importlib.import_module(args._module).main(args, settings) or 0)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except OSError as exc:  # a full disk, a read-only folder: one line, the checkpoint is kept
        from reverie.errors import disk_problem

        print(f"error: {disk_problem(exc)}", file=sys.stderr)
        return UserError.exit_code
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
