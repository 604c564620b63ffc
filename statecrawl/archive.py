"""WARC/1.1 archive of a crawl: network exchanges, state snapshots, frames and screenshots.

Records are built with warcio and written gzip-per-record to ``OUT/archive/*.warc.gz`` (named
``*.warc.gz.open`` until closed, each file starting with a warcinfo record), so any complete record
survives a killed crawl. ``OUT/resources.jsonl`` indexes every URL the crawl met.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import http
import io
import json
import logging
import os
import re
import threading
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, BinaryIO
from urllib.parse import urldefrag, urljoin, urlsplit

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed
from warcio.recordbuilder import RecordBuilder
from warcio.recordloader import ArcWarcRecord
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from . import chain
from .config import Archive
from .errors import ArchiveError, one_line
from .layout import ARCHIVE, RESOURCES, SCREENSHOT_TYPES, atomic_write, thumbnail_path
from .network import Exchange
from .plugin import CrawlView, Plugin
from .redaction import strip_userinfo
from .resources import Seen, payload_digest, read_resources
from .screenshot import Images, take
from .spool import Spool

if TYPE_CHECKING:
    from .browser import Browser
    from .directory import CrawlDirectory
    from .state import Action, Snapshot, State

log = logging.getLogger(__name__)
REVISIT_PROFILE = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
CACHED_BODY = "served from the browser cache; the body was captured earlier"
REDACTED_TAG = "WARC-Statecrawl-Redacted"  # on the records of a login's redacted exchanges
DOWNLOAD_TAG = "WARC-Statecrawl-Download"  # on a document's records: the file name it was saved as

# Headers that describe the wire encoding; CDP hands back decoded bodies, so they are rewritten.
_WIRE_HEADERS = {"content-encoding", "transfer-encoding", "content-length"}
_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_CSS_REF = re.compile(
    r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')""",
    re.I,
)


@dataclass(slots=True)
class ArchiveStats:
    """Counters of one writer: records and bytes written, revisits, skipped exchanges."""

    records: int = 0
    revisits: int = 0
    skipped: int = 0
    bytes: int = 0
    unique_payload_bytes: int = 0


