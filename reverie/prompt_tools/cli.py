"""`python -m reverie prompts list | show NAME | eval [...] | capture SIM`: tools for prompt engineers.

- ``list``: every prompt, its model role, its token budget (the longest prompt over its
  fixture cases, measured by the model's tokenizer, plus its ``max_tokens``) and where
  cognition uses it (a prompt file whose ``inputs`` differ from its task's inputs model is
  a one-line error).
- ``show NAME``: the messages the model receives for the prompt's first fixture case.
- ``eval``: runs prompts on their fixture cases through the real models and prints one row
  per prompt (calls, first-attempt valid %, final valid %, fallback %, mean attempts,
  prompt/completion tokens, mean latency), then a total row, last. Exit status 0 whatever
  the rates: it is a measuring tool. ``--cases FOLDER`` runs the cases there instead (e.g.
  captured from a run); ``--compare A B`` runs the cases through two prompt versions or two
  models and puts them side by side (see reverie.prompt_tools.compare).
- ``capture SIM``: a run's traced calls as eval cases (see reverie.prompt_tools.capture).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from reverie.config import BUNDLED, Settings
from reverie.errors import UserError
from reverie.prompt_tools.evaluate import (
    COLUMNS,
    Row,
    column_widths,
    eval_days,
    format_row,
    read_ledger,
    run_cases,
    summarize,
)
from reverie.prompt_tools.fixtures import fixture_names, load_fixture
from reverie.tasks.day_coherence import coherence_line
from reverie.tasks.registry import product_tasks

if TYPE_CHECKING:
    from reverie.llm.prompt_spec import PromptStore


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="prompts_command", metavar="SUBCOMMAND")
    sub.required = True
    sub.add_parser("list", help="every prompt, its model role, its token budget and where it is used")
    show = sub.add_parser("show", help="the rendered messages of a prompt for its first fixture case")
    show.add_argument("name", help="prompt name (see `prompts list`)")
    show.add_argument("--case", type=int, default=0, help="fixture case to render (default 0, the first)")
    ev = sub.add_parser("eval", help="run prompts on their fixtures through the real model and print validity rates")
    ev.add_argument("--model", default=None, help=f"'{BUNDLED}' or a GGUF path, used for both roles (default: config)")
    ev.add_argument("--prompt", action="append", metavar="NAME", help="only this prompt (repeatable)")
    ev.add_argument("--n", type=int, default=None, metavar="K", help="at most K fixture cases per prompt")
    ev.add_argument("--no-grammar", action="store_true", help="do not constrain replies with the JSON-schema grammar")
    ev.add_argument(
        "--cases",
        type=Path,
        default=None,
        metavar="FOLDER",
        help="run the cases in FOLDER (<prompt>.json files, e.g. from `prompts capture`) instead of the fixtures",
    )
    ev.add_argument(
        "--compare",
        nargs=2,
        metavar=("A", "B"),
        default=None,
        help="run every case through A and B (each a prompts folder, a git revision of prompts/, "
        f"'{BUNDLED}' or a GGUF) and print them side by side",
    )
    cap = sub.add_parser("capture", help="turn a run's traced calls into eval cases")
    cap.add_argument("sim", help="the simulation (a folder in storage, see /runs/)")
    cap.add_argument(
        "--out", type=Path, required=True, metavar="FOLDER", help="where to write <prompt>.json case files"
    )
    cap.add_argument("--prompt", action="append", metavar="NAME", help="only this prompt (repeatable)")
    cap.add_argument("--n", type=int, default=None, metavar="K", help="at most K cases per prompt")
    cap.add_argument("--only-failed", action="store_true", help="only calls that ended in their fail-safe")


def main(args: argparse.Namespace, settings: Settings) -> int:
    command = {"list": _list, "show": _show, "eval": _eval, "capture": _capture}[args.prompts_command]
    return command(args, settings)


def _known(name: str) -> None:
    tasks = product_tasks()
    if name not in tasks:
        raise UserError(f"no prompt named '{name}' — `python -m reverie prompts list` shows the {len(tasks)} prompts")


def _store(settings: Settings) -> PromptStore:
    from reverie.llm.prompt_spec import PromptStore

    return PromptStore(settings.paths.prompts)


# --- list -------------------------------------------------------------------------------


def _list(args: argparse.Namespace, settings: Settings) -> int:
    store = _store(settings)
    tasks = product_tasks()
    tasks.check_prompts(store.get)  # each prompt file lists exactly its task's inputs
    budgets = token_budgets(settings, list(tasks))
    width = max(len(n) for n in tasks)
    print(f"{'prompt'.ljust(width)}  {'role'.ljust(6)}  {'prompt':>6}  {'reply':>5}  {'budget':>6}  used in")
    for name in tasks:
        spec, (prompt, reply) = store.get(name), budgets[name]
        print(
            f"{name.ljust(width)}  {spec.role.ljust(6)}  {prompt:>6}  {reply:>5}  {prompt + reply:>6}  {spec.used_in}"
        )
    print(
        f"{len(tasks)} prompts in {settings.paths.prompts}; tokens a call: prompt = the longest of its fixture "
        "cases, first attempt, measured by the model's tokenizer; reply = its max_tokens"
    )
    return 0


def token_budgets(settings: Settings, names: list[str]) -> dict[str, tuple[int, int]]:
    """``{prompt: (prompt tokens, max_tokens)}``: the longest first-attempt prompt over the
    prompt's fixture cases, as the chain measures it (the model's tokenizer), and its reply limit."""
    from reverie.llm import LLM

    chain = LLM(settings, tasks=product_tasks()).chain
    budgets = {}
    for name in names:
        cases = load_fixture(name).cases
        fitted = [chain.measure(name, case.inputs, choices=case.choices) for case in cases]
        budgets[name] = (
            max((f.prompt_tokens + f.trimmed_tokens for f in fitted), default=0),
            max((chain.max_tokens(name, choices=case.choices) for case in cases), default=chain.max_tokens(name)),
        )
    return budgets


# --- show -------------------------------------------------------------------------------


def render(settings: Settings, name: str, inputs: dict, choices: dict) -> list:
    """The messages the structured chain sends for this call (no model is loaded)."""
    from reverie.llm import LLM

    return LLM(settings, tasks=product_tasks()).chain.render(name, inputs, choices=choices)


def _show(args: argparse.Namespace, settings: Settings) -> int:
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


def _eval_names(args: argparse.Namespace) -> list[str]:
    """The prompts to evaluate: every prompt (with a case file in ``--cases``), or ``--prompt``'s."""
    if args.n is not None and args.n < 1:
        raise UserError("--n must be at least 1")
    for name in args.prompt or []:
        _known(name)
    if args.cases is not None and not args.cases.is_dir():
        raise UserError(f"--cases {args.cases}: no such folder — give the folder `prompts capture --out` wrote")
    present = set(fixture_names(args.cases)) if args.cases is not None else None
    names = [n for n in product_tasks() if (not args.prompt or n in args.prompt) and (present is None or n in present)]
    if not names:
        raise UserError(
            f"--cases {args.cases}: no case file for " + (", ".join(args.prompt) if args.prompt else "any prompt")
        )
    for name in names:
        load_fixture(name, args.cases)  # every case file problem before any model is loaded
    return names


