"""Zoo crawl speed: the Errands app in each front-end stack it is built in, crawled as the zoo
tests crawl it (a value for its text field, depth 3, no archive), several runs a stack.

    python benchmarks/zoo.py [--runs N] [--stack NAME ...]

The built apps (``tests/pages/zoo/dist/<stack>/``) are served on 127.0.0.1. Prints one line
per stack: states, transitions, the median wall time of the runs and their spread.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import statistics
import tempfile
import threading
from pathlib import Path

import statecrawl

DIST = Path(__file__).resolve().parent.parent / "tests" / "pages" / "zoo" / "dist"
OPTIONS = {  # as tests/test_zoo.py: --input "New errand=buy milk" --max-depth 3 --no-archive
    "limits": {"max_depth": 3},
    "inputs": {"values": {"New errand": ["buy milk"]}},
    "archive": {"enabled": False},
}


class Quiet(http.server.SimpleHTTPRequestHandler):
    """Static files, without a log line per request."""

    def log_message(self, *args: object) -> None:
        pass


def serve(root: Path) -> http.server.ThreadingHTTPServer:
    """``root``'s files on a free loopback port."""
    handler = functools.partial(Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def built_stacks() -> list[str]:
    """The stacks with a build in ``DIST``."""
    return sorted(p.parent.name for p in DIST.glob("*/index.html"))


def run(url: str, out: Path) -> tuple[int, int, float]:
    """One crawl: its states, transitions and wall time."""
    stats = statecrawl.crawl(url, out=out, **OPTIONS).stats
    return stats["states"], stats["transitions"], stats["elapsed"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="crawls a stack (3)")
    parser.add_argument("--stack", action="append", choices=built_stacks(),
                        help="only this stack (repeatable; default: every built one)")
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp(prefix="statecrawl-zoo-bench-"))
    server = serve(DIST)
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    medians = {}
    try:
        for stack in args.stack or built_stacks():
            runs = [run(f"{origin}/{stack}/", out / f"{stack}-{i}") for i in range(args.runs)]
            states = sorted({r[0] for r in runs})
            transitions = sorted({r[1] for r in runs})
            seconds = [r[2] for r in runs]
            medians[stack] = statistics.median(seconds)
            varied = "" if len(states) == len(transitions) == 1 else "  (runs differ)"
            print(f"{stack:14} states {'/'.join(map(str, states)):>5}  "
                  f"transitions {'/'.join(map(str, transitions)):>7}  "
                  f"median {medians[stack]:6.2f} s  "
                  f"spread {min(seconds):6.2f}-{max(seconds):6.2f} s "
                  f"({max(seconds) - min(seconds):5.2f} s){varied}", flush=True)
    finally:
        server.shutdown()
    if medians:
        fastest = min(medians, key=medians.get)
        slowest = max(medians, key=medians.get)
        print(f"\nfastest {fastest} {medians[fastest]:.2f} s, slowest {slowest} "
              f"{medians[slowest]:.2f} s ({medians[slowest] / medians[fastest]:.2f}x)")
    print(f"crawl directories: {out}")


if __name__ == "__main__":
    main()
