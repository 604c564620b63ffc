"""The archive's writer: every record of a crawl into its WARC files, each payload archived once
(later captures of it are revisits, across runs too), and the resource index kept with them."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from warcio.recordloader import ArcWarcRecord

from ..browser.network import CANCELLED, Exchange
from ..config import Archive
from ..directory.layout import ARCHIVE
from ..directory.resources import Seen, archived_headers, payload, payload_digest
from ..errors import ArchiveError
from . import exchanges
from .files import WarcFiles
from .index import ResourceIndex
from .reading import state_part
from .states import state_records, unchanged_state_record
from .warc import reason, record_id, serialize, warc_date


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
        self._seen: dict[tuple[str, str], Seen] = {}
        self._latest: dict[str, Seen] = {}
        self._stats = ArchiveStats()
        self._lock = threading.Lock()
        self._closed = False
        archive_dir = self.directory / ARCHIVE
        target = archive_dir if settings.enabled else self.directory
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ArchiveError(
                f"cannot create archive directory {target}: {reason(exc)}"
            ) from None
        # What an earlier run of this crawl left: its files are closed (a killed run's last one
        # cut to its last whole record), its payloads are known, its index goes on.
        self._files = WarcFiles(archive_dir, settings, info)
        self.cuts = self._files.cuts
        # (state, part) of each state's record earlier runs archived, by the id it had then
        self.archived_states: set[tuple[str, str]] = set()
        for path in self._files.paths:
            for headers in archived_headers(path):
                if (entry := payload(headers)) is not None:
                    self._remember(entry)
                if (part := state_part(headers)) is not None:
                    self.archived_states.add(part)
        self._index = ResourceIndex(self.directory)  # a recrawl's lists its changes only

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
            return dataclasses.replace(
                self._stats, records=self._files.records, bytes=self._files.bytes
            )

    @property
    def files(self) -> list[Path]:
        """The WARC files written so far (the current one still ends in ``.open``)."""
        with self._lock:
            return self._files.paths

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
        """Archive one exchange: request + response, a revisit, or request + error metadata;
        nothing for a request cancelled before any answer (``ERR_ABORTED``: the page left, or
        the browser dropped its own favicon fetch), which exchanged nothing."""
        if not ex.status and ex.failed and CANCELLED in ex.failed:
            return
        with self._lock:
            self._check_open()
            entry = self._index.add(ex, state_id)
            entry["skipped"] = skipped = exchanges.skip_reason(ex, self.settings)
            if skipped:
                self._stats.skipped += 1
                return
            if not self.settings.enabled:
                return
            date = warc_date(ex.started)
            if ex.url.startswith("blob:") and ex.body is not None:
                self._write_blob(ex, date, state_id)
                return
            if ex.failed or not ex.status:
                self._write_records(exchanges.failure(ex, date, state_id))
                return
            if ex.body is None:
                earlier = self._latest.get(ex.url) if ex.from_cache and not ex.body_error else None
                if earlier is not None:
                    self._write_duplicate(ex, earlier, date, state_id)
                else:
                    self._write_capture(ex, None, date, state_id)
                return
            digest = payload_digest(ex.body)
            earlier = self._seen.get((ex.url, digest))
            if earlier is not None:
                self._write_duplicate(ex, earlier, date, state_id)
            else:
                self._write_capture(ex, digest, date, state_id)

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
            records = state_records(
                state_id, key, url, html, frames, screenshot, self.settings.screenshot_format,
                parent, action, rearchived=rearchived, thumbnail=thumbnail, missing=missing,
            )
        data = serialize(records)
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
            self._write_records([unchanged_state_record(state_id, key, url, earlier)])
            self._stats.revisits += 1

    def close(self) -> None:
        """Finish the current WARC file (drop ``.open``) and write the resource index."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                self._files.close()
            finally:
                self._index.save()

    def _write_capture(
        self, ex: Exchange, digest: str | None, date: str, state_id: str | None
    ) -> None:
        records = exchanges.capture(ex, digest, date, state_id)
        self._write_records(records)
        if digest is not None:
            self._remember(Seen(ex.url, digest, record_id(records[0]), date))
            self._stats.unique_payload_bytes += len(ex.body or b"")

    def _write_duplicate(
        self, ex: Exchange, earlier: Seen, date: str, state_id: str | None
    ) -> None:
        dedup = self.settings.dedup
        if dedup == "skip" or (dedup == "state" and state_id is None):
            self._stats.skipped += 1
            return
        self._write_records(exchanges.duplicate(ex, earlier, date, state_id))
        self._stats.revisits += 1

    def _write_blob(self, ex: Exchange, date: str, state_id: str | None) -> None:
        """A page-made document: archived once, its later copies revisits of the first."""
        assert ex.body is not None
        digest = payload_digest(ex.body)
        earlier = self._seen.get(("blob:", digest))
        record = exchanges.blob(ex, digest, earlier, date, state_id)
        self._write_records([record])
        if earlier is not None:
            self._stats.revisits += 1
            return
        self._seen[("blob:", digest)] = Seen(ex.url, digest, record_id(record), date)
        self._stats.unique_payload_bytes += len(ex.body)

    def _remember(self, entry: Seen, url: str | None = None) -> None:
        self._seen[(url or entry.url, entry.digest)] = entry
        self._latest[url or entry.url] = entry

    def _write_records(self, records: list[ArcWarcRecord]) -> None:
        self._write(serialize(records), len(records))

    def _write(self, data: bytes, records: int) -> None:
        """Append ``records`` records, serialized as ``data``; a file that rolls over
        saves the resource index with it."""
        if self._files.write(data, records):
            self._index.save()

    def _check_open(self) -> None:
        if self._closed:
            raise ArchiveError(f"the archive writer for {self.directory} is already closed")
