"""Hostile structure under a deadline: the 200,000-element page, the 1000-iframe page and the
busy page of ``tests/pages/hostile/``, each crawled with ``--max-time 60`` beside its clean
twin (the same page with ``?clean``).

    python benchmarks/hostile.py [--max-depth N] [--max-time S]

A line per page: the twin's states (by the ``#panel`` text that tells them apart), when the
crawl of the hostile page reached each of them (seconds after its start), how it stopped, and
the twin's own time. The target: every twin state reached before the time limit. The pages
are served by a server process of their own, as a site is (a thousand frame requests
answered by threads of the crawling process slow its every call).
"""

from __future__ import annotations

import argparse
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import statecrawl

PAGES = Path(__file__).resolve().parent.parent / "tests" / "pages" / "hostile"
CASES = {  # name -> (file, path served)
    "200000-nodes": ("huge_dom.html", "/huge-dom/"),
    "1000-iframes": ("iframes.html", "/iframes/"),
    "busy-loop": ("busy.html", "/busy/"),
}
PANEL = re.compile(r'id="panel">([^<]*)<')
FRAME = b'<!doctype html><title>Frame</title><p id="panel">Frame</p>'


def panels(result: statecrawl.Crawl) -> dict[str, float]:
    """The ``#panel`` text of each state, with the earliest time a state showed it."""
    found: dict[str, float] = {}
    for state in result.states():
        match = PANEL.search(result.html(state["id"]))
        if match:
            text = match.group(1)
            found[text] = min(found.get(text, state["found_at"]), state["found_at"])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-depth", type=int, default=3)
    parser.add_argument("--max-time", type=float, default=60.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        for name, path in CASES.values():
            folder = site / path.strip("/")
            folder.mkdir(parents=True)
            (folder / "index.html").write_bytes((PAGES / name).read_bytes())
            (folder / "frame").write_bytes(FRAME)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
             "--directory", str(site)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            time.sleep(1)  # (the server binds its port)
            crawl_all(f"http://127.0.0.1:{port}", Path(tmp), args)
        finally:
            server.terminate()
            server.wait()


def crawl_all(root: str, tmp: Path, args: argparse.Namespace) -> None:
    """Each page and its twin crawled; a line each."""
    limits = {"max_depth": args.max_depth, "max_time": args.max_time}
    for name, (_, path) in CASES.items():
        twin = statecrawl.crawl(
            f"{root}{path}?clean", out=tmp / f"{name}-twin", limits=limits,
            archive={"enabled": False},
        )
        hostile = statecrawl.crawl(
            f"{root}{path}", out=tmp / name, limits=limits, archive={"enabled": False}
        )
        wanted, got = panels(twin), panels(hostile)
        reached = ", ".join(
            f"{text} {got[text]:.1f} s" if text in got else f"{text} missed"
            for text in sorted(wanted)
        )
        print(
            f"{name:13} twin states {len(wanted)}: {reached}; "
            f"stopped: {hostile.stats['stop_reason']} at {hostile.stats['elapsed']:.1f} s, "
            f"{hostile.stats['failures']} failures; twin {twin.stats['elapsed']:.1f} s"
        )


if __name__ == "__main__":
    main()
