"""What changed between two crawls of an application, state by state: the comparison an
incremental crawl records (``changes.json``) and ``statecrawl diff`` prints."""

from __future__ import annotations

import difflib
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import networkx as nx

from ..config import Incremental, argument, checked
from ..directory.crawl import Crawl, loaded
from ..directory.label import crawl_labels
from ..directory.paths import describe, edge_records, masked, shortest_paths, state_nodes
from ..errors import ConfigError
from ..models.dom import visible_text
from ..models.similarity import similarity
from ..scope import origin


def _transitions(graph: nx.MultiDiGraph[str], names: dict[str, str]) -> set[tuple[str, str, str]]:
    return {
        (names.get(e["source"], e["source"]), e["key"], names.get(e["target"], e["target"]))
        for e in edge_records(graph)
    }


GONE = "the action is gone"
ELSEWHERE = "its path now leads to another state"
NO_START = "its start page is no longer crawled"
NO_PATH = "no known path leads to it"


def _start(url: str) -> str:
    """A start page's URL without its origin: the application served again at another port
    or host (a test server, the demo app) has the same start pages."""
    parts = urlsplit(url)
    return urlunsplit(("", "", parts.path or "/", parts.query, parts.fragment))


def _place(
    graph: nx.MultiDiGraph[str], paths: dict[str, tuple[str, list[dict[str, Any]]]], node: str
) -> tuple[str, ...] | None:
    """Where a state is in its application: its start page and the action keys of its path."""
    found = paths.get(node)
    if found is None:
        return None
    return (_start(graph.nodes[found[0]].get("url", "")), *(edge["key"] for edge in found[1]))


def _entry(
    crawl: Crawl,
    paths: dict[str, tuple[str, list[dict[str, Any]]]],
    node: str,
    names: dict[str, str],
) -> dict[str, Any]:
    """A state as :func:`diff` lists it: id, label, URL, title and its path as a person
    reads it."""
    attrs = crawl.graph.nodes[node]
    found = paths.get(node)
    return {
        "id": node,
        "label": names.get(node, ""),
        "url": attrs.get("url", ""),
        "title": attrs.get("title", ""),
        "path": None if found is None else [describe(edge) for edge in found[1]],
    }


def _follow(graph: nx.MultiDiGraph[str], place: tuple[str, ...]) -> tuple[str | None, int]:
    """Follow a place's path in a crawl: the node reached and the number of steps taken
    (fewer than the path's when an action is missing; no node when the start page is)."""
    url, *keys = place
    roots = [n for n in state_nodes(graph) if graph.nodes[n].get("depth") == 0]
    node = next((n for n in roots if _start(graph.nodes[n].get("url", "")) == url), None)
    if node is None:
        return None, 0
    for step, key in enumerate(keys):
        target = next((t for _, t, k in graph.out_edges(node, keys=True) if k == key), None)
        if target is None:
            return node, step
        node = target
    return node, len(keys)


