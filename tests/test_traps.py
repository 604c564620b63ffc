"""Crawler traps in a real headless Chromium: dialogs, popups, out-of-scope requests, dangerous
actions, endless state spaces, busy and restless pages, failing servers, dying browsers.

Each page in ``tests/pages/traps/`` says in its header comment what it does and which states
it holds; each test asserts what a serious crawler must do with it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

import statecrawl
from statecrawl.browser import Browser
from statecrawl.plugins.hooks import CrawlView
from tests.conftest import Site, alive, children, labels

# How long a "slow" server path takes: four times the crawls' load timeout, so that a timeout
# noticed late on a loaded machine (CI once saw the page answered at 4 s) finds it unanswered.
HANG_SECONDS = 8.0
QUICK = {"settle_timeout_ms": 1000, "growth_timeout_ms": 1000, "load_timeout": 2}

CrawlFn = Callable[..., statecrawl.Crawl]


# ---- helpers -------------------------------------------------------------------------------------
class SlowSite(Site):
    """A threaded server whose hanging handlers are released when the test ends."""

    def __init__(self, server: HTTPServer) -> None:
        super().__init__(server)
        self.gate = threading.Event()

    def hang(self, path: str) -> None:
        """Answer ``path`` only after ``HANG_SECONDS`` (or when the test ends)."""

        def slow(_request: Request) -> Response:
            self.gate.wait(HANG_SECONDS)
            return Response("<!doctype html><title>Late</title><p>late", content_type="text/html")

        self.handler(path, slow)


@pytest.fixture
def slow_site() -> Iterator[SlowSite]:
    """A threaded loopback server, so one hanging request does not stall the others."""
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    site = SlowSite(server)
    try:
        yield site
    finally:
        site.gate.set()  # release hanging handlers before the server joins its threads
        server.clear()
        if server.is_running():
            server.stop()


def html_page(title: str, body: str = "") -> str:
    """A small complete page."""
    return f"<!doctype html><title>{title}</title><p>{body or title}</p>"


def with_session(text: str) -> Callable[[Request], Response]:
    """Serve ``text``, setting the cookie ``session`` when the request has none."""

    def serve(request: Request) -> Response:
        response = Response(text, content_type="text/html; charset=utf-8")
        if "session" not in request.cookies:
            response.set_cookie("session", "s3cr3t", path="/")
        return response

    return serve


def signed_out(_request: Request) -> Response:
    """Clear the session cookie and say so."""
    response = Response(html_page("Signed out"), content_type="text/html; charset=utf-8")
    response.delete_cookie("session", path="/")
    return response


def edges(result: statecrawl.Crawl, label: str) -> list[dict[str, Any]]:
    """The transitions of the action whose element's label is ``label``."""
    suffix = " " + json.dumps(label)
    return [t for t in result.transitions() if t["name"].endswith(suffix)]


def root(result: statecrawl.Crawl) -> dict[str, Any]:
    """The start state."""
    (state,) = [s for s in result.states() if s["depth"] == 0]
    return state


def by_url(result: statecrawl.Crawl, url: str) -> list[dict[str, Any]]:
    """The states whose URL is ``url``."""
    return [s for s in result.states() if s["url"] == url]


def failed(state: dict[str, Any], label: str | None = None, url: str | None = None) -> bool:
    """Whether firing the action with this label (or link to this URL) failed in ``state``."""
    return any(
        (label is not None and f["name"].endswith(" " + json.dumps(label)))
        or (url is not None and f["action"] == url)
        for f in state.get("failures", [])
    )


def run(
    tmp_path: Path, url: str, plugins: list[statecrawl.Plugin], **settings: Any
) -> statecrawl.Crawl:
    """Crawl through ``statecrawl.crawl`` with plug-ins, the archive off."""
    config = statecrawl.Config.from_mapping(
        {"start_urls": [url], "out": str(tmp_path / "out"), "archive": {"enabled": False},
         **settings}
    )
    return statecrawl.crawl(config=config, plugins=plugins)


# ---- dialogs -------------------------------------------------------------------------------------
def serve_dialogs(site: Site) -> None:
    """The dialogs page and the page it leaves for."""
    site.page("/dialogs/", "traps/dialogs.html")
    site.html("/dialogs/next", html_page("Next", "the next page"))


