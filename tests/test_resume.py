"""Resume: a crawl killed at any moment and resumed gives the graph of an uninterrupted one,
its WARC files are whole, no payload is archived twice, and no browser outlives it."""

from __future__ import annotations

import sqlite3
import subprocess
import time
from pathlib import Path

import statecrawl
from statecrawl.archive import archived_payloads
from statecrawl.testing import processes_below, still_alive
from tests.conftest import BIN, Site, run_tool

KILL_AT = (12, 28, 44, 60, 76)  # states in the store when statecrawl is killed (85 in all)
SETTINGS = ("--max-depth", "3", "-q")
PATIENCE = 600  # seconds a run may take to reach a kill point or to end


def stored(out: Path, query: str) -> list[tuple[object, ...]]:
    """Rows of the crawl store (none before it exists or while it is locked)."""
    path = out / "crawl.sqlite"
    if not path.exists():
        return []
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) as db:
            return db.execute(query).fetchall()
    except sqlite3.Error:
        return []


def statecrawl_crawl(*args: str | Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(BIN / "statecrawl"), "crawl", *map(str, args)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def graph(out: Path) -> tuple[set[str], set[tuple[str, str, str]]]:
    """The state ids and the transitions (source, target, action key) of a crawl."""
    result = statecrawl.load(out)
    ids = {s["id"] for s in result.states()}
    edges = {(t["source"], t["target"], t["key"]) for t in result.transitions()}
    return ids, edges


def test_killed_five_times_and_resumed(site: Site, tmp_path: Path) -> None:
    site.page("/", "tree.html")
    url = site.url("/")
    reference = statecrawl_crawl(url, "--out", tmp_path / "reference", *SETTINGS)
    assert reference.wait(timeout=PATIENCE) == 0, reference.stderr.read()

    out = tmp_path / "killed"
    started: dict[int, tuple[str, str]] = {}  # every process the killed runs started
    for number, at in enumerate(KILL_AT):
        if number == 0:
            run = statecrawl_crawl(url, "--out", out, *SETTINGS)
        else:
            run = statecrawl_crawl("--out", out, "--resume", "-q")
        deadline = time.monotonic() + PATIENCE
        while stored(out, "SELECT count(*) FROM states") < [(at,)] and run.poll() is None:
            assert time.monotonic() < deadline, f"no {at} states in time"
            started.update(processes_below(run.pid))
            time.sleep(0.05)
        assert run.poll() is None, run.stderr.read()  # killed in the middle of its work
        run.kill()
        run.wait()
    final = statecrawl_crawl("--out", out, "--resume", "-q")
    assert final.wait(timeout=PATIENCE) == 0, final.stderr.read()

    assert graph(out) == graph(tmp_path / "reference")
    assert len(graph(out)[0]) == 85
    assert len(stored(out, "SELECT id FROM runs")) == len(KILL_AT) + 1
    warcs = sorted((out / "archive").iterdir())
    assert warcs and all(p.name.endswith(".warc.gz") for p in warcs)  # none left .open
    for warc in warcs:
        check = run_tool("warcio", "check", str(warc))
        assert check.returncode == 0, check.stdout + check.stderr
    payloads = [(e.url, e.digest) for warc in warcs for e in archived_payloads(warc)]
    assert len(payloads) == len(set(payloads))  # a payload archived again is a revisit
    assert "chromedriver" in {name for _, name in started.values()}
    assert still_alive(started) == []
