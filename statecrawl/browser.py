"""Chromium through Selenium: start, load, fire, reset, snapshot, screenshot, recover.

Every transition costs one call into the page: the page agent (``agent.js``) fires the
event, waits until the page settles and answers with the snapshot. The crawler talks to the
agent from an isolated world, through a channel keyed by a per-browser secret, so a page can
neither see the agent nor forge its answers.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import secrets
import shutil
import signal
import tempfile
import time
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag

import urllib3
from selenium import webdriver
from selenium.common.exceptions import (
    InvalidSessionIdException,
    NoSuchWindowException,
    TimeoutException,
    WebDriverException,
)
from selenium.webdriver.remote.command import Command

from . import answers, login
from .config import Config
from .coverage import Delta, Recorder
from .download import FOLDER, PREFS, Downloads
from .errors import (
    ActionFailed,
    BrowserCrashed,
    BrowserError,
    NavigationError,
    OptionAbsent,
    PageTimeout,
)
from .network import Exchange, NetworkCapture
from .reaper import REAPER, popen_options
from .redaction import strip_userinfo
from .scope import Scope, origin
from .screenshot import Camera, CaptureFailed
from .state import Action, Snapshot

CHROME_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
DRIVER_NAMES = ("chromedriver",)
THUMBNAIL_WIDTH = 320  # pixels across a state's thumbnail (archive.thumbnails)
THUMBNAIL_QUALITY = 60  # its JPEG quality: about 10 kB a page
INSTALL_HINT = "install it with `apt-get install chromium chromium-driver`"
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--metrics-recording-only",
    "--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider",
    "--mute-audio",
    "--disable-quic",
    "--password-store=basic",
)
CRASH_MARKERS = (
    "session deleted",
    "invalid session id",
    "chrome not reachable",
    "tab crashed",
    "target crashed",
    "disconnected",
    "no such window",
    "target window already closed",
    "connection refused",
    "max retries exceeded",
)
ERROR_CODE = re.compile(r'HTTP ERROR \d+|"errorCode":"(?:NET::)?(ERR_[A-Z_]+)"')
WORLD = "statecrawl"  # the isolated world the crawler's calls run in
# Runs in the isolated world, whose globals no page script can touch: hands a request to the
# agent in the page's world and resolves with its JSON answer, or with null when no agent took
# the request. Arguments: channel secret, request id, method, argument.
BRIDGE = """((channel, id, method, arg) => new Promise((resolve) => {
  const answered = (event) => {
    const reply = event.detail;
    if (typeof reply !== 'string' || !reply.startsWith(`{"id":${id},`)) return;
    window.removeEventListener(`${channel}:answer`, answered, true);
    resolve(reply);
  };
  window.addEventListener(`${channel}:answer`, answered, true);
  const request = new CustomEvent(`${channel}:request`, {
    cancelable: true, detail: JSON.stringify({ id, method, arg }),
  });
  window.dispatchEvent(request);
  if (!request.defaultPrevented) {
    window.removeEventListener(`${channel}:answer`, answered, true);
    resolve(null);
  }
}))(%s)"""
NO_CONTEXT = "no such execution context"  # the document went away during a call
log = logging.getLogger(__name__)
BLANK_GRACE = 3.0  # seconds a load from a blank page may take to commit before it is restarted
QUIT_SECONDS = 5  # how long a browser may take to end its session before it is killed


def find_executables(config: Config) -> tuple[str, str]:
    """Chromium and ChromeDriver: from the config, the environment or PATH; never downloaded."""
    chrome = _find(config.browser.binary, "STATECRAWL_CHROME", CHROME_NAMES, "Chromium")
    driver = _find(config.browser.driver, "STATECRAWL_CHROMEDRIVER", DRIVER_NAMES, "ChromeDriver")
    return chrome, driver


def _find(given: str | None, env: str, names: tuple[str, ...], what: str) -> str:
    candidate = given or os.environ.get(env)
    if candidate:
        path = shutil.which(candidate)
        if not path:
            raise BrowserError(f"{what} not found at {candidate!r} (from config or {env})")
        return path
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    raise BrowserError(f"{what} not found on PATH: {INSTALL_HINT}, or set {env}")


def reason(exc: WebDriverException) -> str:
    """The first line of a WebDriver error: what went wrong, without the stack trace."""
    lines = str(exc.msg or exc.__class__.__name__).strip().splitlines()
    return lines[0] if lines else exc.__class__.__name__


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid``, children first, read from /proc (empty elsewhere)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = (entry / "stat").read_text()
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: list[int] = []
    frontier = [pid]
    while frontier:
        children = [child for child, parent in parents.items() if parent in frontier]
        found.extend(children)
        frontier = children
    return found[::-1]


def _runs(pid: int, profile: str | None) -> bool:
    """Whether process ``pid`` still runs with the browser profile ``profile``."""
    if not profile:
        return False
    try:
        return profile.encode() in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


class _DriverService(webdriver.ChromeService):
    """ChromeDriver, started in a session of its own whose process group holds every
    Chromium process it starts: ended by :meth:`Browser.kill`, or by the reaper when
    statecrawl's process ends, however it ends."""

    def __init__(self, executable_path: str, profile: str) -> None:
        options = popen_options(profile)
        super().__init__(executable_path=executable_path, log_output=os.devnull, popen_kw=options)


