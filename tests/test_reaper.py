"""No browser outlives statecrawl: a ``statecrawl crawl`` with 2 browsers SIGKILLed while its
browsers start, in the middle of the crawl and near its end, or a library caller killed by
SIGTERM, leaves, five seconds later, no process it started alive (ChromeDriver, Chromium and
its helpers, the reaper itself) and no browser profile behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from statecrawl.testing import (
    PROFILE,
    command_line,
    processes_below,
    running_with,
    still_alive,
)
from tests.conftest import Site

TIMEOUT = 90.0  # seconds for the crawl to reach the point of the kill
GRACE = 5.0  # seconds after the kill by which everything it started must be gone
CLI = [sys.executable, "-m", "statecrawl.cli", "crawl", "--browsers", "2", "--quiet", "--out"]
LIBRARY = [sys.executable, "-c", "import sys, statecrawl; statecrawl.crawl(sys.argv[2], "
           "out=sys.argv[1], max_depth=int(sys.argv[4]), browser={'count': 2})"]
# point of the kill -> (caller, its signal, the depth of the crawl of tests/pages/tree.html,
# states written by then): its browsers starting, the middle of a crawl of 21 states, the
# last of 5 states found
POINTS = {
    "browsers-starting": (CLI, signal.SIGKILL, 1, 0),
    "mid-crawl": (CLI, signal.SIGKILL, 2, 5),
    "near-the-end": (CLI, signal.SIGKILL, 1, 5),
    "library-caller-sigterm": (LIBRARY, signal.SIGTERM, 2, 5),
}


def reached(states: int, started: dict[int, tuple[str, str]], out: Path) -> bool:
    """Whether the crawl has started Chromium and written ``states`` states."""
    names = {name for _, name in started.values()}
    chromium = "chromedriver" in names and any("chrom" in n for n in names - {"chromedriver"})
    return chromium and len(list((out / "states").glob("*.html"))) >= states


@pytest.mark.parametrize("point", list(POINTS))
def test_a_killed_crawl_leaves_no_process_running(site: Site, tmp_path: Path, point: str) -> None:
    site.page("/", "tree.html")
    out = tmp_path / "out"
    caller, number, depth, states = POINTS[point]
    crawl = subprocess.Popen(
        [*caller, str(out), site.url("/"), "--max-depth", str(depth)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )
    started: dict[int, tuple[str, str]] = {}
    profiles: set[bytes] = set()
    try:
        deadline = time.monotonic() + TIMEOUT
        while not reached(states, started, out):
            assert crawl.poll() is None, crawl.communicate()
            assert time.monotonic() < deadline, f"the crawl never reached {point}"
            started.update(processes_below(crawl.pid))
            profiles.update(m for pid in started for m in PROFILE.findall(command_line(pid)))
            time.sleep(0.02)
        crawl.send_signal(number)
        crawl.wait()
    finally:
        if crawl.poll() is None:
            os.killpg(crawl.pid, signal.SIGKILL)
            crawl.wait()
    crawl.stderr.close()  # type: ignore[union-attr]
    assert crawl.returncode == -number  # killed, not stopped cleanly

    def left(profiles: set[bytes]) -> list[bytes]:
        return [p for p in profiles if Path(os.fsdecode(p)).exists()]

    # (the reaper removes a profile after it killed its browser: both within the grace)
    deadline = time.monotonic() + GRACE
    while still_alive(started) or running_with(profiles) or left(profiles):
        if time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert still_alive(started) == []
    assert running_with(profiles) == []
    assert left(profiles) == []
