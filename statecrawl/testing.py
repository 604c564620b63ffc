"""A scripted application and a fake browser that plays it: the crawl engine without Chromium.

A :class:`FakeApp` is an application written down: its states (small HTML documents), the
actions each state offers and the state each one leads to, the URLs states show and what a
fresh load of a URL shows, links between URLs, and optional behaviours (a clock that differs
with every page load, ids generated with every render, an action that fails, hangs the page,
navigates or works once only). A :class:`FakeBrowser` drives it with the surface of a
browser that statecrawl uses (:class:`statecrawl.browser.BrowserLike`), answering with real
:class:`~statecrawl.state.Snapshot` objects built from page-agent answers, so the engine's
planning, merging, inference and resume logic is tested in milliseconds::

    app = FakeApp()
    app.state("home", "/")
    app.state("about", "/")
    app.action("home", "About", "about")
    explorer = Explorer(config, browser_factory=app.browser)

As in a real browser, the page does not know what the crawler takes for volatile: a clock
changes in every load whatever ``FakeBrowser.volatile`` holds, and only the state model masks it.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import socket
import struct
import threading
import zlib
from concurrent.futures import Future
from dataclasses import dataclass, field
from html import escape, unescape
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from urllib.parse import urldefrag, urljoin

from .browser.login import LoginFailed
from .config import Config
from .errors import ActionFailed, BrowserError, NavigationError, PageTimeout
from .state import Action, Snapshot

if TYPE_CHECKING:
    from .browser.login import Hook, Session
    from .browser.network import Exchange  # (it imports Selenium, which a fake browser needs not)
    from .directory.crawl import Crawl

ORIGIN = "http://127.0.0.1:4"  # loopback, a port nothing listens on: nothing is ever fetched
STATUS = "visible,enabled"


def _png() -> bytes:
    """A 1x1 white PNG: what a fake browser's screenshot shows."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)  # 1x1, 8-bit RGB
    pixels = zlib.compress(b"\x00\xff\xff\xff")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


SCREENSHOT = _png()


@dataclass(frozen=True, slots=True)
class FakeAction:
    """What a control of a state does when fired.

    ``target`` is the state it leads to (for a link, the state its URL loads); ``request``:
    the path it fetches (an XHR) as it does. ``fails``:
    firing it raises ``ActionFailed`` (its handler throws); ``hangs``: the page never answers
    (``PageTimeout``); ``navigates``: it loads a new document (a form submitted to the
    target's URL); ``once``: it works once, then its element is gone from every state;
    ``status``: what the agent says of the control (``expanded=true`` on an open section's
    header, say).
    """

    label: str
    target: str | None
    locator: str
    event: str = "click"
    kind: Literal["script", "link", "submit"] = "script"
    url: str | None = None  # a link's URL
    hover: str | None = None
    fails: bool = False
    hangs: bool = False
    navigates: bool = False
    once: bool = False
    request: str | None = None
    status: str = STATUS

    def candidate(self) -> dict[str, object]:
        """The candidate the page agent reports for this control."""
        return {
            "locator": self.locator,
            "label": self.label,
            "event": self.event,
            "kind": self.kind,
            "action": self.url if self.kind == "link" else f"listener:{self.locator}",
            "status": self.status,
            "hover": self.hover,
            "values": [],
            "submitter": None,
        }


@dataclass(slots=True)
class FakeState:
    """A state of a scripted application: its URL, title, text and controls."""

    name: str
    url: str
    title: str
    text: str
    clock: bool = False  # shows a clock that differs with every page load
    generated: bool = False  # renders an item with an id generated at every render
    actions: list[FakeAction] = field(default_factory=list)


@dataclass(slots=True)
class Document:
    """What one page load shows: its URL, the state on display and its load number."""

    url: str
    state: str
    number: int


