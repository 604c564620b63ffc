"""Plugins: the hooks a crawl calls, and the events it reports."""

from .hooks import (
    CrawlView,
    Plugin,
    StateEvent,
)

__all__ = [
    "CrawlView",
    "Plugin",
    "StateEvent",
]
