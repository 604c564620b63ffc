"""Honest ends: a start URL that fails is a failed crawl (unless another one gave a state), a
crawl that failed before its first state leaves nothing that blocks its retry, and
``limits.max_time`` bounds the whole run, the end of the run included."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from werkzeug import Request, Response

import statecrawl
from statecrawl.cli import main
from statecrawl.directory.layout import RECORDS
from statecrawl.errors import StatecrawlWarning
from tests.conftest import Site, error_line, serving

INDEX = "<html><body><h1>Home</h1><a href='/a'>A</a> <a href='/b'>B</a></body></html>"


def test_a_start_url_that_answers_404_fails_with_one_line_and_leaves_nothing(
    site: Site, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    line = error_line(capsys, ["crawl", site.url("/nope"), "--out", str(out), "-q"])
    assert line == f"statecrawl: error: start URL {site.url('/nope')}: HTTP 404"
    assert not out.exists()


def test_a_failed_start_url_beside_one_that_works_is_a_warning_and_in_the_stats(
    site: Site, crawl: Callable[..., statecrawl.Crawl]
) -> None:
    site.html("/", INDEX)
    site.handler("/gone", lambda _r: Response("down", status=500))
    with pytest.warns(StatecrawlWarning, match=r"/gone: HTTP 500; the crawl went on"):
        result = crawl(site.url("/"), site.url("/gone"), max_depth=0)
    assert len(result) == 1
    assert result.stats["failed_starts"] == [site.url("/gone")]


def test_an_unreachable_start_url_then_the_same_command_once_the_server_is_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:  # a loopback port no one listens on, for a moment
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/"
    argv = ["crawl", url, "--out", str(tmp_path / "out"), "-q", "--max-depth", "0"]
    assert error_line(capsys, argv).startswith(f"statecrawl: error: cannot load {url}")
    with serving("127.0.0.1", port) as server:
        Site(server).html("/", INDEX)
        assert main(argv) == 0
    assert statecrawl.load(tmp_path / "out").stats["states"] == 1


DOCS = """<html><body>
<header><nav class="menu"><ul>
  <li><a href="/guide">Guide</a> <span>for beginners</span></li>
  <li><a href="/api">API</a> <span>every call</span></li></ul></nav></header>
<div class="sphinxsidebar" role="navigation"><ul>
  <li class="toctree-l1"><a href="/one">One</a><ul><li><a href="/one#a">A</a></li></ul></li>
  <li class="toctree-l1"><a href="/two">Two</a><ul><li><a href="/two#b">B</a></li></ul></li>
</ul></div>
<div class="toctree-wrapper"><ul>
  <li><a href="/three">Three</a> <em>the third chapter</em></li>
  <li><a href="/four">Four</a> <em>the fourth chapter</em></li></ul></div>
<h2 id="use">Use <a class="headerlink" href="#use">¶</a></h2>
<ul><li><p>See <a href="/pep-1">PEP 1</a> for the rules.</p></li>
    <li><p>See <a href="/pep-8">PEP 8</a> for the style.</p></li></ul>
<ol class="results">
  <li class="result"><h3><a href="/item/1">Solid electrolyte cell</a></h3>
    <span class="result-year">2019</span></li>
  <li class="result"><h3><a href="{OTHER}/item/2">Rotor blade damping</a></h3>
    <span class="result-year">2021</span></li>
</ol>
<footer><ul><li><a href="/legal">Legal</a> <span>terms</span></li>
  <li><a href="/privacy">Privacy</a> <span>data</span></li></ul></footer>
</body></html>"""


def test_records_come_from_result_lists_never_from_navigation_nor_outside_the_crawl(
    site: Site, other_site: Site, crawl: Callable[..., statecrawl.Crawl]
) -> None:
    """A docs-like page (a menu, a table of contents, prose lists, a footer) with a result
    list: its two results are the records; the one linking to another site has no
    ``detail_state`` though that site's page (out of scope) was visited."""
    site.html("/", DOCS.replace("{OTHER}", other_site.origin))
    site.prefix("/", lambda r: Response(f"<html><body><h1>{r.path}</h1></body></html>",
                                        content_type="text/html"))
    other_site.html("/item/2", INDEX)
    result = crawl(site.url("/"), max_depth=1)
    rows = {r["key"]: r for r in map(json.loads, (result.path / RECORDS).open())}
    assert sorted(rows) == sorted([other_site.url("/item/2"), site.url("/item/1")])
    detail = rows[site.url("/item/1")]["detail_state"]
    assert detail is not None and result.graph.nodes[detail]["url"] == site.url("/item/1")
    assert rows[other_site.url("/item/2")]["detail_state"] is None


def _endless(request: Request) -> Response:
    """A page of an endless site: each links to ten more."""
    n = int(request.path.rsplit("/", 1)[-1] or 0)
    links = " ".join(f"<a href='/p/{10 * n + k}'>page {10 * n + k}</a>" for k in range(1, 11))
    return Response(f"<html><body><h1>Page {n}</h1>{links}</body></html>",
                    content_type="text/html")


def test_max_time_bounds_the_whole_run_end_included(
    site: Site, crawl: Callable[..., statecrawl.Crawl]
) -> None:
    site.prefix("/p/", _endless)
    limit = 8.0
    began = time.monotonic()
    result = crawl(site.url("/p/0"), max_time=limit)
    took = time.monotonic() - began
    assert result.stats["stop_reason"] == "max-time" and len(result) > 3
    assert took <= limit * 1.05, took
