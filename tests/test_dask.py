"""The Dask executor: the same crawl on Dask workers (a LocalCluster of this machine), each
holding its own browser, as in threads of this process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import statecrawl
from statecrawl.demo_app import DemoApp
from statecrawl.directory.layout import image_format
from statecrawl.errors import BrowserError
from tests.conftest import Site


def transitions(result: statecrawl.Crawl) -> set[tuple[str, str, str]]:
    return {(u, v, k) for u, v, k in result.graph.edges(keys=True)}


def test_dask_workers_find_what_threads_find(site: Site, crawl: Any, tmp_path: Path) -> None:
    site.page("/", "tree.html")
    threads = crawl(site.url("/"), out=tmp_path / "threads", max_depth=2, browser={"count": 2})
    dask = crawl(site.url("/"), out=tmp_path / "dask", max_depth=2, browser={"count": 2},
                 executor="dask", archive={"enabled": True, "screenshots": "all"})
    assert {s["id"] for s in dask.states()} == {s["id"] for s in threads.states()}
    assert len(dask) == 21
    assert transitions(dask) == transitions(threads)
    assert dask.stats["failures"] == dask.stats["unreachable"] == 0
    # The workers' screenshots came back with their outcomes: one per state.
    shots = [dask.path / s["screenshot"] for s in dask.states()]
    assert all(p.is_file() and image_format(p.read_bytes()) == "webp" for p in shots)
    archive = dask.graph.graph["archive"]
    assert archive["records"] > 0 and archive["files"]


def test_dask_workers_find_what_threads_find_on_the_demo(crawl: Any, tmp_path: Path) -> None:
    """The patent-search demo (a form, XHR result pages, details with tabs), one query to
    depth 2: the same state ids and transitions on two Dask workers as in two threads."""
    with DemoApp(latency=False) as app:
        options = {"max_depth": 2, "browser": {"count": 2},
                   "inputs": {"values": {"q": ["drone"]}, "max_options": 1}}
        threads = crawl(app.url, out=tmp_path / "threads", **options)
        dask = crawl(app.url, out=tmp_path / "dask", executor="dask", **options)
    assert len(threads) > 20
    assert {s["id"] for s in dask.states()} == {s["id"] for s in threads.states()}
    assert transitions(dask) == transitions(threads)
    assert dask.stats["failures"] == dask.stats["unreachable"] == 0


def test_an_unreachable_scheduler_is_a_one_line_error(site: Site, crawl: Any) -> None:
    site.page("/", "tree.html")
    with pytest.raises(BrowserError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:9"):
        crawl(site.url("/"), executor="dask", cluster="tcp://127.0.0.1:9")
