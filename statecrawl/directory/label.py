"""Short names for states: what the action that first reached a state did and changed.

A single-page application keeps one title for every state, so the title cannot tell states
apart. A state's label says which action first reached it (``enter "buy milk"``,
``"Claims"``), what that changed against the state it was fired in (the first text that
appeared, a control that was checked, text that went away, the URL fragment that changed),
and the title only where few states share it. Labels that still collide get the first text
of each state that the others lack, then the label of the state it was reached from.
Everything is read from the crawl directory: no browser.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import parse_qsl, urlsplit

import lxml.html
import networkx as nx
from lxml import etree

from ..models.dom import HIDDEN_STYLE, SKIPPED, drop_masked, parse
from .paths import label as split_name
from .paths import masked

SEPARATOR = " · "
MAX_PART = 40  # characters of one part of a label (an action's text, a changed text)
MAX_TITLE = 48  # characters of a title in a label
# A title names a state when few states share it: at most this share of them (or two).
TITLE_SHARE = 0.1
TITLE_DASHES = " ·|\u2014\u2013-"  # what separates a title's parts (and ends a shortened one)
TITLE_SEPARATORS = re.compile(r"\s+[·|\u2014\u2013-]\s+")
GONE = "\u2212 "  # before a text that went away
AFTER = " \u203a "  # between the label of the state before and that of a state
VERBS = {"click": "", "submit": "submit", "keydown:Enter": "enter", "keydown:Escape": "escape",
         "dblclick": "dblclick", "mouseover": "hover", "input": "set", "change": "set",
         "drop": "drag"}  # fmt: skip
FIELDS = ("input", "textarea", "select")
WORD = re.compile(r"\w")  # a text piece without a letter or digit (a close button's) says little
STEP = re.compile(r"([\w-]+):nth-of-type\((\d+)\)")


def state_labels(graph: nx.MultiDiGraph[str], html: Callable[[str], str | None]) -> dict[str, str]:
    """A label for every node of a crawl's graph; ``html(node)`` is a state's serialized DOM
    (``None`` when it has none). Out-of-scope nodes are labelled by their URL. The parts the
    crawl masked as volatile (a clock) are never read: they do not tell states apart."""
    states = [n for n, attrs in graph.nodes(data=True) if attrs.get("kind") == "state"]
    views = _Views(html, masked(graph))
    titles = _short_titles(graph, states, views)
    shared = Counter(titles.values())
    naming = max(2, int(len(states) * TITLE_SHARE))
    parents = {node: first_edge(graph, node) for node in states}
    found: dict[str, str] = {}
    for node in states:
        title = titles.get(node, "")
        named = title if title and shared[title] <= naming else ""
        edge = parents[node]
        if edge is None:
            found[node] = named or title or _clip(graph.nodes[node].get("url") or node, MAX_PART)
            continue
        parent = edge["source"]
        if named and named != titles.get(parent):
            found[node] = named
            continue
        doing = action_text(edge)
        change = _change(views, parent, node, doing, graph)
        found[node] = SEPARATOR.join(p for p in (named, doing, change) if p)
    _separate(found, views, parents)
    for node, attrs in graph.nodes(data=True):
        if attrs.get("kind") != "state":
            found[node] = _clip(attrs.get("url") or node, MAX_TITLE)
    return found


def crawl_labels(graph: nx.MultiDiGraph[str], directory: Path) -> dict[str, str]:
    """The labels of a crawl's nodes: those ``graph.json`` holds when every node has one,
    else derived from the snapshots in ``directory``."""
    stored: dict[str, Any] = {n: attrs.get("label") for n, attrs in graph.nodes(data=True)}
    if stored and all(isinstance(v, str) and v for v in stored.values()):
        return stored

    def html(node: str) -> str | None:
        relative = graph.nodes[node].get("snapshot")
        if not isinstance(relative, str):
            return None
        try:
            return (directory / relative).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None

    return state_labels(graph, html)


def label_graph(graph: nx.MultiDiGraph[str], directory: Path) -> None:
    """Set the ``label`` attribute of every node (at a crawl's end, before graph.json is
    written), derived afresh from the snapshots in ``directory``."""
    for node in graph:
        graph.nodes[node].pop("label", None)
    for node, label in crawl_labels(graph, directory).items():
        graph.nodes[node]["label"] = label


def action_text(edge: dict[str, Any]) -> str:
    """An action as a label shows it: a verb for what was fired (none for a click) and the
    values submitted or the element's text, e.g. ``enter "buy milk"`` or ``"Claims"``."""
    locator, text = split_name(str(edge.get("name", "")))
    event = str(edge.get("event", ""))
    verb = VERBS.get(event, event)
    values = _values(str(edge.get("action", ""))) if edge.get("kind") == "submit" else []
    if values:
        what = ", ".join(f'"{_clip(v, MAX_PART)}"' for v in values)
    elif text.strip():
        what = f'"{_clip(" ".join(text.split()), MAX_PART)}"'
    else:
        what = re.sub(r":nth-of-type\(\d+\)", "", locator.rsplit(" > ", 1)[-1]) or "element"
    return f"{verb} {what}" if verb else what


