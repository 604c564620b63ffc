"""Chromium through Selenium: start, load, fire, reset, snapshot, screenshot, recover.

Every transition costs one call into the page: the page agent (``agent.js``) fires the
event, waits until the page settles and answers with the snapshot. A :class:`Browser` is
put together from parts that each do one job: the process and its driver
(:class:`~.chromium.Chromium`), the channel to the page agent (:class:`~.agent.Agent`),
the page shown (:class:`~.page.Page`), loads (:class:`~.loader.Loader`), exchanges and
downloads (:class:`~.traffic.Traffic`) and pictures (:class:`~.pictures.Pictures`); it
keeps the login's session and the crawl's coverage itself.
"""

from __future__ import annotations

import contextlib
import logging
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import urllib3
from selenium import webdriver
from selenium.common.exceptions import WebDriverException

from ..config import Config
from ..coverage import Delta, Recorder
from ..errors import BrowserCrashed, BrowserError
from ..scope import Scope
from ..state import Action, Snapshot
from . import login
from .agent import Agent
from .chromium import Chromium, crashed, reason
from .loader import Loader
from .network import Exchange, performance_log
from .page import Page
from .pictures import THUMBNAIL_QUALITY, THUMBNAIL_WIDTH, Pictures
from .traffic import Traffic

log = logging.getLogger(__name__)