def _eval(args: argparse.Namespace, settings: Settings) -> int:
    from reverie.llm import LLM

    names = _eval_names(args)
    settings = eval_settings(settings, args.model, grammar=not args.no_grammar)
    if args.compare:
        return _compare(args, settings, names)
    grammar = "on" if settings.repair.grammar else "off"
    where = f", cases in {args.cases}" if args.cases is not None else ""
    print(
        f"prompts eval: {len(names)} prompt(s), model {settings.models.strong.path} / {settings.models.cheap.path}, grammar {grammar}{where}"
    )
    widths = column_widths(names)
    print(format_row(COLUMNS, widths), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        ledger = Path(tmp) / "llm_calls.jsonl"
        llm = LLM.from_settings(settings, tasks=product_tasks(), ledger_path=ledger)
        ask = lambda name, inputs, choices: llm.ask(name, inputs, choices=choices or None)  # noqa: E731
        done = 0
        for name in names:
            run_cases(ask, name, args.n, args.cases)
            lines = read_ledger(ledger)
            row = summarize((line for line in lines[done:]), [name])[0][0]
            done = len(lines)
            print(format_row(row.cells(), widths), flush=True)
        _rows, total = summarize(read_ledger(ledger))
        print(format_row(total.cells(), widths), flush=True)
        if args.cases is None and "daily_plan" in names and "hourly_schedule_packed" in names:
            days = eval_days(llm, args.n)
            print(f"{coherence_line(days)} (plan + hourly schedule per daily_plan case)")
            for day in days:
                for violation in day.violations:
                    print(f"  {day.persona}: {violation}")
    return 0


def _compare(args: argparse.Namespace, settings: Settings, names: list[str]) -> int:
    from reverie.llm import LLM
    from reverie.prompt_tools.compare import changed, side_of, side_settings, table

    with tempfile.TemporaryDirectory() as tmp:
        sides = [side_of(spec, Path(tmp)) for spec in args.compare]
        print(
            f"prompts eval --compare: A = {sides[0].label}, B = {sides[1].label}; {len(names)} prompt(s)"
            + (f", cases in {args.cases}" if args.cases is not None else ", fixture cases"),
            flush=True,
        )
        results = []
        for side in sides:
            llm = LLM.from_settings(side_settings(settings, side), tasks=product_tasks())
            product_tasks().check_prompts(llm.chain.prompts.get)  # a side's prompt files fit this code's tasks
            lines = []
            for name in names:
                cases = load_fixture(name, args.cases).cases
                for number, case in enumerate(cases[: args.n] if args.n else cases):
                    llm.ask(name, case.inputs, choices=case.choices or None)
                    who = next(
                        (
                            case.inputs[k]
                            for k in ("persona_name", "first_name", "name")
                            if isinstance(case.inputs.get(k), str)
                        ),
                        None,
                    )
                    last = llm.ledger.last
                    assert last is not None  # the call just made is in the ledger
                    lines.append(dict(last, case=number, persona=who))
            results.append(lines)
    print("\n".join(table(results[0], results[1], names)))
    moved = changed(results[0], results[1])
    print(f"{len(moved)} case(s) changed outcome" + (":" if moved else "."))
    for line in moved:
        print(f"  {line}")
    return 0


# --- capture ----------------------------------------------------------------------------


def _capture(args: argparse.Namespace, settings: Settings) -> int:
    from reverie.prompt_tools.capture import capture, read_trace, write_cases
    from reverie.sim_layout import SimLayout, is_sim_name

    if not is_sim_name(args.sim) or not (settings.paths.storage / args.sim).is_dir():
        raise UserError(f"no simulation '{args.sim}' in {settings.paths.storage} — give a folder name shown on /runs/")
    if args.n is not None and args.n < 1:
        raise UserError("--n must be at least 1")
    for name in args.prompt or []:
        _known(name)
    calls = read_trace(SimLayout(settings.paths.storage / args.sim).trace_path)
    captured = capture(
        calls, sim=args.sim, known=product_tasks(), prompts=args.prompt, n=args.n, only_failed=args.only_failed
    )
    added = write_cases(captured, args.out)
    for name, count in sorted(added.items()):
        print(f"  {name}: {len(captured.cases[name])} case(s), {count} new in {args.out / (name + '.json')}")
    print(
        f"prompts capture: {captured.total} case(s) of {len(captured.cases)} prompt(s) from {captured.calls} traced "
        f"call(s) of {args.sim} ({captured.duplicates} with the same inputs as another), written to {args.out}"
    )
    if captured.unknown:
        print(f"  skipped prompts this version does not have: {', '.join(sorted(captured.unknown))}")
    return 0


__all__ = ["Row", "configure", "eval_settings", "main", "render"]
