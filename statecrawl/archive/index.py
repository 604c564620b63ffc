"""The resource index a crawl writes (``OUT/resources.jsonl``): one entry per URL the crawl
met, with what its last capture said (a response the page left before its body came is no
failure), the states it was met in and the pages and stylesheets that refer to it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin

from ..browser.network import CANCELLED, Exchange
from ..directory import chain
from ..directory.layout import RESOURCES, atomic_write
from ..redaction import strip_userinfo
from .exchanges import mime

_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_CSS_REF = re.compile(
    r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')""",
    re.I,
)


class ResourceIndex:
    """The entries of ``directory``'s resource index, added to capture by capture and saved
    whole (a recrawl's lists its changes only). Not thread-safe: its writer locks."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._entries: dict[str, dict[str, Any]] = {}
        if (directory / RESOURCES).is_file():
            self._entries = {e["url"]: e for e in chain.resources(directory)}

    def add(self, ex: Exchange, state_id: str | None) -> dict[str, Any]:
        """Count a capture of ``ex`` (met in ``state_id``) and return its URL's entry."""
        entry = self._entry(ex.url)
        entry["captures"] += 1
        if ex.status:
            size = (
                len(ex.body) if ex.body is not None else _int(ex.response_header("Content-Length"))
            )
            entry.update(
                status=ex.status,
                content_type=ex.response_header("Content-Type") or ex.mime_type or None,
                size=size if size is not None else entry["size"],
                last_modified=ex.response_header("Last-Modified") or entry["last_modified"],
                etag=ex.response_header("ETag") or entry["etag"],
            )
        if ex.failed and not (ex.status and CANCELLED in ex.failed):
            entry["failed"] = ex.failed
        elif ex.status:  # (a response the browser cancelled the rest of, once it had it: the
            entry["failed"] = None  # page navigated on; the resource did not fail)
        if ex.download is not None:
            entry["download"] = ex.download
        if state_id is not None and state_id not in entry["states"]:
            entry["states"].append(state_id)
        if ex.referrer and ex.referrer != ex.url:
            _add(entry["referrers"], ex.referrer)
        if ex.body and (mime(ex) == "text/css" or ex.resource_type == "Stylesheet"):
            for target in css_references(ex.body.decode("utf-8", "replace"), ex.url):
                if target != ex.url:
                    _add(self._entry(target)["referrers"], ex.url)
        return entry

    def save(self) -> None:
        """Rewrite ``resources.jsonl`` atomically."""
        kept = chain.new_resources(self.directory, list(self._entries.values()))
        lines = "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in kept)
        atomic_write(self.directory / RESOURCES, lines)

    def _entry(self, url: str) -> dict[str, Any]:
        entry = self._entries.get(url)
        if entry is None:
            entry = self._entries[url] = {
                "url": url,
                "status": None,
                "content_type": None,
                "size": None,
                "last_modified": None,
                "etag": None,
                "states": [],
                "referrers": [],
                "captures": 0,
                "skipped": None,
                "failed": None,
            }
        return entry


def css_references(css: str, base_url: str) -> list[str]:
    """Absolute http(s) URLs a stylesheet names in ``url(...)`` and ``@import``, in order,
    without userinfo (they are recorded as referrers)."""
    found: list[str] = []
    for match in _CSS_REF.finditer(_CSS_COMMENT.sub("", css)):
        reference = next((group for group in match.groups() if group is not None), "").strip()
        if not reference or reference.startswith("#"):
            continue
        url = strip_userinfo(urldefrag(urljoin(base_url, reference)).url)
        if url.startswith(("http://", "https://")):
            _add(found, url)
    return found


def _int(value: str | None) -> int | None:
    return int(value) if value is not None and value.strip().isdigit() else None


def _add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)
