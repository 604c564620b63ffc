"""A static HTML report of a crawl directory: opens from ``file://``, needs no server."""

from .builder import build_report

__all__ = ["build_report"]
