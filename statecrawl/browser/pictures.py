"""Pictures of the page a browser shows: screenshots and thumbnails, each captured over a
DevTools connection of its own and given up when it takes too long."""

from __future__ import annotations

from typing import Any

import urllib3
from selenium.common.exceptions import WebDriverException

from ..config import Config
from ..errors import BrowserError
from .chromium import Chromium, reason
from .screenshot import Camera, CaptureFailed

THUMBNAIL_WIDTH = 320  # pixels across a state's thumbnail (archive.thumbnails)
THUMBNAIL_QUALITY = 50  # its WebP quality: about 6 kB a page, closer than a JPEG at 60 in 10


class Pictures:
    """The viewport of one browser as images, through its camera (made on first use)."""

    def __init__(self, config: Config, chromium: Chromium) -> None:
        self.config = config
        self.chromium = chromium
        self.camera: Camera | None = None  # its screenshots' connection

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
        """The viewport scaled to ``width`` pixels across, as a WebP: Chromium scales it as
        it captures (a clip at the scroll offset, see :meth:`Camera.capture`), so it costs
        little more than the CDP round trip."""
        args = {"format": "webp", "quality": quality, "optimizeForSpeed": True}
        return self._capture(args, width)

    def close(self) -> None:
        """Close the camera's connection (a new one is made for the next picture)."""
        camera, self.camera = self.camera, None
        if camera is not None:
            camera.close()

    def _capture(self, args: dict[str, Any], width: int | None = None) -> bytes:
        """``Page.captureScreenshot`` with ``args`` of the page shown, over a connection of
        its own (see :mod:`statecrawl.browser.screenshot`): given up after
        ``archive.capture_timeout`` seconds, or when the browser cannot be asked
        (``CaptureFailed``), with ChromeDriver's session left free; ``width``: the viewport
        shown, scaled to that many pixels across."""
        try:
            web = self.chromium.web
            if self.camera is None:
                options = web.capabilities["goog:chromeOptions"]
                self.camera = Camera(options["debuggerAddress"])
            target = web.current_window_handle  # (a page target's id)
        except (BrowserError, WebDriverException, urllib3.exceptions.HTTPError, OSError) as exc:
            why = reason(exc) if isinstance(exc, WebDriverException) else str(exc)
            raise CaptureFailed(f"the browser could not be asked: {why}") from None
        return self.camera.capture(target, args, self.config.archive.capture_timeout, width)
