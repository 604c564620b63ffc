"""The guard: a crawl with the defaults leaves an application's data as it found it. A small
application of our own keeps items, a trash and an account on the server and offers every
kind of destructive control (a script DELETE, a script POST whose body deletes, a form with
a hidden ``action=delete``, a link ``?action=delete``, a password change, an "Empty trash"
button, a button shown by hovering that deletes), beside harmless ones (a client-side "Remove
filter" and "Reset search", a search for "delete")."""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from werkzeug import Request, Response

import statecrawl
from statecrawl.cli import summary
from statecrawl.config import GUARD_WORDS
from statecrawl.report import build_report
from tests.conftest import Site, served
from tests.test_report import open_report, text

PAGE = """<!doctype html><html><body>
<h1>Items</h1>
<ul>{items}</ul>
<p id="filter">Filter: <b>red</b> <button onclick="this.parentNode.textContent='No filter'">
Remove filter</button></p>
<form action="/search"><input name="q"><button type="button"
 onclick="this.form.q.value=''; document.getElementById('said').textContent='cleared'">
Reset search</button><button>Search</button></form><p id="said"></p>
<form method="post" action="/items"><input type="hidden" name="action" value="delete">
<input type="hidden" name="id" value="2"><button>Go</button></form>
<a href="/items?action=delete&amp;id=1">first item</a>
<form method="post" action="/account"><input type="password" name="pw">
<button>Change password</button></form>
<button onclick="tidy()">Tidy up</button>
<button onclick="bin()">Empty trash</button>
<button onclick="navigator.sendBeacon('/api/log', 'purge=all')">Clean log</button>
<button onclick="fetch('/api/notes', {{method: 'POST', body: 'note=hello'}})">Save note</button>
<button onclick="fetch('/api/items/1', {{method: 'PUT', body: 'omega'}})">Rename</button>
<button onclick="edit()">Edit</button><p id="editor">Not editing</p>
<style>.row .x {{ visibility: hidden }} .row:hover .x {{ visibility: visible }}</style>
<div class="row">Item 3 <button class="x" onclick="fetch('/api/items/3', {{method: 'DELETE'}})">
Archive</button></div>
<p>Trash: {trash}</p>
<script>
function drop(id) {{
  fetch('/api/items/' + id, {{method: 'DELETE'}}).then(() => location.reload());
}}
function tidy() {{
  fetch('/api/tidy', {{method: 'POST', body: 'action=delete&id=3',
    headers: {{'Content-Type': 'application/x-www-form-urlencoded'}}}});
}}
function bin() {{ const x = new XMLHttpRequest(); x.open('POST', '/api/bin'); x.send(); }}
function edit() {{  // an editor that saves its draft by itself, every 200 ms
  document.getElementById('editor').textContent = 'Editing';
  setInterval(() => fetch('/api/drafts', {{method: 'PUT', body: 'draft'}}), 200);
}}
</script></body></html>"""


class App:
    """Items, a trash and a password, kept on the server; every way to destroy them."""

    def __init__(self) -> None:
        self.items = {"1": "alpha", "2": "beta", "3": "gamma"}
        self.trash = ["old"]
        self.password = "secret"
        self.log = ["started"]
        self.notes: list[str] = []  # what harmless posts add (not the data the guard keeps)
        self.drafts: list[str] = []  # what the editor's autosave stores

    def checksum(self) -> str:
        data = json.dumps(
            [self.items, self.trash, self.password, self.log, self.drafts], sort_keys=True
        )
        return hashlib.sha256(data.encode()).hexdigest()

    def serve(self, site: Site) -> None:
        site.handler("/", self.page)
        site.handler("/items", self.form)
        site.handler("/account", self.account)
        site.handler("/search", self.search)
        site.handler("/api/tidy", self.tidy)
        site.handler("/api/bin", self.bin)
        site.handler("/api/log", self.clean)
        site.handler("/api/notes", self.note)
        site.handler("/api/drafts", self.draft)
        site.prefix("/api/items/", self.delete)

    def page(self, _request: Request) -> Response:
        items = "".join(
            f'<li>{name} <button onclick="drop({key})">Delete</button></li>'
            for key, name in sorted(self.items.items())
        )
        html = PAGE.format(items=items, trash=", ".join(self.trash) or "empty")
        return Response(html, content_type="text/html")

    def _back(self) -> Response:
        return Response("<p>done</p><a href='/'>back</a>", content_type="text/html")

    def form(self, request: Request) -> Response:
        values = request.values
        if values.get("action") == "delete":
            self.items.pop(values.get("id", ""), None)
        return self._back()

    def account(self, request: Request) -> Response:
        if request.method == "POST":
            self.password = request.form.get("pw", "")
        return self._back()

    def search(self, request: Request) -> Response:
        return Response(f"<p>Results for {request.args.get('q', '')}</p>",
                        content_type="text/html")

    def tidy(self, request: Request) -> Response:
        if request.method == "POST" and request.form.get("action") == "delete":
            self.items.pop(request.form.get("id", ""), None)
        return Response("{}", content_type="application/json")

    def bin(self, request: Request) -> Response:
        if request.method == "POST":
            self.trash.clear()
        return Response("{}", content_type="application/json")

    def clean(self, request: Request) -> Response:
        if request.method == "POST":
            self.log.clear()
        return Response("{}", content_type="application/json")

    def note(self, request: Request) -> Response:
        self.notes.append(request.get_data(as_text=True))
        return Response("{}", content_type="application/json")

    def draft(self, request: Request) -> Response:
        self.drafts.append(request.get_data(as_text=True))
        return Response("{}", content_type="application/json")

    def delete(self, request: Request) -> Response:
        key = request.path.rsplit("/", 1)[-1]
        if request.method == "DELETE":
            self.items.pop(key, None)
        elif request.method == "PUT" and key in self.items:
            self.items[key] = request.get_data(as_text=True)
        return Response("{}", content_type="application/json")


