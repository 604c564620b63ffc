"""Loading a URL into a browser's window: a fresh document every time (a fragment of the
document shown too), a first navigation a new tab dropped started again, and a load that
saves a file instead of showing a page told apart."""

from __future__ import annotations

import logging
import time
from urllib.parse import urldefrag

import urllib3
from selenium.common.exceptions import TimeoutException, WebDriverException

from ..config import Config
from ..errors import BrowserCrashed, NavigationError, PageTimeout
from ..scope import origin
from ..state import Snapshot
from .chromium import Chromium, crashed, reason
from .page import Page, error_shown
from .traffic import Traffic

log = logging.getLogger(__name__)
BLANK_GRACE = 3.0  # seconds a load from a blank page may take to commit before it is restarted
LOG_POLL = 0.25  # seconds between looks at the browser's log for a download a load began


class Loader:
    """Loads pages into one browser's window, and remembers the origins it loaded."""

    def __init__(self, config: Config, chromium: Chromium, page: Page, traffic: Traffic) -> None:
        self.config = config
        self.chromium = chromium
        self.page = page
        self.traffic = traffic
        self.visited: set[str] = set()  # origins loaded since storage was last cleared

    def load(self, url: str, light: bool = False) -> Snapshot:
        """Load ``url`` and return the settled state it shows (``light``: without its
        candidate actions)."""
        self.chromium.limit(self.config.timing.load_timeout)
        web = self.chromium.web
        try:
            before = self.page.document()
            if "#" in url and urldefrag(self.page.url()).url == urldefrag(url).url:
                # A URL with a fragment, in the document shown: the browser would only scroll,
                # keeping the application's state in memory. A load must start the document
                # afresh. (The same URL without a fragment is a new document already.) The
                # blank page must be in before the URL is asked for (the page load strategy
                # is "none"), else the URL's navigation, a fragment's in the document still
                # shown, stops the blank one and only scrolls.
                web.get("about:blank")
                self._blank(before, time.monotonic() + self.config.timing.load_timeout)
            web.get(url)
            deadline = time.monotonic() + self.config.timing.load_timeout
            if before[1] == "about:blank":
                # A new tab may still be committing its first blank page, which can drop a
                # navigation started meanwhile (seen as a start page never requested): if
                # nothing came of it, it is started once more.
                try:
                    self._committed(before, min(deadline, time.monotonic() + BLANK_GRACE))
                except TimeoutException:
                    log.info("navigation to %s from a blank page did not start; again", url)
                    web.get(url)
            committed = self._committed(before, deadline)
        except (TimeoutException, urllib3.exceptions.ReadTimeoutError):
            limit = self.config.timing.load_timeout
            raise PageTimeout(f"loading {url} took longer than {limit}s") from None
        except WebDriverException as exc:
            if crashed(exc):
                raise BrowserCrashed(f"the browser died loading {url}") from None
            raise NavigationError(f"cannot load {url}: {reason(exc)}") from None
        if not committed:  # the response was saved as a file: the page shown is the one before
            return Snapshot(url=self.page.url(), title="", html="", status=0, downloaded=True,
                            downloads=self.traffic.downloaded(url))  # fmt: skip
        snapshot = self.page.settled(light, loading=True)
        snapshot.downloads = self.traffic.downloaded()
        why = error_shown(snapshot)
        if why:
            raise NavigationError(f"cannot load {url}: {why}")
        self.visited.add(origin(url))
        return snapshot

    def _blank(self, before: tuple[str, str], deadline: float) -> None:
        """Wait until ``about:blank`` replaced the document ``before``; ``TimeoutException``
        at ``deadline``."""
        while (document := self.page.document())[0] == before[0] or document[1] != "about:blank":
            if time.monotonic() > deadline:
                raise TimeoutException("the blank page was not committed in time")
            time.sleep(0.01)

    def _committed(self, before: tuple[str, str], deadline: float) -> bool:
        """Wait until a document other than ``before`` (and other than the ``about:blank`` a
        load may pass through) is in the browser (True), or a download began instead (False);
        ``TimeoutException`` at ``deadline``."""
        asked = time.monotonic()
        while True:
            loader, url = self.page.document()
            if loader != before[0] and url != "about:blank":
                return True
            ask_log = time.monotonic() - asked > LOG_POLL
            if ask_log:
                asked = time.monotonic()
            if self.traffic.downloading(ask_log):
                return False
            if time.monotonic() > deadline:
                raise TimeoutException("no document was committed in time")
            time.sleep(0.01)