def test_dialogs_accepted_and_recorded_on_edges(site: Site, crawl: CrawlFn) -> None:
    """alert/confirm/prompt never block the crawl; each is answered and kept on its edge."""
    serve_dialogs(site)
    result = crawl(site.url("/dialogs/"), max_depth=1)
    assert labels(result, r'id="out">([^<]*)<') == {
        "ready", "alert done", "confirm true", "prompt Ada", "later done", ""
    }
    assert len(by_url(result, site.url("/dialogs/next"))) == 1
    expected = {
        "Alert": [{"type": "alert", "message": "Saved to drafts"}],
        "Confirm": [{"type": "confirm", "message": "Discard changes?"}],
        "Prompt": [{"type": "prompt", "message": "Your name?"}],
        "Later": [{"type": "alert", "message": "Done later"}],
    }
    for label, dialogs in expected.items():
        (edge,) = edges(result, label)
        assert [{k: d[k] for k in ("type", "message")} for d in edge["dialogs"]] == dialogs
    (leave,) = edges(result, "Leave")
    assert result.graph.nodes[leave["target"]]["url"] == site.url("/dialogs/next")
    assert [d["type"] for d in leave["dialogs"]] == ["beforeunload"]
    assert not root(result).get("failures")


def test_a_page_at_a_fragment_is_loaded_afresh_at_every_reset(site: Site, crawl: CrawlFn) -> None:
    """A reset to the URL with a fragment the page shows leaves it through about:blank,
    which must be in before the URL is asked for: else the URL's navigation stopped the blank
    one and only scrolled, and the load waited out its timeout (the browser restarted, as on
    Node-RED's editor, whose URL is always ``/#flow/<id>``)."""
    serve_dialogs(site)
    result = crawl(site.url("/dialogs/#editor"), max_depth=1, timing={"load_timeout": 5})
    assert labels(result, r'id="out">([^<]*)<') == {
        "ready", "alert done", "confirm true", "prompt Ada", "later done", ""
    }
    assert result.stats["restarts"] == 0
    assert not root(result).get("failures")


def test_dialogs_dismissed_when_asked(site: Site, crawl: CrawlFn) -> None:
    """With ``dialogs="dismiss"`` confirm answers false and prompt null."""
    serve_dialogs(site)
    result = crawl(site.url("/dialogs/"), max_depth=1, browser={"dialogs": "dismiss"})
    assert labels(result, r'id="out">([^<]*)<') == {
        "ready", "alert done", "confirm false", "prompt null", "later done", ""
    }
    (edge,) = edges(result, "Confirm")
    assert [d["type"] for d in edge["dialogs"]] == ["confirm"]


def test_native_dialog_from_a_fresh_frame(site: Site, crawl: CrawlFn) -> None:
    """An alert raised through a new frame's window (no agent override) is still answered
    and recorded, and the crawl finds every state."""
    site.page("/", "traps/frame_dialog.html")
    result = crawl(site.url("/"), max_depth=1)
    assert labels(result, r'id="out">([^<]*)<') == {"ready", "frame done", "other"}
    (edge,) = edges(result, "Frame alert")
    assert {"type": "alert", "message": "From a frame"} in [
        {k: d.get(k) for k in ("type", "message")} for d in edge.get("dialogs", [])
    ]
    assert result.stats["restarts"] == 0
    assert not root(result).get("failures")


# ---- popups --------------------------------------------------------------------------------------
class WindowCount(statecrawl.Plugin):
    """Counts the browser windows at every new state."""

    def __init__(self) -> None:
        self.most = 0

    def on_state(self, crawl: CrawlView, event: statecrawl.StateEvent) -> None:
        assert event.browser is not None
        self.most = max(self.most, len(event.browser.web.window_handles))


