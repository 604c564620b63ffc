"""WARC/1.1 archive of a crawl: network exchanges, state snapshots, frames and screenshots.

Records are built with warcio and written gzip-per-record to ``OUT/archive/*.warc.gz`` (named
``*.warc.gz.open`` until closed, each file starting with a warcinfo record), so any complete record
survives a killed crawl. ``OUT/resources.jsonl`` indexes every URL the crawl met.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import hashlib
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

from .config import Archive
from .errors import ArchiveError, one_line
from .layout import ARCHIVE, RESOURCES, SCREENSHOT_TYPES, atomic_write
from .network import Exchange
from .plugin import CrawlView, Plugin

if TYPE_CHECKING:
    from .browser import Browser
    from .state import Action, Snapshot, State

log = logging.getLogger(__name__)
REVISIT_PROFILE = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
CACHED_BODY = "served from the browser cache; the body was captured earlier"

# Headers that describe the wire encoding; CDP hands back decoded bodies, so they are rewritten.
_WIRE_HEADERS = {"content-encoding", "transfer-encoding", "content-length"}
_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_CSS_REF = re.compile(
    r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')""",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Seen:
    """A payload already archived: what later identical captures refer to."""

    url: str
    digest: str
    record_id: str
    date: str


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
        self._files = recover(self._archive_dir)
        for path in self._files:
            for entry in archived_payloads(path):
                self._remember(entry)
        if (self.directory / RESOURCES).is_file():
            self._resources = {e["url"]: e for e in read_resources(self.directory)}

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
    ) -> None:
        """Archive a state: its DOM as a resource, its frames as metadata, its screenshot
        (an image in ``settings.screenshot_format``, or ``None``). The records are built and
        compressed before the lock is taken: other browsers wait for the append only."""
        records = []
        if self.settings.enabled:
            try:
                details = json.dumps(
                    {"parent": parent, "action": action, "frames": frames}, ensure_ascii=False
                ).encode("utf-8")
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

    def write_resources(self) -> None:
        """Rewrite ``resources.jsonl`` atomically (done at every roll and on close)."""
        with self._lock:
            self._save_resources()

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
        tags = _tags(date, state_id)
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

    def _write_duplicate(self, ex: Exchange, earlier: Seen, state_id: str | None) -> None:
        dedup = self.settings.dedup
        if dedup == "skip" or (dedup == "state" and state_id is None):
            self._stats.skipped += 1
            return
        date = _warc_date(ex.started)
        tags = _tags(date, state_id)
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
        tags = {**_tags(date, state_id), "WARC-Refers-To": _record_id(request)}
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
            headers.insert(0, ("Host", parts.netloc))
        if ex.request_body is not None:
            headers.append(("Content-Length", str(len(body))))
        tags = _tags(date, state_id)
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
        lines = "".join(
            json.dumps(entry, ensure_ascii=False) + "\n" for entry in self._resources.values()
        )
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


def recover(directory: Path) -> list[Path]:
    """Close the WARC files a killed run left open in ``directory``, each cut after its last
    whole record; return every WARC file there, oldest first."""
    for path in sorted(directory.glob("*.warc.gz.open")):
        try:
            with path.open("r+b") as stream:
                end = _whole_members(stream)
                log.info("closing %s, left open by a killed run, at byte %d", path.name, end)
                stream.truncate(end)
            os.replace(path, path.with_suffix(""))
        except OSError as exc:
            raise ArchiveError(f"cannot recover WARC file {path}: {_reason(exc)}") from None
    return sorted(directory.glob("*.warc.gz"), key=lambda p: p.name.rsplit("-", 1)[-1])


def _whole_members(stream: BinaryIO) -> int:
    """Where the last whole gzip member of ``stream`` ends: each record is one member, so a
    record cut short by a kill is the member that never reaches its end."""
    end = position = 0
    member = zlib.decompressobj(wbits=31)
    while chunk := stream.read(1 << 20):
        while chunk:
            try:
                member.decompress(chunk)
            except zlib.error:
                return end
            if not member.eof:
                position += len(chunk)
                break
            position += len(chunk) - len(member.unused_data)
            end = position
            chunk = member.unused_data
            member = zlib.decompressobj(wbits=31)
    return end


def archived_payloads(path: Path) -> Iterator[Seen]:
    """The payloads ``path`` holds in response records: what a later capture refers to."""
    try:
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream):
                headers = record.rec_headers
                digest = headers.get_header("WARC-Payload-Digest")
                if record.rec_type == "response" and digest:
                    yield Seen(
                        headers.get_header("WARC-Target-URI"),
                        digest,
                        headers.get_header("WARC-Record-ID"),
                        headers.get_header("WARC-Date"),
                    )
    except (OSError, ArchiveLoadFailed) as exc:
        raise ArchiveError(f"cannot read WARC file {path}: {exc}") from None


