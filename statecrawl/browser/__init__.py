"""The browser: Chromium through Selenium, with the page agent in every document
(:class:`Browser`), and the surface of a browser the rest of statecrawl relies on
(:class:`BrowserLike`). Selenium loads with the first use of :class:`Browser`, so that the
browser's light parts (network records, downloads, the protocol) cost no driver to import."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .executables import find_executables
from .protocol import BrowserLike

if TYPE_CHECKING:
    from .browser import Browser
    from .chromium import FLAGS, reason

_LAZY = {"Browser": "browser", "FLAGS": "chromium", "reason": "chromium"}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value


__all__ = ["FLAGS", "Browser", "BrowserLike", "find_executables", "reason"]
