"""The WARC files of a crawl's archive: written one after the other (``*.warc.gz.open`` until
closed, each starting with a warcinfo record, rolled at ``archive.roll_size``), and those an
earlier run left closed, any cut back to its last whole record."""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from ..config import Archive
from ..errors import ArchiveError
from .members import whole_members
from .warc import BUILDER, reason, serialize

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Cut:
    """A WARC file that ended inside a record, cut back to its last whole record."""

    path: Path
    end: int  # where it ends now
    size: int  # where it ended


class WarcFiles:
    """The WARC files of the archive in ``directory``: what earlier runs left (recovered
    first: ``cuts`` says which were cut), then the files written here, named with
    ``settings.prefix`` and a serial that never repeats. Counts the ``records`` and
    ``bytes`` it writes. Not thread-safe: its writer locks."""

    def __init__(self, directory: Path, settings: Archive, info: Mapping[str, Any]) -> None:
        self.directory = directory
        self.settings = settings
        self.records = 0
        self.bytes = 0
        self._info = _warcinfo_fields(info)
        self._file: io.FileIO | None = None
        self._path: Path | None = None
        self._size = 0
        self._serial = _next_serial(directory, settings.prefix)
        self._closed, self.cuts = recover(directory)

    @property
    def paths(self) -> list[Path]:
        """Every WARC file, oldest first (the current one still ends in ``.open``)."""
        return [*self._closed, *([self._path] if self._path else [])]

    def write(self, data: bytes, records: int) -> bool:
        """Append ``records`` records, serialized as ``data``, to the current file in one
        write; say whether that filled the file, which was then closed."""
        if self._file is None:
            self._open()
        self._append(data, records)
        if self._size < self.settings.roll_size:
            return False
        self.close()
        return True

    def close(self) -> None:
        """Finish the current file, if one is open: close it and drop ``.open``."""
        if self._file is None or self._path is None:
            return
        path, self._path = self._path, None
        file, self._file = self._file, None
        final = path.with_suffix("")
        try:
            file.close()
            os.replace(path, final)
        except OSError as exc:
            raise ArchiveError(f"cannot finish WARC file {path}: {reason(exc)}") from None
        self._closed.append(final)

    def _open(self) -> None:
        stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
        name = f"{self.settings.prefix}-{stamp}-{self._serial:05d}.warc.gz"
        path = self.directory / f"{name}.open"
        try:
            self._file = io.FileIO(path, "w")
        except OSError as exc:
            raise ArchiveError(f"cannot create WARC file {path}: {reason(exc)}") from None
        self._path = path
        self._size = 0
        self._serial += 1
        self._append(serialize([BUILDER.create_warcinfo_record(name, self._info)]), 1)

    def _append(self, data: bytes, records: int) -> None:
        assert self._file is not None and self._path is not None
        view = memoryview(data)
        start = self._size
        try:
            while view:
                view = view[self._file.write(view) :]
        except OSError as exc:
            self._rewind(start)
            raise ArchiveError(f"cannot write WARC file {self._path}: {reason(exc)}") from None
        self._size += len(data)
        self.bytes += len(data)
        self.records += records

    def _rewind(self, size: int) -> None:
        """Cut a partly written record so the file still ends on a record boundary."""
        assert self._file is not None
        with contextlib.suppress(OSError):  # if this fails too, earlier records stay readable
            self._file.truncate(size)
            self._file.seek(size)


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
                end = whole_members(stream)
                if end < size:
                    log.info("cutting %s back to its last whole record, at byte %d", path, end)
                    stream.truncate(end)
                    if path.suffix != ".open":
                        cuts.append(Cut(path, end, size))
            if path.suffix == ".open":
                os.replace(path, path.with_suffix(""))
        except OSError as exc:
            raise ArchiveError(f"cannot recover WARC file {path}: {reason(exc)}") from None
    files = sorted(directory.glob("*.warc.gz"), key=lambda p: p.name.rsplit("-", 1)[-1])
    return files, cuts


def _next_serial(directory: Path, prefix: str) -> int:
    """One more than the highest serial already in ``directory``, so names never repeat."""
    pattern = re.compile(rf"{re.escape(prefix)}-\d{{14}}-(\d{{5,}})\.warc\.gz(\.open)?")
    serials = [
        int(match.group(1))
        for path in (directory.iterdir() if directory.is_dir() else ())
        if (match := pattern.fullmatch(path.name))
    ]
    return max(serials, default=-1) + 1


def _warcinfo_fields(info: Mapping[str, Any]) -> dict[str, str]:
    """The warcinfo record's fields: the software and format, then ``info`` (values that are
    not one line of text as JSON)."""
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
