"""What every record of the archive is made with: the WARC/1.1 record builder, dates, record
ids, statecrawl's own header names, and the gzip-per-record serialization."""

from __future__ import annotations

import io
from datetime import UTC, datetime

from warcio.recordbuilder import RecordBuilder
from warcio.recordloader import ArcWarcRecord
from warcio.warcwriter import WARCWriter

REDACTED_TAG = "WARC-Statecrawl-Redacted"  # on the records of a login's redacted exchanges
DOWNLOAD_TAG = "WARC-Statecrawl-Download"  # on a document's records: the file name it was saved as

BUILDER = RecordBuilder(warc_version="1.1")  # builds records; ``serialize`` writes them


def record(
    uri: str, kind: str, payload: bytes, tags: dict[str, str], content_type: str = ""
) -> ArcWarcRecord:
    """A record of type ``kind`` holding ``payload`` as it is, with the WARC headers ``tags``."""
    return BUILDER.create_warc_record(
        uri,
        kind,
        payload=io.BytesIO(payload),
        length=len(payload),
        warc_content_type=content_type,
        warc_headers_dict=dict(tags),
    )


def serialize(records: list[ArcWarcRecord]) -> bytes:
    """``records`` as WARC bytes, each record one gzip member (so a file cut after any member
    still reads). Digests and compression are the costly part of archiving a record: this
    needs no lock."""
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=True, warc_version="1.1")
    for item in records:
        writer.write_record(item)
    return buffer.getvalue()


def warc_date(timestamp: float | None = None) -> str:
    """A ``WARC-Date`` for ``timestamp`` (seconds since the epoch; now when ``None``)."""
    moment = datetime.fromtimestamp(timestamp, UTC) if timestamp else datetime.now(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def record_id(item: ArcWarcRecord) -> str:
    """The ``WARC-Record-ID`` of a record, what other records refer to it by."""
    identifier: str = item.rec_headers.get_header("WARC-Record-ID")
    return identifier


def reason(exc: OSError) -> str:
    """Why an OS call failed, for a one-line message."""
    return exc.strerror or str(exc)


def snapshot_uri(state_id: str) -> str:
    """The ``WARC-Target-URI`` of a state's DOM snapshot record: a URN of its own, not the
    page's URL, so that no replayer answers the page with the state's scripted DOM."""
    return f"urn:statecrawl:state:{state_id}:snapshot"
