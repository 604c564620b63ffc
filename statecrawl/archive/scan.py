"""A WARC file read to its end for ``verify --integrity``: every record with its block and
payload digests checked, and each damaged or cut member reported where it is."""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed
from warcio.statusandheaders import StatusAndHeaders

from ..directory.resources import payload_digest
from ..errors import ArchiveError
from .members import Member, members
from .warc import reason


@dataclass(frozen=True, slots=True)
class Record:
    """What a WARC record says of itself, and whether its digests match its bytes."""

    offset: int
    headers: StatusAndHeaders
    problems: tuple[str, ...]

    def header(self, name: str) -> str:
        """The value of WARC header ``name`` ("" when absent)."""
        return self.headers.get_header(name) or ""

    def __str__(self) -> str:
        return f"record {self.header('WARC-Record-ID')} ({self.header('WARC-Type')} " + (
            f"{self.header('WARC-Target-URI')}, offset {self.offset})"
        )


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
        raise ArchiveError(f"cannot read WARC file {path}: {reason(exc)}") from None


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