Run = tuple[statecrawl.Crawl, App, str]  # the crawl, the app, its checksum before


def run(tmp: Path, **options: Any) -> Run:
    """Crawl a fresh app."""
    app = App()
    before = app.checksum()
    for site in served("127.0.0.1"):
        app.serve(site)
        result = statecrawl.crawl(
            site.url("/"), out=tmp, max_depth=2, archive={"enabled": False},
            inputs={"values": {"q": ["delete"]}}, **options,
        )
    return result, app, before


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    yield run(tmp_path_factory.mktemp("guard") / "out")


def test_the_data_is_intact_after_a_crawl_with_the_defaults(guarded: Run) -> None:
    result, app, before = guarded
    assert app.checksum() == before
    assert result.config.guard.enabled


def test_harmless_controls_are_fired(guarded: Run) -> None:
    result, app, _ = guarded
    assert "note=hello" in app.notes  # a POST that says nothing destructive leaves
    fired = {json.loads(t["name"][t["name"].index(' "') + 1:]) for t in result.transitions()}
    assert {"Remove filter", "Reset search", "Save note"} <= fired
    # a search for "delete" is a GET of a search page: harmless
    assert any("Results for delete" in result.html(s["id"]) for s in result.states())


def test_the_guarded_actions_are_listed_and_counted(guarded: Run) -> None:
    result, _, _ = guarded
    kept = [entry for s in result.states() for entry in s.get("guarded", [])]
    assert result.stats["guarded"] == len(kept)
    whys = {entry["label"]: entry["why"] for entry in kept}
    assert whys["Delete"].startswith("DELETE http://127.0.0.1:")
    assert whys["Tidy up"].endswith("/api/tidy: delete")  # the body says it
    assert whys["Go"].endswith("/items: delete")  # a hidden field says it
    assert whys["first item"].startswith("GET ") and whys["first item"].endswith(": delete")
    assert whys["Change password"].endswith("/account: Change password")
    assert whys["Empty trash"].endswith("/api/bin: Empty trash")
    assert whys["Clean log"].endswith("/api/log: purge")  # a beacon's body says it
    assert whys["Rename"].endswith("/api/items/1: PUT")  # a PUT stores, whatever it says
    assert whys["Archive"].startswith("DELETE ")  # shown by hovering: seen after the mouse left
    # in graph.json too
    nodes = json.loads((result.path / "graph.json").read_text())["nodes"]
    assert sum(len(n.get("guarded", [])) for n in nodes) == len(kept)


def test_a_write_the_page_sends_by_itself_is_kept_in(guarded: Run) -> None:
    """The editor's autosave (a PUT every 200 ms, from an interval the "Edit" action set
    going) is kept in whatever the crawl does then, counted, and blamed on no action: "Edit"
    and the actions fired in the editor's state have their transitions."""
    result, app, _ = guarded
    assert app.drafts == []
    assert result.stats["unprompted_writes"] >= 1
    editing = [s for s in result.states() if 'id="editor">Editing<' in result.html(s["id"])]
    assert editing
    assert any(result.graph.out_degree(s["id"]) for s in editing)


def test_without_the_guard_the_data_changes(tmp_path: Path) -> None:
    result, app, before = run(tmp_path / "out", guard={"enabled": False}, max_time=15)
    assert app.checksum() != before
    assert result.stats["guarded"] == 0


@pytest.mark.parametrize(("text", "word"), [
    ("Delete", "Delete"), ("action=delete&id=1", "delete"), ("op drop", "drop"),
    ("Empty trash", "Empty trash"), ("empty the cache", "empty the cache"),
    ("Change password", "Change password"), ("new password", "new password"),
    ("email change", "email change"), ("Reset", "Reset"), ("Uninstall", "Uninstall"),
    ("deleted=0", None), ("/errors/empty", None), ("Clear", None), ("Log out", None),
    ("Password", None), ("Dropdown", None),
])
def test_the_destructive_words(text: str, word: str | None) -> None:
    """Whole words, in any case; what describes (deleted, empty) or logs out is no command."""
    found = re.search(GUARD_WORDS, text, re.IGNORECASE)
    assert (found.group(0) if found else None) == word


def test_the_summary_and_the_report_say_what_the_guard_kept(
    guarded: Run, walk_driver: webdriver.Chrome
) -> None:
    result, _, _ = guarded
    said = f"guard: {result.stats['guarded']} actions kept from changing the site, "
    stream = io.StringIO()
    summary(result, stream)
    assert said in stream.getvalue()
    build_report(result.path)
    open_report(walk_driver, result.path / "report" / "index.html")
    assert said in text(walk_driver, "summary")
