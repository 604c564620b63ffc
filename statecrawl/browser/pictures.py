"""Pictures of the page a browser shows: screenshots and thumbnails, each captured over a
DevTools connection of its own and given up when it takes too long.

The camera works in a thread of its own, one picture at a time. A thumbnail can be started
as soon as a state settles (:meth:`Pictures.ahead`): the frame is copied and encoded there
while the browser's thread collects the state's exchanges and the engine records it, and the
archive takes it up when the state proves new (:meth:`Pictures.thumbnail_later`), for its own
thread to wait for and write. Anything done to the page first drops it, or, once taken up,
waits until its frame was copied (:meth:`Pictures.forget`).
"""

from __future__ import annotations

import functools
import io
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

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


class Pictures:
    """The viewport of one browser as images, through its camera (made on first use).
    ``drawn`` gives the expression a thumbnail's frame waits for, in the crawler's isolated
    world: the page agent's, once the page drew since it last changed."""

    def __init__(self, config: Config, chromium: Chromium, drawn: Callable[[], str]) -> None:
        self.config = config
        self.chromium = chromium
        self.drawn = drawn
        self.camera: Camera | None = None  # its screenshots' connection
        self._thread: ThreadPoolExecutor | None = None  # where the camera works (made on first use)
        self._window: tuple[object, str] | None = None  # the driver, and its page target's id
        self._ahead: Thumbnail | None = None  # a thumbnail of the page as it is shown now
        self._kept: Thumbnail | None = None  # one taken up: its frame is copied before a change

    def screenshot(self, image_format: str = "png", quality: int = 100) -> bytes:
        """The viewport as an image: ``"png"``, or ``"jpeg"`` or ``"webp"`` at ``quality``
        (1 to 100). CDP's capture with its fast encoder path: Selenium's own call knows PNG
        only, and encodes it slowly (see the README's benchmarks). ``CaptureFailed`` when it
        takes longer than ``archive.capture_timeout`` (see :meth:`_started`)."""
        args: dict[str, Any] = {"format": image_format, "optimizeForSpeed": True}
        if image_format != "png":
            args["quality"] = quality
        return self._result(self._started(lambda camera, target, timeout: camera.capture(
            target, args, timeout)))

    def thumbnail(self, width: int = THUMBNAIL_WIDTH, quality: int = THUMBNAIL_QUALITY) -> bytes:
        """The viewport scaled to ``width`` pixels across, as a WebP: the frame the page
        shows once it drew since it last changed, which Chromium scales as it copies it
        (:meth:`Camera.frame`), encoded here (a screencast knows PNG and JPEG only). The one
        started :meth:`ahead` of the page shown, if any."""
        if (width, quality) == (THUMBNAIL_WIDTH, THUMBNAIL_QUALITY):
            return self._result(self._taken().made)
        return self._result(self._thumbnail(width, quality).made)

    def thumbnail_later(self) -> Future[bytes]:
        """The default thumbnail of the page shown (see :meth:`thumbnail`), as it is made in
        the camera's thread: the page may not change until its frame is copied, which the
        next :meth:`forget` waits for."""
        self._kept = self._taken()
        return self._kept.made

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
        capture ends in the camera's thread, unread, unless it has not begun), one taken up
        is waited for until its frame was copied (past the camera's limits, it fails)."""
        ahead, self._ahead = self._ahead, None
        if ahead is not None:
            ahead.made.cancel()
        kept, self._kept = self._kept, None
        if kept is not None and not kept.copied.is_set():
            # (its own time, and that of one dropped before it in the camera's thread)
            with phase("pictures"):
                if not kept.copied.wait(2 * self.config.archive.capture_timeout + WAIT_MORE):
                    kept.late.set()  # what it copies now would show the next page

    def _taken(self) -> Thumbnail:
        """The default thumbnail of the page shown: the one started :meth:`ahead`, or one
        started now."""
        ahead, self._ahead = self._ahead, None
        return ahead or self._thumbnail(THUMBNAIL_WIDTH, THUMBNAIL_QUALITY)

    def _thumbnail(self, width: int, quality: int) -> Thumbnail:
        """A thumbnail of the page shown, started in the camera's thread."""
        copied, late = threading.Event(), threading.Event()
        started = self._started(functools.partial(
            _thumbnail, width=width, quality=quality, first=self.drawn(), copied=copied,
            late=late))
        return Thumbnail(started, copied, late)

    def close(self) -> None:
        """Close the camera's connection and its thread (new ones are made for the next
        picture)."""
        self._ahead = self._kept = None
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
class Thumbnail:
    """A thumbnail being made in the camera's thread: ``made`` once encoded, ``copied`` set
    once its frame was copied (or could not be), after which the page may change; ``late``
    set when the page was changed before."""

    made: Future[bytes]
    copied: threading.Event
    late: threading.Event


def _thumbnail(camera: Camera, target: str, timeout: float, *, width: int, quality: int,
               first: str | None, copied: threading.Event, late: threading.Event) -> bytes:
    """The thumbnail :meth:`Pictures.thumbnail` describes, taken and encoded (in the camera's
    thread); ``copied`` is set once the frame is, and a frame copied ``late`` is refused."""
    try:
        frame = camera.frame(target, width, timeout, first, copied.set)
    finally:
        copied.set()  # (also when the frame could not be copied)
    if late.is_set():
        raise CaptureFailed("the page changed before its frame was copied")
    try:
        with Image.open(io.BytesIO(frame)) as image:
            out = io.BytesIO()
            image.save(out, "WEBP", quality=quality, method=0)  # (the fastest method)
    except (OSError, ValueError) as exc:  # (Pillow's error for a bad image is an OSError)
        raise CaptureFailed(f"the frame could not be read: {exc}") from None
    return out.getvalue()
