"""Integrity: damage to a crawl directory is found (``verify --integrity``), a resume repairs
a cut WARC file, a damaged store gets one line and a way out, and a full disk ends a crawl
with one line and its graph written."""

from __future__ import annotations

import gzip
import json
import os
import random
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import statecrawl
from statecrawl.archive import archived_headers, members
from statecrawl.browser import find_executables
from statecrawl.cli import main

from .conftest import Site, error_line, serving


def _copy(small_crawl: statecrawl.Crawl, tmp_path: Path) -> Path:
    out = tmp_path / "crawl"
    shutil.copytree(small_crawl.path, out)
    return out


def _warc(out: Path) -> Path:
    return sorted((out / "archive").glob("*.warc.gz"))[-1]


def _graph(out: Path) -> tuple[list[str], list[tuple[str, str, str]]]:
    g = statecrawl.load(out).graph
    return sorted(g.nodes), sorted(g.edges(keys=True))


def _state_records(out: Path) -> set[tuple[str, str, str]]:
    """The records of states, by type, content type and the state's id now."""
    crawl = statecrawl.load(out)
    now = {a: s["id"] for s in crawl.states() for a in [s["id"], *s.get("aliases", ())]}
    found = set()
    for path in sorted((out / "archive").glob("*.warc.gz")):
        for h in archived_headers(path):
            state = h.get_header("WARC-Statecrawl-State")
            if h.get_header("WARC-Type") in ("resource", "metadata") and state:
                found.add((h.get_header("WARC-Type"), h.get_header("Content-Type"), now[state]))
    return found


def _verify(capsys: pytest.CaptureFixture[str], out: Path) -> tuple[int, str]:
    code = main(["verify", str(out), "--integrity"])
    return code, capsys.readouterr().out


def test_cut_warc_is_reported_and_repaired_by_resume(
    small_crawl: statecrawl.Crawl, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _copy(small_crawl, tmp_path)
    whole = _state_records(out)
    warc = _warc(out)
    cut = warc.stat().st_size * 2 // 3
    with warc.open("r+b") as stream:
        stream.truncate(cut)
    code, report = _verify(capsys, out)
    assert code == 2
    assert f"{warc}: offset " in report and "(the file was cut)" in report
    assert "no whole snapshot record in the archive" in report
    assert _state_records(out) != whole
    assert main(["crawl", "--out", str(out), "--resume", "-q"]) == 0
    err = capsys.readouterr().err
    assert f"archive repaired: {warc.name} ended inside a record: cut back from {cut} " in err
    assert "states archived again" in err
    code, report = _verify(capsys, out)
    assert code == 0 and "integrity: no problem" in report, report
    assert _state_records(out) == whole  # no state's record is lost
    assert _graph(out) == _graph(small_crawl.path)


def _flip(path: Path, seed: int, count: int = 200) -> None:
    data = bytearray(path.read_bytes())
    for i in random.Random(seed).sample(range(len(data)), count):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))


def test_damaged_store_gets_one_line_and_a_rebuild(
    small_crawl: statecrawl.Crawl, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _copy(small_crawl, tmp_path)
    _flip(out / "crawl.sqlite", seed=22)
    line = error_line(capsys, ["crawl", "--out", str(out), "--resume", "-q"])
    assert f"the crawl store {out / 'crawl.sqlite'} is damaged" in line
    assert f"statecrawl verify {out} --rebuild-store" in line
    code, report = _verify(capsys, out)
    assert code == 2 and "crawl.sqlite is damaged" in report
    assert main(["verify", str(out), "--rebuild-store"]) == 0
    assert "rebuilt" in capsys.readouterr().out
    assert (out / "crawl.sqlite.damaged").is_file()
    assert main(["crawl", "--out", str(out), "--resume", "-q"]) == 0
    assert _graph(out) == _graph(small_crawl.path)
    assert _verify(capsys, out)[0] == 0


def _rewrite_member(path: Path, number: int, change) -> int:  # type: ignore[no-untyped-def]
    """Replace the ``number``-th gzip member of ``path`` by ``change`` of its bytes,
    recompressed; return its offset."""
    with path.open("rb") as stream:
        found = list(members(stream))
    member = found[number]
    assert member.data is not None
    raw = path.read_bytes()
    data = gzip.compress(change(member.data))
    path.write_bytes(raw[: member.offset] + data + raw[member.end :])
    return member.offset


def test_flipped_bytes_name_the_record(
    small_crawl: statecrawl.Crawl, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _copy(small_crawl, tmp_path)
    warc = _warc(out)
    # record 1 is the first state's snapshot: flip bytes of its DOM, not of the gzip data
    flipped = {}

    def flip(data: bytes) -> bytes:
        head, _, body = data.partition(b"\r\n\r\n")
        flipped["id"] = next(
            line.split(b": ")[1].decode() for line in head.split(b"\r\n")
            if line.startswith(b"WARC-Record-ID")
        )
        return head + b"\r\n\r\n" + body.replace(b"<", b">", 1)

    offset = _rewrite_member(warc, 1, flip)
    code, report = _verify(capsys, out)
    assert code == 2
    assert f"{warc}: offset {offset}: record {flipped['id']} (resource " in report
    assert "WARC-Block-Digest" in report and "does not match its bytes" in report
    assert "is not the DOM archived for it" not in report  # the file is whole
    # bytes flipped in the gzip data of a later record: named by offset, and reading goes on
    with warc.open("rb") as stream:
        later = list(members(stream))[5]
    data = bytearray(warc.read_bytes())
    for i in range(later.offset + 40, later.offset + 60):
        data[i] ^= 0xFF
    warc.write_bytes(bytes(data))
    code, report = _verify(capsys, out)
    assert code == 2
    assert f"{warc}: offset {later.offset}: damaged gzip data" in report
    assert f"record {flipped['id']}" in report  # the first damage is still reported


def test_full_disk_ends_with_one_line_and_the_graph(tmp_path: Path) -> None:
    """A file-size limit (RLIMIT_FSIZE) is the full disk of the statecrawl process; its
    Chromium and ChromeDriver, started through wrappers, lift it again."""
    env = dict(os.environ)
    found = find_executables(statecrawl.Config(start_urls=("http://127.0.0.1/",)))
    for name, program in zip(("STATECRAWL_CHROME", "STATECRAWL_CHROMEDRIVER"), found, strict=True):
        wrapper = tmp_path / Path(program).name
        wrapper.write_text(f'#!/bin/sh\nulimit -f unlimited\nexec {program} "$@"\n')
        wrapper.chmod(0o755)
        env[name] = str(wrapper)
    out = tmp_path / "out"

    def small_disk() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, resource.RLIM_INFINITY))

    with serving("127.0.0.1") as server:
        site = Site(server)
        site.page("/", "tree.html")
        argv = [sys.executable, "-m", "statecrawl.cli", "crawl", site.url("/"), "--out",
                str(out), "--max-depth", "2", "--screenshots", "all", "-q"]
        ended = subprocess.run(argv, preexec_fn=small_disk, env=env, capture_output=True,
                               text=True, timeout=120, check=False)
        assert ended.returncode == 1, ended.stderr
        lines = ended.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("statecrawl: error: "), ended.stderr
        assert "cannot" in lines[0] and "Traceback" not in ended.stderr
        found = statecrawl.load(out)  # graph.json is there, and reads
        assert 0 < len(found) < 21
        assert json.loads((out / "graph.json").read_text())["graph"]["stats"]["states"]
        assert not (out / ".reserve").exists()