def test_popups_recorded_never_opened(site: Site, other_site: Site, tmp_path: Path) -> None:
    """window.open and target=_blank open no window: in-scope popups become link edges,
    out-of-scope ones external nodes, and nothing outside is requested."""
    site.page("/popups/", "traps/popups.html", OTHER=other_site.origin)
    site.html("/popups/help", html_page("Help"))
    site.html("/popups/terms", html_page("Terms"))
    other_site.html("/partner", html_page("Partner"))
    other_site.html("/blank", html_page("Blank"))
    windows = WindowCount()
    result = run(tmp_path, site.url("/popups/"), [windows], limits={"max_depth": 1})
    assert other_site.requests == []
    assert windows.most == 1
    assert {s["url"] for s in result.states()} == {
        site.url(p) for p in ("/popups/", "/popups/help", "/popups/terms")
    }
    start = root(result)["id"]
    (help_click,) = edges(result, "Help")
    assert help_click["popups"] == [site.url("/popups/help")]
    (partner_click,) = edges(result, "Partner")
    assert partner_click["popups"] == [other_site.url("/partner")]
    popup_links = {
        (t["source"], result.graph.nodes[t["target"]]["url"])
        for t in result.transitions()
        if t["event"] == "popup"
    }
    assert (start, site.url("/popups/help")) in popup_links
    assert all(t["kind"] == "link" for t in result.transitions() if t["event"] == "popup")
    external = {
        data["url"] for _, data in result.graph.nodes(data=True) if data["kind"] == "external"
    }
    assert {other_site.url("/partner"), other_site.url("/blank")} <= external
    assert site.requests.count("/popups/help") == 1


# ---- scope ---------------------------------------------------------------------------------------
def test_out_of_scope_requests_blocked_in_the_browser(
    site: Site, other_site: Site, crawl: CrawlFn
) -> None:
    """Scripts, images, frames, fetch, beacons and navigations to another origin never leave
    the browser; the page's own states are all found."""
    site.page("/outbound/", "traps/outbound.html", OTHER=other_site.origin)
    for path in ("/tracker.js", "/banner.png", "/embed", "/x", "/pixel.png", "/beacon", "/away"):
        other_site.html(path, "outside")
    result = crawl(site.url("/outbound/"), max_depth=2)
    assert other_site.requests == []
    assert labels(result, r'id="status">([^<]*)<') == {"Ready", "Shared", "Details shown"}
    assert {s["url"] for s in result.states()} == {site.url("/outbound/")}
    share = edges(result, "Share")
    assert share and all(other_site.url("/away") in t.get("blocked", []) for t in share)


# ---- dangerous actions ---------------------------------------------------------------------------
def serve_mail(site: Site) -> None:
    """The mail page with its session cookie, folder API and logout."""
    site.handler("/mail/", with_session((Path(__file__).parent / "pages/traps/mail.html")
                                        .read_text(encoding="utf-8")))

    def folder(request: Request) -> Response:
        if "session" not in request.cookies:
            return Response("{}", status=401, content_type="application/json")
        name = request.path.rsplit("/", 1)[-1]
        messages = [f"{name} message {i}" for i in (1, 2)]
        return Response(json.dumps({"messages": messages}), content_type="application/json")

    site.prefix("/api/folder/", folder)
    site.handler("/logout", signed_out)


def test_dangerous_actions_fired_last(site: Site, crawl: CrawlFn) -> None:
    """The "Log out" button and the "Sign out" link run after every other action of their
    state, so no action is fired in a session they ended."""
    serve_mail(site)
    result = crawl(site.url("/mail/"), max_depth=1)
    assert labels(result, r'id="view">([^<]*)<') == {"Inbox", "Sent", "Drafts", "Signed out", ""}
    assert len(by_url(result, site.url("/logout"))) == 1
    requests = site.requests
    fired = [i for i, p in enumerate(requests) if p.startswith("/api/folder/")
             and not p.endswith("from=load")]
    logouts = [i for i, p in enumerate(requests) if p.startswith("/logout")]
    assert fired and len(logouts) == 2
    assert max(fired) < min(logouts), requests
    assert not any(p.endswith("from=signed-out") for p in requests)


def test_dangerous_actions_skipped(site: Site, crawl: CrawlFn) -> None:
    """With ``dangerous_policy="skip"`` the session is never ended."""
    serve_mail(site)
    result = crawl(site.url("/mail/"), max_depth=1, dangerous_policy="skip")
    assert labels(result, r'id="view">([^<]*)<') == {"Inbox", "Sent", "Drafts"}
    assert not any(p.startswith("/logout") for p in site.requests)
    assert not edges(result, "Log out") and not edges(result, "Sign out")