def _crashed(exc: WebDriverException) -> bool:
    text = (exc.msg or str(exc)).lower()
    return isinstance(exc, InvalidSessionIdException | NoSuchWindowException) or any(
        marker in text for marker in CRASH_MARKERS
    )


class Browser:
    """One headless Chromium with the page agent injected into every document."""

    def __init__(self, config: Config, *, capture_network: bool = False) -> None:
        self.config = config
        self.capture_network = capture_network
        self.scope = Scope(config)
        self.driver: webdriver.Chrome | None = None
        self.profile: str | None = None
        self.visited: set[str] = set()
        self.restarts = 0
        self.pages = 0  # loaded since the browser started
        self.volatile: list[str] = []
        self.storage_used = False
        self.script_timeout = 0.0
        self.pids: list[int] = []
        self.capture: NetworkCapture | None = None
        self.exchanges: list[Exchange] = []
        self.frame_id: str | None = None
        self.requests = 0
        self.channel = secrets.token_hex(16)
        login.check_given(config.login)
        self.login_hook: login.Hook | None = None  # a plugin's ``login(page)``, set by the crawl
        self.session_dir = config.out  # where the session is kept (the crawl's working folder)
        self.session = login.imported(config.login)  # restored by every reset
        self.secrets = login.Secrets(config.login)
        self.relogins = 0  # logins after the session ended
        self.coverage = Recorder(self.scope) if config.browser.coverage else None
        self.ran = False  # the page agent was called since coverage was last taken
        self.downloads: Downloads | None = None  # what the browser saves (set up by ``start``)
        self.camera: Camera | None = None  # its screenshots' connection (made on first use)
        source = files("statecrawl").joinpath("agent.js").read_text(encoding="utf-8")
        agent_config = {
            **self.scope.for_agent(),
            "quietMs": config.timing.quiet_ms,
            "settleTimeoutMs": config.timing.settle_timeout_ms,
            "timerMs": config.timing.timer_ms,
            "waitMs": config.timing.wait_ms,
            "maxActions": config.limits.max_actions_per_state,
            "dialogs": config.browser.dialogs,
            "briefAnimations": config.browser.animations == "brief",
            "inputs": {name: list(values) for name, values in config.inputs.values.items()},
            "defaultText": config.inputs.default_text,
            "maxOptions": config.inputs.max_options,
            "channel": self.channel,
            "session": login.session_check(config.login),
        }
        self.agent_source = f"{source.rstrip()}({json.dumps(agent_config)});\n"

    # ---- lifecycle ---------------------------------------------------------------------------
    def start(self) -> Browser:
        """Start Chromium and ChromeDriver with a fresh profile, in a session of their own: a
        Ctrl-C to the terminal's process group reaches statecrawl only, which then ends the
        crawl cleanly and the browser with it."""
        chrome, driver_path = find_executables(self.config)
        self.frame_id = None
        self.pages = 0
        self.profile = tempfile.mkdtemp(prefix="statecrawl-profile-")
        options = webdriver.ChromeOptions()
        options.binary_location = chrome
        for flag in (*FLAGS, *self.scope.proxy_flags(), *self.config.browser.extra_args):
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.profile}")
        width, height = self.config.browser.window_width, self.config.browser.window_height
        options.add_argument(f"--window-size={width},{height}")
        options.add_experimental_option("prefs", PREFS)
        options.set_capability("unhandledPromptBehavior", self.config.browser.dialogs)
        # ``get`` returns at once and ``load`` waits for the new document itself: ChromeDriver's
        # own wait never ends when a page cancels a navigation of its own while it loads (the
        # agent stops an auto-submitted out-of-scope form), so it would cost a load timeout.
        options.page_load_strategy = "none"
        if self.capture_network:
            options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        try:
            service = _DriverService(driver_path, self.profile)
            self.driver = webdriver.Chrome(options=options, service=service)
        except WebDriverException as exc:
            self._remove_profile()
            raise BrowserError(f"cannot start Chromium ({chrome}): {reason(exc)}") from None
        timing = self.config.timing
        self.script_timeout = (timing.settle_timeout_ms + timing.wait_ms) / 1000 + 5
        try:
            self.driver.set_page_load_timeout(timing.load_timeout)
            self.driver.set_script_timeout(self.script_timeout)
            self._limit(timing.load_timeout)
            # The window's frame takes its share of the window, headless too (a 1280x900
            # window shows 1280x757): the viewport, and so every screenshot, is set itself.
            self.driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
            )
            # The browser's own processes, to end them even once ChromeDriver is gone.
            self.pids = _descendants(self.driver.service.process.pid)
            self.driver.execute_cdp_cmd(
                "Page.addScriptToEvaluateOnNewDocument", {"source": self.agent_source}
            )
            if self.coverage is not None:
                self.coverage.start(self.driver)
            patterns = self.scope.request_patterns()
            self.driver.execute_cdp_cmd("Network.enable", {})
            self.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urlPatterns": patterns})
            self._answer_http_auth()
            if self.capture_network:
                self.capture = NetworkCapture(self.driver)
                self.capture.start()
            self.downloads = Downloads(Path(self.profile) / FOLDER, self.config.archive)
            self.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {
                "behavior": "allowAndName", "downloadPath": str(self.downloads.folder),
                "eventsEnabled": True,
            })  # fmt: skip
        except (WebDriverException, BrowserError, urllib3.exceptions.HTTPError, OSError) as exc:
            self.kill()
            why = reason(exc) if isinstance(exc, WebDriverException) else str(exc)
            raise BrowserError(f"cannot set up Chromium ({chrome}): {why}") from None
        return self

    def _answer_http_auth(self) -> None:
        """Load each start origin's first URL once with the HTTP credentials in it, scripts
        off and nothing archived: Chromium keeps them for that origin's realm and answers its
        basic or digest challenges itself, sending them to no other host."""
        urls = login.http_auth_urls(self.config.login, self.config.start_urls)
        if not urls:
            return
        driver = self.driver
        driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        try:
            with login.unlogged():  # (as do their commands, history and performance log)
                for url in [*urls, "about:blank"]:
                    driver.get(url)  # (returns at once: the page load strategy is "none")
                    self._await_load_event(self.config.timing.load_timeout)
                driver.execute_cdp_cmd("Page.resetNavigationHistory", {})
                driver.get_log("performance")
        finally:
            driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})

    def _await_load_event(self, seconds: float) -> None:
        """Wait until the page in the window fires its load event, reading (and dropping)
        the performance log, at most ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            entries = self.driver.get_log("performance")
            if any('"Page.loadEventFired"' in entry["message"] for entry in entries):
                return
            time.sleep(0.05)

    def close(self) -> None:
        """End the browser session, then kill whatever is left of ChromeDriver and Chromium and
        remove the profile; safe to call twice. A hung or dead browser gets ``QUIT_SECONDS``
        to answer, not Selenium's minute-long shutdown waits."""
        self.capture = None
        if self.driver is not None:
            with contextlib.suppress(Exception):  # a hung or dead browser is killed below
                self._limit(QUIT_SECONDS)
                self.driver.execute(Command.QUIT)
        self.kill()

    def kill(self) -> None:
        """End a hung or dead browser at once: ChromeDriver and every Chromium process, its
        process group (asking a page stuck in a busy loop to close would hang too)."""
        self.capture = None
        camera, self.camera = self.camera, None
        if camera is not None:
            camera.close()
        driver, self.driver = self.driver, None
        if driver is not None:
            process = driver.service.process
            if process is not None:
                # ChromeDriver's process group holds Chromium's processes, and Chromium
                # outlives a dead ChromeDriver. The group's id is still this browser's while
                # ChromeDriver is not reaped, or one of its Chromium processes still runs.
                if process.poll() is None or any(_runs(pid, self.profile) for pid in self.pids):
                    with contextlib.suppress(OSError):
                        os.killpg(process.pid, signal.SIGKILL)
                with contextlib.suppress(Exception):
                    process.wait(timeout=5)
                REAPER.forget(process.pid)
            with contextlib.suppress(Exception):
                driver.command_executor.close()
        self._remove_profile()

    def restart(self) -> None:
        """Replace a dead or hung browser with a new one."""
        log.info("replacing the browser with profile %s", self.profile)
        self.kill()
        self.restarts += 1
        self.start()

    def _remove_profile(self) -> None:
        if self.profile:
            shutil.rmtree(self.profile, ignore_errors=True)
            self.profile = None

    def __enter__(self) -> Browser:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- driving -----------------------------------------------------------------------------
    @property
    def web(self) -> webdriver.Chrome:
        if self.driver is None:
            raise BrowserError("the browser is not started")
        return self.driver

    def _limit(self, seconds: float) -> None:
        """Bound the next WebDriver calls: ChromeDriver cannot answer while a page's script
        never returns, so a hung page must end in a client-side timeout."""
        self.web.command_executor.client_config.timeout = seconds + 2

    def _call(self, method: str, arg: Any, limit: float | None = None) -> dict[str, Any]:
        """Call a page-agent method: one request through the channel, one answer, within
        ``limit`` seconds (the script timeout by default). A page that has no agent answers
        ``{"missing": True}``, one that went away ``{"leaving": True}``."""
        self._limit(max(limit or 0.0, self.script_timeout))
        self.requests += 1
        self.ran = True
        request = json.dumps([self.channel, self.requests, method, arg])[1:-1]
        try:
            answer = self.web.execute_cdp_cmd(
                "Runtime.evaluate",
                {
                    "expression": BRIDGE % request,
                    "contextId": self._world(),
                    "awaitPromise": True,
                    "returnByValue": True,
                },
            )
        except urllib3.exceptions.ReadTimeoutError:
            raise PageTimeout(f"the page did not answer {method!r} in time") from None
        except WebDriverException as exc:
            if NO_CONTEXT in (exc.msg or ""):
                return {"leaving": True}
            if _crashed(exc):
                raise BrowserCrashed(f"the browser died: {reason(exc)}") from None
            if isinstance(exc, TimeoutException):
                raise PageTimeout(f"the page did not answer {method!r} in time") from None
            raise NavigationError(f"page agent failed: {reason(exc)}") from None
        if "exceptionDetails" in answer:
            details = answer["exceptionDetails"]
            why = details.get("exception", {}).get("description") or details.get("text")
            raise NavigationError(f"page agent failed: {str(why).splitlines()[0]}")
        value = answer.get("result", {}).get("value")
        if value is None:
            return {"missing": True}
        return answers.decode(value, self.requests)

    def url(self) -> str:
        """The current document's URL, from the browser's navigation history (WebDriver's
        ``current_url`` runs a script in the page, which a page can break), less userinfo."""
        history = self.web.execute_cdp_cmd("Page.getNavigationHistory", {})
        return strip_userinfo(str(history["entries"][history["currentIndex"]]["url"]))

    def _document(self) -> tuple[str, str]:
        """The loader id and URL of the current document (CDP: no script in the page)."""
        frame = self.web.execute_cdp_cmd("Page.getFrameTree", {})["frameTree"]["frame"]
        return str(frame["loaderId"]), str(frame.get("unreachableUrl") or frame["url"])

    def _committed(self, before: tuple[str, str], deadline: float) -> bool:
        """Wait until a document other than ``before`` (and other than the ``about:blank`` a
        load may pass through) is in the browser (True), or a download began instead (False);
        ``TimeoutException`` at ``deadline``."""
        while True:
            loader, url = self._document()
            if loader != before[0] and url != "about:blank":
                return True
            if self._downloading():
                return False
            if time.monotonic() > deadline:
                raise TimeoutException("no document was committed in time")
            time.sleep(0.01)

    def _world(self) -> int:
        """The crawler's isolated world in the current document (made on first use)."""
        web = self.web
        if self.frame_id is None:
            self.frame_id = web.execute_cdp_cmd("Page.getFrameTree", {})["frameTree"]["frame"]["id"]
        world = web.execute_cdp_cmd(
            "Page.createIsolatedWorld", {"frameId": self.frame_id, "worldName": WORLD}
        )
        return world["executionContextId"]

    def take_exchanges(self, final: bool = False) -> list[Exchange]:
        """The network exchanges made since the last call (none unless capturing)."""
        self._drain(final)
        taken, self.exchanges = self.exchanges, []
        return taken

    def _drain(self, final: bool = False) -> None:
        """Collect finished exchanges now: a navigation makes the browser forget their bodies."""
        if self.capture is None:
            return
        # A dead browser's log is gone (its driver's connection fails with urllib3 or OS
        # errors); the crawl goes on without it.
        with contextlib.suppress(
            BrowserError, WebDriverException, urllib3.exceptions.HTTPError, OSError
        ):
            # (the browser's log holds the session's cookies and tokens in its headers)
            with login.unlogged() if self.config.login.enabled else contextlib.nullcontext():
                drained = self.capture.drain(final=final)
            self.exchanges.extend(self.secrets.scrub(drained))

    def take_coverage(self) -> Delta:
        """The coverage records of the in-scope scripts since the last call (none when off)."""
        self._take_coverage()
        return self.coverage.collect() if self.coverage is not None else {}

    def _take_coverage(self) -> None:
        """Take what ran in the current document before it is left (best effort: a page
        gone or a browser dead loses what ran since the last take)."""
        if self.coverage is not None and self.driver is not None and self.ran:
            self.ran = False
            with contextlib.suppress(WebDriverException, urllib3.exceptions.HTTPError, OSError):
                self.coverage.take(self.driver)

    def load(self, url: str, light: bool = False) -> Snapshot:
        """Load ``url`` and return the settled state it shows (``light``: without its
        candidate actions, for a state on the way to another)."""
        self._drain()
        self._take_coverage()
        self.pages += 1
        self._limit(self.config.timing.load_timeout)
        try:
            before = self._document()
            if "#" in url and urldefrag(self.url()).url == urldefrag(url).url:
                # A URL with a fragment, in the document shown: the browser would only scroll,
                # keeping the application's state in memory. A load must start the document
                # afresh. (The same URL without a fragment is a new document already.)
                self.web.get("about:blank")
            self.web.get(url)
            deadline = time.monotonic() + self.config.timing.load_timeout
            if before[1] == "about:blank":
                # A new tab may still be committing its first blank page, which can drop a
                # navigation started meanwhile (seen as a start page never requested): if
                # nothing came of it, it is started once more.
                try:
                    self._committed(before, min(deadline, time.monotonic() + BLANK_GRACE))
                except TimeoutException:
                    log.info("navigation to %s from a blank page did not start; again", url)
                    self.web.get(url)
            committed = self._committed(before, deadline)
        except (TimeoutException, urllib3.exceptions.ReadTimeoutError):
            limit = self.config.timing.load_timeout
            raise PageTimeout(f"loading {url} took longer than {limit}s") from None
        except WebDriverException as exc:
            if _crashed(exc):
                raise BrowserCrashed(f"the browser died loading {url}") from None
            raise NavigationError(f"cannot load {url}: {reason(exc)}") from None
        if not committed:  # the response was saved as a file: the page shown is the one before
            return Snapshot(url=self.url(), title="", html="", status=0, downloaded=True,
                            downloads=self._downloaded(url))  # fmt: skip
        snapshot = self.settled(light, loading=True)
        snapshot.downloads = self._downloaded()
        if not snapshot.url.startswith(("http:", "https:")):
            code = ERROR_CODE.search(snapshot.html)
            why = (code.group(1) or code.group(0)) if code else f"the browser showed {snapshot.url}"
            raise NavigationError(f"cannot load {url}: {why}")
        self.visited.add(origin(url))
        return snapshot

    def settled(
        self, light: bool = False, navigating: bool = False, loading: bool = False
    ) -> Snapshot:
        """The current document's snapshot once loaded and settled, riding out navigations
        within the load timeout (one that turns into a download leaves the document where it
        is); ``navigating``: an action started one, and a call may wait
        in the document being left until the next one commits; ``loading``: a load started
        the document, whose page may keep the agent from answering until the load timeout
        (a thousand frames loading in the agent's own thread)."""
        deadline = time.monotonic() + self.config.timing.load_timeout
        stayed = False
        while True:
            limit = deadline - time.monotonic() if loading else None
            arg = {"volatile": self.volatile, "light": light}
            result = self._call("snapshot", arg, limit)
            left = result.get("leaving") or result.get("missing")
            if result.get("leaving") and not stayed and self._downloading():
                stayed = True  # the navigation turned into a download: no new document comes
                self._call("stay", {})
                continue
            if (left or navigating) and time.monotonic() > deadline:
                raise PageTimeout("a navigation did not complete in time")
            if not left:
                return self._snapshot(result)
            if result.get("missing"):
                url = self.url()
                if not url.startswith(("http:", "https:")):
                    raise NavigationError(f"the page went to {url}, which cannot be crawled")

    def _snapshot(self, result: dict[str, Any], own_url: bool = True) -> Snapshot:
        """The snapshot an answer holds; its URL is the browser's own (``own_url``), never
        the page's word, for a state to be recorded."""
        snapshot = Snapshot.from_agent(result)
        for c in snapshot.covered:
            log.debug("left out %s %s: %s lies over it", c["event"], c["locator"], c["covered_by"])
        self.storage_used = self.storage_used or result.get("storage") is True
        if own_url and snapshot.url.startswith(("http:", "https:")):
            # (a page that is no web page, such as Chromium's error page, is not recorded)
            snapshot.url = self.url()
        return snapshot

    def fire(self, action: Action, light: bool = False) -> Snapshot:
        """Fire ``action`` in the current page and return the settled state that follows;
        a ``light`` snapshot has no candidate actions (for replays). An action revealed by
        hovering is fired with the mouse over its ancestor, which is then moved off the page
        before the state is taken: a state's candidates never depend on where the pointer
        was left (a row re-rendered under it would show its hover-revealed buttons)."""
        spec = {**action.spec(), "volatile": self.volatile, "light": light}
        again = None  # the snapshot taken again once the mouse was parked
        moved = False  # ... in another document: the mouse's leaving navigated
        if not action.hover:
            result = self._call("fire", spec)
        else:
            document = self._document()[0]
            self.hover(action.hover)
            try:
                result = self._call("fire", {**spec, "light": True})
            finally:
                self.park()
            ended = ("error", "missing", "navigating", "leaving")
            if not (light or any(result.get(k) for k in ended)):
                again = self._call("snapshot", {"volatile": self.volatile, "light": False})
                if again.get("leaving") or again.get("missing"):
                    # the mouse's leaving started a navigation: followed as the fire's own
                    result, again = {**result, "leaving": True}, None
                else:
                    moved = self._document()[0] != document
        self._failed(result)
        if result.get("missing"):
            raise ActionFailed("the page agent is missing from this page")
        saved = None  # the URL of a navigation that turned into a download
        if result.get("navigating") or result.get("leaving"):
            where, blocked, dialogs = answers.departure(result)
            snapshot = self.settled(light, navigating=True)
            snapshot.navigated = where or snapshot.url
            snapshot.blocked = [*blocked, *snapshot.blocked]
            snapshot.dialogs = [*dialogs, *snapshot.dialogs]
            if self._downloading():
                saved = where
        elif again is not None:
            snapshot = self._unhovered(Snapshot.from_agent(result), self._snapshot(again))
            if moved:
                snapshot.navigated = snapshot.url
        else:
            snapshot = self._snapshot(result)
        snapshot.downloads = self._downloaded(saved)
        if result.get("absent") is not None:
            raise OptionAbsent(int(answers.number(result["absent"], "the options shown")), snapshot)
        return snapshot

    def _downloading(self) -> bool:
        """Whether a download began since the last was taken (a look at its folder)."""
        return self.downloads is not None and self.downloads.started()

    def _downloaded(self, url: str | None = None) -> list[dict[str, Any]]:
        """Wait, within the load timeout, for the downloads begun (``url``: a load of it was
        seen to begin one) to end, stopping those over ``archive.max_download``; their
        documents, their bytes put in their exchanges."""
        downloads = self.downloads
        begun = url is not None
        if downloads is None or not (begun or downloads.started()):
            return []
        limit = self.config.timing.load_timeout
        deadline = time.monotonic() + limit
        why = None
        while True:
            self._drain()
            events = self.capture.download_events if self.capture is not None else []
            stop = downloads.update(events)
            events.clear()
            if downloads.ended(logged=self.capture is not None, begun=begun):
                break
            if time.monotonic() > deadline:
                why = f"the download did not end within {limit}s"
                stop += downloads.going()
            for guid in stop:
                with contextlib.suppress(WebDriverException):
                    self.web.execute_cdp_cmd("Browser.cancelDownload", {"guid": guid})
            if why is not None:
                break
            time.sleep(0.02)
        self._drain()  # the exchange a download ended may come out one drain late
        return downloads.take(self.exchanges, why, url)

    @staticmethod
    def _failed(result: dict[str, Any]) -> None:
        """Raise ``ActionFailed`` when the agent says an action could not be fired."""
        if result.get("error"):
            error = answers.text(result["error"], "an error", 200)
            message = answers.text(result.get("message") or "the element is gone", "an error")
            raise ActionFailed(f"{error}: {message}")

    def replay(self, actions: list[Action]) -> list[Snapshot]:
        """Fire ``actions`` one after the other in one round trip; light snapshots of each
        state on the way. Stops early when one fails or leaves the page (that one's snapshot
        is the last, after the navigation settled)."""
        if any(a.hover or a.is_link for a in actions):
            return [self.fire(actions[0], light=True)]
        specs = [{**a.spec(), "volatile": self.volatile, "light": True} for a in actions]
        result = self._call("replay", specs)
        if result.get("missing") or result.get("leaving"):
            raise ActionFailed("the page went away during a replay")
        snapshots = []
        for step in answers.items(result.get("steps"), "the replay's steps", len(actions)):
            step = answers.reply(step)
            self._failed(step)
            if step.get("navigating"):
                snapshot = self.settled(light=True, navigating=True)
                snapshot.navigated = answers.departure(step)[0] or snapshot.url
                snapshots.append(snapshot)
                break
            snapshots.append(self._snapshot(step, own_url=False))
        if not snapshots:
            raise ActionFailed("the replay answered no step")
        return snapshots

    def hover(self, locator: str) -> None:
        """Move the real mouse over an element, so CSS :hover rules apply."""
        point = self._call("point", locator)
        if not (point.get("x") is not None and point.get("y") is not None):
            raise ActionFailed(f"nothing to hover at {locator}")
        self.web.execute_cdp_cmd(
            "Input.dispatchMouseEvent", {"type": "mouseMoved", "x": point["x"], "y": point["y"]}
        )

    def park(self) -> None:
        """Move the real mouse off the page (where a fresh load has it: over nothing), so
        that no :hover rule applies to the states that follow."""
        with contextlib.suppress(WebDriverException):
            self.web.execute_cdp_cmd(
                "Input.dispatchMouseEvent", {"type": "mouseMoved", "x": -1, "y": -1}
            )

    @staticmethod
    def _unhovered(fired: Snapshot, again: Snapshot) -> Snapshot:
        """The snapshot taken ``again`` after a fire (whose own light snapshot is ``fired``)
        once the mouse was parked, with what the fire recorded: its frames, dialogs, popups
        and blocked requests, and its settle."""
        again.frames = fired.frames
        again.dialogs = [*fired.dialogs, *again.dialogs]
        again.popups = [*fired.popups, *again.popups]
        again.blocked = [*fired.blocked, *again.blocked]
        again.timed_out = fired.timed_out or again.timed_out
        again.settle_ms += fired.settle_ms
        return again

    def clear_storage(self) -> None:
        """Forget cookies, and storage of every origin visited if pages used any; the HTTP
        cache stays. The login's session is put back: its cookies here, its storage by the
        next document (see :meth:`reset`)."""
        web = self.web
        web.execute_cdp_cmd("Network.clearBrowserCookies", {})
        if self.session is not None and self.session.cookies:
            with login.unlogged():
                web.execute_cdp_cmd("Network.setCookies", {"cookies": self.session.cookie_params()})
        if not (self.storage_used or (self.session is not None and self.session.storage)):
            return
        self.storage_used = False
        for site in sorted(self.scope.origins | self.visited):
            web.execute_cdp_cmd(
                "Storage.clearDataForOrigin",
                {"origin": site, "storageTypes": "local_storage,indexeddb,websql,cache_storage"},
            )
        self.visited.clear()
        with contextlib.suppress(WebDriverException):
            clear = {"expression": "try { sessionStorage.clear(); } catch (e) {}"}
            web.execute_cdp_cmd("Runtime.evaluate", {**clear, "contextId": self._world()})

    def reset(self, url: str, light: bool = False) -> Snapshot:
        """Clean cookies and storage, then load ``url`` (``light``: see :meth:`load`); in a
        fresh browser after ``browser.recycle_after`` pages (nothing of the old one's page is
        needed then)."""
        recycle = self.config.browser.recycle_after
        if recycle is not None and self.pages >= recycle:
            self._drain(final=True)  # what the old browser fetched is still archived
            self._take_coverage()
            log.info("replacing the browser after %d pages", self.pages)
            self.close()
            self.start()
        try:
            self.clear_storage()
        except WebDriverException as exc:
            if _crashed(exc):
                raise BrowserCrashed("the browser died while resetting") from None
            raise
        if self.session is None and self.can_log_in():
            self.log_in()
        if self.downloads is not None and self.downloads.started():
            # a replay's downloads are those of the actions it replayed, recorded already
            self._drain()
            if self.capture is not None:
                self.capture.download_events.clear()
            self.downloads.clear()
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
        self.clear_storage()
        self._drain()
        start = len(self.exchanges)
        with login.unlogged():
            session = login.log_in(self, hook)
            self.secrets.add_values(session.values())
            self._drain()
        made, self.exchanges[start:] = self.exchanges[start:], []
        if settings.archive == "redacted":
            self.exchanges.extend(self.secrets.scrub(made, login=True))
        self.relogins += ended is not None
        self.session = session
        login.announce(session, self.session_dir)
        return session

    def screenshot(self, image_format: str = "png", quality: int = 100) -> bytes:
        """The viewport as an image: ``"png"``, or ``"jpeg"`` or ``"webp"`` at ``quality``
        (1 to 100). CDP's capture with its fast encoder path: Selenium's own call knows PNG
        only, and encodes it slowly (see the README's benchmarks). ``CaptureFailed`` when it
        takes longer than ``archive.capture_timeout`` (see :meth:`_capture`)."""
        args: dict[str, Any] = {"format": image_format, "optimizeForSpeed": True}
        if image_format != "png":
            args["quality"] = quality
        return self._capture(args)

    def thumbnail(self, width: int = THUMBNAIL_WIDTH, quality: int = THUMBNAIL_QUALITY) -> bytes:
        """The viewport scaled to ``width`` pixels across, as a JPEG: Chromium scales it as
        it captures (``clip.scale``), so it costs little more than the CDP round trip."""
        view = self.config.browser
        clip = {"x": 0, "y": 0, "width": view.window_width, "height": view.window_height,
                "scale": width / view.window_width}  # fmt: skip
        args = {"format": "jpeg", "quality": quality, "optimizeForSpeed": True, "clip": clip}
        return self._capture(args)

    def _capture(self, args: dict[str, Any]) -> bytes:
        """``Page.captureScreenshot`` with ``args`` of the page shown, over a connection of
        its own (see :mod:`statecrawl.screenshot`): given up after ``archive.capture_timeout``
        seconds, or when the browser cannot be asked (``CaptureFailed``), with ChromeDriver's
        session left free."""
        try:
            if self.camera is None:
                options = self.web.capabilities["goog:chromeOptions"]
                self.camera = Camera(options["debuggerAddress"])
            target = self.web.current_window_handle  # (a page target's id)
        except (BrowserError, WebDriverException, urllib3.exceptions.HTTPError, OSError) as exc:
            why = reason(exc) if isinstance(exc, WebDriverException) else str(exc)
            raise CaptureFailed(f"the browser could not be asked: {why}") from None
        return self.camera.capture(target, args, self.config.archive.capture_timeout)
