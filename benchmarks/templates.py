"""The templates strategy against breadth-first on a server-rendered app of seven templates
(``tests/pages/templates/app.py``: a home page listing every item, items, owners, revision
lists, diffs, an about page and a calendar whose "next month" never ends): how many
templates each has shown after N transitions, and after how many it had shown them all.

    python benchmarks/templates.py [--items N] [--states N] [--strategy NAME ...]

The app is served on 127.0.0.1; each crawl stops at ``--states`` states.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import statecrawl
from tests.conftest import Site, serving
from tests.pages.templates.app import TEMPLATES, Reach, handler

AFTER = (10, 25, 50, 100, 200, 400)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=200)
    parser.add_argument("--states", type=int, default=400)
    parser.add_argument("--strategy", nargs="*", default=["breadth-first", "templates"])
    args = parser.parse_args()
    print(f"{args.items} items, {len(TEMPLATES)} templates, up to {args.states} states; "
          f"load {os.getloadavg()[0]:.1f}")
    print("strategy | " + " | ".join(f"after {n}" for n in AFTER) + " | all after | states")
    with serving("127.0.0.1") as server, tempfile.TemporaryDirectory() as tmp:
        site = Site(server)
        site.prefix("/", handler(args.items))
        for strategy in args.strategy:
            reach = Reach()
            result = statecrawl.crawl(site.url("/"), out=Path(tmp) / strategy, strategy=strategy,
                                      max_states=args.states, archive={"enabled": False},
                                      plugins=[reach])
            cells = [str(reach.reached(n)) for n in AFTER]
            every = reach.all_after()
            print(f"{strategy} | " + " | ".join(cells)
                  + f" | {every if every is not None else '-'} | {result.stats['states']}")


if __name__ == "__main__":
    main()
