"""A crawl as one WACZ file (Web Archive Collection Zipped), for ReplayWeb.page and pywb.

The ``wacz`` package builds the file: ``archive/`` (the crawl's WARC files as they are), the
CDXJ index (``indexes/index.cdx.gz`` with its ``index.idx``, made with cdxj-indexer),
``datapackage.json`` (every file with its SHA-256) and ``datapackage-digest.json``.
statecrawl writes ``pages/pages.jsonl`` itself, one page per state: its page's URL, title and
the WARC record of its DOM snapshot (``record``, with ``ts`` the record's date, so a replay
opens the page as captured then; the snapshot itself is under a URN of its own), its id and
depth.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from ..config import argument, checked, folder
from ..directory.crawl import Crawl, load
from ..errors import ArchiveError, ConfigError, StatecrawlError
from ..replay.index import ArchiveIndex

PAGES_HEADER = {"format": "json-pages-1.0", "id": "pages", "title": "States"}


def pages(crawl: Crawl, index: ArchiveIndex) -> list[dict[str, Any]]:
    """A WACZ page for every state of ``crawl`` whose snapshot is archived."""
    found = []
    for state in crawl.states():
        names = [state["id"], *state.get("aliases", ())]
        snapshot = next((index.snapshots[n] for n in names if n in index.snapshots), None)
        if snapshot is None:
            continue
        found.append(
            {
                "id": state["id"],
                "url": snapshot.url,
                "ts": snapshot.date,
                "title": state.get("title") or "",
                "record": snapshot.record_id,
                "depth": state.get("depth"),
                "state": state["id"],
            }
        )
    return found


@checked
def export_wacz(directory: Path | str, out: Path | str) -> Path:
    """Write the crawl in ``directory`` as the WACZ file ``out``; return its path."""
    crawl = load(folder("directory", directory))
    target: Path = argument("out", out, Path)
    try:
        from wacz.main import main as wacz_main
    except ImportError as exc:  # wacz, or a package of its own it cannot find
        raise StatecrawlError(
            f"a WACZ export needs {exc.name or 'wacz'}, which is not installed: "
            "pip install 'statecrawl[export]' (statecrawl[serve] has it too)"
        ) from None

    index = ArchiveIndex(crawl.path)
    warcs = [p for p in index.files if p.name.endswith(".warc.gz")]
    if not warcs:
        raise ArchiveError(f"{crawl.path}: no finished WARC file to export")
    if target.suffix != ".wacz":
        raise ConfigError(f"--wacz: the file name must end in .wacz, got {target}")
    listed = pages(crawl, index)
    with tempfile.TemporaryDirectory(prefix="statecrawl-wacz-") as work:
        page_file = Path(work) / "pages.jsonl"
        lines = [PAGES_HEADER, *listed]
        page_file.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
        built = Path(work) / "crawl.wacz"
        args = ["create", "-o", str(built), "--pages", str(page_file), "--copy-pages"]
        args += ["--url", crawl.start_url, "--title", f"statecrawl crawl of {crawl.start_url}"]
        said = io.StringIO()
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            status = wacz_main([*args, *map(str, warcs)])
        if status != 0 or not built.is_file():
            why = " ".join(said.getvalue().split())[-300:]
            raise ArchiveError(f"wacz could not package {crawl.path}: {why}")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(built, target)
        except OSError as exc:
            raise ArchiveError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target
