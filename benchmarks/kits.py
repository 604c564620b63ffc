"""Kit zoo: time to every marker. Each app of ``tests/pages/kits/`` (a settings page on
Bootstrap, MUI, PrimeVue, Headless UI and Shoelace, and a TodoMVC-style list) crawled to depth 4
with its input values until every marker is shown, with each frontier strategy.

    python benchmarks/kits.py [--max-time S] [--app NAME ...] [--strategy NAME ...]

Prints, per app, the hand-written walk's JavaScript coverage (the reference), then per
strategy: the seconds at which each marker was first shown, the markers shown, states,
transitions, seconds and the crawl's function coverage against the walk's.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.zoo import functions, serve  # noqa: E402
from tests.conftest import chrome_driver  # noqa: E402
from tests.pages.kits.walk import MARKERS, covered_walk, crawl_until_shown  # noqa: E402

DIST = ROOT / "tests" / "pages" / "kits" / "dist"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-time", type=float, default=120, help="seconds a crawl (120)")
    parser.add_argument("--app", action="append", choices=sorted(MARKERS), help="only this app")
    parser.add_argument("--strategy", action="append", help="strategies (breadth-first, novelty)")
    args = parser.parse_args()
    server = serve(DIST)
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    with tempfile.TemporaryDirectory() as tmp:
        driver = chrome_driver(Path(tmp) / "walk")
        driver.set_window_size(1280, 900)
        try:
            for app in args.app or sorted(MARKERS):
                url = f"{origin}/{app}/"
                _, walk = covered_walk(driver, url, app)
                print(f"{app}: walk covers {walk['functions_covered']} of "
                      f"{walk['functions_total']} functions", flush=True)
                for n, strategy in enumerate(args.strategy or ["breadth-first", "novelty"]):
                    out = Path(tmp) / f"{app}-{n}"
                    shown, crawl = crawl_until_shown(
                        url, app, out, max_time=args.max_time, strategy=strategy, coverage=True
                    )
                    s = crawl.stats
                    covered = functions(out)
                    ratio = f"{covered / walk['functions_covered']:.0%}" if covered else "n/a"
                    curve = ", ".join(f"{t:.0f}s {m!r}" for m, t in
                                      sorted(shown.first.items(), key=lambda i: i[1]))
                    print(f"  {strategy:13} {len(shown.seen)}/{len(MARKERS[app])} markers, "
                          f"{s['states']} states, {s['transitions']} transitions, "
                          f"{s['elapsed']:.1f}s, coverage {ratio} of the walk's; {curve}",
                          flush=True)
        finally:
            driver.quit()
            server.shutdown()


if __name__ == "__main__":
    main()
