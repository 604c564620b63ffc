"""The crawl engine, as roles: the :class:`Explorer` runs a crawl and holds its lock; a
scheduler says what comes next, the shortcuts do what needs no browser, a task maker says
how a browser does the rest, an outcome reader reads what it did, a recorder writes it
down, and an output keeps checkpoints and exports. Internal: users call
:func:`statecrawl.crawl`."""

from .explorer import Explorer

__all__ = ["Explorer"]
