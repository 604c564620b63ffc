"""A picture made in the camera's thread (``statecrawl.browser.pictures``): a frame copied
after the browser's thread gave up waiting for it, and changed the page, is refused; a
screenshot is the frame in the format asked. A stand-in camera gives the frame at a chosen
moment; the cases with Chromium (a picture started, taken up, dropped) are in
``test_screenshot``."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable

import pytest
from PIL import Image

from statecrawl.browser.pictures import SCREENSHOT_METHOD, _picture
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
              copied: Callable[[], None] | None, jpeg: int | None = None) -> bytes:
        assert self.ready.wait(5) and jpeg is None  # (a JPEG is Chromium's to encode)
        if copied is not None:
            copied()
        return png()


def test_a_frame_copied_in_time_is_the_thumbnail() -> None:
    copied, late = threading.Event(), threading.Event()
    webp = _picture(Camera(_set()), "t", 1.0, width=32, image_format="webp", quality=50,
                    method=0, first=None, copied=copied, late=late,
                    failed=threading.Event())
    assert copied.is_set()
    with Image.open(io.BytesIO(webp)) as image:
        assert image.format == "WEBP" and image.size == (32, 24)


def test_a_frame_copied_after_the_page_changed_is_refused() -> None:
    """The browser's thread stopped waiting (``late``) and went on; the frame that comes
    after shows the next page, not the state, and is no thumbnail of it."""
    copied, late = threading.Event(), threading.Event()
    threading.Timer(0.05, late.set).start()  # (the browser's thread gives up, the frame comes)
    with pytest.raises(CaptureFailed, match="the page changed before its frame was copied"):
        _picture(Camera(late), "t", 1.0, width=32, image_format="webp", quality=50, method=0,
                 first=None, copied=copied, late=late, failed=threading.Event())
    assert copied.is_set()


@pytest.mark.parametrize("image_format", ["png", "webp"])
def test_a_screenshot_is_the_frame_in_the_format_asked(image_format: str) -> None:
    """A PNG as the camera copied it; a WebP encoded from it, at full size."""
    copied, late = threading.Event(), threading.Event()
    shot = _picture(Camera(_set()), "t", 1.0, width=16384, image_format=image_format,
                    quality=40, method=SCREENSHOT_METHOD, first=None, copied=copied, late=late,
                    failed=threading.Event())
    assert copied.is_set()
    with Image.open(io.BytesIO(shot)) as image:
        assert image.format == image_format.upper() and image.size == (32, 24)


def test_a_picture_after_one_that_failed_is_not_tried() -> None:
    """A page that drew no frame in time for one picture would hold the next as long: it
    fails at once, and the page may change."""
    copied, failed = threading.Event(), threading.Event()
    failed.set()
    with pytest.raises(CaptureFailed, match="not tried: the picture before it failed"):
        _picture(Camera(threading.Event()), "t", 1.0, width=32, image_format="webp",
                 quality=50, method=0, first=None, copied=copied, late=threading.Event(),
                 failed=failed)
    assert copied.is_set()
