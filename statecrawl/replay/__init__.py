"""A crawl's archive played back offline: a loopback replay server and replay fidelity.

``statecrawl replay DIR`` serves the archive (see :mod:`statecrawl.replay.server`);
``statecrawl verify DIR`` replays every state against it (see :mod:`statecrawl.replay.verify`).
"""

from .index import ArchiveIndex, Capture
from .server import Miss, ReplayServer, serve
from .verify import Fidelity, StateCheck, check_fidelity, verify

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
