"""The Chromium process and its ChromeDriver session: started with a fresh profile in a session
of their own, their calls bounded in time, and ended however they hang."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import tempfile
from collections.abc import Callable
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import (
    InvalidSessionIdException,
    NoSuchWindowException,
    WebDriverException,
)
from selenium.webdriver.remote.command import Command
from selenium.webdriver.remote.remote_connection import RemoteConnection

from ..config import Config
from ..errors import BrowserError
from ..scope import Scope
from .download import PREFS
from .executables import find_executables
from .reaper import REAPER, popen_options

log = logging.getLogger(__name__)

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
    "--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,"
    "NetworkTimeServiceQuerying",
    "--mute-audio",
    "--disable-quic",
    "--password-store=basic",
)
# ChromeDriver can exit as it starts when another process takes the free port Selenium chose
# for it (seen with parallel test workers); a new try gets another port.
DRIVER_TRIES = 3
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
QUIT_SECONDS = 5  # how long a browser may take to end its session before it is killed


def reason(exc: WebDriverException) -> str:
    """The first line of a WebDriver error: what went wrong, without the stack trace."""
    lines = str(exc.msg or exc.__class__.__name__).strip().splitlines()
    return lines[0] if lines else exc.__class__.__name__


def crashed(exc: WebDriverException) -> bool:
    """Whether ``exc`` says the browser or its driver is gone (not only the page)."""
    text = (exc.msg or str(exc)).lower()
    return isinstance(exc, InvalidSessionIdException | NoSuchWindowException) or any(
        marker in text for marker in CRASH_MARKERS
    )


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


def _connection(driver: webdriver.Chrome) -> RemoteConnection:
    """The driver's connection to ChromeDriver: selenium types ``command_executor`` as the
    URL or connection its constructor takes, and a driver made with a service holds the
    connection it made to it."""
    connection = driver.command_executor
    assert isinstance(connection, RemoteConnection), connection
    return connection


def start_driver(
    options: webdriver.ChromeOptions, service: Callable[[], webdriver.ChromeService]
) -> webdriver.Chrome:
    """A Chromium session under a ChromeDriver made by ``service``, started again (with a new
    port) when ChromeDriver exits as it starts."""
    for attempt in range(1, DRIVER_TRIES):
        try:
            return webdriver.Chrome(options=options, service=service())
        except WebDriverException as exc:
            if "unexpectedly exited" not in str(exc):
                raise
            log.info("ChromeDriver exited as it started (try %d): %s", attempt, reason(exc))
    return webdriver.Chrome(options=options, service=service())


# The longest folder Chromium's profile lock may have its socket in: a Unix socket's path
# holds 107 bytes, less Chromium's folder and the socket's names.
SOCKET_FOLDER = 107 - len("/org.chromium.Chromium.XXXXXX/SingletonSocket")


class _DriverService(webdriver.ChromeService):
    """ChromeDriver, started in a session of its own whose process group holds every
    Chromium process it starts: ended by :meth:`Chromium.kill`, or by the reaper when
    statecrawl's process ends, however it ends."""

    def __init__(self, executable_path: str, profile: str) -> None:
        options = popen_options(profile)
        super().__init__(
            executable_path=executable_path, log_output=os.devnull, env=_scratch_env(profile),
            popen_kw=options,
        )


def _scratch_env(profile: str) -> dict[str, str] | None:
    """ChromeDriver's environment with its temporary directory, and so Chromium's (the folder
    of its profile lock's socket, its scoped folders), inside the profile: removed with it,
    however the browser ends. ``None`` (the environment as it is, the lock's folder removed
    by :func:`_remove_singleton`) where the socket's path would be too long."""
    scratch = Path(profile) / "tmp"
    if len(os.fsencode(scratch)) > SOCKET_FOLDER:
        return None
    scratch.mkdir(exist_ok=True)
    return {**os.environ, "TMPDIR": str(scratch)}