class FakeApp:
    """A scripted application at ``origin``: states, actions, URLs and their behaviours.

    A state's ``url`` is the address the browser shows in it; a fresh load of a URL shows
    the first state declared with it (or the one :meth:`load` names). ``log`` records what
    browsers did, in order: ``("load", url, state)``, ``("fire", state, label)`` and
    ``("replay", state, label)`` for each step of a replay.
    """

    def __init__(self, origin: str = ORIGIN) -> None:
        self.origin = origin
        self.states: dict[str, FakeState] = {}
        self.loads: dict[str, str] = {}  # URL -> the state a fresh load shows
        self.broken: dict[str, NavigationError] = {}  # URL -> how loading it fails
        self.gone: set[tuple[str, str]] = set()  # (state, locator) of controls used up
        self.misses: dict[tuple[str, str], int] = {}  # (state, locator) -> replays left to miss
        self.log: list[tuple[str, ...]] = []
        self.browsers: list[FakeBrowser] = []
        self.lock = threading.Lock()
        self.page_loads = 0
        self.renders = 0
        self.banner = False  # a header beside the app's region shows a value drawn at each load
        # snapshots name what a page agent sees change while idle: a clock, and after an
        # action the app's region (an action's late effect looks so: no mask may hide it)
        self.sightings = False
        self.title: str | None = None  # the title of every state (an app that keeps one)

    # ---- writing the application down --------------------------------------------------------
    def url(self, path: str = "/") -> str:
        """The absolute URL of ``path`` in the application."""
        return urljoin(self.origin + "/", path)

    def state(
        self,
        name: str,
        path: str = "/",
        *,
        title: str | None = None,
        text: str | None = None,
        clock: bool = False,
        generated: bool = False,
    ) -> FakeState:
        """Declare a state shown at ``path``; the first one declared at a path is what
        loading it shows."""
        url = self.url(path)
        state = FakeState(name, url, title or name, text or name, clock, generated)
        self.states[name] = state
        self.loads.setdefault(url, name)
        return state

    def load(self, path: str, name: str) -> None:
        """Make a fresh load of ``path`` show state ``name``."""
        self.loads[self.url(path)] = name

    def fail(self, path: str, error: NavigationError) -> None:
        """Make every load of ``path`` fail with ``error`` (a ``PageTimeout`` for a hung load)."""
        self.broken[self.url(path)] = error

    def action(
        self,
        source: str,
        label: str,
        target: str | None,
        *,
        event: str = "click",
        kind: Literal["script", "submit"] = "script",
        locator: str | None = None,
        hover: str | None = None,
        fails: bool = False,
        hangs: bool = False,
        navigates: bool = False,
        once: bool = False,
        misses: int = 0,
        request: str | None = None,
        status: str = STATUS,
    ) -> FakeAction:
        """Give state ``source`` a control labelled ``label`` that leads to ``target``;
        ``misses``: its first replays do nothing, as on a page too slow to answer in time."""
        action = FakeAction(
            label=label,
            target=target,
            locator=locator or "#" + _slug(label),
            event=event,
            kind=kind,
            hover=hover,
            fails=fails,
            hangs=hangs,
            navigates=navigates,
            once=once,
            request=request,
            status=status,
        )
        self.states[source].actions.append(action)
        if misses:
            self.misses[(source, action.locator)] = misses
        return action

    def link(self, source: str, label: str, path: str) -> FakeAction:
        """Give state ``source`` a link to ``path`` (in the application or outside it)."""
        url = self.url(path)
        action = FakeAction(
            label=label, target=None, locator="a#" + _slug(label), kind="link", url=url
        )
        self.states[source].actions.append(action)
        return action

    def browser(self, config: Config, capture_network: bool = False) -> FakeBrowser:
        """A new browser on this application: the explorer's ``browser_factory``."""
        return FakeBrowser(self, config, capture_network=capture_network)

    def fired(self, kind: str = "fire") -> list[tuple[str, str]]:
        """The ``(state, label)`` pairs fired (``kind="replay"``: replayed), in order."""
        return [(entry[1], entry[2]) for entry in self.log if entry[0] == kind]

    def loaded(self) -> list[str]:
        """The URLs loaded, in order."""
        return [entry[1] for entry in self.log if entry[0] == "load"]

    # ---- playing it --------------------------------------------------------------------------
    def open(self, url: str, shows: str | None = None) -> Document:
        """A fresh load of ``url``, showing what loading it shows or state ``shows`` (the
        answer to a submitted form)."""
        key = urldefrag(url).url
        with self.lock:
            if key in self.broken:
                raise self.broken[key]
            state = shows or self.loads.get(key)
            if state is None:
                raise NavigationError(f"cannot load {url}: ERR_CONNECTION_REFUSED")
            self.page_loads += 1
            self.log.append(("load", url, state))
            return Document(url, state, self.page_loads)

    def controls(self, name: str) -> list[FakeAction]:
        """The controls state ``name`` shows now (used-up ones are gone)."""
        with self.lock:
            return [a for a in self.states[name].actions if (name, a.locator) not in self.gone]

    def answer(self, document: Document, light: bool) -> dict[str, object]:
        """The page agent's answer for ``document``: its snapshot (``light``: no candidates)."""
        state = self.states[document.state]
        controls = self.controls(state.name)
        with self.lock:
            self.renders += 1
            render = self.renders
        parts = [f'<h1 data-state="{escape(state.name)}">{escape(state.text)}</h1>']
        if state.generated:
            parts.append(f'<ul><li data-id="{_uuid(render)}">item</li></ul>')
        for control in controls:
            if control.kind == "link":
                parts.append(f'<a href="{escape(control.url or "")}">{escape(control.label)}</a>')
            else:
                parts.append(f"<button>{escape(control.label)}</button>")
        if state.clock:
            parts.append(f'<p id="clock">10:{document.number % 60:02d}</p>')
        title = self.title or state.title
        banner = ""
        if self.banner:
            drawn = 1000 + document.number * 7919 % 9000
            banner = f'<header><p id="banner" style="order: {drawn}">edition {drawn}</p></header>'
        html = (
            f"<!DOCTYPE html><html><head><title>{escape(title)}</title></head><body>"
            f'{banner}<main id="app">{"".join(parts)}</main>'
            "</body></html>"
        )
        return {
            "url": document.url,
            "title": title,
            "html": html,
            "candidates": [] if light else [c.candidate() for c in controls],
            "volatile": ["#clock|content"] if state.clock and self.sightings else [],
            "status": 200,
        }


