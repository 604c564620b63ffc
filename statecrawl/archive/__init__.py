"""WARC/1.1 archive of a crawl: network exchanges, state snapshots, frames and screenshots.

Records are built with warcio and written gzip-per-record to ``OUT/archive/*.warc.gz`` (named
``*.warc.gz.open`` until closed, each file starting with a warcinfo record), so any complete record
survives a killed crawl. ``OUT/resources.jsonl`` indexes every URL the crawl met.

The parts: :mod:`.archiver` (the plugin that feeds the archive), :mod:`.writer` (the writer of
records), :mod:`.exchanges` and :mod:`.states` (the records of an exchange and of a state),
:mod:`.files` (the WARC files, rolled and recovered), :mod:`.index` (the resource index),
:mod:`.warc` (what every record is made with), and, reading an archive back, :mod:`.reading`,
:mod:`.members` (gzip members) and :mod:`.scan` (digests checked).
"""

from ..directory.resources import archived_headers, read_resources
from .archiver import Archiver
from .exchanges import CACHED_BODY
from .files import Cut, recover
from .index import css_references
from .members import Member, members
from .reading import archived_payloads, lost_captures, snapshot_state, state_part
from .scan import Record, WarcScan, parse_record, scan_warc
from .warc import DOWNLOAD_TAG, REDACTED_TAG
from .writer import ArchiveStats, ArchiveWriter

__all__ = [
    "CACHED_BODY",
    "DOWNLOAD_TAG",
    "REDACTED_TAG",
    "ArchiveStats",
    "ArchiveWriter",
    "Archiver",
    "Cut",
    "Member",
    "Record",
    "WarcScan",
    "archived_headers",
    "archived_payloads",
    "css_references",
    "lost_captures",
    "members",
    "parse_record",
    "read_resources",
    "recover",
    "scan_warc",
    "snapshot_state",
    "state_part",
]
