"""Zoo crawl speed: the Errands app in each front-end stack it is built in, crawled as the zoo
tests crawl it (a value for its text field, depth 3, no archive), several runs a stack, with
JavaScript coverage on, by each strategy (breadth-first, the default, and coverage).

    python benchmarks/zoo.py [--runs N] [--stack NAME ...] [--strategy NAME ...]

The built apps (``tests/pages/zoo/dist/<stack>/``) are served on 127.0.0.1. Prints one line
per stack and strategy: states, transitions, the functions covered, the median wall time of
the runs and their spread.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
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


def functions(crawl_dir: Path) -> int | None:
    """The functions a crawl covered, from its coverage.json (None without one)."""
    path = crawl_dir / "coverage.json"
    return json.loads(path.read_text())["total"]["functions_covered"] if path.is_file() else None


def run(url: str, out: Path, strategy: str) -> tuple[int, int, int | None, float]:
    """One crawl with coverage on: its states, transitions, functions covered and wall time."""
    stats = statecrawl.crawl(
        url, out=out, strategy=strategy, browser={"coverage": True}, **OPTIONS
    ).stats
    return stats["states"], stats["transitions"], functions(out), stats["elapsed"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="crawls a stack (3)")
    parser.add_argument("--stack", action="append", choices=built_stacks(),
                        help="only this stack (repeatable; default: every built one)")
    parser.add_argument("--strategy", action="append",
                        help="strategies (repeatable; default: breadth-first and coverage)")
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp(prefix="statecrawl-zoo-bench-"))
    server = serve(DIST)
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    medians = {}
    try:
        for stack in args.stack or built_stacks():
            for strategy in args.strategy or ["breadth-first", "coverage"]:
                runs = [run(f"{origin}/{stack}/", out / f"{stack}-{strategy}-{i}", strategy)
                        for i in range(args.runs)]  # fmt: skip
                states = sorted({r[0] for r in runs})
                transitions = sorted({r[1] for r in runs})
                covered = sorted({r[2] or 0 for r in runs})
                seconds = [r[3] for r in runs]
                medians[stack, strategy] = statistics.median(seconds)
                varied = "" if len(states) == len(transitions) == 1 else "  (runs differ)"
                print(f"{stack:14} {strategy:13} states {'/'.join(map(str, states)):>5}  "
                      f"transitions {'/'.join(map(str, transitions)):>7}  "
                      f"functions {'/'.join(map(str, covered)):>7}  "
                      f"median {medians[stack, strategy]:6.2f} s  "
                      f"spread {min(seconds):6.2f}-{max(seconds):6.2f} s "
                      f"({max(seconds) - min(seconds):5.2f} s){varied}", flush=True)
    finally:
        server.shutdown()
    if medians:
        fastest = min(medians, key=medians.get)
        slowest = max(medians, key=medians.get)
        print(f"\nfastest {' '.join(fastest)} {medians[fastest]:.2f} s, slowest "
              f"{' '.join(slowest)} {medians[slowest]:.2f} s "
              f"({medians[slowest] / medians[fastest]:.2f}x)")
    print(f"crawl directories: {out}")


if __name__ == "__main__":
    main()
