"""The browser: Chromium through Selenium, with the page agent in every document."""

from .browser import Browser
from .chromium import FLAGS, reason
from .chromium import _descendants as _descendants  # (its tests count Chromium's processes)
from .executables import find_executables

__all__ = ["FLAGS", "Browser", "find_executables", "reason"]
