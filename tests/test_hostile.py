"""Hostile pages in a real headless Chromium: each page in ``tests/pages/hostile/`` says in its
header comment what it does and what a crawl of it must give.

``test_hostile_page`` is table-driven: a row (``Case``) names a page, where it is served, its
clean twin (the same page with the hostile part switched off by a query parameter) and what
else must hold. For every row the crawl ends normally, gives the clean twin's states (and, for
the rows that say so, a recorded failure), and the second loopback host receives no request.
Rows marked ``cli`` crawl through ``statecrawl crawl`` in a subprocess: exit status 0 and no
traceback.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from warcio.archiveiterator import ArchiveIterator
from werkzeug import Response

import statecrawl
from statecrawl.browser import Browser
from statecrawl.engine.explorer import STOP_GRACE
from tests.conftest import BIN, PAGES, Site, chrome_driver, labels, served

QUICK = {"settle_timeout_ms": 1000, "growth_timeout_ms": 1000, "load_timeout": 2}
PANEL = r'id="panel">([^<]*)<'

CrawlFn = Callable[..., statecrawl.Crawl]
Check = Callable[[statecrawl.Crawl, Site, Site], None]


def panel(text: str) -> str:
    """A small page whose state marker (``#panel``) is ``text``."""
    return f'<!doctype html><title>{text}</title><p id="panel">{text}</p>'


# ---- what a crawl recorded -----------------------------------------------------------------------
def failures(result: statecrawl.Crawl) -> list[dict[str, Any]]:
    """Every failure recorded: on a state, or of a start URL (on the graph)."""
    found = list(result.graph.graph.get("failures", []))
    return found + [f for s in result.states() for f in s.get("failures", [])]


def out_of_scope(result: statecrawl.Crawl) -> set[str]:
    """The out-of-scope URLs the crawl recorded: external nodes, and navigations blocked on an
    edge or a state."""
    found = {
        data["url"] for _, data in result.graph.nodes(data=True) if data.get("kind") == "external"
    }
    for t in result.transitions():
        found.update(t.get("blocked", []))
    for s in result.states():
        found.update(s.get("blocked", []))
    return found


def start(result: statecrawl.Crawl) -> dict[str, Any]:
    """The start state."""
    (state,) = [s for s in result.states() if s["depth"] == 0]
    return state


# ---- the table -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    """One hostile page and what its crawl must give.

    ``page`` (a file under ``tests/pages/``) is served at every path under ``prefix``, with
    ``{OTHER}`` replaced by the second loopback host's origin; ``routes`` serve other HTML at
    every path under theirs. The crawl starts at ``prefix``, the clean twin's at
    ``prefix + twin``; their states must show the same ``marker`` texts.
    """

    page: str
    prefix: str
    twin: str = "?clean"
    marker: str = PANEL
    routes: Mapping[str, str] = field(default_factory=dict)
    settings: Mapping[str, Any] = field(default_factory=dict)
    fails: bool = False  # the crawl must record a failure of some state
    may_fail: bool = False  # a recorded failure instead of the twin's states will do
    external: tuple[str, ...] = ()  # paths of the other host the crawl records as out of scope
    cli: bool = False  # crawl through ``statecrawl crawl`` in a subprocess
    archive: bool = False  # write (and check) the WARC
    check: Check | None = None  # anything else that must hold

    def serve(self, site: Site, other: Site) -> None:
        for path, html in self.routes.items():
            site.prefix(path, lambda _r, html=html: Response(html, content_type="text/html"))
        text = (PAGES / self.page).read_text(encoding="utf-8").replace("{OTHER}", other.origin)
        site.prefix(self.prefix, lambda _r: Response(text, content_type="text/html; charset=utf-8"))
        for path in ("/sso", "/meta", "/framed"):
            other.html(path, panel("Outside"))


def no_injected_header(result: statecrawl.Crawl, _site: Site, _other: Site) -> None:
    """No WARC or HTTP header comes from a URL's CR LF, and the archive is valid."""
    (warc,) = (result.path / "archive").glob("*.warc.gz")
    with warc.open("rb") as stream:
        for record in ArchiveIterator(stream):
            headers = list(record.rec_headers.headers)
            if record.http_headers is not None:
                headers += record.http_headers.headers
            assert not [h for h in headers if h[0].lower() == "x-injected"], headers
            assert not [h for h in headers if "\r" in h[1] or "\n" in h[1]], headers
    check = subprocess.run(
        [str(BIN / "warcio"), "check", str(warc)], capture_output=True, text=True, check=False
    )
    assert check.returncode == 0, check.stdout + check.stderr


def loaded_once(path: str) -> Check:
    """The page at ``path`` is loaded at most once however many states link to it."""

    def check(_result: statecrawl.Crawl, site: Site, _other: Site) -> None:
        loads = [p for p in site.requests if p.split("?")[0] == path]
        assert len(loads) <= 1, site.requests

    return check


def busy_failed_once(result: statecrawl.Crawl, _site: Site, _other: Site) -> None:
    """The "Busy" action is tried once more in a new browser, then recorded as failed once;
    both hung browsers were replaced."""
    busy = [f for f in failures(result) if f["name"].endswith('"Busy"')]
    assert len(busy) == 1, busy
    assert result.stats["restarts"] == 2
    assert not [t for t in result.transitions() if t["name"].endswith('"Busy"')]


CASES: dict[str, Case] = {
    "crlf": Case(
        "hostile/crlf.html",
        "/crlf/",
        routes={"/crlf/next": panel("Next"), "/crlf/found": panel("Found")},
        cli=True,
        archive=True,
        check=no_injected_header,
    ),
    # Chromium alone takes over a minute to load 1000 frames on a busy 2-core machine.
    "1000-iframes": Case(
        "hostile/iframes.html",
        "/iframes/",
        routes={"/iframes/frame": panel("Frame")},
        cli=True,
        may_fail=True,
    ),
    # The agent's answer on 200,000 elements takes seconds on a busy machine: the default
    # settle timeout, so that its call is not cut off at QUICK's 6 seconds.
    # The page answers in seconds, not minutes; a loaded machine gets room for those seconds.
    "200000-nodes": Case(
        "hostile/huge_dom.html", "/huge-dom/",  # (its load takes over 2 s on a busy machine)
        settings={"timing": {"settle_timeout_ms": 20_000, "load_timeout": 15}},
    ),
    "10mb-attribute": Case("hostile/big_attribute.html", "/big-attribute/"),
    "busy-loop": Case("hostile/busy.html", "/busy/", fails=True, cli=True, check=busy_failed_once),
    "saml-form": Case(
        "hostile/saml.html",
        "/saml/",
        settings={"limits": {"max_depth": 2}},
        external=("/sso",),
        cli=True,
        check=loaded_once("/saml/login"),
    ),
    "pushstate-loop": Case("hostile/pushstate_loop.html", "/pushstate-loop/"),
    "meta-refresh": Case(
        "hostile/meta_refresh.html",
        "/meta/",
        settings={"limits": {"max_depth": 2}},
        external=("/meta",),
        check=loaded_once("/meta/moved"),
    ),
    "frame-location": Case(
        "hostile/frame_location.html", "/frame-location/", external=("/framed",)
    ),
}


def shows(*texts: str) -> Check:
    """The crawl's states show exactly these marker texts, each at the page's own origin."""

    def check(result: statecrawl.Crawl, site: Site, _other: Site) -> None:
        assert labels(result, PANEL) == set(texts)
        assert all(s["url"].startswith(site.origin) for s in result.states())

    return check


# Pages that declare the names an agent would use, hunt for the agent, or try to speak for it.
AGENT_CASES: dict[str, Case] = {
    **{
        f"globals-{form}": Case(
            "hostile/globals.html", f"/globals/{form}/", check=shows("Home", "One", "Two", "Three")
        )
        for form in ("var", "let", "const", "function", "class")
    },
    "forge": Case("hostile/forge.html", "/forge/", archive=True, check=shows("Home", "One", "Two")),
}
CASES.update(AGENT_CASES)


def crawl_settings(case: Case) -> dict[str, Any]:
    """The crawl's settings: quick timeouts, depth 1, the row's own on top."""
    settings: dict[str, Any] = {
        "timing": dict(QUICK),
        "limits": {"max_depth": 1},
        "archive": {"enabled": case.archive},
    }
    for name, value in case.settings.items():
        settings[name] = {**settings.get(name, {}), **value}
    return settings


def toml(settings: Mapping[str, Any]) -> str:
    """Tables of plain values as TOML."""
    lines = []
    for table, values in settings.items():
        lines.append(f"[{table}]")
        for name, value in values.items():
            lines.append(f"{name} = {str(value).lower() if isinstance(value, bool) else value}")
    return "\n".join(lines) + "\n"


def crawl_cli(
    url: str, out: Path, settings: Mapping[str, Any], may_fail: bool = False
) -> statecrawl.Crawl | None:
    """Crawl through ``statecrawl crawl`` in a subprocess: exit 0 and no traceback; or, where
    the start page ``may_fail``, exit 1 with a last line that names it (``None``)."""
    config = out.with_suffix(".toml")
    config.write_text(toml(settings), encoding="utf-8")
    done = subprocess.run(
        [str(BIN / "statecrawl"), "crawl", url, "--out", str(out), "--config", str(config)],
        capture_output=True,
        text=True,
        check=False,
        timeout=150,
    )
    assert "Traceback" not in done.stderr, done.stderr
    if may_fail and done.returncode == 1:
        last = done.stderr.splitlines()[-1]
        assert last.startswith("statecrawl: error: ") and url in last, last
        return None
    assert done.returncode == 0, done.stderr
    return statecrawl.load(out)


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_page(
    name: str, site: Site, other_site: Site, crawl: CrawlFn, tmp_path: Path
) -> None:
    """The crawl ends normally with the clean twin's states (or a recorded failure where the
    row says so), records what went out of scope, and nothing reaches the other host."""
    case = CASES[name]
    case.serve(site, other_site)
    settings = crawl_settings(case)
    twin = crawl(site.url(case.prefix + case.twin), out=tmp_path / "twin", **settings)
    site.requests.clear()
    url = site.url(case.prefix)
    if case.cli:
        found = crawl_cli(url, tmp_path / "hostile", settings, case.may_fail)
        if found is None:
            return  # the start page failed: a failed crawl, as a may_fail case allows
        result = found
    else:
        result = crawl(url, out=tmp_path / "hostile", **settings)
    assert result.graph.graph["finished"]
    assert result.stats["stop_reason"] == "finished"
    assert other_site.requests == []
    assert not failures(twin)
    if case.may_fail and failures(result):
        return
    assert labels(result, case.marker) == labels(twin, case.marker)
    if case.fails:
        assert failures(result)
    else:
        assert not failures(result), failures(result)
    assert {other_site.url(p) for p in case.external} <= out_of_scope(result)
    if case.check is not None:
        case.check(result, site, other_site)


def test_max_time_abandons_work_in_flight(site: Site, crawl: CrawlFn) -> None:
    """At ``max_time`` the crawl stops within a few seconds, even while an action hangs the
    page (its browser is killed), and what was found is written."""
    site.page("/busy/", "hostile/busy.html")
    result = crawl(  # time for Chromium to start and load the start page on a busy machine
        site.url("/busy/"), max_time=4, timing={"settle_timeout_ms": 5000, "load_timeout": 30}
    )
    assert result.graph.graph["finished"]
    assert result.stats["stop_reason"] == "max-time"
    assert result.stats["elapsed"] < 4 + STOP_GRACE + 3
    assert len(result) >= 1


def test_scope_regex_fetches_nothing_outside(site: Site, other_site: Site, crawl: CrawlFn) -> None:
    """A ``--scope`` pattern that matches the other host too still fetches nothing from it:
    the browser blocks every host but the start URLs' (and ``scope.allow``'s)."""
    site.page("/outbound/", "traps/outbound.html", OTHER=other_site.origin)
    for path in ("/tracker.js", "/banner.png", "/embed", "/x", "/pixel.png", "/beacon", "/away"):
        other_site.html(path, "outside")
    result = crawl(
        site.url("/outbound/"),
        max_depth=2,
        timing=QUICK,
        scope={"include": [r"^http://127\.0\.0\.1:"]},
    )
    assert other_site.requests == []
    assert labels(result, r'id="status">([^<]*)<') == {"Ready", "Shared", "Details shown"}


@pytest.fixture
def ipv6_site() -> Iterator[Site]:
    """A server on the IPv6 loopback address."""
    yield from served("::1")


def test_ipv6_start_url(ipv6_site: Site, other_site: Site, crawl: CrawlFn) -> None:
    """A start URL on ``[::1]`` is crawled with the browser's blocking on: its states are
    found and the other host receives nothing."""
    site = ipv6_site
    site.page("/", "hostile/frame_location.html", OTHER=other_site.origin)
    other_site.html("/framed", panel("Outside"))
    url = f"http://[::1]:{site.server.port}/"
    result = crawl(url, max_depth=1, timing=QUICK)
    assert other_site.requests == []
    assert labels(result, PANEL) == {"Home", "One", "Two"}


OWN_KEYS = """return [window, document].map((target) =>
    Reflect.ownKeys(target).map((key) =>
        typeof key === 'symbol' ? `@@${key.description}` : key));"""


def test_agent_adds_no_global(site: Site, tmp_path: Path) -> None:
    """Nothing of the agent is reachable by name: a page sees the same own properties on
    ``window`` and ``document`` as in a browser without the agent."""
    site.page("/", "hostile/forge.html")
    url = site.url("/?clean")
    plain = chrome_driver(tmp_path / "plain")
    try:
        plain.get(url)
        expected = plain.execute_script(OWN_KEYS)
    finally:
        plain.quit()
    config = statecrawl.Config(start_urls=(url,))
    with Browser(config) as browser:
        browser.load(url)
        seen = browser.web.execute_script(OWN_KEYS)
    assert [sorted(keys) for keys in seen] == [sorted(keys) for keys in expected]
