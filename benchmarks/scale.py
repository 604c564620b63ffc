"""Scale: crawl a generated application of many states and print the crawler's peak memory
and its pace early and late in the crawl.

    python benchmarks/scale.py [--states N] [--branching B] [--browsers K]

The application (served on 127.0.0.1) is a tree of pages: each page links to ``B`` children
and has a "More" button that reveals a panel by script, so the crawl meets both link and
script states. The crawl stops at ``--max-states N``. Printed: states, wall time, the peak
resident memory of this Python process (the crawler; Chromium is separate), its resident
memory at the end, and the median seconds per state over the first and the last 1,000
states (or tenth of the crawl, if smaller) with their ratio.
"""

from __future__ import annotations

import argparse
import http.server
import itertools
import resource
import statistics
import tempfile
import time
from pathlib import Path

from crawl_speed import serve  # the benchmarks' loopback server

import statecrawl

PAGE = """<!doctype html><html><head><title>{title}</title></head><body>
<h1>{title}</h1><p>Page {path} of a generated tree, with some text to make the DOM
realistic: {filler}</p><ul>{links}</ul><button id="more">More</button><div id="panel"></div>
<script>
document.getElementById('more').addEventListener('click', () => {{
  document.getElementById('panel').textContent = 'Details of {path}';
}});
</script></body></html>"""


def serve_tree(branching: int) -> http.server.ThreadingHTTPServer:
    """The generated tree on a free loopback port: /p/ is the root, /p/1.3/ a grandchild."""

    def page(url: str) -> bytes | None:
        if not url.startswith("/p/"):
            return None
        path = url.removeprefix("/p/").strip("/")
        links = "".join(
            f'<li><a href="/p/{path + "." if path else ""}{i}/">child {i}</a></li>'
            for i in range(branching)
        )
        return PAGE.format(
            title=f"node {path or 'root'}", path=path or "root", links=links,
            filler=" ".join(["lorem ipsum"] * 40),
        ).encode()

    return serve(page)


def resident_mb() -> float:
    """This process's resident memory now, in MB (Linux /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=10_000)
    parser.add_argument("--branching", type=int, default=10)
    parser.add_argument("--browsers", type=int, default=2)
    args = parser.parse_args()
    server = serve_tree(args.branching)
    url = f"http://127.0.0.1:{server.server_port}/p/"
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as out:
        result = statecrawl.crawl(
            url,
            out=Path(out) / "crawl",
            max_states=args.states,
            max_depth=10,
            browser={"count": args.browsers},
            archive={"enabled": False},
        )
        found = sorted(s["found_at"] for s in result.states())
    wall = time.monotonic() - started
    window = max(1, min(1000, len(found) // 10))
    gaps = [b - a for a, b in itertools.pairwise(found)]
    first, last = statistics.median(gaps[:window]), statistics.median(gaps[-window:])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"states {len(found)}  wall {wall:.0f} s  peak RSS {peak:.0f} MB  "
          f"RSS at end {resident_mb():.0f} MB")
    print(f"median s/state: first {window} {first:.3f}  last {window} {last:.3f}  "
          f"ratio {last / first:.2f}")


if __name__ == "__main__":
    main()
