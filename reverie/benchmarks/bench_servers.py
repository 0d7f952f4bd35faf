"""One server of N slots against two of N/2 (``[[backend.servers]]``), on the bench server.

    python -m reverie.benchmarks.bench_servers [--slots 16] [--minutes 10] [--fork base_willow_creek_n25]

Runs the same packed bench twice, one run after the other: on one bench server of ``--slots``
slots, then on two of half as many each, the run spread over both by LiteLLM's Router with
our strategy (:mod:`reverie.llm.server_router`). Prints the mean calls in flight of each (over the run's wall
time, the two servers' added up), the calls each server answered and the wall time. The same
mean within noise says that the router keeps both servers as busy as one of their size.
"""

from __future__ import annotations

import argparse
import sys

from reverie.benchmarks.bench import run_bench
from reverie.benchmarks.model_server import BenchServer, Delays, reset_stats, server_stats
from reverie.config import BackendKind, Scheduler, ServerSettings, Settings, load_settings


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m reverie.benchmarks.bench_servers",
        description="one bench server of N slots against two of N/2 (the router)",
    )
    parser.add_argument(
        "--slots", type=int, default=16, help="the one server's slots; each of the two gets half (default 16)"
    )
    parser.add_argument("--minutes", type=int, default=10, help="game minutes of each run (default 10)")
    parser.add_argument(
        "--fork", default="base_willow_creek_n25", help="the base to run (default base_willow_creek_n25)"
    )
    parser.add_argument("--start", default="07:00", help="the game time the run starts at (default 07:00)")
    parser.add_argument("--config", default=None, help="the config file (default: the project's)")
    return parser


def _one_run(
    settings: Settings, urls: list[str], slots: int, args: argparse.Namespace
) -> tuple[float, list[dict], float]:
    s = settings.model_copy(deep=True)
    s.backend.kind = BackendKind.OPENAI
    s.backend.servers = [ServerSettings(base_url=url, server="llama.cpp", parallel_slots=slots) for url in urls]
    s.simulation.scheduler = Scheduler.OUT_OF_ORDER
    for url in urls:
        reset_stats(url)
    report = run_bench(s, fork=args.fork, start=args.start, minutes=args.minutes, packed=True)
    wall = float(report["figures"]["wall_s"])
    stats = [server_stats(url) or {} for url in urls]
    # Calls in flight integrated over time on each server, added up, over the timed run's wall time.
    in_flight = sum(st.get("mean_in_flight", 0.0) * st.get("wall_s", 0.0) for st in stats) / max(wall, 1e-9)
    return in_flight, stats, wall


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    settings = load_settings(args.config) if args.config else load_settings()
    half = max(1, args.slots // 2)
    fast = {"base_s": 0.030, "prefill_tok_per_s": 5000.0, "decode_tok_per_s": 80.0}
    rows = []
    with BenchServer(Delays(slots=args.slots, **fast)) as one:
        rows.append((f"one server of {args.slots}", *_one_run(settings, [one.url], args.slots, args)))
    with BenchServer(Delays(slots=half, **fast)) as a, BenchServer(Delays(slots=half, **fast)) as b:
        rows.append((f"two servers of {half}", *_one_run(settings, [a.url, b.url], half, args)))
    for label, in_flight, stats, wall in rows:
        calls = "+".join(str(st.get("calls", 0)) for st in stats)
        print(f"{label:<22} mean calls in flight {in_flight:5.2f}  calls {calls}  wall {wall:.1f} s", flush=True)
    print(f"ratio two/one: {rows[1][1] / rows[0][1]:.2f}" if rows[0][1] else "no calls in flight", file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