# ---- endless state spaces ------------------------------------------------------------------------
def test_unbounded_counter_capped(site: Site, crawl: CrawlFn, tmp_path: Path) -> None:
    """A counter has a state per number: max_depth bounds the paths, max_states_per_url the
    states of one URL."""
    site.page("/", "traps/counter.html")
    deep = crawl(site.url("/"), max_depth=3, out=tmp_path / "deep")
    assert labels(deep, r'id="count">(\d+)<') == {"0", "1", "2", "3"}
    assert max(s["depth"] for s in deep.states()) == 3
    capped = crawl(site.url("/"), max_depth=3, limits={"max_states_per_url": 3},
                   out=tmp_path / "capped")
    assert len(capped) == 3
    assert labels(capped, r'id="count">(\d+)<') == {"0", "1", "2"}


def test_endless_feed_bounded(site: Site, crawl: CrawlFn, tmp_path: Path) -> None:
    """A list that grows with every "More" stops at the depth limit, or at max_states."""
    site.page("/feed/", "traps/feed.html")

    def items(request: Request) -> Response:
        page = int(request.args.get("page", "1"))
        data = {"items": [f"Story {page}.{i}" for i in (1, 2, 3)]}
        return Response(json.dumps(data), content_type="application/json")

    site.handler("/feed/api", items)
    deep = crawl(site.url("/feed/"), max_depth=3, out=tmp_path / "deep")
    assert {deep.html(s["id"]).count("<li>") for s in deep.states()} == {3, 6, 9, 12}
    few = crawl(site.url("/feed/"), max_depth=3, max_states=2, out=tmp_path / "few")
    assert len(few) == 2
    assert few.stats["stop_reason"] == "max-states"


# ---- busy and restless pages ---------------------------------------------------------------------
def test_busy_loop_recorded_and_browser_restarted(site: Site, crawl: CrawlFn) -> None:
    """A handler that never returns times out, is recorded as a failure of its state, the
    browser is replaced, and the other states are still found."""
    site.page("/", "traps/freeze.html")
    result = crawl(site.url("/"), max_depth=1, timing={"settle_timeout_ms": 1000,
                                                       "growth_timeout_ms": 1000,
                                                       "load_timeout": 3})
    assert labels(result, r'id="panel">([^<]*)<') == {"Home", "Alpha", "Beta"}
    start = root(result)
    assert failed(start, label="Freeze"), start.get("failures")
    (failure,) = [f for f in start["failures"] if f["name"].endswith('"Freeze"')]
    assert set(failure) == {"key", "name", "event", "action", "error"}
    assert failure["event"] == "click" and failure["error"]
    assert result.stats["restarts"] >= 1
    assert not edges(result, "Freeze")


def test_never_settling_page_learned_volatile(site: Site, crawl: CrawlFn) -> None:
    """rAF, interval and timer-chain animations are learned as volatile: they neither make
    states nor keep the page from settling."""
    site.page("/", "traps/animated.html")
    result = crawl(site.url("/"), max_depth=1, timing={"settle_timeout_ms": 2000})
    assert len(result) == 3
    assert labels(result, r'id="panel">([^<]*)<') == {"One", "Two", "Three"}
    assert not any(t.get("settle_timed_out") for t in result.transitions())
    assert not any(s.get("settle_timed_out") for s in result.states())
    assert {"#ticker|content", "#spinner|@style"} <= set(result.graph.graph["volatile"])


# ---- failing servers -----------------------------------------------------------------------------
def test_http_errors_are_states_with_status(site: Site, crawl: CrawlFn) -> None:
    """404 and 500 pages are states that carry their HTTP status; the crawl goes on."""
    site.page("/errors/", "traps/errors.html")
    site.handler("/errors/missing", lambda _r: Response(
        html_page("Not found", "No such page"), status=404, content_type="text/html"))
    site.handler("/errors/broken", lambda _r: Response(
        "Internal error", status=500, content_type="text/plain"))
    site.handler("/errors/empty", lambda _r: Response(b"", status=500))
    site.html("/errors/ok", html_page("Fine"))
    site.handler("/errors/api", lambda _r: Response(
        '{"error": "boom"}', status=500, content_type="application/json"))
    result = crawl(site.url("/errors/"), max_depth=1)
    (missing,) = by_url(result, site.url("/errors/missing"))
    assert missing["status"] == 404
    (broken,) = by_url(result, site.url("/errors/broken"))
    assert broken["status"] == 500
    (fine,) = by_url(result, site.url("/errors/ok"))
    assert fine.get("status", 200) == 200
    assert "Server error 500" in labels(result, r'id="result">([^<]*)<')
    empty = by_url(result, site.url("/errors/empty"))
    start = root(result)
    if not empty:  # Chromium shows its own error page: a failure that names the HTTP error
        (failure,) = [f for f in start["failures"] if f["action"] == site.url("/errors/empty")]
        assert re.search(r"\b500\b|ERR_HTTP_RESPONSE_CODE_FAILURE", failure["error"]), failure
    else:
        assert [s["status"] for s in empty] == [500]
    assert start.get("status", 200) == 200
    assert not [f for f in start.get("failures", []) if not f["action"].endswith("/empty")]


