"""Pictures of the page a browser shows: screenshots and thumbnails, each captured over a
DevTools connection of its own and given up when it takes too long."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import urllib3
from PIL import Image
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
        takes longer than ``archive.capture_timeout`` (see :meth:`_camera_call`)."""
        args: dict[str, Any] = {"format": image_format, "optimizeForSpeed": True}
        if image_format != "png":
            args["quality"] = quality
        return self._camera_call(lambda camera, target, timeout: camera.capture(
            target, args, timeout))

    def thumbnail(
        self, width: int = THUMBNAIL_WIDTH, quality: int = THUMBNAIL_QUALITY,
        first: str | None = None,
    ) -> bytes:
        """The viewport scaled to ``width`` pixels across, as a WebP: the frame the page
        shows, which Chromium scales as it copies it (:meth:`Camera.frame`), encoded here
        (a screencast knows PNG and JPEG only); ``first``: an expression awaited before, in
        the crawler's isolated world."""
        frame = self._camera_call(lambda camera, target, timeout: camera.frame(
            target, width, timeout, first))
        try:
            with Image.open(io.BytesIO(frame)) as image:
                out = io.BytesIO()
                image.save(out, "WEBP", quality=quality, method=0)  # (the fastest method)
        except (OSError, ValueError) as exc:  # (Pillow's error for a bad image is an OSError)
            raise CaptureFailed(f"the frame could not be read: {exc}") from None
        return out.getvalue()

    def close(self) -> None:
        """Close the camera's connection (a new one is made for the next picture)."""
        camera, self.camera = self.camera, None
        if camera is not None:
            camera.close()

    def _camera_call(self, call: Callable[[Camera, str, float], bytes]) -> bytes:
        """``call(camera, target, timeout)`` for the page shown, over the camera's connection
        of its own (see :mod:`statecrawl.browser.screenshot`): given up after
        ``archive.capture_timeout`` seconds, or when the browser cannot be asked
        (``CaptureFailed``), with ChromeDriver's session left free."""
        try:
            web = self.chromium.web
            if self.camera is None:
                options = web.capabilities["goog:chromeOptions"]
                self.camera = Camera(options["debuggerAddress"])
            target = web.current_window_handle  # (a page target's id)
        except (BrowserError, WebDriverException, urllib3.exceptions.HTTPError, OSError) as exc:
            why = reason(exc) if isinstance(exc, WebDriverException) else str(exc)
            raise CaptureFailed(f"the browser could not be asked: {why}") from None
        return call(self.camera, target, self.config.archive.capture_timeout)
