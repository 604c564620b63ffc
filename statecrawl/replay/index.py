"""An index of a crawl's WARC records, to answer a request from the archive.

Every response (or revisit) record is paired with its request record (``WARC-Concurrent-To``)
into a :class:`Capture`: method, URL and request body on one side, status, headers and where
the payload lies on the other. Payloads stay in the WARC files and are read when served, so an
index costs memory per exchange, not per byte archived.

:meth:`ArchiveIndex.lookup` finds the capture that answers a request, as pywb does: first on
method, URL and request body exactly; then with the volatile parameters of the query and of a
form or JSON body left out (cache busters, timestamps, random tokens), every other parameter
still equal. A capture that cannot answer (a ``304 Not Modified``, a body the browser never
handed over) is passed over for another one of the same request.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urldefrag, urlsplit

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed
from warcio.recordloader import ArcWarcRecord

from ..directory import chain
from ..directory.layout import ARCHIVE
from ..directory.resources import BODY_ERROR_TAG, snapshot_url
from ..errors import ArchiveError

Headers = list[tuple[str, str]]

# Query and body parameters that name no resource: their values change at every request.
VOLATILE_NAMES = frozenset(
    {"_", "_dc", "_t", "_ts", "bust", "cachebust", "cachebuster", "cache_buster", "cb",
     "nc", "nocache", "nonce", "r", "rand", "random", "rnd", "t", "time", "timestamp", "ts"}
)  # fmt: skip
# Values that look generated per request whatever their name: epoch seconds or milliseconds,
# random fractions, uuids, long hex runs.
VOLATILE_VALUE = re.compile(
    r"\d{10,}|0?\.\d{6,}|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}|[0-9a-f]{16,}", re.I
)
# JSONP callbacks: the recorded name is put back to the requested one when served.
CALLBACK_NAMES = ("callback", "jsoncallback", "jsonp")
UNUSABLE_STATUS = (304,)  # says "use your cached copy", which a fresh browser does not have


@dataclass(frozen=True, slots=True)
class Location:
    """Where a record lies: a WARC file and the offset of its (gzip) member."""

    path: Path
    offset: int


@dataclass(slots=True)
class Capture:
    """One archived exchange: the request as sent and the response as recorded."""

    method: str
    url: str
    body: bytes
    status: int
    reason: str
    headers: Headers
    payload: Location | None  # None: the payload was not archived
    record_id: str
    date: str
    state: str | None
    content_type: str = ""  # the request's

    @property
    def usable(self) -> bool:
        """Whether this capture can answer a request: it has a payload (a redirect needs
        none: Chromium gives no body of one to archive) and a real status."""
        return (self.payload is not None or self.redirect) and self.status not in UNUSABLE_STATUS

    @property
    def redirect(self) -> bool:
        """Whether this capture is a redirect: a 3xx status with a ``Location``."""
        return 300 <= self.status < 400 and self.header("Location") is not None

    def header(self, name: str) -> str | None:
        name = name.lower()
        return next((v for k, v in self.headers if k.lower() == name), None)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The resource record of a state's DOM snapshot."""

    state: str
    key: str
    url: str
    record_id: str
    date: str
    location: Location
    length: int


@dataclass(slots=True)
class _Response:
    url: str
    status: int
    reason: str
    headers: Headers
    location: Location
    date: str
    state: str | None
    has_payload: bool
    refers_to: str | None  # a revisit's original record