def test_navigation_timeout_is_a_failure(slow_site: SlowSite, crawl: CrawlFn) -> None:
    """A page that does not load within the load timeout, by link or by script, is a failure
    of the state it was reached from; the other states are found."""
    site = slow_site
    site.page("/slow/", "traps/slow.html")
    site.hang("/slow/hang")
    site.html("/slow/ok", html_page("Fine"))
    result = crawl(site.url("/slow/"), max_depth=1, timing=QUICK)
    assert labels(result, r'id="panel">([^<]*)<') == {"Summary", "More details", ""}
    assert len(by_url(result, site.url("/slow/ok"))) == 1
    assert not by_url(result, site.url("/slow/hang"))
    start = root(result)
    assert failed(start, url=site.url("/slow/hang")), start.get("failures")
    assert failed(start, label="Open report"), start.get("failures")


# ---- dying browsers ------------------------------------------------------------------------------
class BreakOnce(statecrawl.Plugin):
    """Breaks the browser the first time a state other than the start is found."""

    def __init__(self, breaker: Callable[[Browser], None]) -> None:
        self.breaker = breaker
        self.done = False

    def on_state(self, crawl: CrawlView, event: statecrawl.StateEvent) -> None:
        if event.parent is None or self.done:
            return
        assert event.browser is not None
        self.done = True
        self.breaker(event.browser)


def crash_renderer(browser: Browser) -> None:
    """Crash the page's renderer process."""
    with contextlib.suppress(Exception):  # the command's answer may die with the renderer
        browser.web.execute_cdp_cmd("Page.crash", {})


def test_renderer_crash_recovered(site: Site, tmp_path: Path) -> None:
    """A crashed tab is replaced by a new browser and the crawl finds every tab."""
    site.page("/", "traps/tabs.html")
    plugin = BreakOnce(crash_renderer)
    result = run(tmp_path, site.url("/"), [plugin], limits={"max_depth": 1})
    assert plugin.done
    assert result.graph.graph["finished"]
    assert result.stats["restarts"] >= 1
    assert labels(result, r'id="panel">([^<]*)<') == {
        "Panel One", "Panel Two", "Panel Three", "Panel Four"
    }


def test_dead_chromedriver_recovered(site: Site, tmp_path: Path) -> None:
    """A killed ChromeDriver is replaced with its browser and the crawl finds every tab."""
    site.page("/", "traps/tabs.html")
    orphans: list[int] = []

    def kill_driver(browser: Browser) -> None:
        process = browser.web.service.process
        orphans.extend(children(process.pid))
        process.kill()

    plugin = BreakOnce(kill_driver)
    try:
        result = run(tmp_path, site.url("/"), [plugin], limits={"max_depth": 1})
        leaked = [pid for pid in orphans if alive(pid)]
    finally:
        for pid in orphans:  # the Chromium the killed driver started, if still running
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert plugin.done and orphans
    assert leaked == [], "the Chromium of the dead driver is still running"
    assert result.graph.graph["finished"]
    assert result.stats["restarts"] >= 1
    assert labels(result, r'id="panel">([^<]*)<') == {
        "Panel One", "Panel Two", "Panel Three", "Panel Four"
    }


