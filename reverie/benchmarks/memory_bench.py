"""`python -m reverie.benchmarks.memory_bench`: peak resident memory of a run of prompts on one model.

Asks the prompts' fixture cases (as `prompts eval` does) one after another through the
in-process model with its prompt cache on, and prints the peak resident memory after each
call, then the expected peak (:mod:`reverie.llm.memory_bound`) and whether the run stayed
inside it. The last line is JSON for scripts::

    python -m reverie.benchmarks.memory_bench --model gemma-3-270m-q4_k_m.gguf --chat-format gemma --calls 24
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from itertools import cycle
from pathlib import Path

from reverie.config import BUNDLED, load_settings
from reverie.llm.memory_bound import estimate, peak_rss_bytes
from reverie.llm.models import model_path
from reverie.prompt_tools.fixtures import load_fixture
from reverie.tasks.registry import product_tasks

MIB = 1 << 20


def cases(calls: int):
    """``calls`` (prompt, inputs, choices), going round the prompts' first fixture cases."""
    names = [n for n in product_tasks() if load_fixture(n).cases]
    ring = cycle((name, case) for name in names for case in load_fixture(name).cases[:2])
    for _ in range(calls):
        name, case = next(ring)
        yield name, case.inputs, case.choices


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m reverie.benchmarks.memory_bench`` (also read by the docs' reference)."""
    parser = argparse.ArgumentParser(
        prog="python -m reverie.benchmarks.memory_bench", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--config", help="config file")
    parser.add_argument(
        "--model", default=None, help=f"GGUF path or '{BUNDLED}' for both roles (default: the config's)"
    )
    parser.add_argument("--chat-format", default=None, help="chat_format for a GGUF without a chat template")
    parser.add_argument("--calls", type=int, default=24, help="prompt calls to make (default 24)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from reverie.llm import LLM

    settings = load_settings(args.config).model_copy(deep=True)
    for role in ("strong", "cheap"):
        model = getattr(settings.models, role)
        if args.model:
            model.path = args.model if args.model == BUNDLED else str(Path(args.model).resolve())
        if args.chat_format:
            model.chat_format = args.chat_format
    settings.repair.strict = False
    with tempfile.TemporaryDirectory() as tmp:
        llm = LLM.from_settings(settings, tasks=product_tasks(), ledger_path=Path(tmp) / "llm_calls.jsonl")
        loaded = peak_rss_bytes()
        for i, (name, inputs, choices) in enumerate(cases(args.calls), 1):
            llm.ask(name, inputs, choices=choices or None)
            print(f"call {i:3d} {name:28s} peak {peak_rss_bytes() / MIB:8.0f} MiB", flush=True)
        models = {}
        for role in ("strong", "cheap"):
            client = llm._model(role).client
            models[id(client)] = (model_path(getattr(settings.models, role)), client.metadata, client.n_ctx())
    bound = estimate(list(models.values()), prompt_cache=settings.backend.prompt_cache)
    peak = peak_rss_bytes()
    print(f"after loading {loaded / MIB:.0f} MiB; peak {peak / MIB:.0f} MiB over {args.calls} calls; {bound.line()}")
    print(
        json.dumps(
            {
                "calls": args.calls,
                "loaded_bytes": loaded,
                "peak_bytes": peak,
                "expected_peak_bytes": bound.total,
                "within": peak <= bound.total,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
