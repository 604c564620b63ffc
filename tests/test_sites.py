"""Many sites at once with a real Chromium: per-host politeness under load, measured by the
test servers themselves, backoff on 429, and ``statecrawl crawl --seeds``."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from werkzeug import Request, Response

import statecrawl
from statecrawl.cli import main
from statecrawl.scope import origin
from tests.conftest import Site, serving

SLOW = 0.1  # seconds each answer takes: long enough for browsers to overlap on a host
HOME = """<!DOCTYPE html><html><head><title>{name}</title></head><body>
<h1>{name}</h1>
<a href="/one">One</a> <a href="/two">Two</a>
<button id="more" onclick="fetch('/api').then(r => r.text()).then(t => {{
  document.getElementById('out').textContent = t; }})">More</button>
<p id="out"></p>
</body></html>"""


class Gauge:
    """Requests being answered at once, and the most there ever were."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now = 0
        self.peak = 0

    @contextlib.contextmanager
    def counting(self) -> Iterator[None]:
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)
        try:
            yield
        finally:
            with self.lock:
                self.now -= 1


def slow_app(site: Site, gauge: Gauge, everywhere: Gauge) -> None:
    """A home page with two links and a button that fetches ``/api``; every answer takes
    ``SLOW`` seconds and is counted while it is produced (the favicon is not)."""
    name = site.server.host

    def answer(request: Request) -> Response:
        with gauge.counting(), everywhere.counting():
            time.sleep(SLOW)
        if request.path == "/api":
            return Response(f"more of {name}", content_type="text/plain")
        page = f"{name} {request.path.strip('/') or 'home'}"
        return Response(HOME.format(name=page), content_type="text/html; charset=utf-8")

    site.handler("/favicon.ico", lambda _r: Response(status=404))
    site.prefix("/", answer)


@pytest.fixture
def sites() -> Iterator[list[Site]]:
    """Three test servers, on the hosts 127.0.0.2, 127.0.0.3 and 127.0.0.4."""
    with contextlib.ExitStack() as stack:
        yield [Site(stack.enter_context(serving(f"127.0.0.{n}"))) for n in (2, 3, 4)]


def test_crawl_seeds_with_one_browser_per_host(sites: list[Site], tmp_path: Path) -> None:
    """Three browsers on three sites, one browser per host: no server ever answers two
    requests at once, and the browsers still work side by side on different hosts."""
    gauges = [Gauge() for _ in sites]
    everywhere = Gauge()
    for site, gauge in zip(sites, gauges, strict=True):
        slow_app(site, gauge, everywhere)
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("# three sites\n" + "".join(f"{s.url('/')}\n" for s in sites))
    out = tmp_path / "out"
    argv = ["crawl", "--seeds", str(seeds), "--out", str(out), "-q", "--no-archive",
            "--browsers", "3", "--max-browsers-per-host", "1", "--max-depth", "2"]
    assert main(argv) == 0
    result = statecrawl.load(out)
    per_site = {s.origin: 0 for s in sites}
    for state in result.states():
        per_site[origin(state["url"])] += 1
    assert set(per_site.values()) == {6}  # home, One, Two, each with or without "more"
    assert [g.peak for g in gauges] == [1, 1, 1]
    assert everywhere.peak >= 2


def test_a_429_with_retry_after_is_loaded_again_after_that_time(
    site: Site, crawl: Callable[..., statecrawl.Crawl]
) -> None:
    """The archive is on, so the browser's exchanges carry the header: Retry-After (1 s)
    wins over the backoff (0.1 s)."""
    asked: list[float] = []

    def busy(_request: Request) -> Response:
        asked.append(time.monotonic())
        if len(asked) == 1:
            return Response("slow down", status=429, headers={"Retry-After": "1"})
        return Response("<title>busy</title><p>here at last</p>", content_type="text/html")

    site.html("/", '<title>home</title><a href="/busy">Busy</a>')
    site.handler("/busy", busy)
    result = crawl(site.url("/"), archive={"enabled": True}, politeness={"backoff_ms": 100})
    assert len(asked) == 2
    assert asked[1] - asked[0] >= 1.0
    assert sorted((s["title"], s["status"]) for s in result.states()) == [
        ("busy", 200), ("home", 200),
    ]
