"""An interrupted crawl ends cleanly: Ctrl-C to the process group, SIGTERM, SIGHUP.

``statecrawl crawl`` runs as a real subprocess in a process group of its own, as a shell runs
a job, on a page with 341 states. Once it has written a few states it is signalled, and then
it must exit with 128 + the signal's number and a one-line message, leave a ``graph.json``
that lists every state file written, a closed WARC that ``warcio check`` accepts, and no
ChromeDriver or Chromium process it started.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import statecrawl
from statecrawl.testing import processes_below, still_alive
from tests.conftest import Site, run_tool

STATES_BEFORE_SIGNAL = 3
TIMEOUT = 90.0  # seconds for the crawl to write its first states, and again to end


@pytest.mark.parametrize(
    ("number", "to_group"),
    [
        pytest.param(signal.SIGINT, True, id="ctrl-c-to-the-process-group"),
        pytest.param(signal.SIGTERM, False, id="sigterm"),
        pytest.param(signal.SIGHUP, False, id="sighup"),
    ],
)
def test_signal_ends_the_crawl_cleanly(
    site: Site, tmp_path: Path, number: signal.Signals, to_group: bool
) -> None:
    site.page("/", "tree.html")
    out = tmp_path / "out"
    states = out / "states"
    crawl = subprocess.Popen(
        [sys.executable, "-m", "statecrawl.cli", "crawl", site.url("/"), "--out", str(out),
         "--max-depth", "4", "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    try:
        started: dict[int, tuple[str, str]] = {}
        deadline = time.monotonic() + TIMEOUT
        while len(list(states.glob("*.html"))) < STATES_BEFORE_SIGNAL:
            assert crawl.poll() is None, crawl.communicate()
            assert time.monotonic() < deadline, "the crawl wrote no states"
            started.update(processes_below(crawl.pid))
            time.sleep(0.05)
        started.update(processes_below(crawl.pid))
        if to_group:
            os.killpg(crawl.pid, number)  # as a terminal delivers Ctrl-C
        else:
            crawl.send_signal(number)
        stdout, stderr = crawl.communicate(timeout=TIMEOUT)
    finally:
        if crawl.poll() is None:
            os.killpg(crawl.pid, signal.SIGKILL)
            crawl.communicate()

    name = signal.Signals(number).name
    assert crawl.returncode == 128 + number, stderr
    assert "Traceback" not in stderr
    assert stderr == f"statecrawl: stopped by {name}; what was found so far is kept\n"
    assert "stopped: interrupted" in stdout

    result = statecrawl.load(out)
    assert result.stats["stop_reason"] == "interrupted"
    written = {f"states/{p.name}" for p in states.glob("*.html")}
    listed = {s["snapshot"] for s in result.states()}
    assert len(written) >= STATES_BEFORE_SIGNAL
    assert written <= listed
    assert len(listed) < 341  # stopped, not finished

    archive = out / "archive"
    assert not list(archive.glob("*.open"))
    warcs = list(archive.glob("*.warc.gz"))
    assert warcs
    for path in warcs:
        checked = run_tool("warcio", "check", "-v", str(path))
        assert checked.returncode == 0, checked.stdout + checked.stderr

    names = {name for _, name in started.values()}
    assert "chromedriver" in names and any("chrom" in n for n in names - {"chromedriver"}), names
    assert still_alive(started) == []
