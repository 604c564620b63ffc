"""A state's pictures (its screenshot and thumbnail), each bounded in time.

A picture is the frame the page last drew, copied by a screencast started for its first frame
(:meth:`Camera.frame`), once the page drew since it last changed. A page whose frames are
slow to draw (a stack of backdrop filters, say) holds such a copy, as it holds
``Page.captureScreenshot``, for many seconds. Sent through ChromeDriver, a call given up goes
on there, and every later command of the session waits behind it until one times out and the
browser is restarted. So pictures are taken over a DevTools connection of their own to the
page's target (:class:`Camera`), and given up by closing that connection: ChromeDriver never
sees it, and the browser goes on at once. A picture given up, or failed, leaves the state
without it, named in :attr:`Images.missing` with why.
"""

from __future__ import annotations

import base64
import contextlib
import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import websocket

from ..errors import BrowserError
from ..ledger import phase
from .agent import WORLD

if TYPE_CHECKING:
    from ..config import Archive
    from .protocol import BrowserLike


FRAME_ASPECT = 8  # a frame's height may be this many times its width (a tall window's)
WAIT_MORE = 5.0  # seconds a picture is waited for beyond the camera's own limit


class CaptureFailed(BrowserError):
    """A picture could not be taken in time, or at all: the state is recorded without it."""


