"""Incremental recrawls (``crawl --since OLD``) of a small single-page app in revisions
(``tests/pages/shelf.html``: items from a JSON API, help tabs of its own): what changed is
found, what did not is verified by a sample and carried over, and the archive refers to the
earlier crawl's records instead of copying them.

One crawl of revision 0 is the baseline of every recrawl of the module, and one recrawl of
revision 1 since it is both checked and the middle run of the three-run history."""

from __future__ import annotations

import contextlib
import difflib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from warcio.archiveiterator import ArchiveIterator
from warcio.warcwriter import WARCWriter
from werkzeug import Request, Response

import statecrawl
from statecrawl.archive import exchanges
from statecrawl.browser.network import Exchange
from statecrawl.directory.resources import RESOURCES, read_resources
from statecrawl.incremental.baseline import Baseline
from statecrawl.scope import Scope
from statecrawl.store import open_store
from tests.conftest import Site, run_tool, served

ITEMS = {
    "lamp": {"id": "lamp", "name": "Lamp", "text": "A brass lamp with a green shade."},
    "clock": {"id": "clock", "name": "Clock", "text": "A wall clock that chimes at noon."},
    "vase": {"id": "vase", "name": "Vase", "text": "A blue vase, slightly chipped."},
}
CHANGED = {**ITEMS["clock"], "text": "A wall clock that no longer chimes: its spring broke."}
KETTLE = {"id": "kettle", "name": "Kettle", "text": "A copper kettle that whistles."}


class Shelf:
    """The app on ``site``, in revision 0 (``ITEMS``), 1 (the clock's text changed) or 2
    (a kettle added to the list)."""

    def __init__(self, site: Site) -> None:
        self.revision = 0
        self.site = site
        site.page("/", "shelf.html")
        site.handler("/api/items.json", self._items)
        site.prefix("/api/items/", self._item)

    def _items(self, request: Request) -> Response:
        items = {**ITEMS, "kettle": KETTLE} if self.revision == 2 else ITEMS
        listed = [{"id": i, "name": v["name"]} for i, v in items.items()]
        return Response(json.dumps(listed), content_type="application/json")

    def _item(self, request: Request) -> Response:
        if request.path.endswith("/reviews.json"):
            return Response(json.dumps(["Well made.", "Arrived late."]),
                            content_type="application/json")
        name = request.path.rsplit("/", 1)[-1].removesuffix(".json")
        item = CHANGED if (self.revision, name) == (1, "clock") else ITEMS.get(name)
        item = KETTLE if (self.revision, name) == (2, "kettle") else item
        if item is None:
            return Response("not found", status=404)
        return Response(json.dumps(item), content_type="application/json")

    @contextlib.contextmanager
    def at(self, revision: int) -> Iterator[None]:
        """The app in ``revision`` inside the block, in revision 0 again after it."""
        self.revision = revision
        try:
            yield
        finally:
            self.revision = 0

    def crawl(self, out: Path, since: Path | None = None, **options: Any) -> statecrawl.Crawl:
        incremental = {"since": since, "verify": 0.3} if since else {}
        return statecrawl.crawl(
            self.site.url("/"), out=out, max_depth=2, incremental=incremental, **options
        )


@pytest.fixture(scope="module")
def shelf() -> Iterator[Shelf]:
    """The app on a server of its own, for the module's crawls."""
    for site in served("127.0.0.1"):
        yield Shelf(site)


@pytest.fixture(scope="module")
def old(shelf: Shelf, tmp_path_factory: pytest.TempPathFactory) -> statecrawl.Crawl:
    """Revision 0 crawled in full: the baseline of every recrawl here."""
    return shelf.crawl(tmp_path_factory.mktemp("old"))


@pytest.fixture(scope="module")
def clock_changed(
    shelf: Shelf, old: statecrawl.Crawl, tmp_path_factory: pytest.TempPathFactory
) -> tuple[statecrawl.Crawl, statecrawl.Crawl]:
    """Revision 1 (the clock's text changed) crawled in full, and recrawled since ``old``."""
    with shelf.at(1):
        full = shelf.crawl(tmp_path_factory.mktemp("full"))
        new = shelf.crawl(tmp_path_factory.mktemp("new"), since=old.path)
    return full, new