class FakeBrowser:
    """A browser on a :class:`FakeApp`, with the surface of a browser that statecrawl uses
    (:class:`statecrawl.browser.BrowserLike`), and its behaviour: a load starts a new
    document, an action whose element is gone raises ``ActionFailed``, a replay fires a list
    of actions and answers light snapshots, a hung page raises ``PageTimeout`` until the
    browser restarts."""

    def __init__(self, app: FakeApp, config: Config, *, capture_network: bool = False) -> None:
        self.app = app
        self.config = config
        self.capture_network = capture_network
        self.driver: FakeApp | None = None  # set while the browser runs
        self.profile: str | None = None
        self.restarts = 0
        self.relogins = 0  # (a fake app has no login)
        self.login_hook: Hook | None = None  # (set by the crawl, never called)
        self.session_dir: Path | None = None
        self.volatile: list[str] = []  # handed to the page agent in reality: it masks nothing
        self.document: Document | None = None
        self.hung = False
        self.exchanges: list[Exchange] = []  # what fired actions fetched since the last take
        app.browsers.append(self)

    # ---- lifecycle ---------------------------------------------------------------------------
    def start(self) -> FakeBrowser:
        self.driver = self.app
        self.document = None
        self.hung = False
        return self

    def close(self) -> None:
        self.kill()

    def kill(self) -> None:
        self.driver = None
        self.document = None

    def restart(self) -> None:
        """Replace a dead or hung browser with a new one."""
        self.kill()
        self.restarts += 1
        self.start()

    def __enter__(self) -> FakeBrowser:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- driving -----------------------------------------------------------------------------
    def _page(self) -> Document:
        if self.driver is None:
            raise BrowserError("the browser is not started")
        if self.hung:
            raise PageTimeout("the page did not answer in time")
        if self.document is None:
            raise NavigationError("the browser shows no page")
        return self.document

    def url(self) -> str:
        """The current document's URL."""
        return self._page().url

    def load(self, url: str, light: bool = False) -> Snapshot:
        """Load ``url`` and return the settled state it shows."""
        if self.driver is None:
            raise BrowserError("the browser is not started")
        if self.hung:
            raise PageTimeout(f"loading {url} took too long: the page is busy")
        self.document = self.app.open(url)
        return self.settled(light)

    def reset(self, url: str, light: bool = False, keep: bool = False) -> Snapshot:
        """Clean cookies and storage (the application keeps none), then load ``url``."""
        return self.load(url, light)

    def settled(self, light: bool = False, navigating: bool = False) -> Snapshot:
        """The current document's snapshot."""
        return Snapshot.from_agent(self.app.answer(self._page(), light))

    def hover(self, locator: str) -> None:
        """Move the mouse over an element."""
        page = self._page()
        if not any(c.locator == locator for c in self.app.controls(page.state)):
            raise ActionFailed(f"nothing to hover at {locator}")

    def fire(self, action: Action, light: bool = False) -> Snapshot:
        """Fire ``action`` in the current page and return the settled state that follows."""
        return self._fire(action, light, "fire")

    def _fire(self, action: Action, light: bool, what: str) -> Snapshot:
        if action.hover:
            self.hover(action.hover)
        page = self._page()
        control = next(
            (
                c
                for c in self.app.controls(page.state)
                if c.locator == action.locator and c.event == action.event
            ),
            None,
        )
        if control is None:
            raise ActionFailed("not-found: the element is gone")
        with self.app.lock:
            self.app.log.append((what, page.state, control.label))
            if control.once:
                self.app.gone.add((page.state, control.locator))
            missed = what == "replay" and self.app.misses.get((page.state, control.locator), 0) > 0
            if missed:
                self.app.misses[(page.state, control.locator)] -= 1
        if missed:
            return self.settled(light)
        if control.hangs:
            self.hung = True
            raise PageTimeout("the page did not answer 'fire' in time")
        if control.fails:
            raise ActionFailed(f"handler: {control.label} threw")
        if control.request is not None:
            from .browser.network import Exchange  # (Selenium loads only for apps that fetch)

            number = len(self.exchanges)
            url = self.app.url(control.request)
            self.exchanges.append(Exchange(f"fake.{number}", url, resource_type="XHR", status=200))
        if control.kind == "link":
            assert control.url is not None
            self.document = self.app.open(control.url)
            snapshot = self.settled(light)
            snapshot.navigated = control.url
            return snapshot
        assert control.target is not None
        target = self.app.states[control.target]
        if control.navigates:
            self.document = self.app.open(target.url, target.name)
            snapshot = self.settled(light)
            snapshot.navigated = target.url
            return snapshot
        page.state, page.url = target.name, target.url  # a script may push a URL
        snapshot = self.settled(light)
        if self.app.sightings:
            snapshot.volatile.append("#app|content")
        return snapshot

    def replay(self, actions: list[Action]) -> list[Snapshot]:
        """Fire ``actions`` one after the other; light snapshots of each state on the way,
        ending early at one that loads a new document. An element that is gone raises
        ``ActionFailed``."""
        if any(a.hover or a.is_link for a in actions):
            return [self._fire(actions[0], True, "replay")]
        snapshots = []
        for action in actions:
            before = self._page()
            snapshots.append(self._fire(action, True, "replay"))
            if self.document is not before:
                break
        return snapshots

    def take_writes(self) -> list[tuple[str, str]]:
        """None: an application's requests are all GETs."""
        return []

    def take_exchanges(self, final: bool = False) -> list[Exchange]:
        """The network exchanges made since the last call: the requests of the actions
        fired (a load fetches nothing)."""
        taken, self.exchanges = self.exchanges, []
        return taken

    def take_coverage(self) -> dict[str, dict[str, object]]:
        """JavaScript coverage records: none (a scripted page runs no script)."""
        return {}

    def screenshot(self, image_format: str = "png", quality: int = 100) -> bytes:
        """The viewport as an image: a 1x1 PNG, in whatever format is asked (a scripted
        page has nothing to draw)."""
        self._page()
        return SCREENSHOT

    def thumbnail(self) -> bytes:
        """The viewport as a thumbnail: the screenshot's 1x1 PNG."""
        return self.screenshot()

    def screenshot_later(self, image_format: str = "png", quality: int = 100) -> Future[bytes]:
        """The screenshot, already made."""
        return _done(self.screenshot(image_format, quality))

    def thumbnail_later(self) -> Future[bytes]:
        """The thumbnail, already made."""
        return _done(self.thumbnail())

    def new_session(self) -> None:
        """Start the next reset in a new session: a fake app keeps none."""

    def can_log_in(self) -> bool:
        """Whether the browser can log in: never (a fake app has no login)."""
        return False

    def log_in(self) -> Session:
        """Log in: ``LoginFailed``, as a fake app has no login (see :meth:`can_log_in`)."""
        raise LoginFailed("a fake app has no login")


