"""Benchmark: the report of a synthetic 10,000-state crawl.

Writes a crawl directory (``graph.json`` through ``StateGraph`` and one fake DOM per state),
builds its report, and prints the report's size, the build time, and the time until the
index page is interactive in headless Chromium (its graph drawn and its handlers wired,
measured from navigation start), plus the time to open a state, to answer a search, to
expand the largest group (every state of the synthetic crawl shares one URL pattern, so this
lays out and draws the whole graph), to show the tree view and the list view (sorted by depth,
then by time found), each until the next frame is painted; medians of a few runs, one run of
the script.

    .venv/bin/python benchmarks/report.py [--states 10000] [--runs 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.support.wait import WebDriverWait

import statecrawl
from statecrawl.browser import FLAGS, find_executables
from statecrawl.directory.crawl import CrawlDirectory
from statecrawl.report import build_report

BRANCHING = 6
WORDS = 3000
# The new views, each timed until the frame after it is painted.
PAINTED = ("const done = arguments[0], t = performance.now(); {};"
           "requestAnimationFrame(() => setTimeout(() => done(performance.now() - t), 0));")
VIEWS = {
    "expand the largest group": "const g = SC.groups(), c = g.map((x) => x.count);"
                                "SC.toggleGroup(c.indexOf(Math.max(...c)))",
    "tree view": "SC.view('tree')",
    "list view": "SC.view('list')",
    "list by time found": "const s = document.getElementById('list-sort'); s.value = 'found';"
                          "s.dispatchEvent(new Event('change'))",
}


def synthetic_crawl(path: Path, count: int, seed: int = 7) -> None:
    """A tree of ``count`` states, ``BRANCHING`` children each, with a Home link back to the
    start and a Next link to the following sibling from every state (about 3 edges a state)."""
    rng = random.Random(seed)
    vocabulary = [
        "".join(rng.choices("abcdefghijklmnoprstuvwy", k=rng.randint(3, 9))) for _ in range(WORDS)
    ]
    out = CrawlDirectory(path)
    graph = statecrawl.StateGraph()
    ids = [f"{n:016x}" for n in range(count)]
    depth = [0] * count
    for n, state in enumerate(ids):
        if n:
            depth[n] = depth[(n - 1) // BRANCHING] + 1
        words = rng.choices(vocabulary, k=150)
        title = f"Result {n}: {' '.join(words[:4])}"
        items = "".join(
            f"<li><button class='item'>{' '.join(words[i : i + 6])}</button></li>"
            for i in range(0, 120, 6)
        )
        html = (
            f"<!DOCTYPE html><html><head><title>{title}</title></head><body><h1>{title}</h1>"
            f"<nav><a href='/'>Home</a> <a href='/s/{n + 1}'>Next</a></nav><ul>{items}</ul>"
            f"<p>{' '.join(words[120:])}</p></body></html>"
        )
        graph.add_state(
            state,
            url=f"http://127.0.0.1:8000/s/{n}?q={words[0]}",
            title=title,
            depth=depth[n],
            snapshot=out.write_state(state, html),
            screenshot=None,
            found_at=n * 0.05,
            status=200,
        )
    for n in range(1, count):
        parent = (n - 1) // BRANCHING
        item = (n - 1) % BRANCHING + 1
        _edge(graph, ids[parent], ids[n], f"ul > li:nth-of-type({item}) > button", "click")
        _edge(graph, ids[n], ids[0], 'nav > a:nth-of-type(1) "Home"', "click")
        if n + 1 < count:
            _edge(graph, ids[n], ids[n + 1], 'nav > a:nth-of-type(2) "Next"', "click")
    graph.graph.graph.update(
        start_url="http://127.0.0.1:8000/s/0",
        stats={
            "states": count,
            "transitions": graph.graph.number_of_edges(),
            "max_depth": max(depth),
            "failures": 0,
        },
    )
    out.write_graph(graph)


def _edge(graph: statecrawl.StateGraph, source: str, target: str, name: str, event: str) -> None:
    key = f"{hash((source, name)) & (2**64 - 1):016x}"
    graph.add_transition(
        source,
        target,
        key,
        name=name,
        status="visible,enabled",
        event=event,
        action=f"handler:{event}:0badf00d",
        kind="script",
        settle_ms=20,
    )


def chromium() -> webdriver.Chrome:
    chrome, driver = find_executables(statecrawl.Config(start_urls=("http://127.0.0.1/",)))
    options = webdriver.ChromeOptions()
    options.binary_location = chrome
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument("--window-size=1400,900")
    return webdriver.Chrome(options=options, service=webdriver.ChromeService(driver))


def tree_size(path: Path) -> tuple[int, int]:
    files = [p for p in path.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files), len(files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="statecrawl-report-bench-") as tmp:
        crawl = Path(tmp) / "crawl"
        started = time.perf_counter()
        synthetic_crawl(crawl, args.states)
        print(
            f"synthetic crawl: {args.states} states, written in "
            f"{time.perf_counter() - started:.1f} s"
        )
        builds = []
        for _ in range(args.runs):
            started = time.perf_counter()
            index = build_report(crawl)
            builds.append(time.perf_counter() - started)
        size, files = tree_size(index.parent)
        index_size = (index.parent / "data" / "index.js").stat().st_size
        print(
            f"report: {size / 1e6:.1f} MB in {files} files "
            f"(index data {index_size / 1e6:.2f} MB); build {statistics.median(builds):.2f} s "
            f"(median of {args.runs})"
        )
        driver = chromium()
        try:
            ready, opened, searched = [], [], []
            views: dict[str, list[float]] = {name: [] for name in VIEWS}
            for run in range(args.runs):
                driver.get(index.as_uri() + f"?run={run}")
                ready.append(
                    WebDriverWait(driver, 30).until(
                        lambda d: d.execute_script("return window.SC && SC.readyAt")
                    )
                )
                opened.append(
                    driver.execute_async_script(
                        "const done = arguments[0], t = performance.now(); SC.open(4321);"
                        "const wait = () => document.getElementById('panel').hasAttribute("
                        "'aria-busy') ? setTimeout(wait, 2) : done(performance.now() - t);"
                        "setTimeout(wait, 0);"
                    )
                )
                searched.append(
                    driver.execute_async_script(
                        "const done = arguments[0], t = performance.now();"
                        "SC.search('result ab').then(() => done(performance.now() - t));"
                    )
                )
                for name, script in VIEWS.items():
                    views[name].append(driver.execute_async_script(PAINTED.format(script)))
            print(
                f"time to interactive: {statistics.median(ready):.0f} ms median "
                f"(runs: {', '.join(f'{r:.0f}' for r in ready)})"
            )
            print(
                f"open a state: {statistics.median(opened):.0f} ms median; "
                f"search: {statistics.median(searched):.0f} ms median"
            )
            print("; ".join(f"{name}: {statistics.median(times):.0f} ms median"
                            for name, times in views.items()))
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
