"""Downloads: the files a browser saves instead of showing (an attachment, a PDF, a CSV, a blob
a script hands to ``<a download>``), taken as documents of the crawl: archived with their bytes,
tied to the state that offered them by a ``download`` edge, never states.

Chromium saves each download under the browser's profile named by its guid and reports it in the
performance log (``Page.downloadWillBegin``, ``Page.downloadProgress``), which the network
capture reads; :class:`Downloads` follows them, stops those over ``archive.max_download``, and
turns each ended one into a document and the exchange that archives it.
"""

from __future__ import annotations

import contextlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from ..config import Archive
from ..directory.resources import payload_digest
from ..state import digest as hashed
from .network import Exchange

# Chromium preferences: a PDF is saved, not shown in the viewer, and a script's downloads are
# allowed without a prompt, however many a page makes.
PREFS = {
    "plugins.always_open_pdf_externally": True,
    "download.prompt_for_download": False,
    "profile.default_content_setting_values.automatic_downloads": 1,
}
# The types a file name can promise a download of: what Chromium saves (with PREFS) rather than
# shows in the tab.
SAVED_TYPES = (
    "application/pdf", "text/csv", "text/tab-separated-values", "application/zip",
    "application/gzip", "application/x-tar", "application/x-bibtex", "application/msword",
    "application/vnd.", "application/rtf",
)  # fmt: skip
FOLDER = "downloads"  # in the browser's profile
PARTIAL = ".crdownload"  # the suffix of a file Chromium is still writing


@dataclass(slots=True)
class _File:
    """One download as the performance log tells it."""

    url: str
    filename: str
    total: int | None = None
    received: int = 0
    state: str = "inProgress"
    stopped: str | None = None  # why the crawler stopped it (``Browser.cancelDownload``)


class Downloads:
    """The downloads of one browser: its download folder and what the log said of them."""

    def __init__(self, folder: Path, settings: Archive) -> None:
        self.folder = folder
        self.settings = settings
        self._files: dict[str, _File] = {}

    def started(self) -> bool:
        """Whether a download began since the last :meth:`take`."""
        return bool(self._files) or (self.folder.is_dir() and any(self.folder.iterdir()))

    def update(self, events: list[tuple[str, dict[str, Any]]]) -> list[str]:
        """Follow the log's download ``events``; the guids of downloads to stop, as their size
        is over ``archive.max_download``."""
        for guid, params in events:
            if "suggestedFilename" in params:
                self._files[guid] = _File(params.get("url", ""), params["suggestedFilename"])
                continue
            file = self._files.get(guid)
            if file is None:
                continue
            file.total = int(params.get("totalBytes") or 0) or file.total
            file.received = int(params.get("receivedBytes") or 0)
            file.state = params.get("state", file.state)
        stop = []
        for guid, file in self._files.items():
            if file.state == "inProgress" and file.stopped is None:
                file.stopped = self._too_big(max(file.total or 0, file.received))
                if file.stopped is not None:
                    stop.append(guid)
        return stop

    def ended(self, logged: bool, begun: bool = False) -> bool:
        """Whether every download known has ended and no file is still being written;
        ``logged``: the log reports downloads, so every file saved must be one it named (and
        one at least when one was seen to begin or asked for, ``begun``: its file may be gone
        already; without the log, a file at least)."""
        names = [p.name for p in self.folder.iterdir()] if self.folder.is_dir() else []
        if begun and not (self._files if logged else names):
            return False
        if any(name.endswith(PARTIAL) for name in names):
            return False
        if logged and any(name not in self._files for name in names):
            return False
        return all(f.state != "inProgress" for f in self._files.values())

    def going(self) -> list[str]:
        """The guids of the downloads still going."""
        return [guid for guid, f in self._files.items() if f.state == "inProgress"]

    def take(
        self,
        exchanges: list[Exchange],
        why_not: str | None = None,
        url: str | None = None,
        asked: list[list[str]] | None = None,
    ) -> list[dict[str, Any]]:
        """The documents of the downloads that ended (``why_not``: why those still going
        failed), each given its bytes in the exchange that fetched it (a blob gets an exchange
        of its own, added to ``exchanges``); the download folder is emptied. ``url``: the one
        a load saved, or ``asked``: those the page asked for, [URL, name], in order; they
        name the files no log reported (no network capture); when none began, they are
        documents that failed for ``why_not``."""
        named = [[url, ""]] if url is not None else asked or []
        if why_not is not None and named and not self.started():
            return [_never_begun(where, name, why_not) for where, name in named]
        if named and not self._files and self.folder.is_dir():
            files = sorted(self.folder.iterdir(), key=lambda p: p.stat().st_mtime_ns)
            for i, path in enumerate(files):
                where, name = named[min(i, len(named) - 1)]
                self._files[path.name] = _File(where, _filename(where, name), state="completed")
        documents = []
        for guid, file in self._files.items():
            path = self.folder / guid
            failed = None
            if file.stopped is None and file.state != "completed":
                failed = why_not or (
                    f"the download stopped after {file.received} of {file.total or '?'} bytes"
                )
            saved = path.stat().st_size if failed is None and path.is_file() else None
            if saved is not None and file.stopped is None:  # it ended before it could be stopped
                file.stopped = self._too_big(saved)
            body = path.read_bytes() if saved is not None and file.stopped is None else None
            exchange = _fetched(exchanges, file.url)
            if exchange is None and file.url.startswith("blob:"):
                exchange = Exchange(request_id=guid, url=file.url, status=200,
                                    resource_type="Download")  # fmt: skip
                exchanges.append(exchange)
            mime = (exchange.mime_type if exchange is not None else "") or _type(file.filename)
            size = saved if saved is not None else file.total
            skipped = file.stopped or self._type_skipped(mime)
            if exchange is not None:
                exchange.mime_type = mime
                exchange.download = file.filename
                exchange.download_skipped = skipped
                if failed is not None:
                    exchange.failed = failed
                elif skipped is None and body is not None:
                    exchange.body, exchange.body_error = body, None
            documents.append({
                "url": file.url, "filename": file.filename, "content_type": mime, "size": size,
                "digest": payload_digest(body) if body is not None else None,
                "skipped": skipped, "failed": failed,
            })  # fmt: skip
        self.clear()
        return documents

    def clear(self) -> None:
        """Forget the downloads and empty the download folder."""
        self._files.clear()
        if self.folder.is_dir():
            for path in self.folder.iterdir():
                with contextlib.suppress(OSError):
                    path.unlink()

    def _too_big(self, size: int) -> str | None:
        limit = self.settings.max_download
        if size <= limit:
            return None
        return f"a download of {size} bytes exceeds archive.max_download {limit}"

    def _type_skipped(self, mime: str) -> str | None:
        if _wanted(mime, self.settings):
            return None
        return f"type {mime} is not in archive.download_types"