@checked
def diff(old: Crawl, new: Crawl, *, threshold: float | None = None) -> dict[str, Any]:
    """What changed from one crawl of an application to a later one, state by state.

    A state of both crawls (the same id) is ``unchanged``. A state of one crawl only is
    ``changed`` when the other has a state of its own at the same place, the same shortest
    action path (as action keys) from the same start page (see :func:`shortest_path`; its
    URL's path and query: the origin may differ); the
    change is ``minor`` when the two are at least ``threshold`` alike
    (:func:`statecrawl.models.similarity.similarity`). The other states of the new crawl are
    ``new``, and those of the old one ``deleted``, with the reason: ``"the action is gone"``
    (a step of its path is no longer offered where it was), ``"its path now leads to another
    state"`` (``now``), or that its start page is no longer crawled.

    Parameters
    ----------
    old, new : Crawl
        Two loaded crawls.
    threshold : float, optional
        The similarity from which a change is minor; by default the new crawl's
        ``incremental.similarity`` setting (0.9).

    Returns
    -------
    dict
        ``unchanged``: state ids. ``changed``, ``new`` and ``deleted``: one dict per state
        with its ``id``, ``label`` (see :mod:`statecrawl.directory.label`), ``url``, ``title`` and
        ``path`` (its actions as a person reads them, see :func:`describe`). A change also
        has ``old`` (the old state's id), ``similarity``, ``minor`` and ``diff`` (a unified
        diff of the visible text, one line per block, without the parts either crawl masked
        as volatile); a deleted state has ``reason``,
        ``now`` (the state its path leads to) and ``gone`` (the step no longer offered).
        ``transitions_added`` and ``transitions_removed``: ``(source, action key, target)``
        triples, in the new ids. ``warnings``: one line if the crawls share no start URL
        origin (see :func:`unrelated`). Plain data: ``json.dumps`` takes it as it is.

    Examples
    --------
    >>> changes = diff(statecrawl.load("crawl-a"), statecrawl.load("crawl-b"))  # doctest: +SKIP
    >>> [(c["url"], c["minor"]) for c in changes["changed"]]  # doctest: +SKIP
    [('http://127.0.0.1:8000/news', True)]
    >>> [(d["id"], d["reason"]) for d in changes["deleted"]]  # doctest: +SKIP
    [('5f0c2b8e9a1d4c77', 'the action is gone')]
    """
    old, new = loaded(old, "diff", "old"), loaded(new, "diff", "new")
    threshold = argument("threshold", threshold, float | None)
    if threshold is not None and not 0 <= threshold <= 1:
        raise ConfigError(f"threshold: expected a similarity from 0 to 1, got {threshold!r}")
    if threshold is None:  # the later crawl's, as this version reads it
        recorded = new.config.incremental if "config" in new.graph.graph else Incremental()
        threshold = recorded.similarity
    old_paths, new_paths = shortest_paths(old.graph), shortest_paths(new.graph)
    old_names, new_names = crawl_labels(old.graph, old.path), crawl_labels(new.graph, new.path)
    old_ids, new_ids = set(state_nodes(old.graph)), set(state_nodes(new.graph))
    volatile = masked(old.graph) | masked(new.graph)
    arrived: dict[tuple[str, ...] | None, str] = {}
    for node in state_nodes(new.graph):
        if node not in old_ids:
            arrived.setdefault(_place(new.graph, new_paths, node), node)
    arrived.pop(None, None)
    pairs: dict[str, str] = {}
    changed, deleted = [], []
    for node in state_nodes(old.graph):
        if node in new_ids:
            continue
        place = _place(old.graph, old_paths, node)
        match = arrived.pop(place, None)
        if match is not None:
            pairs[node] = match
            before, after = old.html(node), new.html(match)
            alike = similarity(before, after)
            lines = difflib.unified_diff(
                visible_text(before, lines=True, volatile=volatile).splitlines(),
                visible_text(after, lines=True, volatile=volatile).splitlines(),
                node,
                match,
                lineterm="",
                n=1,
            )
            changed.append(
                {
                    **_entry(new, new_paths, match, new_names),
                    "old": node,
                    "similarity": alike,
                    "minor": alike >= threshold,
                    "diff": "\n".join(lines),
                }
            )
            continue
        reason, now, gone = NO_PATH, None, None
        if place is not None:
            now, steps = _follow(new.graph, place)
            if now is None:
                reason = NO_START
            elif steps < len(place) - 1:
                reason, now = GONE, None
                gone = describe(old_paths[node][1][steps])
            else:
                reason = ELSEWHERE
        entry = _entry(old, old_paths, node, old_names)
        deleted.append({**entry, "reason": reason, "now": now, "gone": gone})
    matched = set(pairs.values())
    old_transitions = _transitions(old.graph, pairs)
    new_transitions = _transitions(new.graph, {})
    return {
        "unchanged": [n for n in state_nodes(new.graph) if n in old_ids],
        "changed": changed,
        "new": [
            _entry(new, new_paths, n, new_names)
            for n in state_nodes(new.graph)
            if n not in old_ids and n not in matched
        ],
        "deleted": deleted,
        "transitions_added": sorted(new_transitions - old_transitions),
        "transitions_removed": sorted(old_transitions - new_transitions),
        "warnings": unrelated(old, new),
    }


def unrelated(old: Crawl, new: Crawl) -> list[str]:
    """One line when the two crawls share no start URL origin: they may be of two different
    sites, which a diff pairs by path alone (none otherwise)."""
    before, after = _origins(old), _origins(new)
    if not before or not after or before & after:
        return []
    return [f"the crawls share no start URL origin ({', '.join(sorted(before))} before, "
            f"{', '.join(sorted(after))} now): states are paired by path only"]


def _origins(crawl: Crawl) -> set[str]:
    """The origins of the start URLs ``crawl``'s graph records (none for a graph still being
    written, as an incremental crawl's is when it compares itself)."""
    attrs = crawl.graph.graph
    urls = attrs.get("start_urls") or ([attrs["start_url"]] if attrs.get("start_url") else [])
    return {origin(url) for url in urls}
