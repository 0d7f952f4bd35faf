"""`python -m reverie prompts list | show NAME | eval [...]`: tools for prompt engineers.

- ``list``: every prompt, its model role, where cognition uses it (a prompt file whose
  ``inputs`` differ from its task's inputs model is a one-line error).
- ``show NAME``: the messages the model receives for the prompt's first fixture case.
- ``eval``: runs prompts on their fixture cases through the real models and prints one row
  per prompt (calls, first-attempt valid %, final valid %, fallback %, mean attempts,
  prompt/completion tokens, mean latency), then a total row, last. Exit status 0 whatever
  the rates: it is a measuring tool.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from reverie.config import BUNDLED, Settings
from reverie.errors import UserError
from reverie.tasks.registry import product_tasks
from reverie.tasks.day_coherence import coherence_line
from reverie.tasks.evaluate import Row, column_widths, eval_days, format_row, read_ledger, run_cases, summarize, COLUMNS
from reverie.tasks.fixtures import load_fixture


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="prompts_command", metavar="SUBCOMMAND")
    sub.required = True
    sub.add_parser("list", help="every prompt, its model role and where it is used")
    show = sub.add_parser("show", help="the rendered messages of a prompt for its first fixture case")
    show.add_argument("name", help="prompt name (see `prompts list`)")
    show.add_argument("--case", type=int, default=0, help="fixture case to render (default 0, the first)")
    ev = sub.add_parser("eval", help="run prompts on their fixtures through the real model and print validity rates")
    ev.add_argument("--model", default=None, help=f"'{BUNDLED}' or a GGUF path, used for both roles (default: config)")
    ev.add_argument("--prompt", action="append", metavar="NAME", help="only this prompt (repeatable)")
    ev.add_argument("--n", type=int, default=None, metavar="K", help="at most K fixture cases per prompt")
    ev.add_argument("--no-grammar", action="store_true", help="do not constrain replies with the JSON-schema grammar")


def main(args: argparse.Namespace, settings: Settings) -> int:
    command = {"list": _list, "show": _show, "eval": _eval}[args.prompts_command]
    return command(args, settings)


def _known(name: str) -> None:
    tasks = product_tasks()
    if name not in tasks:
        raise UserError(f"no prompt named '{name}' — `python -m reverie prompts list` shows the {len(tasks)} prompts")


def _store(settings: Settings):
    from reverie.llm.prompt_spec import PromptStore

    return PromptStore(settings.paths.prompts)


# --- list -------------------------------------------------------------------------------


def _list(args, settings: Settings) -> int:
    store = _store(settings)
    tasks = product_tasks()
    tasks.check_prompts(store.get)  # each prompt file lists exactly its task's inputs
    width = max(len(n) for n in tasks)
    print(f"{'prompt'.ljust(width)}  {'role'.ljust(6)}  used in")
    for name, task in tasks.items():
        print(f"{name.ljust(width)}  {store.get(name).role.ljust(6)}  {task.used_in}")
    print(f"{len(tasks)} prompts in {settings.paths.prompts}")
    return 0


# --- show -------------------------------------------------------------------------------


def render(settings: Settings, name: str, inputs: dict, choices: dict) -> list:
    """The messages the structured chain sends for this call (no model is loaded)."""
    from reverie.llm import LLM

    return LLM(settings, tasks=product_tasks()).chain.render(name, inputs, choices=choices)


def _show(args, settings: Settings) -> int:
    _known(args.name)
    fixture = load_fixture(args.name)
    if not 0 <= args.case < len(fixture.cases):
        raise UserError(f"--case {args.case}: {fixture.path} has cases 0 to {len(fixture.cases) - 1}")
    case = fixture.cases[args.case]
    spec = _store(settings).get(args.name)
    print(f"# {args.name} ({spec.role}): {spec.description}")
    print(f"# {spec.path} · case {args.case} of {fixture.path}")
    for message in render(settings, args.name, case.inputs, case.choices):
        print(f"\n--- {message.type} ---")
        print(message.content)
    return 0


# --- eval -------------------------------------------------------------------------------


def eval_settings(settings: Settings, model: str | None, grammar: bool) -> Settings:
    """A copy of ``settings`` with the model (both roles) and grammar for an evaluation."""
    settings = settings.model_copy(deep=True)
    if model:
        if model != BUNDLED:
            path = Path(model).expanduser().resolve()
            if not path.is_file():
                raise UserError(f"--model: no such file '{model}' — give a GGUF path or '{BUNDLED}'")
            model = str(path)
        settings.models.strong.path = model
        settings.models.cheap.path = model
    settings.repair.grammar = grammar
    settings.repair.strict = False  # count fail-safes instead of stopping at the first
    return settings


def _eval(args, settings: Settings) -> int:
    from reverie.llm import LLM

    if args.n is not None and args.n < 1:
        raise UserError("--n must be at least 1")
    names = list(product_tasks())
    for name in args.prompt or []:
        _known(name)
    names = [n for n in names if not args.prompt or n in args.prompt]
    for name in names:
        load_fixture(name)  # every fixture problem before any model is loaded

    settings = eval_settings(settings, args.model, grammar=not args.no_grammar)
    grammar = "on" if settings.repair.grammar else "off"
    print(f"prompts eval: {len(names)} prompt(s), model {settings.models.strong.path} / {settings.models.cheap.path}, grammar {grammar}")
    widths = column_widths(names)
    print(format_row(COLUMNS, widths), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        ledger = Path(tmp) / "llm_calls.jsonl"
        llm = LLM.from_settings(settings, tasks=product_tasks(), ledger_path=ledger)
        ask = lambda name, inputs, choices: llm.ask(name, inputs, choices=choices or None)  # noqa: E731
        done = 0
        for name in names:
            run_cases(ask, name, args.n)
            lines = read_ledger(ledger)
            row = summarize((line for line in lines[done:]), [name])[0][0]
            done = len(lines)
            print(format_row(row.cells(), widths), flush=True)
        _rows, total = summarize(read_ledger(ledger))
        print(format_row(total.cells(), widths), flush=True)
        if "daily_plan" in names and "hourly_schedule_packed" in names:
            days = eval_days(llm, args.n)
            print(f"{coherence_line(days)} (plan + hourly schedule per daily_plan case)")
            for day in days:
                for violation in day.violations:
                    print(f"  {day.persona}: {violation}")
    return 0


__all__ = ["configure", "main", "render", "eval_settings", "Row"]