def read_resources(directory: Path | str) -> list[dict[str, Any]]:
    """The resource index of a crawl directory, one dict per URL."""
    path = Path(directory) / RESOURCES
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ArchiveError(
            f"no resource index at {path}: is {directory} a crawl directory?"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ArchiveError(f"cannot read resource index {path}: {exc}") from None
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise ArchiveError(f"{path}:{number}: not a JSON line: {exc}") from None
    return entries


def payload_digest(payload: bytes) -> str:
    """The WARC payload digest of ``payload``: ``sha1:`` + base32 of the SHA-1."""
    return "sha1:" + base64.b32encode(hashlib.sha1(payload).digest()).decode("ascii")


def css_references(css: str, base_url: str) -> list[str]:
    """Absolute http(s) URLs a stylesheet names in ``url(...)`` and ``@import``, in order."""
    found: list[str] = []
    for match in _CSS_REF.finditer(_CSS_COMMENT.sub("", css)):
        reference = next((group for group in match.groups() if group is not None), "").strip()
        if not reference or reference.startswith("#"):
            continue
        url = urldefrag(urljoin(base_url, reference)).url
        if url.startswith(("http://", "https://")):
            _add(found, url)
    return found


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


def _tags(date: str, state_id: str | None) -> dict[str, str]:
    tags = {"WARC-Date": date}
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
    in an incremental crawl, a URL the earlier crawl has a screenshot of has one)."""

    needs_network = True

    def __init__(self) -> None:
        self.writer: ArchiveWriter | None = None
        self._shot_urls: set[str] = set()  # "new-url": the URLs with a screenshot
        self._shot_lock = threading.Lock()  # hooks run in every browser's thread

    def on_start(self, crawl: CrawlView) -> None:
        config = crawl.config
        info = {"start_urls": list(config.start_urls), "config": config.to_dict()}
        self.writer = ArchiveWriter(crawl.directory.path, config.archive, info)
        baseline = crawl.baseline
        if baseline is not None:  # what the earlier crawl archived is referred to, not copied
            self.writer.seed(baseline.payloads, baseline.rebase)
            # "new-url": a URL the earlier crawl has a screenshot of has one
            nodes = baseline.graph.nodes(data=True)
            self._shot_urls = {
                baseline.rebase(n["url"]) for _, n in nodes if n.get("screenshot") and n.get("url")
            }

    def on_state(
        self,
        crawl: CrawlView,
        state: State,
        snapshot: Snapshot,
        browser: Browser | None,
        parent: str | None,
        action: Action | None,
    ) -> None:
        assert self.writer is not None
        earlier = crawl.baseline.records.get(state.key) if crawl.baseline else None
        if earlier is not None and payload_digest(snapshot.html.encode("utf-8")) == earlier.digest:
            # The state as the earlier crawl archived it: a revisit, and no new screenshot.
            self.writer.write_unchanged_state(state.id, state.key, state.url, earlier)
            return
        settings = crawl.config.archive
        image = None
        # An unchanged state whose DOM differs in its volatile parts only (a clock) is archived
        # in full, as its bytes are new, but gets no new screenshot.
        if earlier is None and self._shoots(settings.screenshots, state.url):
            # A browser of another process (a Dask worker) took it with the snapshot.
            image = snapshot.screenshot
            if image is None and browser is not None:
                image = browser.screenshot(settings.screenshot_format, settings.screenshot_quality)
        if image is not None:
            relative = crawl.directory.write_screenshot(state.id, image, settings.screenshot_format)
            crawl.annotate(state.id, screenshot=relative)
        described = None
        if action is not None:
            fields = ("name", "status", "event", "action")
            described = {**dict(zip(fields, action.as_tuple(), strict=True)), "key": action.key}
        self.writer.write_state(
            state.id, state.key, state.url, snapshot.html, snapshot.frames, image, parent, described
        )

    def _shoots(self, mode: str, url: str) -> bool:
        """Whether a new state at ``url`` gets a screenshot in screenshots ``mode``; with
        "new-url", the first state at a URL in this run does, whichever browser found it."""
        if mode != "new-url":
            return mode == "all"
        with self._shot_lock:
            first = url not in self._shot_urls
            self._shot_urls.add(url)
        return first

    def on_exchanges(self, crawl: CrawlView, state: str | None, exchanges: list[Exchange]) -> None:
        assert self.writer is not None
        for exchange in exchanges:
            self.writer.write_exchange(exchange, state)

    def on_finish(self, crawl: CrawlView) -> None:
        if self.writer is None:
            return
        self.writer.close()
        files = [p.name for p in self.writer.files]
        crawl.record("archive", {**dataclasses.asdict(self.writer.stats), "files": files})
