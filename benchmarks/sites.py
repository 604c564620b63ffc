"""Many sites: 20 copies of a small app served as 20 hosts on loopback, crawled at once with
politeness on, in one run.

    python benchmarks/sites.py [--sites N] [--browsers K] [--per-host P] [--delay-ms D]
                               [--latency-ms L]

Each copy is served on a loopback address of its own (127.0.0.10, 127.0.0.11, …: every
127.x.y.z reaches loopback on Linux), so each is a host to politeness. Its home page links
to three pages, each linking back and to a sibling, and every page has a "More" button that
shows a panel by script. Each answer takes ``--latency-ms`` (a real server's time) and is
counted while it is produced, so the servers see how many requests each host answers at
once. Printed: wall time, states per site, and the most requests answered at once on one
host (never more than ``--per-host``, the politeness bound) and on all hosts together.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from crawl_speed import serve  # the benchmarks' loopback server

import statecrawl
from statecrawl.scope import origin

PAGE = """<!doctype html><html><head><title>{site} {name}</title></head><body>
<h1>{site}: {name}</h1><nav>{links}</nav><button id="more">More</button><div id="panel"></div>
<script>
document.getElementById('more').addEventListener('click', () => {{
  document.getElementById('panel').textContent = 'More about {name}';
}});
</script></body></html>"""
LINKS = {"": ("a", "b", "c"), "a": ("", "b"), "b": ("", "c"), "c": ("", "a")}


class Gauge:
    """Requests being answered at once, and the most there ever were."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now = 0
        self.peak = 0

    def enter(self) -> None:
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)

    def leave(self) -> None:
        with self.lock:
            self.now -= 1


def serve_site(host: str, latency: float, everywhere: Gauge) -> tuple[str, Gauge]:
    """The small app on ``host``: its URL, and the gauge of its requests."""
    gauge = Gauge()

    def page(path: str) -> bytes | None:
        name = path.strip("/")
        if name not in LINKS:
            return None  # (the favicon: answered at once, not counted)
        gauge.enter()
        everywhere.enter()
        try:
            time.sleep(latency)
        finally:
            gauge.leave()
            everywhere.leave()
        links = " ".join(f'<a href="/{t}">{t or "home"}</a>' for t in LINKS[name])
        return PAGE.format(site=host, name=name or "home", links=links).encode()

    server = serve(page, host)
    return f"http://{host}:{server.server_port}/", gauge


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=20, help="hosts, one app each (20)")
    parser.add_argument("--browsers", type=int, default=3, help="parallel browsers (3)")
    parser.add_argument("--per-host", type=int, default=1, help="browsers per host (1)")
    parser.add_argument("--delay-ms", type=int, default=100,
                        help="least time between task starts on a host (100)")
    parser.add_argument("--latency-ms", type=int, default=50, help="each answer's time (50)")
    args = parser.parse_args()
    everywhere = Gauge()
    served = [
        serve_site(f"127.0.0.{10 + i}", args.latency_ms / 1000, everywhere)
        for i in range(args.sites)
    ]
    urls = [url for url, _ in served]
    out = Path(tempfile.mkdtemp(prefix="statecrawl-sites-"))
    started = time.monotonic()
    result = statecrawl.crawl(
        urls,
        out=out,
        limits={"max_depth": 3},
        browser={"count": args.browsers},
        politeness={"max_browsers_per_host": args.per_host, "min_delay_ms": args.delay_ms},
        archive={"enabled": False},
    )
    wall = time.monotonic() - started
    per_site = Counter(origin(state["url"]) for state in result.states())
    counts = [per_site[origin(url)] for url in urls]
    peaks = [gauge.peak for _, gauge in served]
    s = result.stats
    print(f"{args.sites} sites, {args.browsers} browsers, at most {args.per_host} per host, "
          f"{args.delay_ms} ms between task starts on a host, {args.latency_ms} ms per answer")
    print(f"wall time {wall:.1f} s; {s['states']} states, {s['transitions']} transitions, "
          f"{s['resets']} resets, {s['transitions'] / wall:.2f} transitions/s")
    print(f"states per site: min {min(counts)}, median {statistics.median(counts):g}, "
          f"max {max(counts)} ({' '.join(map(str, counts))})")
    verdict = "within the limit" if max(peaks) <= args.per_host else "OVER THE LIMIT"
    print(f"most requests answered at once: on one host {max(peaks)} ({verdict}; "
          f"per host {' '.join(map(str, peaks))}), on all hosts together {everywhere.peak}")
    print(f"crawl directory: {out}")


if __name__ == "__main__":
    main()