def tree(depth: int, branching: int, origin: str = ORIGIN, *, home: bool = False) -> FakeApp:
    """A tree application at one URL, like ``tests/pages/tree.html``: the root, then
    ``branching`` children per state down to ``depth``; states are named by their path
    (``"root"``, ``"0"``, ``"0.1"``…), controls labelled ``"child K"``; ``home``: every
    state has a "Home" button to the root too, before them."""
    app = FakeApp(origin)
    app.state("root", "/")
    level = ["root"]
    for _ in range(depth):
        following = []
        for parent in level:
            if home:
                app.action(parent, "Home", "root")
            for k in range(branching):
                name = str(k) if parent == "root" else f"{parent}.{k}"
                app.state(name, "/")
                app.action(parent, f"child {k}", name)
                following.append(name)
        level = following
    for leaf in level if home else ():
        app.action(leaf, "Home", "root")
    return app


QUERY_WORDS = ("battery", "graphene", "drone", "solar", "lidar", "enzyme", "turbine", "polymer")
FIELDS = ("title", "abstract")
TABS = ("Abstract", "Claims", "Citations")
ELSEWHERE = "http://127.0.0.2:9/"  # a host out of the crawl's scope


def generated(seed: int, origin: str = ORIGIN) -> FakeApp:
    """A random patent-search application for differential tests, drawn from ``seed``.

    What it draws, as real search sites vary: one or two queries over one or two fields,
    one to three result pages at one URL for every query, paged by "Next" and "Prev"
    buttons that fetch the page of the current query; pages that show their query or
    not; details on hash routes or router paths, beside the results (with "Next" still
    there) or alone; tabs that fetch their content; citations as links to other
    patents' pages; a header on every page with "Home", "About" and a search box with a
    fixed query; a footer link out of scope; a clock on some pages and ids generated at
    every render of the home page; on some apps a basket of saved patents (:func:`_basket`).
    Every state's DOM tells what it does: two states that look the same behave the same."""
    rng = random.Random(seed)
    app = FakeApp(origin)
    queries = rng.sample(QUERY_WORDS, rng.randint(1, 2))
    fields = FIELDS[: rng.randint(1, 2)]
    pages = rng.randint(1, 3)
    per_page = rng.randint(1, 3)
    tabs = TABS[: rng.randint(1, 3)]
    shows_query = rng.random() < 0.6
    beside = rng.random() < 0.5  # details keep the results beside them
    hashed = rng.random() < 0.5  # details on hash routes, else router paths
    header_query = rng.choice(queries) if rng.random() < 0.5 else None
    pool = [f"US{1000 + n}" for n in range(rng.randint(per_page + 1, 8))]
    clock = rng.random() < 0.4

    def ticking() -> bool:
        return clock and rng.random() < 0.5

    app.state("home", "/", text="patent search home", clock=clock, generated=rng.random() < 0.3)
    app.state("search", "/search", text="search form", clock=ticking())
    app.state("about", "/about", text="about this patent office")
    app.state("help", "/help", text="help pages")
    contexts = [(q, f, p) for q in queries for f in fields for p in range(1, pages + 1)]
    listed = {c: rng.sample(pool, per_page) for c in contexts}
    marks = {c: f"set{rng.randrange(10**6):06d}" for c in contexts}

    def results(q: str, f: str, p: int) -> str:  # (no query word: a page may hide its query)
        return f"results {queries.index(q)}.{fields.index(f)}.{p}"

    def detail(patent: str, tab: str, context: tuple[str, str, int] | None) -> str:
        return f"detail {patent} {tab}" + (" in " + results(*context) if context else "")

    def path(patent: str) -> str:
        return f"/search#/patent/{patent}" if hashed else f"/patent/{patent}"

    def listing(context: tuple[str, str, int]) -> str:
        q, f, p = context
        shown = f"for {q} in {f}" if shows_query else marks[context]
        return f"results {shown} page {p} of {pages}: {' '.join(listed[context])}"

    for context in contexts:
        app.state(results(*context), "/search", text=listing(context), clock=ticking())
    for patent in pool:
        for tab in tabs:
            app.state(detail(patent, tab, None), path(patent), text=f"patent {patent} {tab}")
        if not hashed:
            app.load(path(patent), detail(patent, tabs[0], None))
    if beside:
        for context in contexts:
            for patent in listed[context]:
                for tab in tabs:
                    text = f"patent {patent} {tab} beside {listing(context)}"
                    app.state(detail(patent, tab, context), path(patent), text=text)

    def searches(state: str) -> None:
        for q in queries:
            for f in fields:
                app.action(
                    state, f"Search {q} in {f}", results(q, f, 1), kind="submit",
                    locator=f"#search-{q}-{f}", request=f"/api/search?q={q}&field={f}&page=1",
                )

    def header(state: str) -> None:
        app.action(state, "Home", "home", locator="#nav-home")
        app.action(state, "About", "about", locator="#nav-about")
        app.action(state, "Search", "search", locator="#nav-search")
        if header_query is not None:
            app.action(
                state, f"Find {header_query}", results(header_query, fields[0], 1),
                kind="submit", locator="#header-find",
                request=f"/api/search?q={header_query}&field={fields[0]}&page=1",
            )

    def paging(state: str, context: tuple[str, str, int], shown: str | None = None) -> None:
        q, f, p = context
        for label, other in (("Next", p + 1), ("Prev", p - 1)):
            if 1 <= other <= pages:
                app.action(
                    state, label, results(q, f, other), locator=f"#{label.lower()}",
                    request=f"/api/search?q={q}&field={f}&page={other}",
                )
        for n, patent in enumerate(listed[context]):
            # (the row of the patent on show changes nothing: its route is the one shown)
            opened = detail(patent, tabs[0], context if beside else None)
            app.action(
                state, f"Open {patent}", state if patent == shown else opened,
                locator=f"#results > li:nth-of-type({n + 1})",
            )

    def tabbed(state: str, patent: str, context: tuple[str, str, int] | None) -> None:
        for tab in tabs:
            request = None if tab == "Abstract" else f"/api/patent/{patent}/{tab.lower()}"
            app.action(
                state, tab, detail(patent, tab, context), locator=f"#tab-{tab.lower()}",
                request=request,
            )
        if "Citations" in state.split() and not hashed:
            for cited in rng.sample([p for p in pool if p != patent], 1):
                app.link(state, f"Cited {cited}", path(cited))
        app.action(state, "Close", results(*context) if context else "home", locator="#close")

    for state in ("home", "search"):
        header(state)
        searches(state)
    header("about")
    app.link("about", "Help", "/help")
    app.link("about", "Elsewhere", ELSEWHERE)
    app.link("home", "Elsewhere", ELSEWHERE)
    header("help")
    for context in contexts:
        header(results(*context))
        paging(results(*context), context)
    for patent in pool:
        for tab in tabs:
            header(detail(patent, tab, None))
            tabbed(detail(patent, tab, None), patent, None)
            if beside:
                for context in contexts:
                    if patent in listed[context]:
                        name = detail(patent, tab, context)
                        header(name)
                        paging(name, context, patent)
                        tabbed(name, patent, context)
    # (drawn last: the rest of the app is the same without them)
    app.banner = rng.random() < 0.3
    app.sightings = rng.random() < 0.3
    app.title = "Patent search" if rng.random() < 0.5 else None
    if rng.random() < 0.4:
        _basket(app, rng.sample(pool, 2))
    return app