class Chromium:
    """One headless Chromium under its ChromeDriver: the profile, the processes, and the
    driver every call of the browser goes through."""

    def __init__(self, config: Config, scope: Scope, capture_network: bool) -> None:
        self.config = config
        self.scope = scope
        self.capture_network = capture_network
        self.driver: webdriver.Chrome | None = None
        self.profile: str | None = None
        self.pids: list[int] = []
        self.script_timeout = 0.0

    def launch(self) -> str:
        """Start Chromium and ChromeDriver with a fresh profile, in a session of their own
        (a Ctrl-C to the terminal's process group reaches statecrawl only); Chromium's path."""
        chrome, driver_path = find_executables(self.config)
        self.profile = profile = tempfile.mkdtemp(prefix="statecrawl-profile-")
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
            self.driver = start_driver(options, lambda: _DriverService(driver_path, profile))
        except WebDriverException as exc:
            self._remove_profile()
            raise BrowserError(f"cannot start Chromium ({chrome}): {reason(exc)}") from None
        timing = self.config.timing
        settle_ms = max(timing.settle_timeout_ms, timing.growth_timeout_ms)
        self.script_timeout = (settle_ms + timing.wait_ms) / 1000 + 5
        return chrome

    def configure(self) -> webdriver.Chrome:
        """Bound the driver's waits, size the viewport and note Chromium's processes; the
        driver."""
        web = self.web
        timing = self.config.timing
        web.set_page_load_timeout(timing.load_timeout)
        web.set_script_timeout(self.script_timeout)
        self.limit(timing.load_timeout)
        # The window's frame takes its share of the window, headless too (a 1280x900
        # window shows 1280x757): the viewport, and so every screenshot, is set itself.
        width, height = self.config.browser.window_width, self.config.browser.window_height
        web.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        # The page has the focus, as the window a user acts in does. A headless Chromium
        # started under load may leave its window unfocused (about one start in 60 with the
        # CPU busy), and then no focus or blur event fires: an edit field that commits on
        # blur stays open, and the same actions lead elsewhere than in another browser.
        web.execute_cdp_cmd("Emulation.setFocusEmulationEnabled", {"enabled": True})
        # The browser's own processes, to end them even once ChromeDriver is gone.
        self.pids = _descendants(web.service.process.pid)
        return web

    @property
    def web(self) -> webdriver.Chrome:
        """The driver of the running browser (``BrowserError`` when it is not started)."""
        if self.driver is None:
            raise BrowserError("the browser is not started")
        return self.driver

    def limit(self, seconds: float) -> None:
        """Bound the next WebDriver calls: ChromeDriver cannot answer while a page's script
        never returns, so a hung page must end in a client-side timeout."""
        _connection(self.web).client_config.timeout = seconds + 2

    def quit(self) -> None:
        """End the browser session, giving a hung or dead browser ``QUIT_SECONDS`` to answer,
        not Selenium's minute-long shutdown waits (:meth:`kill` ends what is left)."""
        if self.driver is not None:
            with contextlib.suppress(Exception):  # a hung or dead browser is killed then
                self.limit(QUIT_SECONDS)
                self.driver.execute(Command.QUIT)

    def kill(self) -> None:
        """End ChromeDriver and every Chromium process at once, its process group (asking a
        page stuck in a busy loop to close would hang too), and remove the profile."""
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
                # selenium leaves RemoteConnection.close unannotated
                _connection(driver).close()  # type: ignore[no-untyped-call]
        self._remove_profile()

    def _remove_profile(self) -> None:
        if self.profile:
            _remove_singleton(Path(self.profile))
            shutil.rmtree(self.profile, ignore_errors=True)
            self.profile = None


def _remove_singleton(profile: Path) -> None:
    """Remove the folder of the temporary directory that holds the socket of Chromium's
    profile lock (the profile links to it), when it is not in the profile (see
    :func:`_scratch_env`): Chromium removes it when it quits, not when it is killed, and a
    long-running service kills many."""
    try:
        folder = Path(os.readlink(profile / "SingletonSocket")).parent
    except OSError:
        return
    if folder.name.startswith("org.chromium.") and folder.parent == Path(tempfile.gettempdir()):
        shutil.rmtree(folder, ignore_errors=True)
