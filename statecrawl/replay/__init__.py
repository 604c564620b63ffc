"""A crawl's archive played back offline: a loopback replay server and replay fidelity.

``statecrawl replay DIR`` serves the archive (see :mod:`statecrawl.replay.server`);
``statecrawl verify DIR`` replays every state against it (see :mod:`statecrawl.replay.verify`).
"""

import importlib
from typing import TYPE_CHECKING, Any

from .index import ArchiveIndex, Capture
from .server import Miss, ReplayServer, serve

if TYPE_CHECKING:
    from .verify import Fidelity, StateCheck, check_fidelity, verify

# Imported on first use: replay fidelity drives a browser (Selenium), which reading an
# archive (the report, the exports) never needs.
_VERIFY = ("Fidelity", "StateCheck", "check_fidelity", "verify")


def __getattr__(name: str) -> Any:
    if name not in _VERIFY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(".verify", __name__)
    globals().update({n: getattr(module, n) for n in _VERIFY})  # (over the submodule's name)
    return globals()[name]


__all__ = [
    "ArchiveIndex",
    "Capture",
    "Fidelity",
    "Miss",
    "ReplayServer",
    "StateCheck",
    "check_fidelity",
    "serve",
    "verify",
]
