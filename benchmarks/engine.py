"""The engine alone at scale: crawls of a generated application of 10,000, 30,000 and
100,000 states in the fake browser (no Chromium), so what is measured is the engine's own
cost: planning, the frontier, the graph, the store, checkpoints, and the report after.

    python benchmarks/engine.py [--states N ...] [--profile]

The application is :func:`statecrawl.testing.tree` of depth 5 and branching 10 (111,111
states at one URL, each with ten script actions), crawled breadth-first up to
``--max-states N``, the archive off. Each size runs in a process of its own, so that its
peak memory is its own. Printed per size: states, seconds and milliseconds per state, wall
and CPU (the CPU time of the process, which other work on the machine does not inflate), with
the ratio of each to the first size's; the peak resident memory of the process less what it
held once the application was built; the crawl store's size and the rows a checkpoint writes
(median and most); the checkpoints' time (median and most), the slowest export of the graph,
and the report's build time. ``--profile``: the crawl under cProfile, its 25 most costly
functions (own time).
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import json
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from statecrawl.config import Config
from statecrawl.engine import Explorer
from statecrawl.engine.output import Output
from statecrawl.report import build_report
from statecrawl.store import Changes, SqliteStore
from statecrawl.testing import FakeBrowser, tree

DEPTH, BRANCHING = 5, 10


def timed(owner: type, name: str, into: list[float]) -> None:
    """Time every call of ``owner.name`` into ``into`` (seconds)."""
    method: Callable[..., Any] = getattr(owner, name)

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            into.append(time.perf_counter() - began)

    setattr(owner, name, wrapper)


def counted(into: list[int]) -> None:
    """Count the rows of every checkpoint the crawl store writes into ``into``."""
    write = SqliteStore.write

    def wrapper(self: SqliteStore, changes: Changes) -> None:
        into.append(sum(map(len, [*changes.rows.values(), *changes.gone.values()])))
        write(self, changes)

    SqliteStore.write = wrapper  # type: ignore[method-assign]


def peak_mb() -> float:
    """This process's peak resident memory so far, in MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def one(states: int, profile: bool) -> dict[str, Any]:
    """Crawl ``states`` states of the tree app in this process; its figures."""
    app = tree(DEPTH, BRANCHING)
    built = peak_mb()
    checkpoints: list[float] = []
    exports: list[float] = []
    rows: list[int] = []
    timed(Output, "checkpoint", checkpoints)
    counted(rows)
    timed(Output, "write_graph", exports)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "crawl"
        config = Config.from_mapping({
            "start_urls": [app.url("/")], "out": out, "archive": {"enabled": False},
            "limits": {"max_states": states, "max_depth": DEPTH},
        })  # fmt: skip
        explorer = Explorer(config, browser_factory=lambda c, _network: FakeBrowser(app, c))
        profiler = cProfile.Profile() if profile else None
        began, cpu = time.perf_counter(), time.process_time()
        if profiler is not None:
            profiler.enable()
        result = explorer.run()
        if profiler is not None:
            profiler.disable()
        seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
        store = (out / "crawl.sqlite").stat().st_size
        began = time.perf_counter()
        build_report(out, Path(tmp) / "report")
        report = time.perf_counter() - began
    if profiler is not None:
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("tottime").print_stats(25)
    found = result.stats["states"]
    return {
        "states": found, "transitions": result.stats["transitions"],
        "seconds": seconds, "per_state_ms": 1000 * seconds / found,
        "cpu_per_state_ms": 1000 * cpu / found,
        "memory_mb": peak_mb() - built, "store_mb": store / 2**20,
        "rows_median": statistics.median(rows), "rows_max": max(rows),
        "checkpoint_median": statistics.median(checkpoints), "checkpoint_max": max(checkpoints),
        "export_max": max(exports), "report": report,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, nargs="+", default=[10_000, 30_000, 100_000])
    parser.add_argument("--profile", action="store_true", help="profile the crawls")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a size, in this process
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(one(args.one, args.profile)))
        return
    first: dict[str, Any] = {}
    for states in args.states:
        command = [sys.executable, __file__, "--one", str(states)]
        done = subprocess.run([*command, *(["--profile"] if args.profile else [])],
                              check=True, stdout=subprocess.PIPE, text=True)
        f = json.loads(done.stdout.splitlines()[-1])
        first = first or f
        wall, cpu = f["per_state_ms"], f["cpu_per_state_ms"]
        print(f"{f['states']:>7} states {f['transitions']:>7} transitions  {f['seconds']:7.1f} s  "
              f"{wall:.2f} ms/state (x{wall / first['per_state_ms']:.2f})  "
              f"cpu {cpu:.2f} ms/state (x{cpu / first['cpu_per_state_ms']:.2f})  "
              f"memory +{f['memory_mb']:.0f} MB  store {f['store_mb']:.1f} MB  "
              f"checkpoint rows median {f['rows_median']:.0f} max {f['rows_max']}  "
              f"checkpoint median {f['checkpoint_median']:.3f} s max {f['checkpoint_max']:.2f} s  "
              f"export max {f['export_max']:.2f} s  report {f['report']:.1f} s", flush=True)


if __name__ == "__main__":
    main()
