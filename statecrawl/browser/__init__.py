"""The browser: Chromium through Selenium, with the page agent in every document
(:class:`Browser`), and the surface of a browser the rest of statecrawl relies on
(:class:`BrowserLike`)."""

from .browser import Browser
from .chromium import FLAGS, reason
from .executables import find_executables
from .protocol import BrowserLike

__all__ = ["FLAGS", "Browser", "BrowserLike", "find_executables", "reason"]
