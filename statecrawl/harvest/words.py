"""Search words: what a crawl types into a search box nobody gave values for, so that the
site's search runs rather than an empty submit. They are the first queries the harvester
would issue (:class:`.queries.Policy`: the box's hints, then the page's own words, ties by
the seed), a few per box, drawn from the state's DOM alone: the same state, the same words."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..state import Action, Snapshot
from .queries import Corpus, Policy, forms

SEARCH_WORDS = 2  # words typed into each search box without values, a submit for each


def search_actions(html: str, url: str, actions: Iterable[Action], seed: int) -> list[Action]:
    """The submits of seed words into the search boxes of a DOM (in a form, or beside a
    button) that the page agent typed nothing into (no inputs given for them)."""
    actions = list(actions)
    typed = {loc for a in actions for loc, _ in a.values}
    out = []
    for form in forms(html, url, actions, loose=True):
        if not form.text.search or form.text.locator in typed:
            continue
        policy = Policy(form, Corpus(), budget=SEARCH_WORDS, max_options=1, seed=seed)
        while (query := policy.next()) is not None:
            out.append(policy.action(query))
    return out


def candidates(snapshot: Snapshot, seed: int) -> list[dict[str, Any]]:
    """A snapshot's search-word submits as page-agent candidates (those it lacks)."""
    known = snapshot.actions()
    keys = {a.key for a in known}
    return [
        {k: v for k, v in action.to_data().items() if k != "name"}
        for action in search_actions(snapshot.html, snapshot.url, known, seed)
        if action.key not in keys
    ]
