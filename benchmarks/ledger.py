"""The time ledger of one crawl of each app: where the browsers' time goes, by phase.

    python benchmarks/ledger.py [--app demo|tree|pager|petstore ...] [--browsers N] [--max-time S]
                                [--browser-arg FLAG ...]
    python benchmarks/ledger.py --url URL [--max-depth D] [--max-time S]

The apps (served on 127.0.0.1): the demo (one query, depth 4), the tree of
``crawl_speed.py`` (depth 4), the pager app of ``tests/pages/pager/`` (its two queries,
depth 4) and the app zoo's pet store (Swagger UI over 34 operations, the default depth, 300 s
at most), crawled with the defaults (the archive on); ``--max-time`` bounds each crawl.
``--url``: instead, any application already running there. ``--browser-arg``: a Chromium
flag more (``browser.extra_args``), to see what it changes. Printed per crawl: states,
transitions, wall time, the browser threads' time as a share of wall time x browsers, and
per phase (see statecrawl.ledger) its share of the browser threads' time and its median per
task that spent any; then the share no phase holds.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from crawl_speed import serve_tree

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import statecrawl  # noqa: E402
from statecrawl.demo_app import DemoApp  # noqa: E402
from statecrawl.demo_app.data import DEMO_QUERIES  # noqa: E402
from statecrawl.ledger import PHASES  # noqa: E402
from tests.conftest import Site, serving  # noqa: E402
from tests.pages.apps.server import serve as serve_apps  # noqa: E402
from tests.test_pager_app import DEPTH, QUERIES  # noqa: E402
from tests.test_pager_app import serve as serve_pager  # noqa: E402


@contextmanager
def demo() -> Iterator[tuple[str, dict[str, Any]]]:
    with DemoApp() as app:
        yield app.url, {"max_depth": 4,
                        "inputs": {"values": {"q": [DEMO_QUERIES[0]]}, "max_options": 1}}


@contextmanager
def tree() -> Iterator[tuple[str, dict[str, Any]]]:
    server = serve_tree()
    try:
        yield f"http://127.0.0.1:{server.server_port}/", {"max_depth": 4}
    finally:
        server.shutdown()


@contextmanager
def pager() -> Iterator[tuple[str, dict[str, Any]]]:
    with serving("127.0.0.1") as server:
        site = Site(server)
        serve_pager(site)
        yield site.url("/pager/"), {"max_depth": DEPTH,
                                    "inputs": {"values": {"Search patents": list(QUERIES)}}}


@contextmanager
def petstore() -> Iterator[tuple[str, dict[str, Any]]]:
    server, origin = serve_apps()
    try:
        yield f"{origin}/petstore/", {"max_time": 300.0}
    finally:
        server.shutdown()


APPS: dict[str, Callable[[], Any]] = {
    "demo": demo, "tree": tree, "pager": pager, "petstore": petstore,
}  # fmt: skip


def report(name: str, result: statecrawl.Crawl) -> None:
    """Print the ledger of ``result``'s crawl."""
    s = result.stats
    book = s["ledger"]
    print(f"{name}: {s['states']} states, {s['transitions']} transitions, {s['resets']} resets, "
          f"{book['tasks']} tasks, wall {book['wall']:.1f} s; browser threads {book['seconds']:.1f}"
          f" s = {book['of_wall']:.0%} of wall x {book['threads']}", flush=True)
    print(f"  {'phase':<12} {'share':>7} {'median ms':>10}")
    for phase in PHASES:
        figures = book["phases"][phase]
        if figures["seconds"]:
            print(f"  {phase:<12} {figures['share']:>7.1%} {figures['median_ms']:>10.1f}")
    print(f"  {'unaccounted':<12} {book['unaccounted']:>7.1%}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", action="append", choices=list(APPS), help="only this app")
    parser.add_argument("--browsers", type=int, default=1)
    parser.add_argument("--url", help="ledger the application running at this URL instead")
    parser.add_argument("--max-depth", type=int, default=4, help="with --url (4)")
    parser.add_argument("--max-time", type=float, help="seconds at most for each crawl")
    parser.add_argument("--browser-arg", action="append", default=[], metavar="FLAG",
                        help="a Chromium flag more, e.g. --browser-arg=--disable-frame-rate-limit")
    args = parser.parse_args()
    browser = {"count": args.browsers, "extra_args": tuple(args.browser_arg)}
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # the pager's server: no request log
    with tempfile.TemporaryDirectory() as tmp:
        if args.url:
            result = statecrawl.crawl(args.url, out=Path(tmp) / "url", max_depth=args.max_depth,
                                      max_time=args.max_time, browser=browser)
            report(args.url, result)
            return
        for name in args.app or list(APPS):
            with APPS[name]() as (url, options):
                if args.max_time:
                    options = {**options, "max_time": args.max_time}
                result = statecrawl.crawl(url, out=Path(tmp) / name, browser=browser, **options)
            report(name, result)


if __name__ == "__main__":
    main()
