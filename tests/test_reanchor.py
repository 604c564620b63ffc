"""Re-anchoring: applications that keep state on the server, or whose start page differs
from load to load, are crawled to their end with every state recorded, and a crawl never
spends more resets than transitions on them.

- ``Preferences``: behind a login, a "Sort by" select and a "Watch" button stored in the
  server-side session (a cookie's session id -> a dict on the server) change the start page
  for that session, the watch for good;
- ``Dashboard``: a dropdown and radio items whose server callbacks (POSTs) redraw a chart; the
  chart's toolbar carries an id generated per drawing, and the start page's chart is drawn
  300-800 ms after load by a timer.
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug import Request, Response

import statecrawl
from statecrawl.testing import difference
from tests.conftest import Site, served

USER, PASSWORD = "ada", "analytical-engine-1843"
SIGNED_IN = "#who"
ITEMS = {"Looms": "1801", "Engines": "1837", "Numbers": "1843"}
SORTS = ("name", "year")


def _html(body: str, title: str = "Prefs") -> Response:
    text = f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"
    return Response(text, content_type="text/html; charset=utf-8")


class Preferences:
    """A login, and what the server-side session keeps: a sort order that orders the start
    page, and a watched item (once watched, the start page says so and has no "Watch")."""

    def __init__(self) -> None:
        self.sessions: dict[str, dict[str, str]] = {}  # session id -> its preferences

    def serve(self, site: Site) -> None:
        site.handler("/login", self.login)
        site.handler("/prefs", self.prefs)
        site.handler("/watch", self.watch)
        site.handler("/help", self.help)
        site.handler("/", self.home)

    def _session(self, request: Request) -> dict[str, str] | None:
        return self.sessions.get(request.cookies.get("sid", ""))

    def login(self, request: Request) -> Response:
        given = (request.form.get("user"), request.form.get("password"))
        if request.method == "POST" and given == (USER, PASSWORD):
            sid = secrets.token_hex(8)
            self.sessions[sid] = {"sort": "name", "watched": ""}
            response = Response("", status=303, headers={"Location": "/"})
            response.set_cookie("sid", sid, httponly=True)
            return response
        return _html(
            '<form method="post" action="/login"><label>User <input name="user"></label>'
            '<label>Password <input type="password" name="password"></label>'
            "<button>Sign in</button></form>",
            "Sign in",
        )

    def home(self, request: Request) -> Response:
        session = self._session(request)
        if session is None:
            return Response("", status=303, headers={"Location": "/login"})
        order = session["sort"]
        rows = sorted(ITEMS.items(), key=lambda item: item[0] if order == "name" else item[1])
        items = "".join(f"<li>{name} ({year})</li>" for name, year in rows)
        options = "".join(
            f'<option value="{value}"{" selected" if value == order else ""}>{value}</option>'
            for value in SORTS
        )
        watched = session["watched"]
        watch = (f"<p>Watching {watched}</p>" if watched else
                 "<button onclick=\"save('/watch', 'Looms')\">Watch Looms</button>")
        return _html(
            f'<p id="who">Signed in as {USER}</p><h1>Items by {order}</h1>{watch}'
            f'<label>Sort by <select id="sort" onchange="save(\'/prefs\', this.value)">'
            f"{options}</select></label><ul>{items}</ul>"
            '<button onclick="flip(\'more\')">Details</button><div id="more" hidden>'
            '<p>Three items of the archive.</p><button onclick="flip(\'notes\')">Notes</button>'
            '<p id="notes" hidden>Kept since 1801.</p></div>'
            '<button onclick="flip(\'filter\')">Filter</button><p id="filter" hidden>'
            'Only machines</p><a href="/help">Help</a>'
            "<script>function flip(id) { const el = document.getElementById(id); "
            "el.hidden = !el.hidden; }"
            "function save(url, value) { fetch(url, {method: 'POST', body: value})"
            ".then(() => location.reload()); }</script>"
        )

    def prefs(self, request: Request) -> Response:
        session = self._session(request)
        if session is not None and request.method == "POST":
            session["sort"] = request.get_data(as_text=True)
        return Response("{}", content_type="application/json")

    def watch(self, request: Request) -> Response:
        session = self._session(request)
        if session is not None and request.method == "POST":
            session["watched"] = request.get_data(as_text=True)
        return Response("{}", content_type="application/json")

    def help(self, request: Request) -> Response:
        if self._session(request) is None:
            return Response("", status=303, headers={"Location": "/login"})
        return _html(f'<p id="who">Signed in as {USER}</p><h1>Help</h1><a href="/">Items</a>')


DASHBOARD = """<!doctype html><html><head><title>Dashboard</title></head><body>
<h1>Sales dashboard</h1><div id="controls">Loading</div><div class="chart"><p id="title"></p>
<div id="toolbar"></div></div>
<script>
let dataset = 'north', kind = 'bar';
function toolbar() {
  const id = Math.random().toString(16).slice(2, 8);
  document.getElementById('toolbar').innerHTML =
    '<div class="modebar" id="modebar-' + id + '">zoom pan</div>';
}
function draw(answer) {
  const options = ['north', 'south', 'west'].map((d) =>
    '<option' + (d === dataset ? ' selected' : '') + '>' + d + '</option>').join('');
  const radios = ['bar', 'line'].map((k) => '<label><input type="radio" name="kind" value="' +
    k + '"' + (k === kind ? ' checked' : '') + ' onchange="update(dataset, this.value)">' + k +
    '</label>').join('');
  document.getElementById('controls').innerHTML = '<select id="dataset" ' +
    'onchange="update(this.value, kind)">' + options + '</select>' + radios;
  document.getElementById('title').textContent = answer.title;
}
function update(d, k) {
  dataset = d; kind = k;
  return fetch('/_dash/update', {method: 'POST', body: JSON.stringify({dataset: d, kind: k})})
    .then((r) => r.json()).then((answer) => { draw(answer); toolbar(); });
}
fetch('/_dash/update', {method: 'POST', body: JSON.stringify({dataset, kind})})
  .then((r) => r.json()).then(draw);