# ---- all at once ---------------------------------------------------------------------------------
def test_every_trap_on_one_page(slow_site: SlowSite, other_site: Site, crawl: CrawlFn) -> None:
    """Every trap at once: the crawl ends, finds every real state, stays in scope, stays
    bounded and records what failed."""
    site = slow_site
    text = (Path(__file__).parent / "pages/traps/everything.html").read_text(encoding="utf-8")
    site.handler("/all/", with_session(text.replace("{OTHER}", other_site.origin)))
    site.html("/all/help", html_page("Help"))
    site.handler("/all/missing", lambda _r: Response(
        html_page("Not found"), status=404, content_type="text/html"))
    site.handler("/all/logout", signed_out)
    site.hang("/all/slow")
    for path in ("/partner", "/x", "/pixel.png", "/away"):
        other_site.html(path, "outside")
    result = crawl(site.url("/all/"), max_depth=1, timing=QUICK)
    assert result.graph.graph["finished"]
    assert other_site.requests == []
    panels = labels(result, r'id="panel">([^<]*)<')
    notes = labels(result, r'id="note">([^<]*)<')
    assert {"Overview", "Specs", "Reviews"} <= panels
    assert {"Saved", "Discarded", "Shared", "Signed out"} <= notes
    assert len(by_url(result, site.url("/all/help"))) == 1
    assert [s["status"] for s in by_url(result, site.url("/all/missing"))] == [404]
    assert len(result) <= 12  # the 8 real states, +1, More, 404 and nothing else
    start = root(result)
    assert failed(start, label="Freeze"), start.get("failures")
    slow = [(d.get("action"), d.get("inferred"), v) for _, v, d in result.graph.out_edges(
        start["id"], data=True) if d.get("action") == site.url("/all/slow")]
    assert failed(start, url=site.url("/all/slow")), (start.get("failures"), slow, result.stats)
    assert result.stats["restarts"] >= 1
    (save,) = edges(result, "Save")
    assert [d["type"] for d in save["dialogs"]] == ["alert"]


# ---- pages still being built at the settle timeout ----------------------------------------------
def serve_growing(site: Site) -> None:
    """``traps/growing.html``, whose results fetch their summaries (60 ms each)."""
    site.page("/", "traps/growing.html")

    def summary(request: Request) -> Response:
        time.sleep(0.06)
        return Response(f"about {request.path.rsplit('/', 1)[-1]}", content_type="text/plain")

    site.prefix("/summary/", summary)


@pytest.mark.parametrize("growth_ms", [500, 15_000])
def test_results_shown_one_by_one_are_waited_for(
    site: Site, crawl: CrawlFn, growth_ms: int
) -> None:
    """A page still adding elements (50 results shown one by one by a chain of timers, about
    2 s) is waited for, past the settle timeout, until it stops: its state holds every
    result, at each visit, and no result is learned volatile. Without that wait
    (``growth_timeout_ms`` no longer than the settle timeout) the state is taken halfway."""
    serve_growing(site)
    result = crawl(
        site.url("/"), max_depth=1, rules={"dont_click": ["#forever"]},
        timing={"settle_timeout_ms": 500, "growth_timeout_ms": growth_ms},
    )
    (shown,) = [s for s in result.states() if 'id="status">Ready<' not in result.html(s["id"])]
    html = result.html(shown["id"])
    if growth_ms == 500:
        assert 'id="status">Searching<' in html and html.count("<li>") < 50
        return
    assert 'id="status">Found 50<' in html and html.count("<li>") == 50
    assert not any(s.get("settle_timed_out") for s in result.states())
    assert not result.graph.graph["masks"], "results shown one by one are no volatile content"


def test_a_page_that_grows_forever_is_taken_at_the_growth_timeout(site: Site) -> None:
    """A list that grows until the page is left holds the settle until
    ``growth_timeout_ms``, no longer: the state is taken as far as it got, timed out."""
    serve_growing(site)
    config = statecrawl.Config.from_mapping({
        "start_urls": [site.url("/")],
        "timing": {"settle_timeout_ms": 300, "growth_timeout_ms": 2000},
    })  # fmt: skip
    with Browser(config) as browser:
        forever = next(a for a in browser.load(site.url("/")).actions() if a.label == "Forever")
        began = time.monotonic()
        grown = browser.fire(forever)
        took = time.monotonic() - began
    assert grown.timed_out and "Growing" in grown.html
    assert 2.0 <= took < 4.5, took
    assert grown.html.count("<li>") > 10
