"""`bench --server URL`: the same game hour against one model server, lock-step and multi-slot, side by side.

    python -m reverie bench --server http://127.0.0.1:8080/v1 [--slots 4] [--pinning] [--out-of-order]
                            [--start 08:00] [--minutes 60]

Runs the bench twice on the same server, one run after the other: ``parallel_slots = 1``
(lock-step: one call in flight) and ``parallel_slots = N``; with ``--pinning``, a third run
with N slots and ``slot_pinning = false``, to show what keeping each persona on its slot
does to the prompt-cache hit rate. With ``--out-of-order``, the two runs are both on N slots:
today's step-synchronous scheduler and residents running ahead of each other
(``[simulation] scheduler``). Prints one row per run (wall time, calls/s, prompt and
completion tokens/s, cache hit rate, fail-safes) and the ratio N-slot / lock-step.

Against llama.cpp's ``llama-server`` it also measures the machine's own rates (prefill
tokens/s of one long prompt, decode tokens/s of N replies generated together) and prints
the wall time they allow for the N-slot run's tokens: uncached prompt tokens ÷ prefill
rate + completion tokens ÷ batched decode rate.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from reverie.benchmarks.bench_figures import engine_line
from reverie.benchmarks.model_server import stats_line
from reverie.config import Scheduler, Settings
from reverie.errors import UserError

LOCKSTEP, OUT_OF_ORDER = Scheduler.LOCKSTEP, Scheduler.OUT_OF_ORDER
ROW = ("wall_s", "calls", "calls_per_s", "prompt_tok_per_s", "completion_tok_per_s", "cache_hit", "fallbacks")


@dataclass
class Run:
    label: str
    slots: int
    pinning: bool
    report: dict

    def figures(self) -> dict:
        total, wall = self.report["totals"], self.report["figures"]["wall_s"]
        return {
            "wall_s": wall,
            "calls": total["calls"],
            "calls_per_s": total["calls"] / wall if wall else 0.0,
            "prompt_tok_per_s": total["prompt_tokens"] / wall if wall else 0.0,
            "completion_tok_per_s": total["completion_tokens"] / wall if wall else 0.0,
            "cache_hit": self.report["figures"]["cache_hit"],
            "fallbacks": total["fallbacks"],
        }


def _cell(value) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.3f}" if value < 10 else f"{value:.1f}"
    return str(value)


def row(label: str, fig: dict) -> str:
    return f"{label:<28} " + " ".join(f"{key}={_cell(fig.get(key))}" for key in ROW)


def ratios(a: dict, b: dict) -> dict:
    out = {}
    for key in ROW:
        x, y = a.get(key), b.get(key)
        out[key] = (y / x) if isinstance(x, (int, float)) and isinstance(y, (int, float)) and x else None
    return out


def server_settings(settings: Settings, url: str, *, slots: int, pinning: bool) -> Settings:
    s = settings.model_copy(deep=True)
    s.backend.kind, s.backend.base_url = "openai", url
    s.backend.parallel_slots, s.backend.slot_pinning = slots, pinning
    return s


def forget_slots(url: str, slots: int) -> bool:
    """Empty llama-server's slots between runs, so a run does not start on the previous run's
    cache (needs ``--slot-save-path``; False when the server does not allow it)."""
    import httpx

    from reverie.llm.server_probe import root_of

    try:
        return all(
            httpx.post(f"{root_of(url)}/slots/{i}?action=erase", timeout=10).status_code == 200 for i in range(slots)
        )
    except httpx.HTTPError:
        return False


def at_once(work: Callable[[int], object], n: int) -> float:
    """``work(0)`` … ``work(n - 1)``, each on its own thread, all started together; the wall
    seconds until the last is done."""
    threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started


def machine_rates(url: str, model: str, slots: int, *, prompt_words: int = 300, reply_tokens: int = 48) -> dict:
    """llama-server's prefill tokens/s (one long uncached prompt) and decode tokens/s with
    ``slots`` replies generated together (its ``timings``)."""
    import httpx

    base = url.rstrip("/")
    text = " ".join(f"word{i % 97}" for i in range(prompt_words))
    body = {
        "model": model,
        "messages": [{"role": "user", "content": text}],
        "max_tokens": 1,
        "cache_prompt": False,
        "temperature": 0,
    }
    reply = httpx.post(f"{base}/chat/completions", json=body, timeout=300).json()
    prefill = float((reply.get("timings") or {}).get("prompt_per_second") or 0.0)

    done: list[int] = []

    def one(i: int) -> None:
        ask = {
            "model": model,
            "messages": [{"role": "user", "content": f"Count slowly from {i} to 500."}],
            "max_tokens": reply_tokens,
            "temperature": 0,
            "ignore_eos": True,
            "cache_prompt": False,
        }
        answer = httpx.post(f"{base}/chat/completions", json=ask, timeout=300).json()
        done.append(int((answer.get("usage") or {}).get("completion_tokens") or 0))

    wall = at_once(one, slots)
    return {"prefill_tok_per_s": prefill, "batched_decode_tok_per_s": sum(done) / wall if wall else 0.0}


def main(args, settings: Settings, run_bench) -> int:
    from reverie.llm.server_probe import identify
    from reverie.llm.servers import Server

    if args.slots < 2:
        raise UserError("--slots must be 2 or more (the lock-step run is the 1)")
    url = args.server.rstrip("/")
    if not url.endswith("/v1"):
        url += "/v1"
    fork = args.fork or settings.simulation.default_fork
    found = identify(url, settings.backend.server, timeout_s=10)
    print(found.line(), file=sys.stderr)
    plan = [
        ("lock-step (parallel_slots = 1)", 1, True, LOCKSTEP),
        (f"{args.slots} slots (parallel_slots = {args.slots})", args.slots, True, LOCKSTEP),
    ]
    if args.out_of_order:  # today's scheduler and the out-of-order one, both on N slots
        plan = [
            (f"{args.slots} slots, lockstep", args.slots, True, LOCKSTEP),
            (f"{args.slots} slots, out of order", args.slots, True, OUT_OF_ORDER),
        ]
    if args.pinning:
        plan.append((f"{args.slots} slots, no slot pinning", args.slots, False, LOCKSTEP))
    runs: list[Run] = []
    for label, slots, pinning, scheduler in plan:
        if found.server is Server.LLAMA_CPP and not forget_slots(url, found.slots or args.slots):
            print(
                "note: the server's slots were not emptied between runs (start llama-server with "
                "--slot-save-path DIR); a later run may start on an earlier run's cache",
                file=sys.stderr,
            )
        print(f"bench: {label}", file=sys.stderr)
        s = server_settings(settings, url, slots=slots, pinning=pinning)
        s.simulation.scheduler = scheduler
        report = run_bench(
            s,
            fork=fork,
            start=args.start,
            minutes=args.minutes,
            model=None,
            packed=args.packed,
            cache=not args.no_cache,
            grammar=not args.no_grammar,
            progress=True,
        )
        runs.append(Run(label, slots, pinning, report))
        print(row(label, runs[-1].figures()), flush=True)  # each row as soon as its run ends
        if report.get("bench_server"):
            print(f"  {stats_line(report['bench_server'])}", flush=True)
        print(f"  {engine_line(report)}", flush=True)
    figs = [run.figures() for run in runs]
    ratio = ratios(figs[0], figs[1])
    print(row(f"ratio {runs[1].label} / {runs[0].label}", ratio))
    served = [run.report.get("bench_server") for run in runs[:2]]
    if all(served):
        print(
            f"mean calls in flight: {served[0]['mean_in_flight']:.2f} -> {served[1]['mean_in_flight']:.2f} of "
            f"{served[1]['slots']} slots; wall {runs[0].figures()['wall_s']:.1f} s -> {runs[1].figures()['wall_s']:.1f} s"
        )
    if args.pinning:
        print(f"cache hit: pinned {_cell(figs[1]['cache_hit'])}, not pinned {_cell(figs[2]['cache_hit'])}")
    if found.server is Server.LLAMA_CPP:
        rates = machine_rates(url, settings.models.cheap.server_model, args.slots)
        total = runs[1].report["totals"]
        uncached = total["prompt_tokens"] - (total["cached_tokens"] or 0)
        limit = (uncached / rates["prefill_tok_per_s"] if rates["prefill_tok_per_s"] else 0.0) + (
            total["completion_tokens"] / rates["batched_decode_tok_per_s"] if rates["batched_decode_tok_per_s"] else 0.0
        )
        print(
            f"machine: prefill {rates['prefill_tok_per_s']:.0f} tok/s, {args.slots} replies together "
            f"{rates['batched_decode_tok_per_s']:.0f} tok/s; the {args.slots}-slot run's tokens "
            f"({uncached} uncached prompt, {total['completion_tokens']} completion) need {limit:.1f} s of model time, "
            f"the run took {figs[1]['wall_s']:.1f} s"
        )
    return 0
