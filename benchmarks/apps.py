"""App zoo: time to every marker. Each app of ``tests/pages/apps/`` (a docs site, an API
explorer, a faceted patent search and a dashboard, built with npm packages) crawled to depth 4
with its input values until every marker is shown or the time is up.

    python benchmarks/apps.py [--max-time S] [--app NAME ...]

Prints, per app: the markers shown and the second each was first shown, states, transitions,
seconds and transitions a second.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.pages.apps.server import serve  # noqa: E402
from tests.pages.apps.walk import MARKERS, crawl_until_shown  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-time", type=float, default=600, help="seconds a crawl (600)")
    parser.add_argument("--app", action="append", choices=list(MARKERS), help="only this app")
    args = parser.parse_args()
    server, origin = serve()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for app in args.app or list(MARKERS):
                shown, crawl = crawl_until_shown(
                    f"{origin}/{app}/", app, Path(tmp) / app, max_time=args.max_time
                )
                s = crawl.stats
                rate = s["transitions"] / s["elapsed"] if s["elapsed"] else 0.0
                first = ", ".join(
                    f"{t:.0f}s {m!r}" for m, t in sorted(shown.first.items(), key=lambda i: i[1])
                )
                missed = ", ".join(repr(m) for m in MARKERS[app] if m not in shown.seen)
                print(
                    f"{app:10} {len(shown.seen)}/{len(MARKERS[app])} markers, {s['states']} "
                    f"states, {s['transitions']} transitions, {s['elapsed']:.1f}s, "
                    f"{rate:.2f} transitions/s; shown: {first or 'none'}"
                    f"{'; missed: ' + missed if missed else ''}",
                    flush=True,
                )
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