class ArchiveIndex:
    """The captures and state snapshots of a crawl directory's ``archive/*.warc.gz``."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self.captures: list[Capture] = []
        self.snapshots: dict[str, Snapshot] = {}
        self.files = warc_files(self.directory)
        self._exact: dict[tuple[str, str, str], list[Capture]] = {}
        self._fuzzy: dict[tuple[str, str, tuple[tuple[str, str], ...]], list[Capture]] = {}
        self._read()

    # -- lookup --------------------------------------------------------------------------------

    def lookup(
        self,
        method: str,
        url: str,
        body: bytes = b"",
        content_type: str = "",
        *,
        prefer: Collection[str] = (),
    ) -> tuple[Capture | None, bool]:
        """The capture answering a request, and whether it was matched fuzzily.

        ``prefer`` names states whose captures win over others of the same request: the
        exchanges recorded on the way to the state being replayed.
        """
        method = method.upper()
        url = urldefrag(url).url
        exact = self._exact.get((method, url, _digest(body)), [])
        found = _best(exact, prefer)
        if found is not None:
            return found, False
        fuzzy = self._fuzzy.get((method, *_fuzzy_key(url, body, content_type)), [])
        return _best(fuzzy, prefer), True

    def urls(self) -> set[str]:
        """Every URL with a capture that can be served to a GET."""
        return {c.url for c in self.captures if c.method == "GET" and c.usable}

    def payload(self, capture: Capture) -> bytes:
        """The recorded payload of ``capture`` (read from its WARC file; none of a redirect
        archived without its body)."""
        if capture.payload is None:
            if capture.redirect:
                return b""
            raise ArchiveError(f"no payload archived for {capture.url}")
        return read_payload(capture.payload)

    def resource(self, url: str) -> tuple[str, bytes] | None:
        """The MIME type (lower case, no parameters) and payload of the archived successful
        GET of ``url``; ``None`` when the archive has none."""
        capture, _ = self.lookup("GET", url)
        if capture is None or not 200 <= capture.status < 300:
            return None
        mime = (capture.header("Content-Type") or "").split(";")[0].strip().lower()
        return mime, self.payload(capture)

    # -- reading -------------------------------------------------------------------------------

    def _read(self) -> None:
        responses: dict[str, _Response] = {}
        requests: dict[str, tuple[str, bytes, str]] = {}
        for path in self.files:
            for record, body, location in _records(path):
                self._take(record, body, location, responses, requests)
        for record_id, response in responses.items():
            if record_id not in requests:
                continue  # a response with no request: nothing to match it on
            method, body, content_type = requests[record_id]
            payload = response.location if response.has_payload else None
            if response.refers_to is not None:
                original = responses.get(response.refers_to)
                payload = original.location if original and original.has_payload else None
            capture = Capture(
                method=method,
                url=response.url,
                body=body,
                status=response.status,
                reason=response.reason,
                headers=response.headers,
                payload=payload,
                record_id=record_id,
                date=response.date,
                state=response.state,
                content_type=content_type,
            )
            self._add(capture)
        self.captures.sort(key=lambda c: c.date)
        for table in (self._exact, self._fuzzy):
            for captures in table.values():
                captures.sort(key=lambda c: c.date)

    def _take(
        self,
        record: ArcWarcRecord,
        body: bytes,
        location: Location,
        responses: dict[str, _Response],
        requests: dict[str, tuple[str, bytes, str]],
    ) -> None:
        headers = record.rec_headers
        kind = record.rec_type
        record_id = headers.get_header("WARC-Record-ID") or ""
        url = headers.get_header("WARC-Target-URI") or ""
        if kind in ("response", "revisit") and record.http_headers is not None:
            http = record.http_headers
            status = int(http.get_statuscode() or 0)
            reason = http.statusline.partition(" ")[2]
            body_error = headers.get_header(BODY_ERROR_TAG)
            responses[record_id] = _Response(
                url=url,
                status=status,
                reason=reason,
                headers=list(http.headers),
                location=location,
                date=headers.get_header("WARC-Date") or "",
                state=headers.get_header("WARC-Statecrawl-State"),
                has_payload=kind == "response" and body_error is None,
                refers_to=headers.get_header("WARC-Refers-To") if kind == "revisit" else None,
            )
        elif kind == "request" and record.http_headers is not None:
            concurrent = headers.get_header("WARC-Concurrent-To")
            if concurrent:
                method = record.http_headers.protocol.upper()
                content_type = record.http_headers.get_header("Content-Type") or ""
                requests[concurrent] = (method, body, content_type)
        elif kind == "resource" and headers.get_header("WARC-Statecrawl-Key"):
            state = headers.get_header("WARC-Statecrawl-State") or ""
            self.snapshots[state] = Snapshot(
                state=state,
                key=headers.get_header("WARC-Statecrawl-Key") or "",
                url=snapshot_url(headers),
                record_id=record_id,
                date=headers.get_header("WARC-Date") or "",
                location=location,
                length=int(headers.get_header("Content-Length") or 0),
            )

    def _add(self, capture: Capture) -> None:
        url = urldefrag(capture.url).url
        self.captures.append(capture)
        exact = (capture.method, url, _digest(capture.body))
        self._exact.setdefault(exact, []).append(capture)
        key = _fuzzy_key(url, capture.body, capture.content_type)
        self._fuzzy.setdefault((capture.method, *key), []).append(capture)


def warc_files(directory: Path) -> list[Path]:
    """The WARC files of a crawl directory in the order written (an unfinished ``.open`` one
    of a killed crawl included), after its baselines'; an ``ArchiveError`` when there are
    none."""
    folder = Path(directory) / ARCHIVE
    files = (
        sorted(
            p for p in folder.glob("*.warc.gz*") if p.name.endswith((".warc.gz", ".warc.gz.open"))
        )
        if folder.is_dir()
        else []
    )
    files = chain.warc_files(Path(directory), files)  # a recrawl's revisits refer to them
    if not files:
        raise ArchiveError(f"no WARC files in {folder}: was {directory} crawled with an archive?")
    return files


def read_payload(location: Location) -> bytes:
    """The payload (HTTP body, or the block of a resource record) of the record at
    ``location``."""
    try:
        with location.path.open("rb") as stream:
            stream.seek(location.offset)
            record = next(iter(ArchiveIterator(stream)))
            payload: bytes = record.content_stream().read()
            return payload
    except (OSError, StopIteration, ArchiveLoadFailed) as exc:
        raise ArchiveError(
            f"cannot read the record at {location.path}:{location.offset}: {exc or 'no record'}"
        ) from None


def _records(path: Path) -> Iterator[tuple[ArcWarcRecord, bytes, Location]]:
    """Every record of a WARC file with its location, and a request record's body (read
    first: asking for a record's offset reads the record to its end). A damaged tail (a
    killed crawl's last record) ends the file."""
    try:
        with path.open("rb") as stream:
            records = ArchiveIterator(stream)
            for record in records:
                body = record.content_stream().read() if record.rec_type == "request" else b""
                yield record, body, Location(path, records.get_record_offset())
    except (ArchiveLoadFailed, EOFError, OSError, ValueError):
        return