class Camera:
    """Captures of one browser's pages over a DevTools connection of its own, at
    ``address`` (ChromeDriver's ``debuggerAddress``, ``host:port``), to one page target at
    a time; used from one thread."""

    def __init__(self, address: str) -> None:
        self.address = address
        self._socket: websocket.WebSocket | None = None
        self._target: str | None = None
        self._id = 0

    def frame(
        self, target: str, width: int, timeout: float, first: str | None = None,
        copied: Callable[[], None] | None = None, jpeg: int | None = None,
    ) -> bytes:
        """The frame page target ``target`` shows, as a PNG (a JPEG at quality ``jpeg``) at
        most ``width`` pixels across, within ``timeout`` seconds (else ``CaptureFailed``): a
        screencast started for its first frame, a copy of what the compositor last drew: a
        third of a capture's time (``Page.captureScreenshot`` makes the page draw a new frame
        and waits until it is shown, 3 frames at 60 Hz). It shows the page as it is once a
        frame was drawn since the page last changed (see :meth:`Browser.thumbnail`).
        ``first``: an expression awaited before, in the crawler's isolated world of the page
        (its top frame's id is the target's); what it gives or throws is not read.
        ``copied``: called once the frame is here, before the screencast is stopped."""
        with self._given_up_after(timeout) as deadline:
            connection = self._connect(target, timeout)
            if first is not None:
                world = {"frameId": target, "worldName": WORLD}
                context = self._ask(connection, "Page.createIsolatedWorld", world, deadline)
                self._ask(connection, "Runtime.evaluate", {
                    "expression": first, "contextId": context["executionContextId"],
                    "awaitPromise": True, "returnByValue": True,
                }, deadline)
            cast: dict[str, Any] = {"format": "png", "maxWidth": width,
                                    "maxHeight": width * FRAME_ASPECT}
            if jpeg is not None:
                cast.update(format="jpeg", quality=jpeg)
            started = self._send(connection, "Page.startScreencast", cast)
            shown = self._receive(
                connection, lambda m: m.get("method") == "Page.screencastFrame" or
                (m.get("id") == started and "error" in m), deadline,
            )
            self._check(shown)
            if copied is not None:
                copied()
            self._ask(connection, "Page.stopScreencast", {}, deadline)
        return base64.b64decode(shown["params"]["data"])

    @contextlib.contextmanager
    def _given_up_after(self, timeout: float) -> Iterator[float]:
        """The deadline ``timeout`` seconds from now, for the DevTools calls of one picture:
        past it, or when one fails, the connection is closed (the capture goes with it) and
        ``CaptureFailed`` raised."""
        try:
            yield time.monotonic() + timeout
        except (TimeoutError, websocket.WebSocketTimeoutException):
            self.close()
            raise CaptureFailed(f"no frame was drawn within {timeout:g} s") from None
        except (websocket.WebSocketException, OSError, ValueError) as exc:
            self.close()
            raise CaptureFailed(f"the capture failed: {type(exc).__name__}: {exc}") from None

    def _ask(
        self, connection: websocket.WebSocket, method: str, params: dict[str, Any], deadline: float
    ) -> dict[str, Any]:
        """The result of DevTools command ``method`` sent over ``connection``, before
        ``deadline`` (``TimeoutError`` past it); ``CaptureFailed`` when it fails."""
        sent = self._send(connection, method, params)
        answer = self._check(self._receive(connection, lambda m: m.get("id") == sent, deadline))
        result: dict[str, Any] = answer["result"]
        return result

    def _send(self, connection: websocket.WebSocket, method: str, params: dict[str, Any]) -> int:
        """Send DevTools command ``method``; its id."""
        self._id += 1
        connection.send(json.dumps({"id": self._id, "method": method, "params": params}))
        return self._id

    @staticmethod
    def _receive(
        connection: websocket.WebSocket, wanted: Callable[[dict[str, Any]], bool], deadline: float
    ) -> dict[str, Any]:
        """The first message over ``connection`` that is ``wanted`` (those before it are
        dropped), before ``deadline`` (``TimeoutError`` past it)."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            connection.settimeout(left)
            message: dict[str, Any] = json.loads(connection.recv())
            if wanted(message):
                return message

    @staticmethod
    def _check(message: dict[str, Any]) -> dict[str, Any]:
        """``message``, unless it is an error (``CaptureFailed``)."""
        if "error" in message:
            raise CaptureFailed(f"the capture failed: {message['error'].get('message')}")
        return message

    def _connect(self, target: str, timeout: float) -> websocket.WebSocket:
        """The connection to ``target``, opened on first use (or when the page shown is
        another target)."""
        if self._socket is not None and self._target == target:
            return self._socket
        self.close()
        # Chromium refuses a WebSocket whose Origin header it was not told to allow; its
        # answers are JSON, which websocket-client would check as UTF-8 in pure Python
        # (tens of ms for a screenshot's base64 text).
        url = f"ws://{self.address}/devtools/page/{target}"
        self._socket = websocket.create_connection(
            url, timeout=timeout, suppress_origin=True, skip_utf8_validation=True
        )
        self._target = target
        return self._socket

    def close(self) -> None:
        """Close the connection (a capture in flight is given up); safe to call twice."""
        connection, self._socket, self._target = self._socket, None, None
        if connection is not None:
            connection.close()


def made(picture: Future[bytes], timeout: float) -> bytes:
    """``picture`` once the camera's thread made it, waited for ``timeout`` seconds (more than
    the camera's own limit, ``archive.capture_timeout``) at most; ``CaptureFailed`` when it
    could not be."""
    try:
        return picture.result(timeout=timeout + WAIT_MORE)
    except (CancelledError, FutureTimeout):
        raise CaptureFailed("the camera did not answer") from None


@dataclass(slots=True)
class Images:
    """A state's pictures, and those missing: ``missing`` names each (``screenshot``,
    ``thumbnail``) with why it is. ``coming``: those being made, by name."""

    screenshot: bytes | None = None
    thumbnail: bytes | None = None
    missing: dict[str, str] = field(default_factory=dict)
    coming: dict[str, Future[bytes]] = field(default_factory=dict)

    def arrived(self, timeout: float) -> dict[str, str]:
        """Wait for the pictures ``coming`` (see :func:`made`); those missing, with why."""
        coming, self.coming = self.coming, {}
        missing = {}
        for part, picture in coming.items():
            try:
                setattr(self, part, made(picture, timeout))
            except CaptureFailed as exc:
                missing[part] = str(exc)
        self.missing.update(missing)
        return missing


def take(browser: BrowserLike, settings: Archive, screenshot: bool, later: bool = False) -> Images:
    """The pictures of the state ``browser`` shows: a screenshot (when ``screenshot``) and a
    thumbnail (when ``settings.thumbnails``), each given up after
    ``settings.capture_timeout`` seconds. A screenshot given up so leaves no time for a
    thumbnail (it waits for the same slow frame). ``later``: they are ``coming`` (see
    :meth:`Images.arrived`)."""
    with phase("pictures"):
        return _take(browser, settings, screenshot, later)


def _take(browser: BrowserLike, settings: Archive, screenshot: bool, later: bool) -> Images:
    """The pictures :func:`take` takes, untimed."""
    images = Images()
    if screenshot:
        shot = settings.screenshot_format, settings.quality
        try:
            if later:
                images.coming["screenshot"] = browser.screenshot_later(*shot)
            else:
                images.screenshot = browser.screenshot(*shot)
        except CaptureFailed as exc:
            images.missing["screenshot"] = str(exc)
    if settings.thumbnails:
        if "screenshot" in images.missing:
            images.missing["thumbnail"] = "not tried: the screenshot was given up"
        else:
            try:
                if later:
                    images.coming["thumbnail"] = browser.thumbnail_later()
                else:
                    images.thumbnail = browser.thumbnail()
            except CaptureFailed as exc:
                images.missing["thumbnail"] = str(exc)
    return images
