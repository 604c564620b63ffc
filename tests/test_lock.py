"""One writer per crawl directory: a second run (``--resume`` or ``--overwrite``) started
while one runs is refused with a one-line error naming the PID that holds the lock, and
touches nothing; a lock left by a killed run is taken over."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from werkzeug import Request, Response

import statecrawl
from statecrawl.directory.crawl import CrawlDirectory
from statecrawl.directory.layout import LOCK
from statecrawl.errors import CrawlLocked
from tests.conftest import PAGES, Site

CRAWL = [sys.executable, "-m", "statecrawl.cli", "crawl"]
TIMEOUT = 90.0  # seconds for the first crawl to write states, and again to finish
HOLD = (  # a run that holds the lock of the directory argv[1]
    "import sys, time; from pathlib import Path; "
    "from statecrawl.directory.lock import DirectoryLock; "
    "held = DirectoryLock(Path(sys.argv[1])).acquire(); print('held', flush=True); time.sleep(60)"
)


def test_a_second_run_is_refused_while_the_first_finishes(site: Site, tmp_path: Path) -> None:
    """The first run's start page is held back until both second runs have been refused."""
    gate = threading.Event()
    page = (PAGES / "tree.html").read_text(encoding="utf-8")

    def held(_request: Request) -> Response:
        gate.wait(TIMEOUT)
        return Response(page, content_type="text/html; charset=utf-8")

    site.handler("/", held)
    out = tmp_path / "out"
    first = subprocess.Popen(
        [*CRAWL, site.url("/"), "--out", str(out), "--max-depth", "1", "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + TIMEOUT
        while "/" not in site.requests:  # its run has started: recorded, and a browser up
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline, "the first crawl loaded nothing"
            time.sleep(0.05)
        kept = sorted(p.relative_to(out) for p in out.rglob("*"))
        for flags in (["--resume"], [site.url("/"), "--overwrite"]):
            second = subprocess.run(
                [*CRAWL, "--out", str(out), "-q", *flags], capture_output=True, text=True,
                timeout=TIMEOUT, check=False,
            )
            assert (second.returncode, second.stdout) == (1, "")
            assert second.stderr == (
                f"statecrawl: error: {out} is being written by another run (PID {first.pid}): "
                "wait for it to end, or choose another --out\n"
            )
        assert sorted(p.relative_to(out) for p in out.rglob("*")) == kept  # nothing touched
        gate.set()
        _, stderr = first.communicate(timeout=TIMEOUT)
    finally:
        gate.set()
        if first.poll() is None:
            first.kill()
            first.communicate()
    assert first.returncode == 0, stderr
    result = statecrawl.load(out)
    assert len(result) == 5 and result.stats["stop_reason"] == "finished"
    assert result.stats["failures"] == 0
    warcs = sorted(p.name for p in (out / "archive").iterdir())
    assert len(warcs) == 1 and warcs[0].endswith(".warc.gz"), warcs  # one run wrote it
    assert not (out / LOCK).exists()  # let go at the end


def test_the_lock_of_a_killed_run_is_taken_over(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(out)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(CrawlLocked, match=rf"another run \(PID {holder.pid}\)"):
            CrawlDirectory(out)
        assert (out / LOCK).read_text() == f"{holder.pid}\n"
        assert not (out / "states").exists()  # refused before touching the directory
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
        holder.stdout.close()  # type: ignore[union-attr]
    assert (out / LOCK).read_text() == f"{holder.pid}\n"  # a dead PID: it decides nothing
    directory = CrawlDirectory(out)
    assert (out / LOCK).read_text() == f"{os.getpid()}\n"
    directory.close()
    assert not (out / LOCK).exists()


def test_an_overwrite_keeps_the_directory_locked_until_it_ends(tmp_path: Path) -> None:
    out = tmp_path / "out"
    CrawlDirectory(out).close()  # an earlier crawl: its states folder
    directory = CrawlDirectory(out, overwrite=True)
    assert directory.path != out
    for moment in ("written beside", "committed"):
        with pytest.raises(CrawlLocked):
            CrawlDirectory(out, resume=True)
        if moment == "written beside":
            directory.commit()
    directory.close()
    CrawlDirectory(out, resume=True).close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
