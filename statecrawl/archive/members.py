"""The gzip members of a WARC file, one record each: read one after the other up to the first
that cannot be read, so a file cut short or damaged is found where it goes wrong."""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO


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


def whole_members(stream: BinaryIO) -> int:
    """Where the last whole gzip member of ``stream`` ends: each record is one member, so a
    record cut short by a kill is the member that never reaches its end."""
    end = 0
    for member in members(stream):
        if member.data is None:
            break
        end = member.end
    return end


def _named(parts: list[bytes]) -> str:
    """The record a partly read member begins, as far as its header tells."""
    head = b"".join(parts)[:4096]
    found = re.search(rb"WARC-Record-ID: *(<[^>\r\n]*>)", head)
    return f" record {found.group(1).decode('ascii', 'replace')}" if found else " a record"
