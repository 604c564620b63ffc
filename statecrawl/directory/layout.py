"""The crawl directory's layout: the names of its parts, and the one way a file is written
there, whole or not at all (a crash or a full disk never leaves half a file behind)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import ArchiveError

GRAPH_JSON = "graph.json"  # the state graph, networkx node-link JSON
GRAPHML = "graph.graphml"  # the same graph for Gephi and yEd
STATES = "states"  # states/<id>.html and states/<id>.<format> (the screenshot)
ARCHIVE = "archive"  # the WARC files
RESOURCES = "resources.jsonl"  # the resource index: every URL archived, and its states
RECORDS = "records.jsonl"  # the records of the result lists, written at the crawl's end
RESERVE = ".reserve"  # disk space held during a run, given up to write the graph on a full disk
RESERVED = 1 << 20  # its least size in bytes
STORE = "crawl.sqlite"  # the crawl store: runs and the last checkpoint, to resume from
LOCK = "lock"  # held by the run writing the directory; holds its PID (see lock.py)
CHANGES = "changes.json"  # an incremental crawl's states against the earlier crawl's
BASELINE = "baseline.json"  # a recrawl's reference to the crawl it holds the changes to
REFERRERS = "referrers"  # the crawls that refer to this one as their baseline, one a line
ROLES = "roles"  # roles/<role>/: the crawl directory of each [[login]] role
ROLES_FILE = "roles.json"  # what each role reaches that another does not
SESSION = "session"  # a login's cookies and storage (mode 0600; export and report skip it)
HARVEST = "harvest.json"  # the queries a crawl chose by itself, and its coverage curve
QA = "qa.json"  # statecrawl qa: each state's replay judged against its recording
QA_VIEW = "qa.html"  # its view: recording and replays side by side, worst first
QA_PICTURES = "qa"  # qa/<id>.<replayer>.jpg: the replays' pictures
THUMBNAIL = "thumb.webp"  # states/<id>.thumb.webp: every state's small WebP (archive.thumbnails)
# The names a thumbnail may have: its own, then the JPEG of a crawl written before it was a WebP.
THUMBNAILS = (THUMBNAIL, "thumb.jpg")
# Screenshot formats (``archive.screenshot_format``), each its file extension, and their types.
SCREENSHOT_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "webp": "image/webp"}


def link_or_copy(source: Path, target: Path) -> None:
    """Hard-link ``source`` to ``target``, or copy it where links cannot be made."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def thumbnail_path(state_id: str) -> str:
    """Where a state's thumbnail is written, relative to its crawl directory."""
    return f"{STATES}/{state_id}.{THUMBNAIL}"


def thumbnail_paths(state_id: str) -> tuple[str, ...]:
    """Where a state's thumbnail may be, relative to its crawl directory (an older crawl's is
    a JPEG), in the order to look."""
    return tuple(f"{STATES}/{state_id}.{name}" for name in THUMBNAILS)


def image_format(image: bytes) -> str:
    """The format of ``image`` (a key of :data:`SCREENSHOT_TYPES`), from its first bytes."""
    if image[:4] == b"RIFF" and image[8:12] == b"WEBP":
        return "webp"
    return "png" if image.startswith(b"\x89PNG") else "jpeg"


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` to ``path`` as indented JSON (a crawl directory's small reports)."""
    atomic_write(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def read_json(path: Path) -> Any:
    """What :func:`write_json` wrote to ``path``, or ``None`` when there is no such file."""
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def atomic_write(path: Path, data: bytes | str | Callable[[Path], None]) -> None:
    """Write ``data`` (bytes, text as UTF-8, or a function that writes the file it is given)
    to ``path`` through a temporary file renamed over it."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        if isinstance(data, bytes):
            tmp.write_bytes(data)
        elif isinstance(data, str):
            tmp.write_text(data, encoding="utf-8")
        else:
            data(tmp)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise ArchiveError(f"cannot write {path}: {exc.strerror or exc}") from None
