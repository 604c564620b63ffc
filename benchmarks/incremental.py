"""Benchmark: incremental recrawls of the demo app (``statecrawl demo --since``).

Crawls revision 0 in full, revision 1 in full, revision 1 incrementally since revision 0,
and revision 0 again incrementally since itself, and writes each one's report; prints each
crawl's wall time and the bytes it added per kind of file (a hard link to a file of the
earlier crawl is free; ``report/`` is shown but left out of the total, as it can be built
again), and checks that ``statecrawl diff`` names the patents ``demo_app.data.changes`` says
changed, were added or were removed, among those the crawls reach.

    .venv/bin/python benchmarks/incremental.py [--max-depth 4] [--browsers 2]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from statecrawl.demo_app import data

BIN = Path(sys.executable).parent
PORT = 18765  # one port for every run: the demo's URLs stay the same, as a real site's do
PATENT = re.compile(r"\bUS\d{7,8}[A-Z]\d\b")


def demo(out: Path, revision: int, options: list[str], since: Path | None = None) -> float:
    """Run ``statecrawl demo`` into ``out``; its wall time in seconds."""
    command = [str(BIN / "statecrawl"), "demo", "--out", str(out), "--revision", str(revision),
               "--port", str(PORT), "-q", *options, *(["--since", str(since)] if since else [])]
    started = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - started


KINDS = ("WARC", "states", "store", "graph", "indexes", "report")
PARTS = {"archive": "WARC", "states": "states", "crawl.sqlite": "store", "graph.json": "graph",
         "graph.graphml": "graph", "report": "report"}  # the rest: indexes


def inodes(directory: Path) -> set[tuple[int, int]]:
    """The files of ``directory`` (and below), by device and inode."""
    return {(s.st_dev, s.st_ino) for p in directory.rglob("*") if (s := p.stat()) and p.is_file()}


def added(out: Path, earlier: Path | None = None) -> dict[str, int]:
    """The bytes the crawl in ``out`` added per kind of file: its files but those linked to
    a file of the crawl in ``earlier``."""
    free = inodes(earlier) if earlier is not None else set()
    sizes = dict.fromkeys(KINDS, 0)
    for path in out.rglob("*"):
        status = path.stat()
        if path.is_file() and (status.st_dev, status.st_ino) not in free:
            part = path.relative_to(out).parts[0]
            sizes[PARTS.get(part.split("-")[0], "indexes")] += status.st_size
    return sizes


def total(sizes: dict[str, int]) -> int:
    """The bytes added but the report's."""
    return sum(v for k, v in sizes.items() if k != "report")


def patents(entries: list[dict[str, object]]) -> set[str]:
    """The patent numbers in the titles of ``entries`` of a diff (a detail state is titled
    by its patent)."""
    return {number for entry in entries for number in PATENT.findall(str(entry["title"]))}


def causes(entries: list[dict[str, object]]) -> set[str]:
    """For each entry of a diff, the first patent on its action path (or in its title)."""
    found = set()
    for entry in entries:
        named = PATENT.findall(" ".join(map(str, entry["path"])))  # type: ignore[call-overload]
        found.update(named[:1] or PATENT.findall(str(entry["title"]))[:1])
    return found


def titled(directory: Path) -> set[str]:
    """The patents that a state of the crawl in ``directory`` is titled by."""
    graph = json.loads((directory / "graph.json").read_text())
    return {n for node in graph["nodes"] for n in PATENT.findall(str(node.get("title", "")))}


def reached(revision: int) -> set[str]:
    return {p["number"] for q in data.DEMO_QUERIES for p in data.search(q, revision=revision)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-depth", type=int, default=4)
    parser.add_argument("--browsers", type=int, default=2)
    args = parser.parse_args()
    options = ["--max-depth", str(args.max_depth), "--browsers", str(args.browsers)]
    work = Path(tempfile.mkdtemp(prefix="statecrawl-incremental-"))
    times = {
        "full r0": demo(work / "r0", 0, options),
        "full r1": demo(work / "r1", 1, options),
        "since r0, r1": demo(work / "r1-since", 1, options, work / "r0"),
        "since r0, r0": demo(work / "r0-since", 0, options, work / "r0"),
    }
    folders = {"full r0": "r0", "full r1": "r1", "since r0, r1": "r1-since",
               "since r0, r0": "r0-since"}
    for folder in folders.values():
        subprocess.run([str(BIN / "statecrawl"), "report", str(work / folder)], check=True,
                       stdout=subprocess.DEVNULL)
    sizes = {
        name: added(work / folder, work / "r0" if "since" in name else None)
        for name, folder in folders.items()
    }
    print(f"demo app, depth {args.max_depth}, {args.browsers} browsers ({work})")
    print(f"  {'MB added':14} {'time':>9}  " + "".join(f"{k:>9}" for k in KINDS) + "    total")
    for name in times:
        print(f"  {name:14} {times[name]:7.1f} s  "
              + "".join(f"{sizes[name][k] / 1e6:9.3f}" for k in KINDS)
              + f" {total(sizes[name]) / 1e6:8.3f}")
    for new, full in (("since r0, r1", "full r1"), ("since r0, r0", "full r0")):
        kinds = ", ".join(
            f"{k} {sizes[new][k] / sizes[full][k]:.1%}" for k in KINDS if sizes[full][k]
        )
        print(f"{new} / {full}: time {times[new] / times[full]:.0%}, "
              f"bytes {total(sizes[new]) / total(sizes[full]):.1%} ({kinds})")
    check_diff(work)


def check_diff(work: Path) -> None:
    """Print whether ``statecrawl diff`` of the revision-1 recrawl against revision 0 names
    the patents that ``demo_app.data.changes`` says changed, were added or removed."""
    diff = subprocess.run(
        [str(BIN / "statecrawl"), "diff", str(work / "r0"), str(work / "r1-since"), "--json"],
        check=True, capture_output=True, text=True,
    )
    changes = json.loads(diff.stdout)
    expected = data.changes(0, 1)
    cited = set(expected["cited"])
    detailed = titled(work / "r0")  # the patents the revision-0 crawl has a detail state of
    # A patent's detail changes when its abstract or its citations do. A state is new (or
    # deleted) because of the first patent on its way: an added (removed) one, or the one
    # whose citations changed; what lies under it (the patents it cites) follows.
    checks = {
        "changed": (patents(changes["changed"]), (set(expected["changed"]) | cited) & detailed,
                    None),
        "new": (causes(changes["new"]), set(expected["added"]) & reached(1),
                set(expected["added"]) | cited),
        "deleted": (causes(changes["deleted"]), set(expected["removed"]) & detailed,
                    set(expected["removed"]) | cited),
    }
    for what, (got, least, most) in checks.items():
        fine = least <= got <= most if most is not None else got == least
        verdict = "ok" if fine else f"expected {sorted(least)}" + (
            f" up to {sorted(most)}" if most is not None else "")
        print(f"  diff {what:8} patents: {sorted(got)} {verdict}")

if __name__ == "__main__":
    main()
