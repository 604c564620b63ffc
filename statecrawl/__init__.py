"""statecrawl: explore AJAX web applications with a real browser and archive every state.

>>> import statecrawl
>>> result = statecrawl.crawl("http://127.0.0.1:8000/", out="out", max_depth=2)  # doctest: +SKIP
>>> result.graph.number_of_nodes()  # doctest: +SKIP
"""

__version__ = "0.1.0"

from .config import Config  # noqa: E402
from .directory import Crawl, load  # noqa: E402
from .errors import (  # noqa: E402
    ArchiveError,
    BrowserError,
    ConfigError,
    NavigationError,
    StatecrawlError,
)
from .explorer import Explorer, Plugin, Stats, crawl  # noqa: E402
from .graph import StateGraph  # noqa: E402
from .state import Action, State  # noqa: E402

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
