"""Executors: what runs the browser work of a crawl.

The engine (:class:`statecrawl.engine.Explorer`) owns what the crawl knows and decides
what to do next; an executor runs that work in browsers. The work is a :class:`Task` (load
a URL, replay known actions to reach a state, fire one action) and comes back as an
:class:`Outcome` (the snapshots taken on the way, the network exchanges, what failed).
Tasks and outcomes are plain picklable data, so an executor may run them in threads of
this process (:mod:`.threads`) or on workers elsewhere.

An executor drives the engine (:class:`TaskSource`) through three calls, each from any thread::

    task = engine.next_task(slot)        # None: no more work for this slot
    outcome = perform(browser, task, model)
    engine.apply(slot, outcome)

``slot`` is one browser as both sides name it (:class:`Slot`). The two sides know each
other only by the protocols :class:`TaskSource` and :class:`Executor`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import ConfigError
from .work import Executor, Failure, Outcome, Slot, Task, TaskSource, crash_reason, perform

if TYPE_CHECKING:
    from ..browser import BrowserLike
    from ..config import Config

__all__ = [
    "Executor", "Failure", "Outcome", "Slot", "Task", "TaskSource", "crash_reason",
    "get_executor", "perform",
]


def get_executor(
    config: Config, browser_factory: Callable[[Config, bool], BrowserLike], network: bool
) -> Executor:
    """The executor ``config.executor`` names."""
    if config.executor == "dask":
        try:
            from .dask import Dask
        except ImportError as exc:
            if exc.name not in ("dask", "distributed"):
                raise
            raise ConfigError("--executor dask needs Dask: pip install statecrawl[dask]") from None
        return Dask(config, browser_factory, network)
    from .threads import Threads

    return Threads(config, browser_factory, network)
