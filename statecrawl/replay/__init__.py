"""A crawl's archive played back offline: a loopback replay server and replay fidelity.

``statecrawl replay DIR`` serves the archive (see :mod:`statecrawl.replay.server`);
``statecrawl verify DIR`` replays every state against it (see :mod:`statecrawl.replay.fidelity`);
``statecrawl qa DIR`` judges how each replayed state looks (see :mod:`statecrawl.replay.quality`).
"""

import importlib
from typing import TYPE_CHECKING, Any

from .index import ArchiveIndex, Capture
from .server import Miss, ReplayServer, serve

if TYPE_CHECKING:
    from .fidelity import Fidelity, StateCheck, check_fidelity, verify
    from .quality import QAResult, ReplayQA, StateQA, check_qa, qa

# Imported on first use: replay fidelity and QA drive a browser (Selenium), which reading an
# archive (the report, the exports) never needs.
_LAZY = {
    ".fidelity": ("Fidelity", "StateCheck", "check_fidelity", "verify"),
    ".quality": ("QAResult", "ReplayQA", "StateQA", "check_qa", "qa"),
}


def __getattr__(name: str) -> Any:
    found = next((m for m, names in _LAZY.items() if name in names), None)
    if found is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(found, __name__)
    globals().update({n: getattr(module, n) for n in _LAZY[found]})
    return globals()[name]


__all__ = [
    "ArchiveIndex",
    "Capture",
    "Fidelity",
    "Miss",
    "QAResult",
    "ReplayQA",
    "ReplayServer",
    "StateCheck",
    "StateQA",
    "check_fidelity",
    "check_qa",
    "qa",
    "serve",
    "verify",
]
