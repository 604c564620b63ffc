"""Pictures of the page a browser shows: screenshots and thumbnails, each the frame the page
shows, copied over a DevTools connection of its own and given up when it takes too long.

The camera works in a thread of its own, one picture at a time. A thumbnail can be started
as soon as a state settles (:meth:`Pictures.ahead`): the frame is copied and encoded there
while the browser's thread collects the state's exchanges and the engine records it, and the
archive takes it up when the state proves new (:meth:`Pictures.thumbnail_later`), for its own
thread to wait for and write; a screenshot is taken so too (:meth:`Pictures.screenshot_later`).
Anything done to the page first drops a thumbnail started ahead, or, for a picture taken up,
waits until its frame was copied (:meth:`Pictures.forget`).
"""

from __future__ import annotations

import functools
import io
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import urllib3
from PIL import Image
from selenium.common.exceptions import WebDriverException

from ..config import Config
from ..errors import BrowserError
from ..ledger import phase
from .chromium import Chromium, reason
from .screenshot import WAIT_MORE, Camera, CaptureFailed, made

THUMBNAIL_WIDTH = 320  # pixels across a state's thumbnail (archive.thumbnails)
THUMBNAIL_QUALITY = 50  # its WebP quality: about 6 kB a page, closer than a JPEG at 60 in 10
FULL_SIZE = 16384  # pixels: a frame this wide at most is the viewport's own size
# Pillow's WebP method for a screenshot: Chromium's own quality at 3 % less size (method 2 was
# 0.3 to 1.4 dB further from the page at the same size), 60 to 110 ms, in the camera's thread.
SCREENSHOT_METHOD = 4