def uniqueness(labels: dict[str, str]) -> float:
    """The share of labels that no other node has (1.0 for none)."""
    counts = Counter(labels.values())
    return sum(1 for v in labels.values() if counts[v] == 1) / len(labels) if labels else 1.0


class _View(NamedTuple):
    """What a label compares of a state, its masked parts left out: its text pieces in
    document order, the values in its fields, its checked controls, and whether its title
    was masked (a title that changes by itself names no state)."""

    texts: list[str]
    values: list[str]
    checked: set[str]
    title_masked: bool = False


class _Views:
    """The view of each state, each DOM parsed once and its ``volatile`` parts left out."""

    def __init__(self, html: Callable[[str], str | None], volatile: frozenset[str]) -> None:
        self.html = html
        self.volatile = volatile
        self.cache: dict[str, _View] = {}

    def of(self, node: str) -> _View:
        if node not in self.cache:
            self.cache[node] = _view(self.html(node) or "", self.volatile)
        return self.cache[node]


def _view(html: str, volatile: frozenset[str]) -> _View:
    root = parse(html) if html.strip() else None
    if root is None:
        return _View([], [], set())
    title = root.findtext("head/title")
    drop_masked(root, volatile)
    title_masked = bool(title and title.strip()) and root.findtext("head/title") != title
    texts: list[str] = []
    values: list[str] = []
    checked: set[str] = set()
    for el, text in _pieces(root):
        if text is not None:
            texts.append(text)
        elif el.tag in FIELDS:
            kind = el.get("type", "").lower()
            if kind in ("checkbox", "radio"):
                if "checked" in el.attrib:
                    checked.add(_field_name(el))
            elif kind not in ("hidden", "password", "submit", "button") and el.get("value"):
                values.append(" ".join(str(el.get("value")).split()))
    return _View(texts, values, checked, title_masked)


def _pieces(root: lxml.html.HtmlElement) -> Iterator[tuple[lxml.html.HtmlElement, str | None]]:
    """Each shown element (text ``None``) and each of its text pieces, in document order;
    scripts, styles, the head and hidden elements left out."""
    stack: list[tuple[lxml.html.HtmlElement, bool]] = [(root, False)]
    while stack:
        el, tail = stack.pop()
        if tail:
            piece = " ".join((el.tail or "").split())
            if piece:
                yield el, piece
            continue
        if not isinstance(el.tag, str) or _hidden(el):
            stack.append((el, True))
            continue
        yield el, None
        piece = " ".join((el.text or "").split())
        if piece:
            yield el, piece
        stack.append((el, True))
        stack.extend((child, False) for child in reversed(el))


def _hidden(el: etree._Element) -> bool:
    return (
        (el.tag in SKIPPED and "shadowrootmode" not in el.attrib)
        or el.tag == "head"
        or "hidden" in el.attrib
        or bool(HIDDEN_STYLE.search(el.get("style", "")))
    )


def _field_name(el: lxml.html.HtmlElement) -> str:
    """A checkbox's or radio's name as a person reads it: its label, else its name."""
    for attr in ("aria-label", "title"):
        if el.get(attr):
            return " ".join(str(el.get(attr)).split())
    label = next((a for a in el.iterancestors("label")), None)
    if label is not None and " ".join(label.text_content().split()):
        return " ".join(label.text_content().split())
    return " ".join(str(el.get("name") or el.get("value") or "box").split())


def first_edge(graph: nx.MultiDiGraph[str], node: str) -> dict[str, Any] | None:
    """The transition that first reached a state: from the shallowest state found first,
    fired rather than inferred; ``None`` for a start state (or one no state leads to)."""
    depth = graph.nodes[node].get("depth")
    if depth == 0:
        return None
    best: tuple[Any, ...] | None = None
    found = None
    for source, _, key, data in graph.in_edges(node, keys=True, data=True):
        attrs = graph.nodes[source]
        if source == node or attrs.get("kind") != "state":
            continue
        rank = (
            attrs.get("depth") if isinstance(attrs.get("depth"), int) else 1 << 30,
            attrs.get("found_at") if isinstance(attrs.get("found_at"), int | float) else 1e18,
            bool(data.get("inferred")),
            str(key),
        )
        if best is None or rank < best:
            best, found = rank, {**data, "source": source}
    return found


