"""What JavaScript coverage costs: the tree app, the demo app and a kit-zoo app crawled with
coverage on and off (``browser.coverage``), taking turns run after run so that a change in
the machine's load falls on both alike; medians of the runs, and the functions covered. Then
what one document load costs in the kit app's browser with V8's precise coverage on and off
(CPU seconds of Chromium's processes, and wall time), the same browser taking turns.

    python benchmarks/coverage.py [--runs N] [--tree-depth N] [--demo-depth N]
                                  [--kit NAME] [--kit-time S] [--skip-demo] [--skip-kit]

The tree is crawled with the default settings, the demo app with ``statecrawl demo``'s (four
browsers, its queries), the kit app (``tests/pages/kits/``, MUI by default: a 550 kB
bundle) to depth 4 with its input values for ``--kit-time`` seconds, so its figure is the
rate, transitions per second. Everything is served on 127.0.0.1; the load average is printed
with the figures, since other work on the machine changes them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil
from crawl_speed import serve_tree
from zoo import serve

import statecrawl
from statecrawl import coverage
from statecrawl.browser import Browser
from statecrawl.cli import DEMO_DEFAULTS
from statecrawl.config import Config, merge
from statecrawl.demo_app import DemoApp
from statecrawl.demo_app.data import DEMO_QUERIES

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.pages.kits.walk import INPUTS  # noqa: E402

KITS = ROOT / "tests" / "pages" / "kits" / "dist"
LOADS = 8  # document loads a turn of the per-load measure


def crawl(url: str, options: dict[str, Any], on: bool, out: Path) -> dict[str, Any]:
    """One crawl with coverage ``on`` or off; its time, rate, states and functions covered."""
    options = merge(options, {"browser": {"coverage": on}})
    result = statecrawl.crawl(url, **{**options, "out": out, "overwrite": True})
    data = coverage.read(out)
    elapsed = float(result.stats["elapsed"])
    return {"elapsed": elapsed, "states": result.stats["states"],
            "rate": result.stats["transitions"] / elapsed,
            "covered": coverage.share(data["total"]) if data else "-"}


def measure(app: str, url: str, options: dict[str, Any], runs: int, out: Path) -> None:
    """Crawls of one app, on and off in turn; one line per crawl, then the medians: of the
    crawl time for a crawl that ends by itself, of the rate for one that ends at a time limit."""
    rows: dict[bool, list[dict[str, Any]]] = {True: [], False: []}
    for run in range(runs):
        for on in (False, True) if run % 2 == 0 else (True, False):
            row = crawl(url, options, on, out / f"{app}-{'on' if on else 'off'}-{run}")
            rows[on].append(row)
            print(f"  run {run + 1}: {app}, coverage {'on ' if on else 'off'} "
                  f"{row['states']:4} states {row['elapsed']:6.1f} s {row['rate']:5.2f} tr/s  "
                  f"{row['covered']}  (load {os.getloadavg()[0]:.1f})", flush=True)
    on = {k: statistics.median(r[k] for r in rows[True]) for k in ("elapsed", "rate")}
    off = {k: statistics.median(r[k] for r in rows[False]) for k in ("elapsed", "rate")}
    if "max_time" in options.get("limits", {}):
        print(f"{app}: coverage off {off['rate']:.2f} transitions/s, on {on['rate']:.2f} "
              f"(medians of {runs}): {(off['rate'] - on['rate']) / on['rate']:+.1%} crawl time "
              "for the same work", flush=True)
    else:
        print(f"{app}: coverage off {off['elapsed']:.1f} s, on {on['elapsed']:.1f} s (medians "
              f"of {runs}): {(on['elapsed'] - off['elapsed']) / off['elapsed']:+.1%} crawl time",
              flush=True)


def _cpu(browser: Browser) -> float:
    """CPU seconds used so far by ChromeDriver and every Chromium process under it."""
    root = psutil.Process(browser.web.service.process.pid)
    total = 0.0
    for process in (root, *root.children(recursive=True)):
        try:
            times = process.cpu_times()
        except psutil.Error:  # a renderer gone meanwhile
            continue
        total += times.user + times.system
    return total


def per_load(app: str, url: str, turns: int) -> None:
    """What a document load of ``url`` costs with precise coverage on and off, in one
    browser switching it on and off turn by turn: medians of CPU and wall milliseconds."""
    config = Config.from_mapping({"start_urls": [url], "browser": {"coverage": True}})
    browser = Browser(config).start()
    web = browser.web
    cpu: dict[bool, list[float]] = {True: [], False: []}
    wall: dict[bool, list[float]] = {True: [], False: []}
    try:
        web.execute_cdp_cmd("Profiler.stopPreciseCoverage", {})
        for turn in range(turns):
            for on in (False, True) if turn % 2 == 0 else (True, False):
                if on:
                    assert browser.coverage is not None
                    browser.coverage.start(web)
                browser.reset(url)
                used, started = _cpu(browser), time.perf_counter()
                for _ in range(LOADS):
                    browser.reset(url)
                    browser.take_coverage()
                cpu[on].append((_cpu(browser) - used) / LOADS * 1000)
                wall[on].append((time.perf_counter() - started) / LOADS * 1000)
                if on:
                    web.execute_cdp_cmd("Profiler.stopPreciseCoverage", {})
    finally:
        browser.close()
    c = {on: statistics.median(v) for on, v in cpu.items()}
    w = {on: statistics.median(v) for on, v in wall.items()}
    print(f"{app}: a document load takes {c[False]:.0f} ms CPU and {w[False]:.0f} ms wall with "
          f"coverage off, {c[True]:.0f} ms CPU ({(c[True] - c[False]) / c[False]:+.0%}) and "
          f"{w[True]:.0f} ms wall ({(w[True] - w[False]) / w[False]:+.0%}) on (medians of "
          f"{turns} turns of {LOADS}; load {os.getloadavg()[0]:.1f})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="crawls of each setting (3)")
    parser.add_argument("--tree-depth", type=int, default=4, help="the tree's depth (4)")
    parser.add_argument("--demo-depth", type=int, default=4, help="the demo's depth (4)")
    parser.add_argument("--kit", default="mui", help="the kit-zoo app (mui)")
    parser.add_argument("--kit-time", type=float, default=60, help="seconds a kit crawl (60)")
    parser.add_argument("--skip-tree", action="store_true", help="no crawl of the tree")
    parser.add_argument("--skip-demo", action="store_true", help="no crawl of the demo")
    parser.add_argument("--skip-kit", action="store_true", help="nothing of the kit app")
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp(prefix="statecrawl-coverage-cost-"))
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    if not args.skip_tree:
        tree = serve_tree()
        try:
            url = f"http://127.0.0.1:{tree.server_port}/"
            measure("tree", url, {"limits": {"max_depth": args.tree_depth}}, args.runs, out)
        finally:
            tree.shutdown()
    if not args.skip_kit:
        kits = serve(KITS)
        try:
            url = f"http://127.0.0.1:{kits.server_port}/{args.kit}/"
            options = {"limits": {"max_depth": 4, "max_time": args.kit_time},
                       "inputs": {"values": INPUTS.get(args.kit, {})}}
            measure(args.kit, url, options, args.runs, out)
            per_load(args.kit, url, 2 * args.runs)
        finally:
            kits.shutdown()
    if not args.skip_demo:
        options = merge(DEMO_DEFAULTS, {"inputs": {"values": {"q": list(DEMO_QUERIES)}},
                                        "limits": {"max_depth": args.demo_depth}})
        with DemoApp() as app:
            measure("demo", app.url, options, args.runs, out)
            per_load("demo", app.url, 2 * args.runs)
    print(f"crawl directories: {out}")


if __name__ == "__main__":
    main()
