"""State models: how a settled DOM becomes a state key.

A model is an object with a ``name`` and a ``key(snapshot, volatile)`` method returning
16 hex digits; two snapshots with the same key are the same state. ``volatile`` names the
parts of the page observed to change with no user action (see :mod:`statecrawl.models.dom`).
Third-party models register under the ``statecrawl.models`` entry-point group.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Protocol

from ..errors import ConfigError
from ..state import Snapshot
from .dom import (
    DomModel,
    ExactModel,
    StructureModel,
    TextModel,
    generated_between,
    volatile_between,
)

__all__ = [
    "DomModel",
    "ExactModel",
    "StateModel",
    "StructureModel",
    "TextModel",
    "generated_between",
    "get_model",
    "volatile_between",
]


class StateModel(Protocol):
    """Turns a snapshot into a state key."""

    name: str

    def key(self, snapshot: Snapshot, volatile: frozenset[str]) -> str:
        """The state key of ``snapshot``, masking the ``volatile`` parts."""
        ...


BUILTIN: dict[str, type[StateModel]] = {
    m.name: m for m in (DomModel, ExactModel, StructureModel, TextModel)
}


def get_model(name: str) -> StateModel:
    """The model registered as ``name``: a built-in one or an entry point."""
    if name in BUILTIN:
        return BUILTIN[name]()
    for ep in entry_points(group="statecrawl.models"):
        if ep.name == name:
            model: StateModel = ep.load()()
            return model
    known = ", ".join(sorted(BUILTIN))
    raise ConfigError(f"unknown state model {name!r} (built in: {known})")
