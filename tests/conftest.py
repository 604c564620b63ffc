"""Shared fixtures: pages served on loopback, and crawls of them with a real Chromium."""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from selenium import webdriver
from warcio.archiveiterator import ArchiveIterator
from warcio.warcwriter import WARCWriter
from werkzeug import Request, Response

import statecrawl
from statecrawl.browser import FLAGS, find_executables
from statecrawl.browser.chromium import start_driver
from statecrawl.cli import main
from statecrawl.demo_app import DemoApp

PAGES = Path(__file__).parent / "pages"
BIN = Path(sys.executable).parent  # the virtual environment's commands (warcio, cdxj-indexer)

Handler = Callable[[Request], Response]

# The test modules that never start Chromium: ``python -m pytest -m "not browser"`` runs them.
# Every test of any other module is marked ``browser``; a test of these that tries to start
# Chromium (here or in a subprocess) finds none and fails, so none slips into the fast run.
# A long sweep of these modules is marked ``browser`` itself: it runs with the full suite,
# still without Chromium.
BROWSER_FREE = frozenset({
    "test_answers", "test_api", "test_config", "test_differential", "test_engine", "test_executor",
    "test_equivalence", "test_graph", "test_label", "test_memory", "test_models", "test_pictures",
    "test_planning", "test_policy", "test_politeness", "test_popups", "test_similarity",
    "test_spool", "test_state", "test_store", "test_strategies", "test_types",
})  # fmt: skip
NO_CHROMIUM = "no-chromium-outside-tests-marked-browser"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.stem not in BROWSER_FREE:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def _chromium_only_in_browser_tests(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if request.node.path.stem in BROWSER_FREE:
        monkeypatch.setenv("STATECRAWL_CHROME", NO_CHROMIUM)


@pytest.fixture(scope="session")
def httpserver_listen_address() -> tuple[str, int]:
    """Serve test pages on loopback only."""
    return ("127.0.0.1", 0)


@pytest.fixture(scope="session")
def make_httpserver(httpserver_listen_address: tuple[str, int]) -> Iterator[HTTPServer]:
    """The main test server, threaded: a browser's idle (pre)connection must not keep its
    next request waiting, as it would on a server that serves one connection at a time."""
    with serving(*httpserver_listen_address) as server:
        yield server


@contextlib.contextmanager
def serving(host: str, port: int = 0) -> Iterator[HTTPServer]:
    """A threaded loopback test server, running inside the block."""
    server = HTTPServer(host=host, port=port, threaded=True)
    server.start()
    try:
        yield server
    finally:
        server.clear()
        if server.is_running():
            server.stop()


class Site:
    """Routes of one local test server: exact paths, then prefixes, to pages or handlers."""

    def __init__(self, server: HTTPServer) -> None:
        self.server = server
        self.routes: dict[str, Handler] = {}
        self.prefixes: list[tuple[str, Handler]] = []
        self.requests: list[str] = []
        server.expect_request(re.compile(".*")).respond_with_handler(self._dispatch)

    @property
    def origin(self) -> str:
        return f"http://{self.server.host}:{self.server.port}"

    def url(self, path: str = "/") -> str:
        return self.origin + path

    def page(self, path: str, name: str, **replace: str) -> None:
        """Serve ``tests/pages/<name>`` at ``path``, with ``{KEY}`` placeholders replaced."""
        text = (PAGES / name).read_text(encoding="utf-8")
        for key, value in replace.items():
            text = text.replace("{" + key + "}", value)
        self.html(path, text)

    def html(self, path: str, text: str) -> None:
        self.routes[path] = lambda _r: Response(text, content_type="text/html; charset=utf-8")

    def json(self, path: str, data: Any) -> None:
        body = json.dumps(data)
        self.routes[path] = lambda _r: Response(body, content_type="application/json")

    def handler(self, path: str, fn: Handler) -> None:
        self.routes[path] = fn

    def prefix(self, prefix: str, fn: Handler) -> None:
        self.prefixes.append((prefix, fn))

    def _dispatch(self, request: Request) -> Response:
        self.requests.append(request.full_path.rstrip("?"))
        fn = self.routes.get(request.path)
        if fn is None:
            fn = next((f for p, f in self.prefixes if request.path.startswith(p)), None)
        if fn is None:
            return Response("not found", status=404, content_type="text/plain")
        return fn(request)


@pytest.fixture
def site(httpserver: HTTPServer) -> Site:
    """The main test server, empty for each test."""
    return Site(httpserver)


def served(host: str) -> Iterator[Site]:
    """A server of its own on ``host``, stopped when the test ends (for fixtures)."""
    with serving(host) as server:
        yield Site(server)


@pytest.fixture
def other_site() -> Iterator[Site]:
    """A second server on another port: out of scope for crawls of ``site``."""
    yield from served("127.0.0.1")


@pytest.fixture
def crawl(tmp_path: Path) -> Callable[..., statecrawl.Crawl]:
    """Crawl URLs into a fresh directory with quick defaults; keyword options as crawl()'s."""

    def run(*urls: str, **options: Any) -> statecrawl.Crawl:
        options.setdefault("out", tmp_path / "out")
        options.setdefault("archive", {"enabled": False})
        result = statecrawl.crawl(list(urls), **options)
        # statecrawl's own plugins (the archive) never fail: a failure is a bug, not noise
        if "plugins" not in options:
            assert result.stats["plugin_failures"] == 0, result.graph.graph["plugin_failures"]
        return result

    return run


@pytest.fixture(scope="session")
def small_crawl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[statecrawl.Crawl]:
    """``tests/pages/tree.html`` crawled to depth 2 with screenshots (21 states), its server
    kept running for the session: a real crawl to read (analysis, notebooks, replays)."""
    with serving("127.0.0.1") as server:
        site = Site(server)
        site.page("/", "tree.html")
        out = tmp_path_factory.mktemp("small")
        archive = {"screenshots": "all"}  # one URL: the default would take one screenshot
        yield statecrawl.crawl(site.url("/"), out=out, max_depth=2, archive=archive)


@pytest.fixture(scope="session")
def demo_crawl_live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[statecrawl.Crawl]:
    """The demo app crawled to depth 2 with one query (38 states), the archive as by default
    (thumbnails of every state, a screenshot of each URL's first), the app kept running for
    the session at the crawl's start URL: a real crawl to report on and compare with."""
    with DemoApp(latency=False) as app:
        yield crawl_demo(app, tmp_path_factory.mktemp("demo-live"))


def crawl_demo(app: DemoApp, out: Path) -> statecrawl.Crawl:
    """The demo app crawled to depth 2 with one query ("battery"), the archive as by default."""
    return statecrawl.crawl(
        app.url, out=out, max_depth=2, inputs={"values": {"q": ["battery"]}, "max_options": 1}
    )


def labels(result: statecrawl.Crawl, pattern: str) -> set[str]:
    """The first match of ``pattern`` in each state's DOM: what tells the states apart."""
    found = set()
    for state in result.states():
        match = re.search(pattern, result.html(state["id"]))
        found.add(match.group(1) if match else "")
    return found


@pytest.fixture(scope="module")
def walk_driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """A plain Chromium, 1280 x 900, for a module's hand-written walks of its apps."""
    web = chrome_driver(tmp_path_factory.mktemp("walk-profile"))
    web.set_window_size(1280, 900)
    yield web
    web.quit()


def chrome_driver(profile: Path, **capabilities: Any) -> webdriver.Chrome:
    """A plain Selenium Chromium found and flagged as statecrawl does, without the page agent,
    for tests of what lies below the ``Browser`` class."""
    chrome, driver = find_executables(statecrawl.Config(start_urls=("http://127.0.0.1/",)))
    options = webdriver.ChromeOptions()
    options.binary_location = chrome
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    for name, value in capabilities.items():
        options.set_capability(name, value)
    return start_driver(options, lambda: webdriver.ChromeService(executable_path=driver))


def run_tool(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run a command of the virtual environment (``warcio check …``); never raises on failure."""
    return subprocess.run(
        [str(BIN / tool), *args], capture_output=True, text=True, check=False, timeout=60
    )


def error_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run ``main(argv)``, check it failed with exit 1 and one stderr line; return that line."""
    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("statecrawl: error: ")
    return lines[0]


def children(pid: int) -> list[int]:
    """The ids of the processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def drop_records(directory: Path, suffix: str) -> None:
    """Delete from the WARC files of the crawl in ``directory`` every record whose target URI
    ends with ``suffix`` (an archive broken on purpose)."""
    for path in (directory / "archive").iterdir():
        kept = io.BytesIO()
        writer = WARCWriter(kept, gzip=True)
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream):
                if not (record.rec_headers.get_header("WARC-Target-URI") or "").endswith(suffix):
                    writer.write_record(record)
        path.write_bytes(kept.getvalue())


def console_chrome(profile: Path) -> Iterator[webdriver.Chrome]:
    """A plain Chromium at 1400 x 900 that logs the console (a module's report pages)."""
    driver = chrome_driver(profile, **{"goog:loggingPrefs": {"browser": "ALL"}})
    driver.set_window_size(1400, 900)
    try:
        yield driver
    finally:
        driver.quit()