def ids(result: statecrawl.Crawl) -> set[str]:
    return {s["id"] for s in result.states()}


def records(directory: Path) -> list[Any]:
    """(type, headers) of every WARC record of a crawl directory."""
    found = []
    for warc in sorted((directory / "archive").glob("*.warc.gz")):
        with warc.open("rb") as stream:
            found += [(r.rec_type, r.rec_headers) for r in ArchiveIterator(stream)]
    return found


def test_a_changed_api_is_found_and_the_rest_carried_over(
    old: statecrawl.Crawl, clock_changed: tuple[statecrawl.Crawl, statecrawl.Crawl]
) -> None:
    full, new = clock_changed

    # The same states as a full crawl of revision 1, for fewer actions fired.
    assert ids(new) == ids(full)
    assert new.stats["fired"] < full.stats["fired"]
    summary = new.graph.graph["incremental"]
    assert summary["resources_changed"] == 1
    assert any(carried for *_, carried in new.graph.edges(data="carried"))
    changes = json.loads((new.path / "changes.json").read_text())
    # the clock's page, and its reviews tab, which fetched only reviews but shows the page
    assert len(changes["changed"]) == 2
    assert all("no longer chimes" in changed["diff"] for changed in changes["changed"])
    assert not changes["new"] and not changes["deleted"]
    assert len(changes["unchanged"]) == len(old) - 2

    # The archive refers to the earlier crawl: each revisit to a record of OLD's WARCs.
    earlier = {
        h.get_header("WARC-Record-ID"): (h.get_header("WARC-Target-URI"), h.get_header("WARC-Date"))
        for _, h in records(old.path)
    }
    revisits = [h for kind, h in records(new.path) if kind == "revisit"]
    into_old = [h for h in revisits if h.get_header("WARC-Refers-To") in earlier]
    assert into_old
    for h in into_old:
        target = (h.get_header("WARC-Refers-To-Target-URI"), h.get_header("WARC-Refers-To-Date"))
        assert earlier[h.get_header("WARC-Refers-To")] == target
    # every unchanged state is a revisit of its snapshot record in OLD (a state's record has
    # a key; an exchange's has none)
    unchanged = {h.get_header("WARC-Statecrawl-State") for h in into_old
                 if h.get_header("WARC-Statecrawl-Key")}
    assert unchanged == set(changes["unchanged"])
    assert new.stats["plugin_failures"] == 0
    assert not any((new.path / "states" / f"{s}.png").exists() for s in unchanged)
    for warc in (new.path / "archive").glob("*.warc.gz"):
        assert run_tool("warcio", "check", str(warc)).returncode == 0
        index = run_tool("cdxj-indexer", str(warc))
        assert index.returncode == 0 and index.stdout.strip()


