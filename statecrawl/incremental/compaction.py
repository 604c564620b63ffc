"""``statecrawl compact NEW --out FULL``: a chain of recrawls folded into one crawl.

FULL holds what reading NEW through its chain gives (see :mod:`statecrawl.directory.chain`):
the whole graph (and its GraphML), every state's files, a whole store and resource index, and the
WARC files of the chain, linked where the file system allows. Revisit records are kept, as
the records they refer to come along, or resolved into whole responses
(``resolve_revisits``). Nothing in FULL refers to the chain.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from io import BytesIO
from pathlib import Path
from typing import Any

from warcio.archiveiterator import ArchiveIterator
from warcio.warcwriter import WARCWriter

from ..config import checked, folder
from ..directory import chain
from ..directory.crawl import is_crawl, load, snapshot_path
from ..directory.graph import StateGraph
from ..directory.layout import (
    ARCHIVE,
    BASELINE,
    GRAPH_JSON,
    GRAPHML,
    LOCK,
    REFERRERS,
    RESERVE,
    RESOURCES,
    SESSION,
    STATES,
    STORE,
    atomic_write,
    link_or_copy,
    thumbnail_paths,
)
from ..errors import ArchiveError
from ..store import SqliteStore

# What the crawl's own files are made of again, rather than linked as they are.
REMADE = {BASELINE, GRAPH_JSON, GRAPHML, LOCK, RESERVE, RESOURCES, SESSION, STATES, ARCHIVE,
          STORE, f"{STORE}-wal", f"{STORE}-shm", REFERRERS, "report"}


@checked
def compact(directory: str | Path, out: str | Path, *, resolve_revisits: bool = False) -> Path:
    """Fold the crawl in ``directory`` and its chain of baselines into a self-contained crawl
    in ``out`` (which must not exist, or be empty); return ``out``."""
    source = folder("directory", directory)
    target = folder("out", out)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ArchiveError(f"{target} exists and is not empty: choose another --out")
    if not is_crawl(source):
        raise ArchiveError(f"{source} holds no crawl")
    chain.crawls(source)  # every baseline there and as it was
    building = target.with_name(f".{target.name}.compacting-{os.getpid()}")
    shutil.rmtree(building, ignore_errors=True)
    try:
        building.mkdir(parents=True)
        _write(source, building, resolve_revisits)
        if target.exists():
            target.rmdir()
        os.replace(building, target)
    except OSError as exc:
        raise ArchiveError(f"cannot write {target}: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return target


def _write(source: Path, out: Path, resolve_revisits: bool) -> None:
    crawl = load(source)
    graph = crawl.graph
    (out / STATES).mkdir()
    for node, attrs in graph.nodes(data=True):
        if attrs.get("kind") != "state":
            continue
        kept = (attrs.get("snapshot") or snapshot_path(node), attrs.get("screenshot"),
                 *thumbnail_paths(node))
        for relative in {name for name in kept if name is not None}:
            found = chain.locate(source, relative)
            if found.is_file():
                link_or_copy(found, out / relative)
    summary = graph.graph.get("incremental")
    if isinstance(summary, dict):  # the figures stay; the way to the baseline goes
        graph.graph["incremental"] = {k: v for k, v in summary.items() if k != "since"}
    StateGraph(graph).write(out)
    _write_store(source, out)
    if (source / RESOURCES).is_file():
        lines = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in chain.resources(source))
        atomic_write(out / RESOURCES, lines)
    own = sorted((source / ARCHIVE).glob("*.warc.gz"))
    files = chain.warc_files(source, own)
    if files:
        (out / ARCHIVE).mkdir()
        if resolve_revisits:
            _resolve(files, out / ARCHIVE)
        else:
            for path in files:
                link_or_copy(path, out / ARCHIVE / path.name)
    for entry in source.iterdir():
        if entry.name in REMADE or entry.name.startswith("."):
            continue
        if entry.is_dir():
            shutil.copytree(entry, out / entry.name, copy_function=_link)
        else:
            link_or_copy(entry, out / entry.name)


def _link(source: str, target: str) -> None:
    link_or_copy(Path(source), Path(target))


def _write_store(source: Path, out: Path) -> None:
    """A whole store: the crawl's own (its runs, its changes) made whole from the chain."""
    if not (source / STORE).is_file():
        return
    with sqlite3.connect(source / STORE) as db, sqlite3.connect(out / STORE) as copy:
        db.backup(copy)
    db.close()
    copy.close()
    store = SqliteStore(out / STORE)
    try:
        earlier = chain.baseline(source)
        if earlier is not None:
            store.thicken(chain.store_rows(earlier))
    finally:
        store.close()


def _resolve(files: list[Path], archive: Path) -> None:
    """Write ``files`` into ``archive``, each revisit of a record in them as that record's
    payload under the revisit's headers (a whole record, readable alone), every other
    record as it is."""
    payloads: dict[str, tuple[bytes, str]] = {}  # record id -> payload, content type
    for path in files:
        data = path.read_bytes()
        with path.open("rb") as stream, (archive / path.name).open("wb") as output:
            writer = WARCWriter(output, gzip=True)
            records = ArchiveIterator(stream)
            for record in records:
                headers = record.rec_headers
                original = headers.get_header("WARC-Refers-To")
                if record.rec_type == "revisit" and original in payloads:
                    writer.write_record(_whole(writer, record, payloads[original]))
                    continue
                payload = record.raw_stream.read()
                if record.rec_type in ("response", "resource"):
                    content_type = headers.get_header("Content-Type") or ""
                    payloads[headers.get_header("WARC-Record-ID")] = (payload, content_type)
                offset = records.get_record_offset()
                output.write(data[offset : offset + records.get_record_length()])


def _whole(writer: WARCWriter, revisit: Any, original: tuple[bytes, str]) -> Any:
    """The response (or, without HTTP headers, resource) record a revisit of ``original``
    (its payload as archived, and its content type) stands for; its digests are computed
    again."""
    payload, content_type = original
    headers = revisit.rec_headers
    http = revisit.http_headers
    kind = "response" if http is not None else "resource"
    dropped = ("WARC-Type", "WARC-Profile", "Content-Length", "WARC-Block-Digest",
               "WARC-Payload-Digest", "WARC-Truncated", "Content-Type")
    kept = [("WARC-Type", kind), ("Content-Type", content_type)] + [
        (k, v) for k, v in headers.headers
        if not k.startswith("WARC-Refers-To") and k not in dropped
    ]
    return writer.create_warc_record(
        headers.get_header("WARC-Target-URI"), kind, payload=BytesIO(payload),
        length=len(payload), http_headers=http,
        warc_headers=type(headers)(headers.statusline, kept, protocol=headers.protocol),
    )
