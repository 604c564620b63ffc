"""Frontier strategies: which (state, action) pair to fire next.

A strategy holds the frontier. ``push`` adds work, ``pop(near)`` takes the next item for
a browser that reaches the states ``near`` without loading a page, its own state first (so
a strategy can spare it a reset), and
``discard(state_id)`` drops the work of a state that cannot be reached again. Third-party
strategies register under the ``statecrawl.strategies`` entry-point group. The engine keeps
one frontier of the chosen strategy per site and serves the sites in turns (:class:`FairSites`).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points

from ..errors import ConfigError
from .frontier import BreadthFirst, DepthFirst, RandomOrder, Strategy, Work
from .novelty import CoverageFirst, Novelty, new_words
from .sites import FairSites
from .templates import TemplateBook, Templates

__all__ = [
    "BreadthFirst", "CoverageFirst", "DepthFirst", "FairSites", "Novelty", "RandomOrder",
    "Strategy", "TemplateBook", "Templates", "Work", "get_strategy", "new_words",
]


BUILTIN: dict[str, Callable[..., Strategy]] = {
    s.name: s for s in (BreadthFirst, CoverageFirst, DepthFirst, Novelty, RandomOrder, Templates)
}


def get_strategy(name: str, seed: int = 0) -> Strategy:
    """The strategy registered as ``name``: a built-in one or an entry point."""
    if name in BUILTIN:
        return BUILTIN[name](seed=seed)
    for ep in entry_points(group="statecrawl.strategies"):
        if ep.name == name:
            strategy: Strategy = ep.load()(seed=seed)
            return strategy
    known = ", ".join(sorted(BUILTIN))
    raise ConfigError(f"unknown strategy {name!r} (built in: {known})")
