"""What a crawl directory holds, per file and per state: the demo app (``statecrawl demo``'s
settings, report included) or a documentation site (Debian's ``python3-doc`` HTML, served on
127.0.0.1, crawled for ``--max-time`` seconds), or a crawl directory already written.

    python benchmarks/size.py demo [--keep DIR]
    python benchmarks/size.py docs [--docs /usr/share/doc/python3-doc/html] [--max-time 120]
    python benchmarks/size.py DIR

Prints one line per part: the store's tables (SQLite's ``dbstat``: pages, indexes included),
the WARC records by kind (screenshots, thumbnails, snapshots, frames, exchanges), the files
of ``states/``, the graph files and the report's parts, each in bytes and bytes per state.
``bytes`` counts every file as a copy of the directory holds it (a hard link as often as it is
named: ``du --apparent-size --count-links``); ``disk`` counts each file once.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import sqlite3
import tempfile
import threading
from collections import Counter
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator

import statecrawl
from statecrawl.cli import DEMO_DEFAULTS
from statecrawl.config import merge
from statecrawl.demo_app import DemoApp
from statecrawl.demo_app.data import DEMO_QUERIES
from statecrawl.directory.figures import counts
from statecrawl.directory.layout import ARCHIVE, STATES, STORE, THUMBNAIL
from statecrawl.report import build_report

DOCS = Path("/usr/share/doc/python3-doc/html")


def crawl_demo(out: Path) -> None:
    """``statecrawl demo``'s crawl and report, into ``out``."""
    with DemoApp() as app:
        options = merge(DEMO_DEFAULTS, {"inputs": {"values": {"q": list(DEMO_QUERIES)}}})
        statecrawl.crawl(app.url, **{**options, "out": out})
    build_report(out)


def crawl_docs(out: Path, docs: Path, max_time: float) -> None:
    """The HTML docs in ``docs`` served on 127.0.0.1, crawled for ``max_time`` seconds, and
    the report."""
    handler = functools.partial(_Quiet, directory=str(docs))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
        statecrawl.crawl(url, out=out, limits={"max_time": max_time})
    finally:
        server.shutdown()
    build_report(out)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def store_tables(path: Path) -> Counter[str]:
    """Bytes of each table of the store, its indexes with it (SQLite's pages)."""
    sizes: Counter[str] = Counter()
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT name, tbl_name FROM sqlite_master").fetchall()
        table = dict(rows)
        for name, size in db.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"):
            sizes[f"crawl.sqlite {table.get(name, name)}"] += size
    return sizes


def warc_records(path: Path) -> Counter[str]:
    """Bytes of the WARC records by kind, as stored (compressed)."""
    sizes: Counter[str] = Counter()
    for file in sorted(path.glob("*.warc.gz")):
        with file.open("rb") as stream:
            records = ArchiveIterator(stream)
            for record in records:
                uri = record.rec_headers.get_header("WARC-Target-URI") or ""
                kind = uri.rsplit(":", 1)[-1] if uri.startswith("urn:statecrawl:") else ""
                if record.rec_type == "resource" and kind not in ("screenshot", "thumbnail"):
                    kind = "snapshot"
                name = kind if uri.startswith("urn:statecrawl:") else record.rec_type
                records.read_to_end(record)
                sizes[f"archive {name}"] += records.get_record_length() or 0
    return sizes


def part(root: Path, file: Path) -> str:
    """The part of the crawl directory a file belongs to, for the table."""
    relative = file.relative_to(root)
    top = relative.parts[0]
    if top == STATES:
        name = file.name
        return f"states/ {'thumbnails' if name.endswith(THUMBNAIL) else name.rsplit('.', 1)[-1]}"
    if top == "report" and len(relative.parts) > 2:
        return f"report/{relative.parts[1]}/" + (
            f"{relative.parts[2]}/" if relative.parts[1] == "data" and len(relative.parts) > 3
            else "")
    return "report/ (viewer)" if top == "report" else top


def measure(root: Path) -> None:
    """Print the table of the crawl directory ``root``."""
    states = counts(statecrawl.load(root)).states
    files: Counter[str] = Counter()
    seen: set[int] = set()
    total = disk = 0
    for file in sorted(root.rglob("*")):
        if not file.is_file():
            continue
        size = file.stat().st_size
        files[part(root, file)] += size
        total += size
        if file.stat().st_ino not in seen:
            seen.add(file.stat().st_ino)
            disk += size
    inside = store_tables(root / STORE) + warc_records(root / ARCHIVE)
    print(f"{root}: {states} states")
    print(f"{'part':<34} {'bytes':>12} {'per state':>10}")
    for name, size in sorted(files.items()):
        print(f"{name:<34} {size:>12,} {size / states:>10,.0f}")
        for inner, inner_size in sorted(inside.items(), key=lambda item: -item[1]):
            if inner.split(" ")[0] in (name, name.rstrip("/")) and inner_size:
                print(f"  {inner:<32} {inner_size:>12,} {inner_size / states:>10,.0f}")
    print(f"{'bytes (every name)':<34} {total:>12,} {total / states:>10,.0f}")
    print(f"{'disk (each file once)':<34} {disk:>12,} {disk / states:>10,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", help="demo, docs, or a crawl directory to measure")
    parser.add_argument("--keep", type=Path, help="write the crawl here (default: a temporary "
                        "directory, removed)")
    parser.add_argument("--docs", type=Path, default=DOCS, help="the HTML docs to serve")
    parser.add_argument("--max-time", type=float, default=120, help="seconds of the docs crawl")
    args = parser.parse_args()
    if args.what not in ("demo", "docs"):
        measure(Path(args.what))
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep or Path(tmp) / args.what
        if args.what == "demo":
            crawl_demo(out)
        else:
            crawl_docs(out, args.docs, args.max_time)
        measure(out)


if __name__ == "__main__":
    main()
