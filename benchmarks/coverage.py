"""What JavaScript coverage costs: the tree app and the demo app crawled with coverage on and
off (``browser.coverage``), taking turns run after run so that a change in the machine's
load falls on both alike; medians of the runs, and the functions covered.

    python benchmarks/coverage.py [--runs N] [--tree-depth N] [--demo-depth N] [--skip-demo]

The tree is crawled with the default settings, the demo app with ``statecrawl demo``'s (four
browsers, its queries). Everything is served on 127.0.0.1; the load average is printed with
the figures, since other work on the machine changes them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from pathlib import Path
from typing import Any

from crawl_speed import serve_tree

import statecrawl
from statecrawl import coverage
from statecrawl.cli import DEMO_DEFAULTS
from statecrawl.config import merge
from statecrawl.demo_app import DemoApp
from statecrawl.demo_app.data import DEMO_QUERIES


def crawl(url: str, options: dict[str, Any], on: bool, out: Path) -> dict[str, Any]:
    """One crawl with coverage ``on`` or off; its time, states and functions covered."""
    options = merge(options, {"browser": {"coverage": on}})
    result = statecrawl.crawl(url, **{**options, "out": out, "overwrite": True})
    data = coverage.read(out)
    return {"elapsed": float(result.stats["elapsed"]), "states": result.stats["states"],
            "covered": coverage.share(data["total"]) if data else "-"}


def measure(app: str, url: str, options: dict[str, Any], runs: int, out: Path) -> None:
    """Crawls of one app, on and off in turn; one line per crawl, then the medians."""
    times: dict[bool, list[float]] = {True: [], False: []}
    for run in range(runs):
        for on in (False, True) if run % 2 == 0 else (True, False):
            row = crawl(url, options, on, out / f"{app}-{'on' if on else 'off'}-{run}")
            times[on].append(row["elapsed"])
            print(f"  run {run + 1}: {app}, coverage {'on ' if on else 'off'} "
                  f"{row['states']:4} states {row['elapsed']:6.1f} s  {row['covered']}  "
                  f"(load {os.getloadavg()[0]:.1f})", flush=True)
    on, off = statistics.median(times[True]), statistics.median(times[False])
    print(f"{app}: coverage off {off:.1f} s, on {on:.1f} s (medians of {runs}): "
          f"{(on - off) / off:+.1%} crawl time", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="crawls of each setting (3)")
    parser.add_argument("--tree-depth", type=int, default=4, help="the tree's depth (4)")
    parser.add_argument("--demo-depth", type=int, default=4, help="the demo's depth (4)")
    parser.add_argument("--skip-demo", action="store_true", help="crawl the tree only")
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp(prefix="statecrawl-coverage-cost-"))
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    tree = serve_tree()
    try:
        url = f"http://127.0.0.1:{tree.server_port}/"
        measure("tree", url, {"limits": {"max_depth": args.tree_depth}}, args.runs, out)
    finally:
        tree.shutdown()
    if not args.skip_demo:
        options = merge(DEMO_DEFAULTS, {"inputs": {"values": {"q": list(DEMO_QUERIES)}},
                                        "limits": {"max_depth": args.demo_depth}})
        with DemoApp() as app:
            measure("demo", app.url, options, args.runs, out)
    print(f"crawl directories: {out}")


if __name__ == "__main__":
    main()
