"""The surface of a browser that the rest of statecrawl uses (executors, the engine, plugins'
hooks, the pictures of a state): :class:`~.browser.Browser` offers it on Chromium and
:class:`statecrawl.testing.FakeBrowser` on a scripted application, so either runs a crawl."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Self

if TYPE_CHECKING:
    from concurrent.futures import Future

    from ..coverage import Delta
    from ..state import Action, Snapshot
    from .login import Hook, Session
    from .network import Exchange


class BrowserLike(Protocol):
    """A browser as statecrawl drives it: started, reset, fired in, recovered, ended."""

    volatile: list[str]  # the names masked in every snapshot: set for each task
    login_hook: Hook | None  # a plugin's ``login(page)``, set by the crawl
    session_dir: Path | None  # where the login's session is kept, set by the crawl

    @property
    def driver(self) -> object | None:
        """What drives the running browser; ``None`` before it starts and once it ends."""

    @property
    def restarts(self) -> int:
        """How many times the browser was replaced after it died or hung."""

    @property
    def relogins(self) -> int:
        """How many times the browser logged in again after the session ended."""

    def start(self) -> Self:
        """Start the browser."""

    def close(self) -> None:
        """End the browser; safe to call twice."""

    def kill(self) -> None:
        """End a hung or dead browser at once."""

    def restart(self) -> None:
        """Replace a dead or hung browser with a new one."""

    def reset(self, url: str, light: bool = False, keep: bool = False) -> Snapshot:
        """Clean cookies and storage (the login's session put back), then load ``url``;
        ``keep``: load it in the session and page shown, cleaning nothing (a link expected
        to save a document, which leaves the page where it is)."""

    def settled(self, light: bool = False, navigating: bool = False) -> Snapshot:
        """The current page's snapshot once settled (``light``: without its candidates)."""

    def replay(self, actions: list[Action]) -> list[Snapshot]:
        """Fire ``actions`` one after the other; light snapshots of each state on the way."""

    def fire(self, action: Action, light: bool = False) -> Snapshot:
        """Fire ``action`` in the current page; the settled state that follows."""

    def take_exchanges(self, final: bool = False) -> list[Exchange]:
        """The network exchanges made since the last call."""

    def take_writes(self) -> list[tuple[str, str]]:
        """The method and URL of the unsafe requests sent since the last call."""

    def take_coverage(self) -> Delta:
        """The coverage records of the in-scope scripts since the last call."""

    def can_log_in(self) -> bool:
        """Whether there is a way to log in (again)."""

    def log_in(self) -> Session:
        """Log in from a clean browser and keep the session it makes."""

    def new_session(self) -> None:
        """Start the next reset in a new server-side session (a new login, if any)."""

    def screenshot(self, image_format: str = "png", quality: int = 100) -> bytes:
        """The viewport as an image."""

    def screenshot_later(self, image_format: str = "png", quality: int = 100) -> Future[bytes]:
        """The screenshot, as it is made beside the browser's work (the page shown does not
        change before it is taken)."""

    def thumbnail(self) -> bytes:
        """The viewport as a small image, for a state's thumbnail."""

    def thumbnail_later(self) -> Future[bytes]:
        """The thumbnail, as it is made beside the browser's work (the page shown does not
        change before it is taken)."""
