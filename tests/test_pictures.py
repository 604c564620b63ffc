"""A thumbnail made in the camera's thread (``statecrawl.browser.pictures``): a frame copied
after the browser's thread gave up waiting for it, and changed the page, is refused. A
stand-in camera gives the frame at a chosen moment; the cases with Chromium (a thumbnail
started, taken up, dropped) are in ``test_screenshot``."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable

import pytest
from PIL import Image

from statecrawl.browser.pictures import _thumbnail
from statecrawl.browser.screenshot import CaptureFailed


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (32, 24), "red").save(out, "PNG")
    return out.getvalue()


def _set() -> threading.Event:
    ready = threading.Event()
    ready.set()
    return ready


class Camera:
    """Gives its frame once ``ready`` is set."""

    def __init__(self, ready: threading.Event) -> None:
        self.ready = ready

    def frame(self, target: str, width: int, timeout: float, first: str | None,
              copied: Callable[[], None] | None) -> bytes:
        assert self.ready.wait(5)
        if copied is not None:
            copied()
        return png()


def test_a_frame_copied_in_time_is_the_thumbnail() -> None:
    copied, late = threading.Event(), threading.Event()
    webp = _thumbnail(Camera(_set()), "t", 1.0, width=32, quality=50, first=None,
                      copied=copied, late=late)
    assert copied.is_set()
    with Image.open(io.BytesIO(webp)) as image:
        assert image.format == "WEBP" and image.size == (32, 24)


def test_a_frame_copied_after_the_page_changed_is_refused() -> None:
    """The browser's thread stopped waiting (``late``) and went on; the frame that comes
    after shows the next page, not the state, and is no thumbnail of it."""
    copied, late = threading.Event(), threading.Event()
    threading.Timer(0.05, late.set).start()  # (the browser's thread gives up, the frame comes)
    with pytest.raises(CaptureFailed, match="the page changed before its frame was copied"):
        _thumbnail(Camera(late), "t", 1.0, width=32, quality=50, first=None,
                   copied=copied, late=late)
    assert copied.is_set()