class Browser:
    """One headless Chromium with the page agent injected into every document."""

    def __init__(self, config: Config, *, capture_network: bool = False) -> None:
        self.config = config
        self.capture_network = capture_network
        self.scope = Scope(config)
        login.check_given(config.login)
        self.restarts = 0
        self.pages = 0  # loaded since the browser started
        self.login_hook: login.Hook | None = None  # a plugin's ``login(page)``, set by the crawl
        self.session_dir = config.out  # where the session is kept (the crawl's working folder)
        self.session = login.imported(config.login)  # restored by every reset
        self.secrets = login.Secrets(config.login)
        self.relogins = 0  # logins after the session ended
        self.coverage = Recorder(self.scope) if config.browser.coverage else None
        self.covered = 0  # the page-agent calls made when coverage was last taken
        self.chromium = Chromium(config, self.scope, capture_network)
        self.agent = Agent(config, self.scope, self.chromium)
        self.traffic = Traffic(config, self.chromium, self.secrets)
        self.page = Page(config, self.chromium, self.agent, self.traffic)
        self.loader = Loader(config, self.chromium, self.page, self.traffic)
        self.pictures = Pictures(config, self.chromium, lambda: self.agent.request("drawn", {}))

    # ---- lifecycle ---------------------------------------------------------------------------
    def start(self) -> Browser:
        """Start Chromium and ChromeDriver with a fresh profile, in a session of their own: a
        Ctrl-C to the terminal's process group reaches statecrawl only, which then ends the
        crawl cleanly and the browser with it."""
        self.agent.frame_id = None
        self.pages = 0
        chrome = self.chromium.launch()
        try:
            web = self.chromium.configure()
            script = {"source": self.agent.source}
            web.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", script)
            if self.coverage is not None:
                self.coverage.start(web)
            patterns = self.scope.request_patterns()
            web.execute_cdp_cmd("Network.enable", {})
            web.execute_cdp_cmd("Network.setBlockedURLs", {"urlPatterns": patterns})
            self._answer_http_auth(web)
            profile = self.chromium.profile
            assert profile is not None, "launch made the profile"
            self.traffic.start(web, Path(profile))
        except (WebDriverException, BrowserError, urllib3.exceptions.HTTPError, OSError) as exc:
            self.kill()
            why = reason(exc) if isinstance(exc, WebDriverException) else str(exc)
            raise BrowserError(f"cannot set up Chromium ({chrome}): {why}") from None
        return self

    def _answer_http_auth(self, web: webdriver.Chrome) -> None:
        """Load each start origin's first URL once with the HTTP credentials in it, scripts
        off and nothing archived: Chromium keeps them for that origin's realm and answers its
        basic or digest challenges itself, sending them to no other host."""
        urls = login.http_auth_urls(self.config.login, self.config.start_urls)
        if not urls:
            return
        web.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        try:
            with login.unlogged():  # (as do their commands, history and performance log)
                for url in [*urls, "about:blank"]:
                    web.get(url)  # (returns at once: the page load strategy is "none")
                    _await_load_event(web, self.config.timing.load_timeout)
                web.execute_cdp_cmd("Page.resetNavigationHistory", {})
                performance_log(web)
        finally:
            web.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})

    def close(self) -> None:
        """End the browser session, then kill whatever is left of ChromeDriver and Chromium and
        remove the profile; safe to call twice."""
        self.pictures.forget()  # (a picture taken up is copied first)
        self.traffic.stop()
        self.chromium.quit()
        self.kill()

    def kill(self) -> None:
        """End a hung or dead browser at once: ChromeDriver and every Chromium process."""
        self.traffic.stop()
        self.pictures.close()
        self.chromium.kill()

    def restart(self) -> None:
        """Replace a dead or hung browser with a new one."""
        log.info("replacing the browser with profile %s", self.chromium.profile)
        self.kill()
        self.restarts += 1
        self.start()

    def __enter__(self) -> Browser:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def driver(self) -> webdriver.Chrome | None:
        """The driver of the running browser; ``None`` before it starts and once it ends."""
        return self.chromium.driver

    @property
    def web(self) -> webdriver.Chrome:
        """The driver of the running browser (``BrowserError`` when it is not started)."""
        return self.chromium.web

    # ---- the page ----------------------------------------------------------------------------
    @property
    def volatile(self) -> list[str]:
        """The names the page agent masks in every snapshot (set for each task)."""
        return self.page.volatile

    @volatile.setter
    def volatile(self, names: list[str]) -> None:
        self.page.volatile = names

    def ask(self, method: str, arg: Any) -> dict[str, Any]:
        """The page agent's answer to ``method`` with ``arg`` (one of the methods of
        ``agent.js``, such as ``present`` or ``login``), in one call within the script
        timeout: a page with no agent answers ``{"missing": True}``, one that went away
        ``{"leaving": True}``."""
        self.pictures.forget()
        return self.agent.call(method, arg)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript ``expression`` in the current document, evaluated in
        the crawler's isolated world: no page script sees it or changes its globals."""
        self.pictures.forget()
        return self.agent.evaluate(expression)

    def url(self) -> str:
        """The current document's URL, from the browser itself (no script in the page)."""
        return self.page.url()

    def load(self, url: str, light: bool = False) -> Snapshot:
        """Load ``url`` and return the settled state it shows (``light``: without its
        candidate actions, for a state on the way to another)."""
        self.pictures.forget()
        self.traffic.drain()
        self._take_coverage()
        self.pages += 1
        return self._shown(self.loader.load(url, light), light)

    def settled(self, light: bool = False, navigating: bool = False) -> Snapshot:
        """The current document's snapshot once loaded and settled (see :meth:`Page.settled`)."""
        self.pictures.forget()
        return self._shown(self.page.settled(light, navigating), light)

    def fire(self, action: Action, light: bool = False) -> Snapshot:
        """Fire ``action`` in the current page and return the settled state that follows; a
        ``light`` snapshot has no candidate actions (see :meth:`Page.fire`)."""
        self.pictures.forget()
        return self._shown(self.page.fire(action, light), light)

    def replay(self, actions: list[Action]) -> list[Snapshot]:
        """Fire ``actions`` one after the other in one round trip; light snapshots of each
        state on the way (see :meth:`Page.replay`)."""
        self.pictures.forget()
        return self.page.replay(actions)

    def screenshot(self, image_format: str = "png", quality: int = 100) -> bytes:
        """The viewport as an image (see :meth:`Pictures.screenshot`)."""
        return self.pictures.screenshot(image_format, quality)

    def screenshot_later(self, image_format: str = "png", quality: int = 100) -> Future[bytes]:
        """The screenshot (see :meth:`screenshot`), as it is made in the camera's thread; the
        page does not change before its frame is copied."""
        return self.pictures.screenshot_later(image_format, quality)

    def thumbnail(self, width: int = THUMBNAIL_WIDTH, quality: int = THUMBNAIL_QUALITY) -> bytes:
        """The viewport scaled to ``width`` pixels across, as a WebP: the last frame drawn,
        once the page drew two since it last changed (a settle ends without waiting for them:
        the page agent's ``drawn``, asked over the camera's connection)."""
        return self.pictures.thumbnail(width, quality)

    def thumbnail_later(self) -> Future[bytes]:
        """The default thumbnail (see :meth:`thumbnail`), as it is made in the camera's thread;
        the page does not change before its frame is copied."""
        return self.pictures.thumbnail_later()

    def _shown(self, snapshot: Snapshot, light: bool) -> Snapshot:
        """``snapshot``, the state the page shows now; unless ``light`` (a state on the way to
        another), its thumbnail is started ahead (see :mod:`statecrawl.browser.pictures`)."""
        archive = self.config.archive
        if not light and archive.enabled and archive.thumbnails:
            self.pictures.ahead()
        return snapshot

    # ---- what the pages left -----------------------------------------------------------------
    def take_exchanges(self, final: bool = False) -> list[Exchange]:
        """The network exchanges made since the last call (none unless capturing)."""
        return self.traffic.take(final)

    def take_writes(self) -> list[tuple[str, str]]:
        """The method and URL of the unsafe requests sent since the last call, answered or
        not (none unless capturing); read after :meth:`take_exchanges`."""
        return self.traffic.take_writes()

    def take_coverage(self) -> Delta:
        """The coverage records of the in-scope scripts since the last call (none when off)."""
        self._take_coverage()
        return self.coverage.collect() if self.coverage is not None else {}

    def _take_coverage(self) -> None:
        """Take what ran in the current document before it is left (best effort: a page
        gone or a browser dead loses what ran since the last take)."""
        driver = self.chromium.driver
        if self.coverage is not None and driver is not None and self.agent.requests != self.covered:
            self.covered = self.agent.requests
            with contextlib.suppress(WebDriverException, urllib3.exceptions.HTTPError, OSError):
                self.coverage.take(driver)

    # ---- resets and the login's session ------------------------------------------------------
    def clear_storage(self) -> None:
        """Forget cookies, and storage of every origin visited if pages used any; the HTTP
        cache stays. The login's session is put back: its cookies here, its storage by the
        next document (see :meth:`reset`)."""
        self.pictures.forget()
        web = self.web
        web.execute_cdp_cmd("Network.clearBrowserCookies", {})
        if self.session is not None and self.session.cookies:
            with login.unlogged():
                web.execute_cdp_cmd("Network.setCookies", {"cookies": self.session.cookie_params()})
        if not (self.page.storage_used or (self.session is not None and self.session.storage)):
            return
        self.page.storage_used = False
        for site in sorted(self.scope.origins | self.loader.visited):
            web.execute_cdp_cmd(
                "Storage.clearDataForOrigin",
                {"origin": site, "storageTypes": "local_storage,indexeddb,websql,cache_storage"},
            )
        self.loader.visited.clear()
        with contextlib.suppress(WebDriverException):
            self.evaluate("try { sessionStorage.clear(); } catch (e) {}")

    def reset(self, url: str, light: bool = False, keep: bool = False) -> Snapshot:
        """Clean cookies and storage, then load ``url`` (``light``: see :meth:`load`); in a
        fresh browser after ``browser.recycle_after`` pages (nothing of the old one's page is
        needed then). ``keep``: load ``url`` in the session and page shown, cleaning nothing
        (a link expected to save a document: the page it leaves stays shown)."""
        if keep:
            self.traffic.forget_downloads()
            return self.load(url, light)
        self.pictures.forget()  # (before the browser is recycled)
        recycle = self.config.browser.recycle_after
        if recycle is not None and self.pages >= recycle:
            self.traffic.drain(final=True)  # what the old browser fetched is still archived
            self._take_coverage()
            log.info("replacing the browser after %d pages", self.pages)
            self.close()
            self.start()
        try:
            self.clear_storage()
        except WebDriverException as exc:
            if crashed(exc):
                raise BrowserCrashed("the browser died while resetting") from None
            raise
        if self.session is None and self.can_log_in():
            self.log_in()
        self.traffic.forget_downloads()
        snapshot = self._load_in_session(url, light)
        if snapshot.session is False and self.can_log_in():
            log.info("the session ended: logging in again")
            self.log_in()
            snapshot = self.load(url, light)
        return snapshot

    def _load_in_session(self, url: str, light: bool) -> Snapshot:
        """Load ``url`` with the session's storage put back into its document first."""
        script = self.session.restore_script() if self.session is not None else None
        if script is None:
            return self.load(url, light)
        web = self.web
        with login.unlogged():
            added = web.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})
        try:
            return self.load(url, light)
        finally:
            with contextlib.suppress(WebDriverException):
                web.execute_cdp_cmd(
                    "Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]}
                )

    def new_session(self) -> None:
        """Start the next reset in a new server-side session: every cookie and the storage of
        every origin cleared, and a new login where there is a way to log in (a session given
        by ``login.cookies`` or ``login.storage_state`` alone is put back, it cannot be
        made again)."""
        self.page.storage_used = True
        if self.can_log_in():
            self.session = None  # the next reset logs in

    def can_log_in(self) -> bool:
        """Whether there is a way to log in (again): a plugin's hook or a login page."""
        return self.login_hook is not None or self.config.login.url is not None

    def log_in(self) -> login.Session:
        """Log in from a clean browser (a plugin's hook, else the ``[login]`` form) and keep
        the session it makes; the login's own exchanges are archived with their secrets
        redacted, or not at all (``login.archive``)."""
        settings = self.config.login
        hook = self.login_hook or (login.form_login(settings) if settings.fields else None)
        if hook is None:
            raise login.LoginFailed(
                "login.url is given without fields: give them (--login NAME=VALUE) or a "
                "plugin's login hook"
            )
        ended, self.session = self.session, None
        self.clear_storage()  # (the thumbnail started ahead is forgotten)
        self.traffic.drain()
        start = len(self.traffic.exchanges)
        with login.unlogged():
            session = login.log_in(self, hook)
            self.secrets.add_values(session.values())
            self.traffic.drain()
        exchanges = self.traffic.exchanges
        made, exchanges[start:] = exchanges[start:], []
        if settings.archive == "redacted":
            exchanges.extend(self.secrets.scrub(made, login=True))
        self.relogins += ended is not None
        self.session = session
        login.announce(session, self.session_dir)
        return session


def _await_load_event(web: webdriver.Chrome, seconds: float) -> None:
    """Wait until the page in the window fires its load event, reading (and dropping) the
    performance log, at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        entries = performance_log(web)
        if any('"Page.loadEventFired"' in entry["message"] for entry in entries):
            return
        time.sleep(0.05)
