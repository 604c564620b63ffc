"""Query harvesting on the demo app: no ``--input``, ``--harvest 60``; how many of the 300
patents the crawl reaches with their detail state, and with their detail state and their PDF
archived, with what queries, states, time and archive.

    python benchmarks/harvest.py [--queries N] [--depth N] [--browsers N] [--seed N]

The app is served on 127.0.0.1. The coverage curve (records known after each query) is printed
as the crawl summary prints it; the load average is printed with the figures, since other work
on the machine changes them.
"""

from __future__ import annotations

import argparse
import os
import re
import tempfile
from pathlib import Path
from typing import Any

import statecrawl
from statecrawl.demo_app import DemoApp
from statecrawl.demo_app.coverage import coverage
from statecrawl.demo_app.data import COUNT
from statecrawl.harvest import queries as harvest

PDF = re.compile(r"/files/([A-Za-z0-9]+)\.pdf$")  # a patent's PDF, as the demo serves it


def _query(query: dict[str, Any]) -> str:
    """A query as ``term`` and the select values it was issued with."""
    values = [f"{k}={v}" for k, v in query["values"].items() if v and v != query["term"]]
    return query["term"] + (f" ({' '.join(values)})" if values else "")


def archived_pdfs(result: statecrawl.Crawl) -> set[str]:
    """The patent numbers whose PDF is a document of the crawl with its bytes archived (not
    skipped over a cap nor failed)."""
    found = set()
    for _, node in result.graph.nodes(data=True):
        match = PDF.search(node.get("url", "")) if node.get("kind") == "document" else None
        if match and node.get("digest") and not node.get("skipped") and not node.get("failed"):
            found.add(match.group(1))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=60, help="the harvest budget (60)")
    parser.add_argument(
        "--depth", type=int, default=2, help="max depth: 2 reaches the details, 3 their tabs (2)"
    )
    parser.add_argument("--browsers", type=int, default=4, help="browsers (4)")
    parser.add_argument("--seed", type=int, default=0, help="the crawl's seed (0)")
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp(prefix="statecrawl-harvest-")) / "demo"
    print(f"load average {os.getloadavg()[0]:.1f} at the start", flush=True)
    with DemoApp() as app:
        result = statecrawl.crawl(
            app.url,
            out=out,
            seed=args.seed,
            limits={"max_depth": args.depth},
            inputs={"harvest": args.queries, "max_options": 3},
            browser={"count": args.browsers},
        )
    states = list(result.states())
    details = coverage(states, {s["id"]: result.html(s["id"]) for s in states}, ())["tabs"]
    with_pdf = set(details) & archived_pdfs(result)
    data = harvest.read(out)
    assert data is not None
    archive = sum(p.stat().st_size for p in (out / "archive").glob("*.warc.gz"))
    stats = result.stats
    print(f"queries {len(data['queries'])}: {', '.join(map(_query, data['queries']))}")
    print(f"records after each query: {' '.join(map(str, data['curve']))}")
    print(
        f"{len(data['queries'])} queries, {data['records']} records, {stats['states']} states, "
        f"{stats['elapsed']:.1f} s, archive {archive / 1e6:.1f} MB; "
        f"{len(details)} of {COUNT} patents with their detail state "
        f"({len(details) / COUNT:.0%}), {len(with_pdf)} with their detail state and PDF "
        f"({len(with_pdf) / COUNT:.0%}; target 90 %), {stats['documents']} documents, "
        f"stopped: {stats['stop_reason']}, "
        f"forms: {data['forms']} (load {os.getloadavg()[0]:.1f})"
    )
    print(f"crawl directory: {out}")


if __name__ == "__main__":
    main()