setTimeout(toolbar, 300 + Math.floor(Math.random() * 500));
</script></body></html>"""


class Dashboard:
    """A chart redrawn by server callbacks; every drawing has a new toolbar id, and the first
    one comes late."""

    def __init__(self) -> None:
        self.callbacks = 0

    def serve(self, site: Site) -> None:
        site.html("/", DASHBOARD)
        site.handler("/_dash/update", self.update)

    def update(self, request: Request) -> Response:
        self.callbacks += 1
        asked = json.loads(request.get_data(as_text=True))
        title = f"{asked['dataset']} sales as a {asked['kind']} chart"
        return Response(json.dumps({"title": title}), content_type="application/json")


APPS: dict[str, type[Preferences | Dashboard]] = {"prefs": Preferences, "dashboard": Dashboard}


@pytest.fixture(scope="module")
def sites() -> Iterator[dict[str, Site]]:
    """One server per app for the module: the crawls compared see the same URLs."""
    with contextlib.ExitStack() as stack:
        found = {}
        for name, app in APPS.items():
            site = stack.enter_context(contextlib.contextmanager(served)("127.0.0.1"))
            app().serve(site)
            found[name] = site
        yield found


def _crawl(name: str, site: Site, out: Path, **options: Any) -> statecrawl.Crawl:
    if name == "prefs":
        options["login"] = {
            "url": site.url("/login"), "fields": {"user": USER, "password": PASSWORD},
            "logged_in": SIGNED_IN,
        }
    return statecrawl.crawl(site.url("/"), out=out, max_depth=3, **options)


def _shown(result: statecrawl.Crawl, pattern: str) -> set[str]:
    """What each state shows of ``pattern`` (its first group)."""
    found = set()
    for state in result.states():
        match = re.search(pattern, result.html(state["id"]))
        if match:
            found.add(match.group(1))
    return found


FIGURES = ("states", "transitions", "resets", "unreachable", "reanchors", "fresh_sessions",
           "mutating")


@pytest.fixture(scope="module", params=[(name, browsers) for name in APPS for browsers in (1, 4)],
                ids=lambda p: f"{p[0]}-{p[1]}")
def crawled(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
    sites: dict[str, Site],
) -> Iterator[tuple[str, statecrawl.Crawl]]:
    """Each app crawled with the defaults (the archive on: requests are seen) by 1 and 4
    browsers."""
    name, browsers = request.param
    out = tmp_path_factory.mktemp(f"{name}-{browsers}")
    yield name, _crawl(name, sites[name], out, browser={"count": browsers}, max_time=60)


def test_every_state_is_recorded_with_fewer_resets_than_transitions(
    crawled: tuple[str, statecrawl.Crawl],
) -> None:
    name, result = crawled
    stats = result.stats
    print(name, {k: stats.get(k) for k in FIGURES})
    assert stats["stop_reason"] == "finished"
    if name == "prefs":
        assert _shown(result, r"<h1>Items by (\w+)") == {"name", "year"}
        assert _shown(result, r"<h1>(Help)</h1>") == {"Help"}
        assert _shown(result, r"<p>Watching (\w+)</p>") == {"Looms"}
    else:
        shown = _shown(result, r'<p id="title">(\w+ sales as a \w+ chart)</p>')
        assert shown == {f"{d} sales as a {k} chart" for d in ("north", "south", "west")
                         for k in ("bar", "line")}
    assert stats["unreachable"] == 0
    assert stats["resets"] <= stats["transitions"], stats


@pytest.mark.parametrize("name", APPS)
def test_the_exhaustive_crawl_records_the_same_graph(
    name: str, crawled: tuple[str, statecrawl.Crawl], sites: dict[str, Site], tmp_path: Path
) -> None:
    """The exhaustive crawl (every state reached by a fresh load and the replay of its way)
    and the default one record the same states and transitions; the actions that changed the
    server's state are marked on their edges (``mutates``), the same in both."""
    shown, default = crawled
    if shown != name or default.graph.graph["config"]["browser"]["count"] != 1:
        pytest.skip("one comparison per app, with the crawl by one browser")
    exhaustive = _crawl(name, sites[name], tmp_path / "out", explore={"shortcuts": False},
                        max_time=60)
    assert exhaustive.stats["stop_reason"] == "finished"
    assert difference(exhaustive, default) is None
    mutating = {(u, k, v) for u, v, k, m in exhaustive.graph.edges(keys=True, data="mutates")
                if m}
    assert mutating
    assert any(m for _, _, m in default.graph.edges(data="mutates"))