class ArchiveWriter:
    """Writes a crawl's WARC files and resource index under a crawl directory.

    Thread-safe; use as a context manager or call ``close()``. With ``settings.enabled`` false no
    WARC file is written but the resource index still is.
    """

    def __init__(self, directory: Path, settings: Archive, info: Mapping[str, Any]) -> None:
        self.directory = Path(directory)
        self.settings = settings
        self._archive_dir = self.directory / ARCHIVE
        self._info = _warcinfo_fields(info)
        self._builder = RecordBuilder(warc_version="1.1")  # records; ``_serialize`` writes them
        self._file: io.FileIO | None = None
        self._path: Path | None = None
        self._size = 0
        self._files: list[Path] = []
        self._seen: dict[tuple[str, str], Seen] = {}
        self._latest: dict[str, Seen] = {}
        self._resources: dict[str, dict[str, Any]] = {}
        self._stats = ArchiveStats()
        self._lock = threading.Lock()
        self._closed = False
        target = self._archive_dir if settings.enabled else self.directory
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ArchiveError(
                f"cannot create archive directory {target}: {_reason(exc)}"
            ) from None
        self._serial = _next_serial(self._archive_dir, settings.prefix)
        # What an earlier run of this crawl left: its files are closed (a killed run's last one
        # cut to its last whole record), its payloads are known, its index goes on.
        self._files, self.cuts = recover(self._archive_dir)
        # (state, part) of each state's record earlier runs archived, by the id it had then
        self.archived_states: set[tuple[str, str]] = set()
        for path in self._files:
            for headers in archived_headers(path):
                if (entry := _payload(headers)) is not None:
                    self._remember(entry)
                if (part := state_part(headers)) is not None:
                    self.archived_states.add(part)
        if (self.directory / RESOURCES).is_file():  # a recrawl's lists its changes only
            self._resources = {e["url"]: e for e in chain.resources(self.directory)}

    def __enter__(self) -> ArchiveWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def stats(self) -> ArchiveStats:
        """A snapshot of the counters."""
        with self._lock:
            return dataclasses.replace(self._stats)

    @property
    def files(self) -> list[Path]:
        """The WARC files written so far (the current one still ends in ``.open``)."""
        with self._lock:
            return [*self._files, *([self._path] if self._path else [])]

    @property
    def seen(self) -> list[Seen]:
        """Every payload archived or seeded, for a store to hand to a later session."""
        with self._lock:
            return list(self._seen.values())

    def seed(self, entries: Iterable[Seen], rebase: Callable[[str], str] | None = None) -> None:
        """Pre-load payloads archived by an earlier session or crawl, so their captures become
        revisits; ``rebase`` maps an entry's URL to the URL it is captured at now."""
        with self._lock:
            for entry in entries:
                self._remember(entry, rebase(entry.url) if rebase else entry.url)

    def write_exchange(self, ex: Exchange, state_id: str | None = None) -> None:
        """Archive one exchange: request + response, a revisit, or request + error metadata."""
        with self._lock:
            self._check_open()
            entry = self._index(ex, state_id)
            entry["skipped"] = reason = self._skip_reason(ex)
            if reason:
                self._stats.skipped += 1
                return
            if not self.settings.enabled:
                return
            if ex.url.startswith("blob:") and ex.body is not None:
                self._write_blob(ex, state_id)
                return
            if ex.failed or not ex.status:
                self._write_failure(ex, state_id)
                return
            if ex.body is None:
                earlier = self._latest.get(ex.url) if ex.from_cache and not ex.body_error else None
                if earlier is not None:
                    self._write_duplicate(ex, earlier, state_id)
                else:
                    self._write_capture(ex, None, state_id)
                return
            digest = payload_digest(ex.body)
            earlier = self._seen.get((ex.url, digest))
            if earlier is not None:
                self._write_duplicate(ex, earlier, state_id)
            else:
                self._write_capture(ex, digest, state_id)

    def write_state(
        self,
        state_id: str,
        key: str,
        url: str,
        html: str,
        frames: list[Any] | None,
        screenshot: bytes | None,
        parent: str | None,
        action: dict[str, Any] | None,
        rearchived: str | None = None,
        thumbnail: bytes | None = None,
        missing: Mapping[str, str] | None = None,
    ) -> None:
        """Archive a state: its DOM as a resource, its frames as metadata, its screenshot
        (an image in ``settings.screenshot_format``, or ``None``) and its ``thumbnail`` (a
        JPEG, or ``None``); ``rearchived``: why it is archived again from its files;
        ``missing``: the pictures it has none of, and why (said in the frames' record). The
        records are built and compressed before the lock is taken: other browsers wait for
        the append only."""
        records = []
        if self.settings.enabled:
            described: dict[str, Any] = {"parent": parent, "action": action, "frames": frames}
            if rearchived is not None:
                described["rearchived"] = rearchived
            if missing:
                described["missing"] = dict(missing)
            try:
                details = json.dumps(described, ensure_ascii=False).encode("utf-8")
            except (TypeError, ValueError) as exc:
                raise ArchiveError(
                    f"state {state_id}: frames or action are not JSON: {exc}"
                ) from None
            tags = {"WARC-Date": _warc_date(), "WARC-Statecrawl-State": state_id}
            snapshot = self._record(
                url,
                "resource",
                html.encode("utf-8"),
                {**tags, "WARC-Statecrawl-Key": key},
                content_type="text/html; charset=utf-8",
            )
            linked = {**tags, "WARC-Refers-To": _record_id(snapshot)}
            records = [
                snapshot,
                self._record(
                    f"urn:statecrawl:state:{state_id}:frames",
                    "metadata",
                    details,
                    linked,
                    content_type="application/json",
                ),
            ]
            if screenshot is not None:
                records.append(
                    self._record(
                        f"urn:statecrawl:state:{state_id}:screenshot",
                        "resource",
                        screenshot,
                        linked,
                        content_type=SCREENSHOT_TYPES[self.settings.screenshot_format],
                    )
                )
            if thumbnail is not None:
                records.append(
                    self._record(
                        f"urn:statecrawl:state:{state_id}:thumbnail",
                        "resource",
                        thumbnail,
                        linked,
                        content_type=SCREENSHOT_TYPES["jpeg"],
                    )
                )
        data = _serialize(records)
        with self._lock:
            self._check_open()
            if records:
                self._write(data, len(records))

    def write_unchanged_state(self, state_id: str, key: str, url: str, earlier: Seen) -> None:
        """Archive a state whose DOM is the one ``earlier`` (an earlier crawl's snapshot
        record) holds: a revisit record that points at it."""
        with self._lock:
            self._check_open()
            if not self.settings.enabled:
                return
            tags = {
                "WARC-Date": _warc_date(),
                "WARC-Statecrawl-State": state_id,
                "WARC-Statecrawl-Key": key,
                "WARC-Refers-To": earlier.record_id,
            }
            revisit = self._builder.create_revisit_record(
                url, earlier.digest, earlier.url, earlier.date, warc_headers_dict=tags
            )
            self._write(_serialize([revisit]), 1)
            self._stats.revisits += 1

    def close(self) -> None:
        """Finish the current WARC file (drop ``.open``) and write the resource index."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                self._close_file()
            finally:
                self._save_resources()

    # -- records -------------------------------------------------------------------------------

    def _write_capture(self, ex: Exchange, digest: str | None, state_id: str | None) -> None:
        body = ex.body or b""
        date = _warc_date(ex.started)
        tags = _tags(date, state_id, ex.redacted)
        if ex.download is not None:
            tags[DOWNLOAD_TAG] = ex.download
        if ex.body is None:
            tags["WARC-Statecrawl-Body-Error"] = one_line(ex.body_error or CACHED_BODY)
        else:
            tags["WARC-Payload-Digest"] = digest or payload_digest(body)
        response = self._builder.create_warc_record(
            ex.url,
            "response",
            payload=io.BytesIO(body),
            length=len(body),
            warc_headers_dict=tags,
            http_headers=_response_http(ex, len(body)),
        )
        request = self._request_record(ex, date, state_id, _record_id(response))
        self._write(_serialize([response, request]), 2)
        if digest is not None:
            self._remember(Seen(ex.url, digest, _record_id(response), date))
            self._stats.unique_payload_bytes += len(body)

    def _write_blob(self, ex: Exchange, state_id: str | None) -> None:
        """A document a script made in the page (a blob URL, new each time): a resource
        record, or a revisit of the first one with the same bytes."""
        assert ex.body is not None
        digest = payload_digest(ex.body)
        tags = {**_tags(_warc_date(ex.started), state_id), DOWNLOAD_TAG: ex.download or ""}
        earlier = self._seen.get(("blob:", digest))
        if earlier is not None:
            tags["WARC-Refers-To"] = earlier.record_id
            revisit = self._builder.create_revisit_record(
                ex.url, digest, earlier.url, earlier.date, warc_headers_dict=tags
            )
            self._write(_serialize([revisit]), 1)
            self._stats.revisits += 1
            return
        record = self._record(
            ex.url, "resource", ex.body, {**tags, "WARC-Payload-Digest": digest}, ex.mime_type
        )
        self._write(_serialize([record]), 1)
        self._seen[("blob:", digest)] = Seen(ex.url, digest, _record_id(record), tags["WARC-Date"])
        self._stats.unique_payload_bytes += len(ex.body)

    def _write_duplicate(self, ex: Exchange, earlier: Seen, state_id: str | None) -> None:
        dedup = self.settings.dedup
        if dedup == "skip" or (dedup == "state" and state_id is None):
            self._stats.skipped += 1
            return
        date = _warc_date(ex.started)
        tags = _tags(date, state_id, ex.redacted)
        tags["WARC-Refers-To"] = earlier.record_id
        length = len(ex.body) if ex.body is not None else None
        revisit = self._builder.create_revisit_record(
            ex.url,
            earlier.digest,
            earlier.url,
            earlier.date,
            http_headers=_response_http(ex, length),
            warc_headers_dict=tags,
        )
        request = self._request_record(ex, date, state_id, _record_id(revisit))
        self._write(_serialize([revisit, request]), 2)
        self._stats.revisits += 1

    def _write_failure(self, ex: Exchange, state_id: str | None) -> None:
        date = _warc_date(ex.started)
        request = self._request_record(ex, date, state_id, None)
        fields = {"error": ex.failed or "no response", "resource-type": ex.resource_type}
        text = "".join(f"{name}: {one_line(value)}\r\n" for name, value in fields.items())
        tags = {**_tags(date, state_id, ex.redacted), "WARC-Refers-To": _record_id(request)}
        error = self._record(ex.url, "metadata", text.encode("utf-8"), tags)
        self._write(_serialize([request, error]), 2)

    def _request_record(
        self, ex: Exchange, date: str, state_id: str | None, concurrent_to: str | None
    ) -> ArcWarcRecord:
        body = ex.request_body or b""
        parts = urlsplit(ex.url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        headers = [(k, v) for k, v in ex.request_headers if not _rewritten(k)]
        if not any(k.lower() == "host" for k, _ in headers):
            headers.insert(0, ("Host", parts.netloc.rpartition("@")[2]))
        if ex.request_body is not None:
            headers.append(("Content-Length", str(len(body))))
        tags = _tags(date, state_id, ex.redacted)
        if concurrent_to:
            tags["WARC-Concurrent-To"] = concurrent_to
        return self._builder.create_warc_record(
            ex.url,
            "request",
            payload=io.BytesIO(body),
            length=len(body),
            warc_headers_dict=tags,
            http_headers=StatusAndHeaders(
                f"{ex.method} {target} HTTP/1.1", headers, is_http_request=True
            ),
        )

    def _record(
        self,
        uri: str,
        kind: str,
        payload: bytes,
        tags: dict[str, str],
        content_type: str = "",
    ) -> ArcWarcRecord:
        return self._builder.create_warc_record(
            uri,
            kind,
            payload=io.BytesIO(payload),
            length=len(payload),
            warc_content_type=content_type,
            warc_headers_dict=dict(tags),
        )

    def _remember(self, entry: Seen, url: str | None = None) -> None:
        self._seen[(url or entry.url, entry.digest)] = entry
        self._latest[url or entry.url] = entry

    # -- files ---------------------------------------------------------------------------------

    def _write(self, data: bytes, records: int) -> None:
        """Append ``records`` records, serialized as ``data``, to the current file in one
        write, rolling to a new file when full."""
        if self._file is None:
            self._open_file()
        self._append(data, records)
        if self._size >= self.settings.roll_size:
            self._close_file()
            self._save_resources()

    def _append(self, data: bytes, records: int) -> None:
        assert self._file is not None and self._path is not None
        view = memoryview(data)
        start = self._size
        try:
            while view:
                view = view[self._file.write(view) :]
        except OSError as exc:
            self._rewind(start)
            raise ArchiveError(f"cannot write WARC file {self._path}: {_reason(exc)}") from None
        self._size += len(data)
        self._stats.bytes += len(data)
        self._stats.records += records

    def _rewind(self, size: int) -> None:
        """Cut a partly written record so the file still ends on a record boundary."""
        assert self._file is not None
        with contextlib.suppress(OSError):  # if this fails too, earlier records stay readable
            self._file.truncate(size)
            self._file.seek(size)

    def _open_file(self) -> None:
        stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
        name = f"{self.settings.prefix}-{stamp}-{self._serial:05d}.warc.gz"
        path = self._archive_dir / f"{name}.open"
        try:
            self._file = io.FileIO(path, "w")
        except OSError as exc:
            raise ArchiveError(f"cannot create WARC file {path}: {_reason(exc)}") from None
        self._path = path
        self._size = 0
        self._serial += 1
        self._append(_serialize([self._builder.create_warcinfo_record(name, self._info)]), 1)

    def _close_file(self) -> None:
        if self._file is None or self._path is None:
            return
        path, self._path = self._path, None
        file, self._file = self._file, None
        final = path.with_suffix("")
        try:
            file.close()
            os.replace(path, final)
        except OSError as exc:
            raise ArchiveError(f"cannot finish WARC file {path}: {_reason(exc)}") from None
        self._files.append(final)

    def _check_open(self) -> None:
        if self._closed:
            raise ArchiveError(f"the archive writer for {self.directory} is already closed")

    # -- resource index ------------------------------------------------------------------------

    def _index(self, ex: Exchange, state_id: str | None) -> dict[str, Any]:
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
        if ex.failed:
            entry["failed"] = ex.failed
        if ex.download is not None:
            entry["download"] = ex.download
        if state_id is not None and state_id not in entry["states"]:
            entry["states"].append(state_id)
        if ex.referrer and ex.referrer != ex.url:
            _add(entry["referrers"], ex.referrer)
        if ex.body and (_mime(ex) == "text/css" or ex.resource_type == "Stylesheet"):
            for target in css_references(ex.body.decode("utf-8", "replace"), ex.url):
                if target != ex.url:
                    _add(self._entry(target)["referrers"], ex.url)
        return entry

    def _entry(self, url: str) -> dict[str, Any]:
        entry = self._resources.get(url)
        if entry is None:
            entry = self._resources[url] = {
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

    def _skip_reason(self, ex: Exchange) -> str | None:
        if ex.download_skipped:
            return ex.download_skipped
        settings = self.settings
        path = urlsplit(ex.url).path.lower()
        extension = next((e for e in settings.exclude_extensions if path.endswith(e.lower())), None)
        if extension:
            return f"extension {extension} is excluded"
        mime = _mime(ex)
        included = any(mime.startswith(t.lower()) for t in settings.include_types)
        if ex.status and settings.include_types and not included:
            return f"type {mime or 'unknown'} is not in include_types"
        excluded = next((t for t in settings.exclude_types if mime.startswith(t.lower())), None)
        if ex.status and mime and excluded:
            return f"type {mime} is excluded ({excluded})"
        limit = settings.max_record_size
        if limit is not None and ex.body is not None and len(ex.body) > limit:
            return f"body of {len(ex.body)} bytes exceeds max_record_size {limit}"
        return None

    def _save_resources(self) -> None:
        kept = chain.new_resources(self.directory, list(self._resources.values()))
        lines = "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in kept)
        atomic_write(self.directory / RESOURCES, lines)


def _serialize(records: list[ArcWarcRecord]) -> bytes:
    """``records`` as WARC bytes, each record one gzip member (so a file cut after any member
    still reads). Digests and compression are the costly part of archiving a record: this
    needs no lock."""
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=True, warc_version="1.1")
    for record in records:
        writer.write_record(record)
    return buffer.getvalue()


@dataclass(frozen=True, slots=True)
class Cut:
    """A WARC file that ended inside a record, cut back to its last whole record."""

    path: Path
    end: int  # where it ends now
    size: int  # where it ended


def recover(directory: Path) -> tuple[list[Path], list[Cut]]:
    """Close the WARC files a killed run left open in ``directory`` and cut any file that ends
    inside a record (a kill, a full disk, a copy cut short) back to its last whole record;
    return every WARC file there, oldest first, and the files cut that were closed (those
    lost records that were once whole)."""
    cuts = []
    for path in sorted(directory.glob("*.warc.gz*")):
        if not path.name.endswith((".warc.gz", ".warc.gz.open")):
            continue
        try:
            with path.open("r+b") as stream:
                size = os.fstat(stream.fileno()).st_size
                end = _whole_members(stream)
                if end < size:
                    log.info("cutting %s back to its last whole record, at byte %d", path, end)
                    stream.truncate(end)
                    if path.suffix != ".open":
                        cuts.append(Cut(path, end, size))
            if path.suffix == ".open":
                os.replace(path, path.with_suffix(""))
        except OSError as exc:
            raise ArchiveError(f"cannot recover WARC file {path}: {_reason(exc)}") from None
    files = sorted(directory.glob("*.warc.gz"), key=lambda p: p.name.rsplit("-", 1)[-1])
    return files, cuts


@dataclass(frozen=True, slots=True)
class Member:
    """One gzip member of a WARC file (one record): where it starts and ends, and its bytes,
    or ``None`` with the ``problem`` when it cannot be read."""

    offset: int
    end: int
    data: bytes | None
    problem: str = ""


def members(stream: BinaryIO, offset: int = 0) -> Iterator[Member]:
    """The gzip members of ``stream`` from its position ``offset`` on, up to the first one
    that cannot be read (damaged, or cut short by the end of the file), which comes last."""
    chunk = stream.read(1 << 20)
    while chunk:
        member = zlib.decompressobj(wbits=31)
        parts: list[bytes] = []
        used = 0
        while True:
            try:
                parts.append(member.decompress(chunk))
            except zlib.error as exc:
                yield Member(offset, offset, None, f"damaged gzip data ({exc})" + _named(parts))
                return
            if member.eof:
                used += len(chunk) - len(member.unused_data)
                chunk = member.unused_data
                break
            used += len(chunk)
            chunk = stream.read(1 << 20)
            if not chunk:
                parts.append(member.flush())
                yield Member(offset, offset + used, None, "the file ends inside" + _named(parts))
                return
        yield Member(offset, offset + used, b"".join(parts))
        offset += used
        chunk = chunk or stream.read(1 << 20)


def _named(parts: list[bytes]) -> str:
    """The record a partly read member begins, as far as its header tells."""
    head = b"".join(parts)[:4096]
    found = re.search(rb"WARC-Record-ID: *(<[^>\r\n]*>)", head)
    return f" record {found.group(1).decode('ascii', 'replace')}" if found else " a record"


def _whole_members(stream: BinaryIO) -> int:
    """Where the last whole gzip member of ``stream`` ends: each record is one member, so a
    record cut short by a kill is the member that never reaches its end."""
    end = 0
    for member in members(stream):
        if member.data is None:
            break
        end = member.end
    return end


@dataclass(frozen=True, slots=True)
class Record:
    """What a WARC record says of itself, and whether its digests match its bytes."""

    offset: int
    headers: StatusAndHeaders
    problems: tuple[str, ...]

    def header(self, name: str) -> str:
        return self.headers.get_header(name) or ""

    def __str__(self) -> str:
        return f"record {self.header('WARC-Record-ID')} ({self.header('WARC-Type')} " + (
            f"{self.header('WARC-Target-URI')}, offset {self.offset})"
        )


def parse_record(member: Member) -> Record:
    """The record ``member`` holds, its block and payload digests checked."""
    assert member.data is not None
    try:
        record = next(iter(ArchiveIterator(io.BytesIO(member.data), no_record_parse=True)))
        block = record.raw_stream.read()
    except (ArchiveLoadFailed, StopIteration, ValueError) as exc:
        headers = StatusAndHeaders("", [])
        return Record(member.offset, headers, (f"not a WARC record ({exc})",))
    headers = record.rec_headers
    problems = []
    length = headers.get_header("Content-Length")
    if length is not None and length.strip() != str(len(block)):
        problems.append(f"its block has {len(block)} bytes, not the {length.strip()} it says")
    checks = [("WARC-Block-Digest", block)]
    if headers.get_header("WARC-Type") != "revisit":  # a revisit names another's payload
        payload = block
        if (headers.get_header("Content-Type") or "").startswith("application/http"):
            payload = block.partition(b"\r\n\r\n")[2]
        checks.append(("WARC-Payload-Digest", payload))
    for name, data in checks:
        recorded = headers.get_header(name)
        if recorded and not _digest_matches(recorded, data):
            problems.append(f"{name} {recorded} does not match its bytes")
    return Record(member.offset, headers, tuple(problems))


def _digest_matches(recorded: str, data: bytes) -> bool:
    algorithm, _, value = recorded.partition(":")
    if algorithm.lower() != "sha1":
        return True  # not one statecrawl writes: not checked
    return payload_digest(data) == f"sha1:{value.upper()}"


@dataclass(slots=True)
class WarcScan:
    """One WARC file read to its end: its records and what is wrong with it."""

    path: Path
    records: list[Record]
    problems: list[str]  # each "offset N: what"


def scan_warc(path: Path) -> WarcScan:
    """Read every record of ``path``, checking its digests; a damaged member is reported
    and reading goes on at the next member that reads."""
    scan = WarcScan(path, [], [])
    try:
        with path.open("rb") as stream:
            offset = 0
            while True:
                for member in members(stream, offset):
                    if member.data is not None:
                        record = parse_record(member)
                        scan.records.append(record)
                        scan.problems += [f"offset {member.offset}: {record}: {p}"
                                          for p in record.problems]
                        continue
                    if member.end > member.offset:  # cut short by the end of the file
                        scan.problems.append(
                            f"offset {member.offset}: {member.problem} (the file was cut)"
                        )
                        return scan
                    offset = _next_member(stream, member.offset + 1)
                    scan.problems.append(
                        f"offset {member.offset}: {member.problem}, "
                        f"{offset - member.offset} bytes unreadable"
                    )
                    stream.seek(offset)
                    break
                else:
                    return scan
    except OSError as exc:
        raise ArchiveError(f"cannot read WARC file {path}: {_reason(exc)}") from None


def _next_member(stream: BinaryIO, start: int) -> int:
    """Where the next gzip member that reads whole begins after ``start`` (the end of the
    file when none does)."""
    stream.seek(0, os.SEEK_END)
    size = stream.tell()
    stream.seek(start)
    data = stream.read()
    position = data.find(b"\x1f\x8b\x08")
    while position >= 0:
        stream.seek(start + position)
        first = next(members(stream, start + position), None)
        if first is not None and first.data is not None:
            return start + position
        position = data.find(b"\x1f\x8b\x08", position + 1)
    return size


def archived_headers(path: Path) -> Iterator[StatusAndHeaders]:
    """The WARC headers of every record of ``path``."""
    try:
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream):
                yield record.rec_headers
    except (OSError, ArchiveLoadFailed) as exc:
        raise ArchiveError(f"cannot read WARC file {path}: {exc}") from None


def archived_payloads(path: Path) -> Iterator[Seen]:
    """The payloads ``path`` holds in response records: what a later capture refers to."""
    return (seen for headers in archived_headers(path) if (seen := _payload(headers)))


def _payload(headers: StatusAndHeaders) -> Seen | None:
    """The payload a response record holds, if it holds one."""
    digest = headers.get_header("WARC-Payload-Digest")
    if headers.get_header("WARC-Type") != "response" or not digest:
        return None
    return Seen(
        headers.get_header("WARC-Target-URI"),
        digest,
        headers.get_header("WARC-Record-ID"),
        headers.get_header("WARC-Date"),
    )


def state_part(headers: StatusAndHeaders) -> tuple[str, str] | None:
    """The state a record archives and which part of it: ``snapshot`` (see
    :func:`snapshot_state`), ``frames``, ``screenshot`` or ``thumbnail``; ``None`` for other
    records."""
    state = headers.get_header("WARC-Statecrawl-State")
    if state is None:
        return None
    if snapshot_state(headers) is not None:
        return state, "snapshot"
    uri = headers.get_header("WARC-Target-URI") or ""
    part = uri.rpartition(":")[2]
    return (state, part) if uri == f"urn:statecrawl:state:{state}:{part}" else None


def snapshot_state(headers: StatusAndHeaders) -> str | None:
    """The state whose DOM a record holds or refers to (a revisit of an unchanged state),
    by the id it had when archived; ``None`` for any other record."""
    if not headers.get_header("WARC-Statecrawl-Key"):
        return None
    return headers.get_header("WARC-Statecrawl-State")


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


def _way_in(graph: Any, state: str) -> tuple[str | None, dict[str, Any] | None]:
    """The state before ``state`` on a shortest way in, and the action that led on."""
    edges = [(graph.nodes[s].get("depth", 0), s, k, d)
             for s, _, k, d in graph.in_edges(state, keys=True, data=True) if s != state]
    if not edges:
        return None, None
    _, source, key, data = min(edges, key=lambda e: (e[0], e[1], e[2]))
    fields = ("name", "status", "event", "action")
    return source, {**{f: data.get(f) for f in fields}, "key": key}


def lost_captures(directory: Path, files: Iterable[Path]) -> list[str]:
    """The URLs the resource index says were captured whole that no record of ``files``
    holds: their records were lost. None when a crawl was killed before it wrote its
    first index (it claims no capture; its states' records may still have been waiting
    in the archive's spool)."""
    if not (directory / RESOURCES).is_file():
        return []
    held = {
        h.get_header("WARC-Target-URI")
        for path in files
        for h in archived_headers(path)
        if h.get_header("WARC-Type") in ("response", "revisit") or h.get_header(DOWNLOAD_TAG)
    }
    return sorted(
        e["url"] for e in read_resources(directory)
        if e.get("status") and not e.get("skipped") and not e.get("failed")
        and e["url"] not in held
    )


def _response_http(ex: Exchange, length: int | None) -> StatusAndHeaders:
    """A correct HTTP/1.x head for a decoded body of ``length`` bytes (None: keep the length)."""
    headers = [(k, v) for k, v in ex.response_headers if not _rewritten(k)]
    if length is not None:
        headers.append(("Content-Length", str(length)))
    else:
        headers.extend((k, v) for k, v in ex.response_headers if k.lower() == "content-length")
    try:
        phrase = ex.status_text or http.HTTPStatus(ex.status).phrase
    except ValueError:
        phrase = "Unknown"
    version = "HTTP/1.0" if ex.http_version == "HTTP/1.0" else "HTTP/1.1"
    return StatusAndHeaders(f"{ex.status} {phrase}", headers, protocol=version)


def _rewritten(name: str) -> bool:
    """Headers rebuilt for the archived message, and HTTP/2 pseudo-headers."""
    return name.startswith(":") or name.lower() in _WIRE_HEADERS


def _tags(date: str, state_id: str | None, redacted: bool = False) -> dict[str, str]:
    """The WARC headers of an exchange's records; ``redacted``: a login's exchange whose
    secrets were taken out (``statecrawl.login.Secrets``)."""
    tags = {"WARC-Date": date}
    if redacted:
        tags[REDACTED_TAG] = "login"
    if state_id is not None:
        tags["WARC-Statecrawl-State"] = state_id
    return tags


def _warcinfo_fields(info: Mapping[str, Any]) -> dict[str, str]:
    try:
        version = metadata.version("statecrawl")
    except metadata.PackageNotFoundError:
        version = "unknown"
    fields: dict[str, Any] = {
        "software": f"statecrawl/{version}",
        "format": "WARC File Format 1.1",
        "conformsTo": "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/",
        **info,
    }
    return {
        str(name): value if isinstance(value, str) and "\n" not in value else json.dumps(value)
        for name, value in fields.items()
    }


def _next_serial(directory: Path, prefix: str) -> int:
    """One more than the highest serial already in ``directory``, so names never repeat."""
    pattern = re.compile(rf"{re.escape(prefix)}-\d{{14}}-(\d{{5,}})\.warc\.gz(\.open)?")
    serials = [
        int(match.group(1))
        for path in (directory.iterdir() if directory.is_dir() else ())
        if (match := pattern.fullmatch(path.name))
    ]
    return max(serials, default=-1) + 1


def _warc_date(timestamp: float | None = None) -> str:
    moment = datetime.fromtimestamp(timestamp, UTC) if timestamp else datetime.now(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _record_id(record: ArcWarcRecord) -> str:
    return record.rec_headers.get_header("WARC-Record-ID")


def _mime(ex: Exchange) -> str:
    return (ex.mime_type or ex.response_header("Content-Type") or "").split(";")[0].strip().lower()


def _int(value: str | None) -> int | None:
    return int(value) if value is not None and value.strip().isdigit() else None


def _add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


class Archiver(Plugin):
    """The crawl's archivist: every exchange, and every state's DOM, frames and screenshot
    (``archive.screenshots``: of every state, of none, or of the first state of each URL;
    in an incremental crawl, a URL the earlier crawl has a screenshot of has one).

    A browser's thread takes the pictures of the state it shows (each capture bounded by
    ``archive.capture_timeout``: one given up leaves the state without that picture, said in
    the log, on the state's node as ``missing_images`` and in its frames' record) and hands
    the writes to a :class:`~statecrawl.spool.Spool`, whose thread writes every record and
    file of the archive: no browser waits for a disk."""

    needs_network = True
    fatal = (ArchiveError,)  # an archive that cannot be written (a full disk) ends the crawl

    def __init__(self) -> None:
        self.writer: ArchiveWriter | None = None
        self.spool: Spool | None = None
        self.missing = 0  # states with a picture missing
        self._shot_urls: set[str] = set()  # "new-url": the URLs with a screenshot
        self._lock = threading.Lock()  # hooks run in every browser's thread

    def on_start(self, crawl: CrawlView) -> None:
        config = crawl.config
        info = {"start_urls": list(config.start_urls), "config": config.to_dict()}
        self.writer = ArchiveWriter(crawl.directory.path, config.archive, info)
        if config.resume:
            self._repair(crawl)
        baseline = crawl.baseline
        if baseline is not None:  # what the earlier crawl archived is referred to, not copied
            self.writer.seed(baseline.payloads, baseline.rebase)
            # "new-url": a URL the earlier crawl has a screenshot of has one
            nodes = baseline.graph.nodes(data=True)
            self._shot_urls = {
                baseline.rebase(n["url"]) for _, n in nodes if n.get("screenshot") and n.get("url")
            }
        self.spool = Spool("statecrawl-archive")  # from here, the archive's only writer

    def _repair(self, crawl: CrawlView) -> None:
        """Archive again, from ``states/``, every known state with a record in no WARC file
        (lost from a file cut short): its DOM, screenshot and how it was reached, but not
        its frames, which only the lost record held. Say which files were cut and what was
        lost, in the log and in ``graph.json``."""
        assert self.writer is not None
        graph = crawl.graph()
        archived = set(self.writer.archived_states)  # a recrawl's unchanged states: its chain's
        for path in chain.warc_files(crawl.directory.path, []):
            archived.update(p for h in archived_headers(path) if (p := state_part(h)) is not None)
        found = {}
        for node, attrs in graph.nodes(data=True):
            if attrs.get("kind") != "state":
                continue
            names = {node, *attrs.get("aliases", ())}
            parts = {part for name, part in archived if name in names}
            needed = {"snapshot", "frames", *(["screenshot"] if attrs.get("screenshot") else [])}
            if not needed <= parts:
                found[node] = attrs
        cuts = [
            f"{c.path.name} ended inside a record: cut back from {c.size} bytes to {c.end}"
            for c in self.writer.cuts
        ]
        if not found and not cuts:
            return
        lost = lost_captures(crawl.directory.path, self.writer.files)
        why = "a record of it was in no WARC file"
        for node, attrs in found.items():
            html = (crawl.directory.path / attrs["snapshot"]).read_text(encoding="utf-8")
            shot = crawl.directory.path / attrs["screenshot"] if attrs.get("screenshot") else None
            image = shot.read_bytes() if shot is not None and shot.is_file() else None
            small = crawl.directory.path / thumbnail_path(node)
            thumbnail = small.read_bytes() if small.is_file() else None
            parent, action = _way_in(graph, node)
            self.writer.write_state(node, node, attrs.get("url") or "", html, None, image,
                                    parent, action, rearchived=why, thumbnail=thumbnail)
        repairs = [*cuts, f"{len(found)} states archived again from states/ ({why})"]
        if lost:
            repairs.append(f"the captures of {len(lost)} URLs are lost: {', '.join(lost[:3])}"
                           + (" …" if len(lost) > 3 else ""))
        log.warning("archive repaired: %s", "; ".join(repairs))
        crawl.record("archive_repairs", repairs)

    def on_state(
        self,
        crawl: CrawlView,
        state: State,
        snapshot: Snapshot,
        browser: Browser | None,
        parent: str | None,
        action: Action | None,
    ) -> None:
        assert self.writer is not None and self.spool is not None
        writer = self.writer
        earlier = crawl.baseline.records.get(state.key) if crawl.baseline else None
        if earlier is not None and payload_digest(snapshot.html.encode("utf-8")) == earlier.digest:
            # The state as the earlier crawl archived it: a revisit, and no new screenshot.
            self.spool.put(functools.partial(
                writer.write_unchanged_state, state.id, state.key, state.url, earlier))
            return
        settings = crawl.config.archive
        # An unchanged state whose DOM differs in its volatile parts only (a clock) is archived
        # in full, as its bytes are new, but gets no new screenshot.
        shoots = earlier is None and self._shoots(settings.screenshots, state.url)
        if browser is None:  # a browser of another process (a Dask worker) took them
            missing = {part: why for part, why in snapshot.missing_images.items()
                       if part != "screenshot" or shoots}  # fmt: skip
            images = Images(snapshot.screenshot if shoots else None, snapshot.thumbnail, missing)
        else:
            images = take(browser, settings, shoots)
        attrs: dict[str, Any] = {}
        if images.screenshot is not None:
            attrs["screenshot"] = crawl.directory.screenshot_path(
                state.id, settings.screenshot_format
            )
        if images.missing:
            attrs["missing_images"] = images.missing
            self._missed(state, images.missing)
        if attrs:
            crawl.annotate(state.id, **attrs)
        described = None
        if action is not None:
            fields = ("name", "status", "event", "action")
            described = {**dict(zip(fields, action.as_tuple(), strict=True)), "key": action.key}
        self.spool.put(functools.partial(
            self._write_state, crawl.directory, state, snapshot, images, parent, described))

    def _write_state(
        self,
        directory: CrawlDirectory,
        state: State,
        snapshot: Snapshot,
        images: Images,
        parent: str | None,
        action: dict[str, Any] | None,
    ) -> None:
        """Write a state's pictures into ``directory`` and its records (in the spool's
        thread)."""
        assert self.writer is not None
        image_format = self.writer.settings.screenshot_format
        if images.screenshot is not None:
            directory.write_screenshot(state.id, images.screenshot, image_format)
        if images.thumbnail is not None:
            directory.write_thumbnail(state.id, images.thumbnail)
        self.writer.write_state(
            state.id, state.key, state.url, snapshot.html, snapshot.frames, images.screenshot,
            parent, action, thumbnail=images.thumbnail, missing=images.missing,
        )

    def _missed(self, state: State, missing: Mapping[str, str]) -> None:
        """Count and log the pictures ``state`` has none of."""
        with self._lock:
            self.missing += 1
        for part, why in missing.items():
            log.warning("state %s (%s) has no %s: %s", state.id, state.url, part, why)

    def _shoots(self, mode: str, url: str) -> bool:
        """Whether a new state at ``url`` gets a screenshot in screenshots ``mode``; with
        "new-url", the first state at a URL in this run does, whichever browser found it."""
        if mode != "new-url":
            return mode == "all"
        with self._lock:
            first = url not in self._shot_urls
            self._shot_urls.add(url)
        return first

    def on_exchanges(self, crawl: CrawlView, state: str | None, exchanges: list[Exchange]) -> None:
        assert self.spool is not None
        self.spool.put(functools.partial(self._write_exchanges, state, exchanges))

    def _write_exchanges(self, state: str | None, exchanges: list[Exchange]) -> None:
        """Archive ``exchanges`` (in the spool's thread)."""
        assert self.writer is not None
        for exchange in exchanges:
            self.writer.write_exchange(exchange, state)

    def on_finish(self, crawl: CrawlView) -> None:
        """Wait for the writes handed over, then close the archive."""
        if self.writer is None:
            return
        try:
            if self.spool is not None:
                self.spool.close()
        finally:
            self.writer.close()
            files = [p.name for p in self.writer.files]
            counts = {**dataclasses.asdict(self.writer.stats), "missing_images": self.missing}
            crawl.record("archive", {**counts, "files": files})