def _short_titles(graph: nx.MultiDiGraph[str], states: list[str], views: _Views) -> dict[str, str]:
    """Each state's title without the trailing part most titles share (a site's name);
    none where the crawl masked it."""
    titles = {
        n: "" if views.volatile and views.of(n).title_masked
        else " ".join(str(graph.nodes[n].get("title") or "").split())
        for n in states
    }  # fmt: skip
    split = (TITLE_SEPARATORS.split(t) for t in titles.values())
    tails = Counter(parts[-1] for parts in split if len(parts) > 1)
    common = {tail for tail, count in tails.items() if count * 2 > len(states)}
    short = {}
    for node, title in titles.items():
        parts = TITLE_SEPARATORS.split(title)
        if len(parts) > 1 and parts[-1] in common:
            title = title[: len(title) - len(parts[-1])].rstrip(TITLE_DASHES)
        short[node] = _clip(title, MAX_TITLE)
    return short


def _change(
    views: _Views, parent: str, node: str, doing: str, graph: nx.MultiDiGraph[str]
) -> str:
    """What firing the action in ``parent`` changed in ``node``, as one short part."""
    before_texts, before_values, before_checked, _ = views.of(parent)
    texts, values, checked, _ = views.of(node)
    quoted = doing.lower()
    appeared = _minus(texts, before_texts)
    shown = next((t for t in appeared if WORD.search(t) and t.lower() not in quoted), None)
    if shown is not None:
        return _clip(shown, MAX_PART)
    ticked = sorted(checked - before_checked)
    if ticked:
        return "☑ " + _clip(", ".join(ticked), MAX_PART)
    unticked = sorted(before_checked - checked)
    if unticked:
        return "☐ " + _clip(", ".join(unticked), MAX_PART)
    typed = _minus(values, before_values)
    if typed:
        return f'field "{_clip(typed[0], MAX_PART)}"'
    gone = [t for t in _minus(before_texts, texts) if WORD.search(t)]
    if gone:
        return GONE + _clip(gone[0], MAX_PART)
    before, after = (urlsplit(str(graph.nodes[n].get("url") or "")) for n in (parent, node))
    if before.path != after.path:
        return _clip(after.path, MAX_PART)
    if before.query != after.query:
        return _clip(f"?{after.query}", MAX_PART)
    if before.fragment != after.fragment:
        return _clip(f"#{after.fragment}" if after.fragment else after.path, MAX_PART)
    return ""


def _separate(found: dict[str, str], views: _Views, parents: dict[str, Any]) -> None:
    """Tell colliding labels apart: each gets the first text of its state that the others
    with its label lack; those reached from one state, the place of the element fired
    (``li 2``) where theirs differ; and those still colliding (reached from different states:
    a query's results, another tab) the label of the state before them."""
    for members in _collisions(found):
        seen = [Counter(set(views.of(n).texts)) for n in members]
        everywhere = sum(seen, Counter())
        for node in members:
            own = next((t for t in views.of(node).texts if everywhere[t] == 1), None)
            if own is not None:
                found[node] += SEPARATOR + _clip(own, MAX_PART)
    for members in _siblings(_collisions(found), parents):
        places = [_steps(parents.get(node)) for node in members]
        for node, place in zip(members, places, strict=True):
            differing = next(
                (step for i, step in enumerate(place) if any(
                    len(other) <= i or other[i] != step for other in places)),
                None,
            )
            if differing is not None:
                found[node] += SEPARATOR + " ".join(differing)
    for members in _collisions(found):
        for node in members:
            edge = parents.get(node)
            if edge is not None and edge["source"] in found:
                found[node] = _clip(found[edge["source"]], MAX_TITLE) + AFTER + found[node]


def _siblings(groups: Iterable[list[str]], parents: dict[str, Any]) -> Iterable[list[str]]:
    """The members of each group that were first reached from one state, by state."""
    for members in groups:
        by_source: defaultdict[str | None, list[str]] = defaultdict(list)
        for node in members:
            edge = parents.get(node)
            by_source[edge["source"] if edge is not None else None].append(node)
        yield from by_source.values()


def _steps(edge: dict[str, Any] | None) -> list[tuple[str, str]]:
    """The ``(tag, position)`` steps of the locator of the element an edge fired."""
    return STEP.findall(str(edge.get("name", ""))) if edge is not None else []


def _collisions(found: dict[str, str]) -> Iterable[list[str]]:
    groups: defaultdict[str, list[str]] = defaultdict(list)
    for node, label in found.items():
        groups[label].append(node)
    return [members for members in groups.values() if len(members) > 1]


def _minus(items: list[str], other: list[str]) -> list[str]:
    """``items`` without as many of each as ``other`` holds, in order (a multiset difference)."""
    left = Counter(other)
    out = []
    for item in items:
        if left[item]:
            left[item] -= 1
        else:
            out.append(item)
    return out


def _values(action: str) -> list[str]:
    """The non-empty values a submit's action sent (its last word is the form's query)."""
    query = action.rsplit(" ", 1)[-1]
    return [v for _, v in parse_qsl(query) if v.strip()] if "=" in query else []


def _clip(text: str, n: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1].rstrip(" …") + "…"
