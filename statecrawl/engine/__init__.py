"""The crawl engine, as roles: the :class:`Explorer` runs a crawl and holds its lock; a
scheduler says what comes next, the shortcuts do what needs no browser, a task maker says
how a browser does the rest, an outcome reader reads what it did, a recorder writes it
down, and an output keeps checkpoints and exports. Internal: users call
:func:`statecrawl.crawl`. The explorer (and with it Selenium) loads on first use, so that
the engine's light parts (``roles``, ``memory``) cost no browser to import."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .explorer import Explorer


def __getattr__(name: str) -> Any:
    if name != "Explorer":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from .explorer import Explorer

    globals()[name] = Explorer
    return Explorer


__all__ = ["Explorer"]