def _digest(body: bytes) -> str:
    return hashlib.sha1(body).hexdigest()


def volatile(name: str, value: str) -> bool:
    """Whether a query or body parameter looks generated per request (a cache buster, a
    timestamp, a random token): left out when requests are matched fuzzily."""
    return name.lower() in VOLATILE_NAMES or bool(VOLATILE_VALUE.fullmatch(value))


def _fuzzy_key(url: str, body: bytes, content_type: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The URL without its query, and the query's and body's parameters that are not
    volatile (a body that is neither a form nor JSON counts whole)."""
    parts = urlsplit(url)
    base = parts._replace(query="", fragment="").geturl()
    params = [("?" + k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)]
    params += [("=" + k, v) for k, v in _body_params(body, content_type)]
    kept = tuple(sorted((k, v) for k, v in params if not volatile(k[1:], v)))
    return base, kept


def _body_params(body: bytes, content_type: str) -> list[tuple[str, str]]:
    if not body:
        return []
    mime = content_type.split(";")[0].strip().lower()
    text = body.decode("utf-8", "replace")
    if mime == "application/x-www-form-urlencoded":
        return parse_qsl(text, keep_blank_values=True)
    if mime.endswith("json") or text.lstrip().startswith("{"):
        try:
            data: Any = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict):
            return [(str(k), _json_value(v)) for k, v in data.items()]
    return [("", "body " + _digest(body))]


def _json_value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def _best(captures: list[Capture], prefer: Collection[str]) -> Capture | None:
    """The usable capture recorded on the way to the last preferred state, else the first."""
    usable = [c for c in captures if c.usable]
    for state in reversed(list(prefer)):
        for capture in usable:
            if capture.state == state:
                return capture
    return usable[0] if usable else None