class Pictures:
    """The viewport of one browser as images, through its camera (made on first use).
    ``drawn`` gives the expression a picture's frame waits for, in the crawler's isolated
    world: the page agent's, once the page drew since it last changed."""

    def __init__(self, config: Config, chromium: Chromium, drawn: Callable[[], str]) -> None:
        self.config = config
        self.chromium = chromium
        self.drawn = drawn
        self.camera: Camera | None = None  # its pictures' connection
        self._thread: ThreadPoolExecutor | None = None  # where the camera works (made on first use)
        self._window: tuple[object, str] | None = None  # the driver, and its page target's id
        self._ahead: Picture | None = None  # a thumbnail of the page as it is shown now
        self._kept: list[Picture] = []  # those taken up: their frames are copied before a change
        self._failed = threading.Event()  # a picture of the page shown failed: no more are tried
        self._waited = False  # a picture of the page shown waits for it to draw: the next need not

    def screenshot(self, image_format: str = "png", quality: int = 100) -> bytes:
        """The viewport as an image: ``"png"``, or ``"jpeg"`` or ``"webp"`` at ``quality``
        (1 to 100): the frame the page shows once it drew since it last changed, at its own
        size (:meth:`Camera.frame`), a PNG or JPEG as Chromium copies it, a WebP encoded here
        (a screencast knows PNG and JPEG only). ``CaptureFailed`` when it takes longer than
        ``archive.capture_timeout`` (see :meth:`_started`)."""
        return self._result(self._screenshot(image_format, quality).made)

    def screenshot_later(self, image_format: str = "png", quality: int = 100) -> Future[bytes]:
        """The screenshot of the page shown (see :meth:`screenshot`), as it is made in the
        camera's thread: the page may not change until its frame is copied, which the next
        :meth:`forget` waits for. The browser's thread waits for the copy (a PNG of the
        viewport, 26 to 27 ms on the demo), not for a capture and its encoding (98 to 119 ms a
        WebP)."""
        return self._keep(self._screenshot(image_format, quality))

    def thumbnail(self, width: int = THUMBNAIL_WIDTH, quality: int = THUMBNAIL_QUALITY) -> bytes:
        """The viewport scaled to ``width`` pixels across, as a WebP: the frame the page
        shows once it drew since it last changed, which Chromium scales as it copies it
        (:meth:`Camera.frame`), encoded here. The one started :meth:`ahead` of the page
        shown, if any."""
        if (width, quality) == (THUMBNAIL_WIDTH, THUMBNAIL_QUALITY):
            return self._result(self._taken().made)
        return self._result(self._thumbnail(width, quality).made)

    def thumbnail_later(self) -> Future[bytes]:
        """The default thumbnail of the page shown (see :meth:`thumbnail`), as it is made in
        the camera's thread (see :meth:`screenshot_later`)."""
        return self._keep(self._taken())

    def ahead(self) -> None:
        """Start taking the default thumbnail of the page as it is shown now, for the next
        :meth:`thumbnail` or :meth:`thumbnail_later` to take up unless :meth:`forget` is
        called before."""
        try:
            self._ahead = self._thumbnail(THUMBNAIL_WIDTH, THUMBNAIL_QUALITY)
        except CaptureFailed:  # (the browser cannot be asked: the thumbnail's call says why)
            self._ahead = None

    def forget(self) -> None:
        """The page shown is about to change: a thumbnail started :meth:`ahead` is dropped (its
        capture ends in the camera's thread, unread, unless it has not begun), those taken
        up are waited for until their frames were copied (past the camera's limits, they
        fail)."""
        ahead, self._ahead = self._ahead, None
        if ahead is not None:
            ahead.made.cancel()
        self._new_page()
        kept, self._kept = self._kept, []
        if all(picture.copied.is_set() for picture in kept):
            return
        # (each one's own time, and that of one dropped before them in the camera's thread)
        deadline = time.monotonic() + (len(kept) + 1) * self.config.archive.capture_timeout
        with phase("pictures"):
            for picture in kept:
                if not picture.copied.wait(max(0.0, deadline - time.monotonic()) + WAIT_MORE):
                    picture.late.set()  # what it copies now would show the next page

    def _keep(self, picture: Picture) -> Future[bytes]:
        """Take up ``picture``: the page does not change before its frame is copied."""
        self._kept.append(picture)
        return picture.made

    def _taken(self) -> Picture:
        """The default thumbnail of the page shown: the one started :meth:`ahead`, or one
        started now."""
        ahead, self._ahead = self._ahead, None
        return ahead or self._thumbnail(THUMBNAIL_WIDTH, THUMBNAIL_QUALITY)

    def _thumbnail(self, width: int, quality: int) -> Picture:
        """A thumbnail of the page shown, started in the camera's thread."""
        return self._picture(width, "webp", quality, method=0)  # (the fastest method)

    def _screenshot(self, image_format: str, quality: int) -> Picture:
        """A screenshot of the page shown, started in the camera's thread."""
        return self._picture(FULL_SIZE, image_format, quality, method=SCREENSHOT_METHOD)

    def _picture(self, width: int, image_format: str, quality: int, method: int) -> Picture:
        """A picture of the page shown (see :func:`_picture`), started in the camera's
        thread."""
        copied, late = threading.Event(), threading.Event()
        # (the camera takes one picture at a time: those after the first come once it drew)
        first = None if self._waited else self.drawn()
        started = self._started(functools.partial(
            _picture, width=width, image_format=image_format, quality=quality, method=method,
            first=first, copied=copied, late=late, failed=self._failed))
        self._waited = True
        return Picture(started, copied, late)

    def _new_page(self) -> None:
        """The page shown changes: its pictures start afresh."""
        self._failed = threading.Event()
        self._waited = False

    def close(self) -> None:
        """Close the camera's connection and its thread (new ones are made for the next
        picture)."""
        self._ahead, self._kept = None, []
        self._new_page()
        self._window = None
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.shutdown(wait=False, cancel_futures=True)
        camera, self.camera = self.camera, None
        if camera is not None:
            camera.close()

    def _started(self, call: Callable[[Camera, str, float], bytes]) -> Future[bytes]:
        """``call(camera, target, timeout)`` for the page shown, started in the camera's
        thread over its connection of its own (see :mod:`statecrawl.browser.screenshot`):
        given up after ``archive.capture_timeout`` seconds, or when the browser cannot be
        asked (``CaptureFailed``), with ChromeDriver's session left free."""
        try:
            web = self.chromium.web
            if self.camera is None:
                options = web.capabilities["goog:chromeOptions"]
                self.camera = Camera(options["debuggerAddress"])
            if self._window is None or self._window[0] is not web:
                self._window = (web, web.current_window_handle)  # (a page target's id)
        except (BrowserError, WebDriverException, urllib3.exceptions.HTTPError, OSError) as exc:
            why = reason(exc) if isinstance(exc, WebDriverException) else str(exc)
            raise CaptureFailed(f"the browser could not be asked: {why}") from None
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="statecrawl-camera")
        camera, target, timeout = self.camera, self._window[1], self.config.archive.capture_timeout
        return self._thread.submit(call, camera, target, timeout)

    def _result(self, started: Future[bytes]) -> bytes:
        """What the camera's thread made of ``started`` (see :func:`made`)."""
        return made(started, self.config.archive.capture_timeout)


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture being made in the camera's thread: ``made`` once encoded, ``copied`` set
    once its frame was copied (or could not be), after which the page may change; ``late``
    set when the page was changed before."""

    made: Future[bytes]
    copied: threading.Event
    late: threading.Event


def _picture(camera: Camera, target: str, timeout: float, *, width: int, image_format: str,
             quality: int, method: int, first: str | None, copied: threading.Event,
             late: threading.Event, failed: threading.Event) -> bytes:
    """The frame ``target`` shows, at most ``width`` pixels across, as ``image_format`` at
    ``quality``: a PNG or a JPEG as Chromium copies it, a WebP encoded here from the PNG with
    Pillow's ``method`` (0 the fastest), in the camera's thread; ``copied`` is set once the
    frame is (or could not be), and a frame copied ``late`` is refused. ``failed`` is set
    when the frame could not be copied: another picture of that page would wait as long."""
    jpeg = quality if image_format == "jpeg" else None  # (Chromium's own encoder: fast)
    try:
        if failed.is_set():
            raise CaptureFailed("not tried: the picture before it failed")
        frame = camera.frame(target, width, timeout, first, copied.set, jpeg)
    except CaptureFailed:
        failed.set()
        raise
    finally:
        copied.set()  # (also when the frame could not be copied)
    if late.is_set():
        raise CaptureFailed("the page changed before its frame was copied")
    if image_format != "webp":
        return frame
    try:
        with Image.open(io.BytesIO(frame)) as image:
            out = io.BytesIO()
            image.save(out, "WEBP", quality=quality, method=method)
    except (OSError, ValueError) as exc:  # (Pillow's error for a bad image is an OSError)
        raise CaptureFailed(f"the frame could not be read: {exc}") from None
    return out.getvalue()