def _basket(app: FakeApp, saved: list[str]) -> None:
    """A basket reached from the home page: empty, then one of the ``saved`` patents, in a
    full and a compact view, then that patent twice. Each row has its "Remove" button; the
    first row's is one action in every basket state: it empties a basket of one row, and
    leaves one row of two (what a list of identical rows does to inference)."""
    first = "#basket > li:nth-of-type(1) > .remove"
    app.state("basket", "/basket", text="basket empty")
    app.action("home", "Basket", "basket", locator="#nav-basket")
    for patent in saved:
        full, compact, twice = (f"basket {patent}", f"basket {patent} compact",
                                f"basket {patent} twice")
        app.state(full, "/basket", text=f"basket: saved {patent}")
        app.state(compact, "/basket", text=f"basket, compact: saved {patent}")
        app.state(twice, "/basket", text=f"basket: saved {patent} saved {patent}")
        app.action("basket", f"Save {patent}", full, locator=f"#save-{patent.lower()}")
        app.action(full, "Compact", compact, locator="#compact")
        app.action(full, "Again", twice, locator="#again")
        app.action(compact, "Full", full, locator="#full")
        for view in (full, compact):
            app.action(view, "Remove", "basket", locator=first)
        app.action(twice, "Remove", full, locator=first)
        app.action(twice, "Remove", full, locator="#basket > li:nth-of-type(2) > .remove")