class Drafts:
    """A page whose "Edit" keeps a draft on the server for everyone, not in a session: from
    then on every load of the page shows the draft, with a button of its own (as a wiki that
    saves drafts as pages does)."""

    def __init__(self) -> None:
        self.draft = False

    def serve(self, site: Site) -> None:
        site.handler("/", self.home)
        site.handler("/edit", self.edit)

    def home(self, request: Request) -> Response:
        if self.draft:
            body = ('<p>A draft is pending.</p><button onclick="flip(\'draft\')">Show draft'
                    '</button><p id="draft" hidden>The draft text</p>')
        else:
            body = ('<button onclick="edit()">Edit</button><button onclick="flip(\'more\')">'
                    'More</button><p id="more" hidden>More notes</p>')
        return _html(
            f'<h1>Notes</h1><div id="page">{body}</div>'
            "<script>function flip(id) { const el = document.getElementById(id); "
            "el.hidden = !el.hidden; }"
            "function edit() { fetch('/edit', {method: 'POST'}).then(() => { "
            "document.getElementById('page').textContent = 'Editing'; }); }</script>",
            "Notes",
        )

    def edit(self, request: Request) -> Response:
        if request.method == "POST":
            self.draft = True
        return Response("{}", content_type="application/json")


@pytest.mark.parametrize("browsers", [1, 4])
def test_a_change_kept_for_everyone_is_crawled_from_where_it_left_the_start_page(
    browsers: int, tmp_path: Path
) -> None:
    """After "Edit", every load of the start URL shows the draft, in a fresh session too:
    that page is a state explored like any other (its "Show draft" fired), the states only
    the old start page led to are given up without a reset each, and resets stay fewer than
    transitions."""
    with contextlib.contextmanager(served)("127.0.0.1") as site:
        Drafts().serve(site)
        result = statecrawl.crawl(site.url("/"), out=tmp_path / "out", max_depth=3,
                                  browser={"count": browsers}, max_time=60)  # fmt: skip
    stats = result.stats
    print({k: stats.get(k) for k in FIGURES})
    assert stats["stop_reason"] == "finished"
    assert _shown(result, r'<p id="draft">(The draft text)</p>') == {"The draft text"}
    assert _shown(result, r"<div id=\"page\">(Editing)</div>") == {"Editing"}
    marked = {d["name"].rsplit(" ", 1)[-1] for _, _, d in result.graph.edges(data=True)
              if d.get("mutates")}
    assert marked == {'"Edit"'}  # (its POST: not "Show draft", a button of the same family)
    assert stats["resets"] <= stats["transitions"], stats
