"""A scripted application and a fake browser that plays it: the crawl engine without Chromium.

A :class:`FakeApp` is an application written down: its states (small HTML documents), the
actions each state offers and the state each one leads to, the URLs states show and what a
fresh load of a URL shows, links between URLs, and optional behaviours (a clock that differs
with every page load, ids generated with every render, an action that fails, hangs the page,
navigates or works once only). A :class:`FakeBrowser` drives it with the surface of
:class:`statecrawl.browser.Browser` that the explorer uses, answering with real
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

import re
import struct
import threading
import zlib
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Literal
from urllib.parse import urldefrag, urljoin

from .config import Config
from .errors import ActionFailed, BrowserError, NavigationError, PageTimeout
from .state import Action, Snapshot

if TYPE_CHECKING:
    from .network import Exchange  # (it imports Selenium, which a fake browser needs not)

ORIGIN = "http://127.0.0.1:9"  # loopback, a port nothing listens on: nothing is ever fetched
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

    ``target`` is the state it leads to (for a link, the state its URL loads). ``fails``:
    firing it raises ``ActionFailed`` (its handler throws); ``hangs``: the page never answers
    (``PageTimeout``); ``navigates``: it loads a new document (a form submitted to the
    target's URL); ``once``: it works once, then its element is gone from every state.
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

    def candidate(self) -> dict[str, object]:
        """The candidate the page agent reports for this control."""
        return {
            "locator": self.locator,
            "label": self.label,
            "event": self.event,
            "kind": self.kind,
            "action": self.url if self.kind == "link" else f"listener:{self.locator}",
            "status": STATUS,
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
        parts = [f"<h1>{escape(state.text)}</h1>"]
        if state.generated:
            parts.append(f'<ul><li data-id="{_uuid(render)}">item</li></ul>')
        for control in controls:
            if control.kind == "link":
                parts.append(f'<a href="{escape(control.url or "")}">{escape(control.label)}</a>')
            else:
                parts.append(f"<button>{escape(control.label)}</button>")
        if state.clock:
            parts.append(f'<p id="clock">10:{document.number % 60:02d}</p>')
        html = (
            f"<!DOCTYPE html><html><head><title>{escape(state.title)}</title></head>"
            f'<body><main id="app" data-state="{escape(state.name)}">{"".join(parts)}</main>'
            "</body></html>"
        )
        return {
            "url": document.url,
            "title": state.title,
            "html": html,
            "candidates": [] if light else [c.candidate() for c in controls],
            "status": 200,
        }


class FakeBrowser:
    """A browser on a :class:`FakeApp`, with the surface of ``statecrawl.browser.Browser``
    that the explorer uses, and its behaviour: a load starts a new document, an action
    whose element is gone raises ``ActionFailed``, a replay fires a list of actions and
    answers light snapshots, a hung page raises ``PageTimeout`` until the browser restarts."""

    def __init__(self, app: FakeApp, config: Config, *, capture_network: bool = False) -> None:
        self.app = app
        self.config = config
        self.capture_network = capture_network
        self.driver: FakeApp | None = None  # set while the browser runs
        self.profile: str | None = None
        self.restarts = 0
        self.volatile: list[str] = []  # handed to the page agent in reality: it masks nothing
        self.document: Document | None = None
        self.hung = False
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

    def load(self, url: str) -> Snapshot:
        """Load ``url`` and return the settled state it shows."""
        if self.driver is None:
            raise BrowserError("the browser is not started")
        if self.hung:
            raise PageTimeout(f"loading {url} took too long: the page is busy")
        self.document = self.app.open(url)
        return self.settled()

    def reset(self, url: str) -> Snapshot:
        """Clean cookies and storage (the application keeps none), then load ``url``."""
        return self.load(url)

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
        return self.settled(light)

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

    def take_exchanges(self, final: bool = False) -> list[Exchange]:
        """The network exchanges made since the last call: a scripted page makes none."""
        return []

    def screenshot(self, image_format: str = "png", quality: int = 100) -> bytes:
        """The viewport as an image: a 1x1 PNG, in whatever format is asked (a scripted
        page has nothing to draw)."""
        self._page()
        return SCREENSHOT


def tree(depth: int, branching: int, origin: str = ORIGIN) -> FakeApp:
    """A tree application at one URL, like ``tests/pages/tree.html``: the root, then
    ``branching`` children per state down to ``depth``; states are named by their path
    (``"root"``, ``"0"``, ``"0.1"``…), controls labelled ``"child K"``."""
    app = FakeApp(origin)
    app.state("root", "/")
    level = ["root"]
    for _ in range(depth):
        following = []
        for parent in level:
            for k in range(branching):
                name = str(k) if parent == "root" else f"{parent}.{k}"
                app.state(name, "/")
                app.action(parent, f"child {k}", name)
                following.append(name)
        level = following
    return app


def _slug(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") or "control"


def _uuid(number: int) -> str:
    """A uuid-shaped id made from ``number``: what a page generates for each render."""
    digits = f"{number * 2654435761 % 16**32:032x}"
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"
