"""statecrawl: explore AJAX web applications with a real browser and archive every state.

>>> import statecrawl
>>> result = statecrawl.crawl("http://127.0.0.1:8000/", out="out", max_depth=2)  # doctest: +SKIP
>>> result.graph.number_of_nodes()  # doctest: +SKIP
"""

__version__ = "0.1.0"

from .config import Config
from .directory import Crawl, load
from .errors import (
    ArchiveError,
    BrowserError,
    ConfigError,
    NavigationError,
    StatecrawlError,
)
from .explorer import Explorer, Stats, crawl
from .graph import StateGraph
from .plugin import Plugin
from .state import Action, State

__all__ = [
    "Action",
    "ArchiveError",
    "BrowserError",
    "Config",
    "ConfigError",
    "Crawl",
    "Explorer",
    "NavigationError",
    "Plugin",
    "State",
    "StateGraph",
    "StatecrawlError",
    "Stats",
    "__version__",
    "crawl",
    "load",
]
