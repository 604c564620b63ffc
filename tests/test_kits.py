"""The kit zoo (``tests/pages/kits/``): one settings page built on real UI kits from npm
(Bootstrap, MUI, PrimeVue, Headless UI, Shoelace) and a TodoMVC-style list, crawled as a new
user would, with the value for its text field and depth 4.

Every marker of an app (a text that only a complete use of a control shows) must be shown,
visibly, by the crawl. The hand-written walk of each app shows them all, which proves them
reachable; it is also the reference for a crawl's coverage. The apps that take minutes to
crawl are measured by ``benchmarks/kits.py``, which runs every walk too.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver
from werkzeug import Request, Response

from tests.conftest import Site, served
from tests.pages.kits.walk import MARKERS, covered_walk, crawl_until_shown

DIST = Path(__file__).parent / "pages" / "kits" / "dist"
# The apps crawled here: each shows every marker within the time limit. benchmarks/kits.py
# measures them all; the others (mui, headless, shoelace) would make this file much longer.
CRAWLED = ("todo", "bootstrap", "vue")
MAX_TIME = 90


def static(root: Path) -> Callable[[Request], Response]:
    """A handler serving the files under root, a folder's index.html for the folder."""
    def handle(request: Request) -> Response:
        path = (root / request.path.lstrip("/")).resolve()
        if path.is_dir():
            path = path / "index.html"
        if root.resolve() not in path.parents or not path.is_file():
            return Response("not found", status=404)
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return Response(path.read_bytes(), content_type=kind)
    return handle


@pytest.fixture(scope="module")
def kits() -> Iterator[Site]:
    """The built kit apps at /<app>/ on a loopback server of their own."""
    for site in served("127.0.0.1"):
        site.prefix("/", static(DIST))
        yield site


@pytest.mark.parametrize("app", CRAWLED)
def test_the_crawl_shows_every_marker(kits: Site, tmp_path: Path, app: str) -> None:
    """Crawled to depth 4 with its input values, the app shows every marker, visibly, and
    the crawl stops there."""
    plugin, _ = crawl_until_shown(kits.url(f"/{app}/"), app, tmp_path, max_time=MAX_TIME)
    missed = set(MARKERS[app]) - plugin.seen
    assert not missed, f"{app}: never showed {sorted(missed)}"


@pytest.mark.parametrize("app", CRAWLED)
def test_the_walk_shows_every_marker(kits: Site, walk_driver: WebDriver, app: str) -> None:
    kits.requests.clear()
    seen, total = covered_walk(walk_driver, kits.url(f"/{app}/"), app)
    assert sorted(seen) == sorted(MARKERS[app])
    # the reference a crawl's coverage is compared with (figures in the kit zoo's README)
    assert 0 < total["functions_covered"] < total["functions_total"], total
    outside = [url for url in kits.requests if not url.startswith((f"/{app}/", "/favicon.ico"))]
    assert not outside, outside