def transitions(crawl: Crawl) -> set[tuple[str, str, str]]:
    """A crawl's graph as ``(source, action key, target)`` triples, fired or not (an
    inferred transition is one the exhaustive crawl fires)."""
    return {(u, k, v) for u, v, k in crawl.graph.edges(keys=True)}


def difference(reference: Crawl, other: Crawl) -> str | None:
    """The first way ``other``'s graph differs from ``reference``'s (the exhaustive crawl),
    told with the states' URLs and the action's name; ``None`` when they are the same."""
    def told(crawl: Crawl, edge: tuple[str, str, str], side: str) -> str:
        source, key, target = edge
        graph = crawl.graph
        attrs = graph.edges[source, target, key]
        how = " (inferred)" if attrs.get("inferred") else ""
        return (
            f"only in {side}: {source} at {graph.nodes[source].get('url')} --"
            f"{attrs.get('event')} {attrs.get('name')}{how}--> {target} at "
            f"{graph.nodes[target].get('url')}"
        )

    ours, theirs = transitions(reference), transitions(other)
    if ours != theirs:
        extra, missing = sorted(theirs - ours), sorted(ours - theirs)
        lines = [told(reference, e, "the reference") for e in missing[:1]]
        lines += [told(other, e, "the other crawl") for e in extra[:1]]
        return f"{len(missing)} transitions missing, {len(extra)} extra; " + "; ".join(lines)
    states, others = set(reference.graph.nodes), set(other.graph.nodes)
    if states != others:
        return (
            f"states only in the reference: {sorted(states - others)[:3]}, only in the "
            f"other crawl: {sorted(others - states)[:3]}"
        )
    return None