def _filename(url: str, name: str) -> str:
    """The name of a file the page asked to save ``url`` as ``name`` (empty: the URL's)."""
    return name or PurePosixPath(urlsplit(url).path).name or "download"


def _type(filename: str) -> str:
    """The media type a file's name tells, by its extension."""
    return mimetypes.guess_type(filename)[0] or "application/octet-stream"


def _never_begun(url: str, name: str, why: str) -> dict[str, Any]:
    """The document of a download asked for that the browser never began, for ``why``."""
    filename = _filename(url, name)
    return {
        "url": url, "filename": filename, "size": None, "digest": None, "skipped": None,
        "content_type": _type(filename), "failed": why,
    }  # fmt: skip


def _wanted(mime: str, settings: Archive) -> bool:
    """Whether ``archive.download_types`` takes a download of type ``mime``."""
    types = settings.download_types
    return not types or any(mime.lower().startswith(t.lower()) for t in types)


def names_document(url: str, settings: Archive) -> bool:
    """Whether ``url``'s file name promises a document the browser saves rather than shows (a
    ``.pdf``, a ``.csv``, a ``.zip``) of a type the crawl takes: a link worth loading at the
    depth limit, where it adds no state."""
    mime, _ = mimetypes.guess_type(PurePosixPath(urlsplit(url).path).name)
    return mime is not None and mime.startswith(SAVED_TYPES) and _wanted(mime, settings)


def _fetched(exchanges: list[Exchange], url: str) -> Exchange | None:
    """The exchange whose response became the download of ``url``: its body is in no
    exchange, as the browser handed it to the download."""
    return next(
        (ex for ex in reversed(exchanges)
         if ex.url == url and ex.status and ex.body is None and ex.download is None),
        None,
    )  # fmt: skip


def document_id(url: str, digest: str | None) -> str:
    """The graph node of a document: one per URL (a blob's URL is new each time: by its
    bytes), 16 hex digits after a ``d``."""
    return "d" + hashed("document", digest if url.startswith("blob:") and digest else url)[1:]
