"""Write a small crawl directory of the current statecrawl: a fixture that later versions read.

    .venv/bin/python tests/data/make_crawl.py tests/data/crawl-format2

crawls ``tests/pages/router.html`` (a pushState router that fetches its content from a JSON
API: 4 states at 4 URLs) on a loopback server, with its archive and without screenshots,
into the directory given. Run it once when the crawl directory's format changes (the
``format`` of ``graph.json`` or the store's schema), beside the fixtures of earlier formats,
which are never rewritten: ``tests/test_formats.py`` loads every one of them.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import statecrawl

PAGES = Path(__file__).parent.parent / "pages"


class Router(BaseHTTPRequestHandler):
    """``/router/*`` is the app's page, ``/router/api/<name>`` its JSON."""

    def do_GET(self) -> None:
        if self.path.startswith("/router/api/"):
            api = json.loads((PAGES / "router_api.json").read_text(encoding="utf-8"))
            name = self.path.removeprefix("/router/api/")
            body, kind = json.dumps(api.get(name, {})).encode(), "application/json"
        else:
            body, kind = (PAGES / "router.html").read_bytes(), "text/html; charset=utf-8"
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        pass


def make(out: Path) -> statecrawl.Crawl:
    """Crawl the router page into ``out`` (which must not exist) and compact its store."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Router)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/router/"
        result = statecrawl.crawl(url, out=out, max_depth=2, archive={"screenshots": "none"})
    finally:
        server.shutdown()
        server.server_close()
    with contextlib.closing(sqlite3.connect(out / "crawl.sqlite", isolation_level=None)) as db:
        db.execute("PRAGMA journal_mode=DELETE")  # one file, no WAL beside it
        db.execute("PRAGMA page_size=1024")  # a quarter of the size: its tables are tiny
        db.execute("VACUUM")
    shutil.rmtree(out / "report", ignore_errors=True)
    return result


if __name__ == "__main__":
    if len(sys.argv) != 2 or Path(sys.argv[1]).exists():
        sys.exit("usage: make_crawl.py NEW_DIRECTORY (which must not exist)")
    crawl = make(Path(sys.argv[1]))
    print(f"{len(crawl)} states, {crawl.graph.number_of_edges()} transitions in {crawl.path}")
