"""What a browser fetched and saved: the network exchanges drained from its performance log
(the login's secrets taken out) and the downloads it made, until they are taken."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import urllib3
from selenium import webdriver
from selenium.common.exceptions import WebDriverException

from ..config import Config
from ..errors import BrowserError
from ..ledger import phase
from . import login
from .chromium import Chromium
from .download import FOLDER, Downloads
from .network import Exchange, NetworkCapture


class Traffic:
    """The exchanges and downloads of one browser (exchanges only when it captures them)."""

    def __init__(self, config: Config, chromium: Chromium, secrets: login.Secrets) -> None:
        self.config = config
        self.chromium = chromium
        self.secrets = secrets
        self.capture: NetworkCapture | None = None
        self.exchanges: list[Exchange] = []
        self.downloads: Downloads | None = None  # what the browser saves (set up by ``start``)

    def start(self, web: webdriver.Chrome, profile: Path) -> None:
        """Read the network log of a browser just started (when it captures) and have it
        save downloads in ``profile``, telling of each."""
        if self.chromium.capture_network:
            self.capture = NetworkCapture(web)
            self.capture.start()
        self.downloads = Downloads(profile / FOLDER, self.config.archive)
        web.execute_cdp_cmd("Browser.setDownloadBehavior", {
            "behavior": "allowAndName", "downloadPath": str(self.downloads.folder),
            "eventsEnabled": True,
        })  # fmt: skip

    def stop(self) -> None:
        """Read the network log no more: the browser is ending."""
        self.capture = None

    def take(self, final: bool = False) -> list[Exchange]:
        """The network exchanges made since the last call (none unless capturing)."""
        self.drain(final)
        taken, self.exchanges = self.exchanges, []
        return taken

    def take_writes(self) -> list[tuple[str, str]]:
        """The unsafe requests sent since the last call (see
        :meth:`NetworkCapture.take_writes`; none unless capturing): read after :meth:`take`."""
        return self.capture.take_writes() if self.capture is not None else []

    def drain(self, final: bool = False) -> None:
        """Collect finished exchanges now: a navigation makes the browser forget their bodies."""
        if self.capture is None:
            return
        with phase("network"):
            self._drain(self.capture, final)

    def _drain(self, capture: NetworkCapture, final: bool) -> None:
        """Collect finished exchanges from ``capture`` now (see :meth:`drain`), untimed."""
        # A dead browser's log is gone (its driver's connection fails with urllib3 or OS
        # errors); the crawl goes on without it.
        with contextlib.suppress(
            BrowserError, WebDriverException, urllib3.exceptions.HTTPError, OSError
        ):
            # (the browser's log holds the session's cookies and tokens in its headers)
            with login.unlogged() if self.config.login.enabled else contextlib.nullcontext():
                drained = capture.drain(final=final)
            self.exchanges.extend(self.secrets.scrub(drained))

    def downloading(self, ask_log: bool = False) -> bool:
        """Whether a download began since the last was taken: a look at its folder (``ask_log``:
        and at the browser's log, which tells of one that failed before a poll saw its file)."""
        if self.downloads is None:
            return False
        if self.downloads.started():
            return True
        if ask_log and self.capture is not None:
            self.drain()
            return bool(self.capture.download_events)
        return False

    def downloaded(
        self, url: str | None = None, asked: list[list[str]] | None = None
    ) -> list[dict[str, Any]]:
        """Wait, within the load timeout, for the downloads begun (``url``: a load of it was
        seen to begin one; ``asked``: the page asked for these, [URL, name], which the browser
        may not have begun yet) to end, stopping those over ``archive.max_download``; their
        documents, their bytes put in their exchanges. Those asked for must begin within the
        settle timeout: for an error answer (a broken link with ``download``) the browser
        writes no file, so with no log nothing would ever show it, and one it refuses never
        begins."""
        downloads = self.downloads
        begun = url is not None or bool(asked)
        if downloads is None or not (begun or downloads.started()):
            return []
        timing = self.config.timing
        limit = timing.load_timeout
        start = time.monotonic()
        deadline, begin_by = start + limit, start + timing.settle_timeout_ms / 1000
        why = None
        while True:
            self.drain()
            events = self.capture.download_events if self.capture is not None else []
            stop = downloads.update(events)
            events.clear()
            if downloads.ended(logged=self.capture is not None, begun=begun):
                break
            if url is None and not downloads.started() and time.monotonic() > begin_by:
                why = f"the browser began no download within {timing.settle_timeout_ms} ms"
                break
            if time.monotonic() > deadline:
                why = f"the download did not end within {limit}s"
                stop += downloads.going()
            for guid in stop:
                with contextlib.suppress(WebDriverException):
                    self.chromium.web.execute_cdp_cmd("Browser.cancelDownload", {"guid": guid})
            if why is not None:
                break
            time.sleep(0.02)
        self.drain()  # the exchange a download ended may come out one drain late
        return downloads.take(self.exchanges, why, url, asked)

    def forget_downloads(self) -> None:
        """Drop the downloads begun since the last were taken: a replay's are those of the
        actions it replayed, recorded already."""
        if self.downloads is not None and self.downloads.started():
            self.drain()
            if self.capture is not None:
                self.capture.download_events.clear()
            self.downloads.clear()