def untrue(app: FakeApp, crawl: Crawl) -> str | None:
    """The first transition of ``crawl`` that ``app`` does not make: its target shows another
    state of the app than its action leads to (a mask hid what the action did), told with
    the app's state names; ``None`` when every fired transition is true."""
    def shown(state_id: str) -> str:
        found = re.search(r'data-state="([^"]*)"', crawl.html(state_id))
        assert found is not None, f"state {state_id} shows no app state"
        return unescape(found[1])

    for source, target, attrs in crawl.graph.edges(data=True):
        if attrs.get("inferred") or crawl.graph.nodes[target].get("kind") != "state":
            continue
        name = shown(source)
        control = next(
            c for c in app.states[name].actions
            if attrs["name"] == f"{c.locator} {json.dumps(c.label, ensure_ascii=False)}"
            and attrs["event"] == c.event
        )
        if control.kind == "link":
            assert control.url is not None
            expected = app.loads[urldefrag(control.url).url]
        else:
            assert control.target is not None
            expected = control.target
        if shown(target) != expected:
            return (
                f"{name} --{control.label}--> {expected}, but the crawl recorded {target}, "
                f"which shows {shown(target)}"
            )
    return None


def _slug(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") or "control"


def _uuid(number: int) -> str:
    """A uuid-shaped id made from ``number``: what a page generates for each render."""
    digits = f"{number * 2654435761 % 16**32:032x}"
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"


class Relay:
    """A TCP relay on loopback to a real server, which a test can cut as a server outage
    looks to a browser: while cut nothing listens on its port (connections are refused) and
    the exchanges in flight are dropped."""

    def __init__(self, target: tuple[str, int], host: str = "127.0.0.1") -> None:
        self.target = target
        self.host = host
        self.port = 0
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self.up()

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    def up(self) -> None:
        """Listen again, on the same port."""
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((self.host, self.port))
        listener.listen(64)
        listener.settimeout(0.05)
        self.port = listener.getsockname()[1]
        with self._lock:
            self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def down(self, seconds: float | None = None) -> None:
        """Stop listening and drop every connection; up again after ``seconds`` if given."""
        with self._lock:
            listener, self._listener = self._listener, None
            conns, self._open = self._open, set()
        if listener is not None:
            _drop(listener)  # a shut listener stops listening at once, even under accept()
        for conn in conns:
            _drop(conn)
        if seconds is not None:
            timer = threading.Timer(seconds, self.up)
            timer.daemon = True
            timer.start()

    def _accept(self, listener: socket.socket) -> None:
        while self._listener is listener:
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            server = socket.create_connection(self.target)
            with self._lock:
                if self._listener is not listener:
                    client.close()
                    server.close()
                    return
                self._open |= {client, server}
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            with contextlib.suppress(OSError):
                while data := source.recv(65536):
                    sink.sendall(data)
        finally:
            _drop(source)
            _drop(sink)


def _drop(conn: socket.socket) -> None:
    """End a connection now, waking whatever waits on it."""
    with contextlib.suppress(OSError):
        conn.shutdown(socket.SHUT_RDWR)
    conn.close()


# ---- processes (Linux /proc): what a crawl started, and whether it still runs ---------------
Processes = dict[int, tuple[str, str]]  # pid -> (start time, command name)
PROFILE = re.compile(rb"--user-data-dir=([^\x00 ]+)")  # a browser's profile, in its command line


def process_table() -> dict[int, tuple[int, str, str]]:
    """Every live process (not a zombie): pid -> (parent, start time, command name)."""
    table = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name, rest = stat[stat.index("(") + 1 : stat.rindex(")")], stat.rsplit(")", 1)[1].split()
        if rest[0] != "Z":
            table[int(entry.name)] = (int(rest[1]), rest[19], name)
    return table


def processes_below(
    root: int, table: dict[int, tuple[int, str, str]] | None = None
) -> Processes:
    """Every live process under ``root`` (in ``table``, by default the table now)."""
    table = process_table() if table is None else table
    found: Processes = {}
    parents = {root}
    while parents:
        children = {pid for pid, (ppid, _, _) in table.items() if ppid in parents}
        found.update({pid: table[pid][1:] for pid in children})
        parents = children
    return found


def alive(pid: int, started: str) -> bool:
    """Whether ``pid`` is still the process that started at ``started``, not a zombie."""
    try:
        rest = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return rest[0] != "Z" and rest[19] == started


def still_alive(processes: Processes) -> list[str]:
    """Those of ``processes`` still running, as ``"pid name"``."""
    return [f"{pid} {name}" for pid, (started, name) in processes.items() if alive(pid, started)]


def command_line(pid: int) -> bytes:
    """The command line of ``pid`` (empty when it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def running_with(profiles: set[bytes]) -> list[str]:
    """Live processes whose command line names one of the browser ``profiles``: Chromium's
    helpers that left a crawl's process tree (its crash handler) are found so."""
    return [
        f"{pid} {command_line(pid)[:80]!r}"
        for pid in process_table()
        if any(profile in command_line(pid) for profile in profiles)
    ]


def _done(result: bytes) -> Future[bytes]:
    """A future that holds ``result``."""
    made: Future[bytes] = Future()
    made.set_result(result)
    return made