def test_a_body_the_browser_did_not_give_is_no_change(
    shelf: Shelf, old: statecrawl.Crawl, tmp_path: Path
) -> None:
    """A response OLD archived without its body (the browser had dropped it: a reset under
    load) holds no payload of the resource's: the check compares the server's answer with
    the last body OLD had, and finds nothing changed (it counted the lamp's as changed); an
    error whose body OLD never had (a missing icon) is judged by its status alone."""
    copy = tmp_path / "old"
    shutil.copytree(old.path, copy)
    lamp = shelf.site.url("/api/items/lamp.json")
    bodiless = Exchange(request_id="1", url=lamp, status=200, body_error="No resource with "
                        "given identifier found", response_headers=[("Content-Length", "64")])
    # and the browser's own fetch of a missing icon, whose body no crawl ever had
    icon = Exchange(request_id="2", url=shelf.site.url("/favicon.ico"), status=404,
                    body_error="No data found for resource with given identifier")
    with (copy / "archive" / "zz-later.warc.gz").open("wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        for exchange in (bodiless, icon):
            for record in exchanges.capture(exchange, None, "2030-01-01T00:00:00Z", None):
                writer.write_record(record)
    (row,) = [r for r in read_resources(copy) if r["url"] == lamp]
    with (copy / RESOURCES).open("a", encoding="utf-8") as index:
        index.write(json.dumps({**row, "url": icon.url, "status": 404}) + "\n")
    baseline = Baseline(copy, [shelf.site.url("/")])
    baseline.check(Scope(old.config))
    assert baseline.changed == set()
    # with revision 1 served, the clock's change is still found
    with shelf.at(1):
        changed = Baseline(copy, [shelf.site.url("/")])
        changed.check(Scope(old.config))
    assert changed.changed == {shelf.site.url("/api/items/clock.json")}


def test_a_change_everywhere_is_caught_by_the_samples(
    shelf: Shelf, old: statecrawl.Crawl, tmp_path: Path
) -> None:
    """The list gains an item, and every state shows the list: each state changed, though
    the item pages fetched nothing that changed. Each is at the place of a state of OLD,
    so only a sample of its actions was to be fired; the samples lead elsewhere than in
    OLD, so everything is fired, and nothing stale is carried over."""
    with shelf.at(2):
        full = shelf.crawl(tmp_path / "full")
        new = shelf.crawl(tmp_path / "new", since=old.path)
    assert ids(new) == ids(full)
    changes = json.loads((new.path / "changes.json").read_text())
    assert len(changes["changed"]) == len(old) and not changes["deleted"]
    assert len(changes["new"]) == 2  # the kettle's page and its reviews
    assert all("copper kettle" in new.html(kettle["id"]) for kettle in changes["new"])
    # no state is taken over without a visit (a "Back" into the changed list may be: it is
    # connected to the list as it is now)
    assert not any(carried for _, carried in new.graph.nodes(data="carried"))


def test_an_unchanged_recrawl_writes_little_and_keeps_every_state(
    shelf: Shelf, old: statecrawl.Crawl, tmp_path: Path
) -> None:
    again = shelf.crawl(tmp_path / "again", since=old.path)
    assert ids(again) == ids(old)
    assert again.graph.graph["incremental"]["unchanged"] == len(old)
    assert again.stats["fired"] < old.stats["fired"]

    # Nothing is archived again: revisits (and the requests that led to them) only, no
    # screenshot, every DOM file a hard link to OLD's (byte ratios: benchmarks/incremental.py).
    kinds = {kind for kind, _ in records(again.path)}
    assert kinds <= {"warcinfo", "revisit", "request", "response"}, [
        (s, list(difflib.unified_diff(old.html(s).splitlines(), again.html(s).splitlines())))
        for kind, h in records(again.path)
        if kind == "resource" and (s := h.get_header("WARC-Statecrawl-State"))
    ]
    revisited = {h.get_header("WARC-Statecrawl-State") for kind, h in records(again.path)
                 if kind == "revisit" and h.get_header("WARC-Statecrawl-Key")}
    assert revisited == ids(old)
    assert again.stats["plugin_failures"] == 0
    # (a response only for a body the browser could not read, under load, in either crawl:
    # nothing to compare)
    unread = {h.get_header("WARC-Target-URI") for kind, h in records(old.path)
              if kind == "response" and h.get_header("WARC-Statecrawl-Body-Error")}
    bodies = [h for kind, h in records(again.path) if kind == "response"]
    assert all(h.get_header("WARC-Statecrawl-Body-Error")
               or h.get_header("WARC-Target-URI") in unread for h in bodies)
    files = list((again.path / "states").iterdir())
    # (other recrawls of OLD link its files too: each of these is one of them)
    assert files and all(
        f.suffix == ".html" and f.samefile(old.path / "states" / f.name) for f in files
    )


def test_the_change_history_grows_over_three_runs(
    shelf: Shelf, clock_changed: tuple[statecrawl.Crawl, statecrawl.Crawl], tmp_path: Path
) -> None:
    _, r1 = clock_changed  # revision 1 recrawled since revision 0
    with shelf.at(1):
        last = shelf.crawl(tmp_path / "r2", since=r1.path)
    checkpoint = open_store(last.path).load()
    assert checkpoint is not None
    history = checkpoint.tables["history"]
    root = next(s["id"] for s in last.states() if s["depth"] == 0)
    clock = next(s["id"] for s in last.states() if "no longer chimes" in last.html(s["id"]))
    assert history[root] == [3, 0]  # seen in all three runs, never changed
    assert history[clock] == [3, 1]  # changed once, in revision 1
