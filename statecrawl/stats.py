"""A crawl's running figures."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Stats:
    """Running figures of a crawl."""

    states: int = 0
    transitions: int = 0
    resets: int = 0
    replayed: int = 0
    failures: int = 0
    unreachable: int = 0
    out_of_scope: int = 0
    inferred: int = 0
    verified: int = 0
    retracted: int = 0
    capped: int = 0
    repetitions: int = 0  # actions recorded as repeating what their state holds (a self-loop)
    restarts: int = 0
    relogins: int = 0
    plugin_failures: int = 0
    outages: int = 0
    queries: int = 0  # harvesting queries issued (inputs.harvest)
    records: int = 0  # records seen, when harvesting or following pages to the end
    documents: int = 0  # downloads saved as documents (archived, skipped or failed)
    downloads: int = 0  # download edges, fired or inferred (a document may have many)
    ruled_out: int = 0  # actions the click and dont_click rules left out, summed over states
    guarded: int = 0  # actions the guard kept from deleting, resetting…, summed over states
    unprompted_writes: int = 0  # PUTs, PATCHes and DELETEs the pages sent by themselves, kept in
    once_skipped: int = 0  # click_once actions left unfired in states after their first
    waits_timed_out: int = 0  # timing.waits given up on in the states recorded
    mutating: int = 0  # transitions whose action changed server-side state (``mutates``)
    reanchors: int = 0  # resets that showed another state than the one expected
    fresh_sessions: int = 0  # resets started in a new session (cookies, storage, login)
    frontier: int = 0
    max_depth: int = 0
    elapsed: float = 0.0
    # the browser threads' time by phase, at the end of the run (see statecrawl.ledger)
    ledger: dict[str, Any] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        """Transitions per second so far."""
        return self.transitions / self.elapsed if self.elapsed > 0 else 0.0


def guard_summary(stats: Mapping[str, Any]) -> str | None:
    """What the guard kept from a crawl's ``stats`` in a few words, as the CLI and the report
    print them; None when it kept nothing.

    >>> guard_summary({"guarded": 3, "unprompted_writes": 1})
    '3 actions kept from changing the site, 1 writes the pages sent by themselves kept in'
    >>> guard_summary({"guarded": 0}) is None
    True
    """
    guarded, writes = stats.get("guarded", 0), stats.get("unprompted_writes", 0)
    if not (guarded or writes):
        return None
    return (
        f"{guarded} actions kept from changing the site, "
        f"{writes} writes the pages sent by themselves kept in"
    )
