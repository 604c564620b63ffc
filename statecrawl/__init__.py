"""statecrawl: explore AJAX web applications with a real browser and archive every state.

>>> import statecrawl
>>> result = statecrawl.crawl("http://127.0.0.1:8000/", out="out", max_depth=2)  # doctest: +SKIP
>>> result.graph.number_of_nodes()  # doctest: +SKIP
"""

import importlib
import warnings
from typing import TYPE_CHECKING, Any

from .config import Config
from .directory.crawl import Crawl, StateView, load
from .directory.graph import StateGraph
from .errors import (
    ActionFailed,
    AgentError,
    ArchiveError,
    BrowserCrashed,
    BrowserError,
    ConfigError,
    NavigationError,
    PageTimeout,
    StatecrawlError,
)
from .plugins.hooks import CrawlView, Plugin, StateEvent
from .state import Action, State
from .version import __version__

if TYPE_CHECKING:
    from . import analysis
    from .api import crawl, crawl_by_role
    from .replay.quality import qa
    from .stats import Stats

# Imported on first use: the engine brings in Selenium, which reading a crawl never needs.
_LAZY = {"Stats": "stats", "crawl": "api", "crawl_by_role": "api", "analysis": None,
         "qa": "replay.quality"}
# Internals that were public names once, kept for one release (0.2 drops them).
_MOVED = {"Explorer": "engine"}


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        warnings.warn(
            f"statecrawl.{name} is internal: use statecrawl.crawl (or "
            f"statecrawl.{_MOVED[name]}.{name}); the top-level name goes in 0.2",
            DeprecationWarning, stacklevel=2,
        )
        return getattr(importlib.import_module(f".{_MOVED[name]}", __name__), name)
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = _LAZY[name]
    if module is None:
        return importlib.import_module(f".{name}", __name__)
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "Action",
    "ActionFailed",
    "AgentError",
    "ArchiveError",
    "BrowserCrashed",
    "BrowserError",
    "Config",
    "ConfigError",
    "Crawl",
    "CrawlView",
    "NavigationError",
    "PageTimeout",
    "Plugin",
    "State",
    "StateEvent",
    "StateGraph",
    "StateView",
    "StatecrawlError",
    "Stats",
    "__version__",
    "analysis",
    "crawl",
    "crawl_by_role",
    "load",
    "qa",
]
