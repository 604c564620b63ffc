"""Records: the repeated result items of a list state (sibling subtrees of one shape that lead
to a detail), extracted as plain fields from the stored DOMs after a crawl; no browser."""

from __future__ import annotations

import contextlib
import functools
import json
import re
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urldefrag, urljoin, urlsplit

import lxml.html
from lxml import etree

from ..directory.layout import RECORDS
from ..directory.paths import edge_records, is_state, shortest_paths, state_nodes

PLACE = ("query", "page", "list_state", "detail_state")  # where a record was listed
_KEY_ATTRIBUTES = ("data-id", "data-number", "data-key", "data-href", "data-url", "id")
_HANDLERS = ("onclick", "data-action", "data-href", "data-url")
# Where navigation lives: a record is never inside these (menus, tables of contents, footers)
_NAVIGATION_TAGS = frozenset({"nav", "header", "footer", "aside", "menu"})
_NAVIGATION_ROLES = frozenset({
    "navigation", "banner", "contentinfo", "complementary", "menu", "menubar", "tree",
    "toolbar", "tablist", "directory",
})
_NAVIGATION_WORDS = frozenset({
    "nav", "navbar", "navigation", "menu", "sidebar", "sphinxsidebar", "toc", "toctree",
    "breadcrumb", "breadcrumbs", "footer", "related", "pagination", "pager",
})
_WORD = re.compile(r"[a-z]+")
_WORDY = re.compile(r"\w")
# Lists, paragraphs, definitions and inline text: never the items of a result list
_NOT_ITEMS = frozenset({
    "ul", "ol", "dl", "table", "p", "dt", "dd", "pre", "blockquote", "span", "em", "strong",
    "code", "cite", "b", "i", "small", "sup", "sub",
})
_PROSE = frozenset({"p", "pre", "blockquote"})  # the parts of an item that is prose
_LABELLED = re.compile(r"^\s*([A-Za-z][\w .-]{0,30}?)\s*:\s*(\S.*?)\s*$", re.S)
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")
_SPACE = re.compile(r"\s+")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)  # a key that is a link (absolute, joined)
DETAIL_HEAD = 20000  # characters of a detail's DOM searched for an id-like key


def _text(el: lxml.html.HtmlElement) -> str:
    return _SPACE.sub(" ", el.text_content()).strip()


def _classes(el: lxml.html.HtmlElement) -> list[str]:
    return sorted((el.get("class") or "").split())


def _shape(el: lxml.html.HtmlElement, depth: int = 2) -> tuple[Any, ...]:
    """Tag and classes of an element and, to ``depth`` levels, of its children."""
    children = () if depth == 0 else tuple(_shape(c, depth - 1) for c in _elements(el))
    return (el.tag, tuple(_classes(el)), children)


def _elements(el: lxml.html.HtmlElement) -> list[lxml.html.HtmlElement]:
    return [c for c in el if isinstance(c.tag, str) and c.tag not in ("script", "style")]


def _leads(el: lxml.html.HtmlElement) -> bool:
    """Whether an item has a link or a handler to a detail."""
    if (el.tag == "a" and el.get("href")) or any(el.get(a) for a in _HANDLERS):
        return True
    if el.get("role") == "link":
        return True
    return any(
        d.get("href") or any(d.get(a) for a in _HANDLERS)
        for d in el.iterdescendants()
        if isinstance(d.tag, str)
    )


def _navigation(el: lxml.html.HtmlElement) -> bool:
    """Whether an element is navigation: a landmark (``nav``, a header, footer or sidebar, by
    tag, role or a class or id word) or one of its parts."""
    for d in (el, *el.iterancestors()):
        if d.tag in _NAVIGATION_TAGS or d.get("role") in _NAVIGATION_ROLES:
            return True
        names = f"{d.get('class') or ''} {d.get('id') or ''}".lower()
        if _NAVIGATION_WORDS.intersection(_WORD.findall(names)):
            return True
    return False


def _described(el: lxml.html.HtmlElement) -> bool:
    """Whether an item says something besides its links: a record has fields (a year, a
    snippet, a column), a link list's item is its link alone (a link that is the whole item
    has parts: a title and more). An item that holds a list is a node of a tree (a table of
    contents, an index), not a record."""
    if any(d.tag in ("ul", "ol", "dl") for d in el.iterdescendants()):
        return False
    parts = [c for c in _elements(el) if _text(c)]
    if el.tag != "tr" and (len(parts) < 2 or all(c.tag in _PROSE for c in parts)):
        return False  # a record's parts: a title and more (prose is paragraphs and code)
    return el.tag == "a" or bool(_WORDY.search(_unlinked(el)))


def _unlinked(el: lxml.html.HtmlElement) -> str:
    """The text of ``el`` outside its links."""
    parts = [el.text or ""]
    for child in el:
        if isinstance(child.tag, str) and child.tag not in ("a", "script", "style"):
            parts.append(_unlinked(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _key(el: lxml.html.HtmlElement, base: str) -> str | None:
    """The detail's key: the URL of the item's first link to another page (a ``mailto:`` or
    a script is none), else an id-like attribute. An item with a link to a place in its own
    page (a heading's anchor, a footnote) is part of a document: none."""
    page = urldefrag(base).url
    links = [urljoin(base, d.get("href", "").strip()) for d in el.iter("a") if d.get("href")]
    if any(urldefrag(url).url == page and urldefrag(url).fragment for url in links):
        return None
    for url in links:  # one into a place of another page is a cross-reference, not a detail
        if urlsplit(url).scheme in ("", "http", "https") and url == urldefrag(url).url != page:
            return url
    for d in el.iter():
        if not isinstance(d.tag, str):
            continue
        for name in _KEY_ATTRIBUTES:
            if d.get(name):
                return d.get(name)
    return None


def _name(classes: list[str], parent: list[str]) -> str | None:
    """A field name from an element's class: ``result-year`` under ``result`` is ``year``."""
    for cls in classes:
        for prefix in parent:
            if cls.startswith(prefix + "-") or cls.startswith(prefix + "_"):
                return cls[len(prefix) + 1 :].replace("-", "_")
    return classes[0].rsplit("-", 1)[-1].replace("-", "_") if classes else None


def _value(name: str, text: str) -> str:
    if name in ("year", "date", "granted") or name.endswith("_year"):
        year = _YEAR.search(text)
        if year and name.endswith("year"):
            return year.group(1)
    return text


def _fields(item: lxml.html.HtmlElement) -> dict[str, str]:
    """The item's labelled text: ``Label: value`` texts and class-named leaves."""
    fields: dict[str, str] = {}
    own = _classes(item)
    heading = next(
        (d for d in item.iter("h1", "h2", "h3", "h4", "h5", "h6", "a") if _text(d)), None
    )
    for d in item.iterdescendants():
        if not isinstance(d.tag, str) or _elements(d):
            continue
        text = _text(d)
        if not text:
            continue
        labelled = _LABELLED.match(text)
        if labelled:
            name = labelled.group(1).strip().lower().replace(" ", "_")
            fields.setdefault(name, _value(name, labelled.group(2)))
            continue
        name = _name(_classes(d), own)
        if name and d is not heading:
            fields.setdefault(name, _value(name, text))
    if heading is not None:
        fields["title"] = _text(heading)
    return fields


def _table(table: lxml.html.HtmlElement, base: str) -> Iterator[tuple[str, dict[str, str]]]:
    """The rows of a table of results: one that names its columns, rows that lead to a
    detail and hold more than their links."""
    headers = [_text(th).lower().replace(" ", "_") for th in table.iter("th")]
    if not headers:
        return
    for row in table.iter("tr"):
        cells = [c for c in row if isinstance(c.tag, str) and c.tag == "td"]
        if not cells or not _leads(row) or not _described(row):
            continue
        key = _key(row, base)
        if key is None:
            continue
        fields = {
            headers[i] if i < len(headers) and headers[i] else f"column_{i + 1}": _text(c)
            for i, c in enumerate(cells)
        }
        fields.setdefault("title", next((_text(a) for a in row.iter("a") if _text(a)), ""))
        yield key, {k: _value(k, v) for k, v in fields.items()}


def extract(html: str, base: str = "") -> list[tuple[str, dict[str, str]]]:
    """The records of one DOM as ``(detail key, fields)``: table rows by header, and groups
    of at least two sibling subtrees of one shape that each lead to a detail and say more
    than their links; never navigation (menus, tables of contents, footers)."""
    try:
        root = lxml.html.document_fromstring(html)
    except (etree.ParserError, ValueError):
        return []
    found: dict[str, dict[str, str]] = {}
    tables = set()
    for table in root.iter("table"):
        rows = [] if _navigation(table) else list(_table(table, base))
        if len(rows) >= 2:
            tables.add(table)
            for key, fields in rows:
                found.setdefault(key, fields)
    for parent in root.iter():
        if not isinstance(parent.tag, str) or any(t in tables for t in parent.iterancestors()):
            continue
        if parent in tables or parent.tag in ("table", "tbody", "thead", "tr"):
            continue
        groups: dict[tuple[Any, ...], list[lxml.html.HtmlElement]] = defaultdict(list)
        for child in _elements(parent):
            groups[_shape(child)].append(child)
        for items in groups.values():
            if len(items) < 2 or not all(_leads(i) for i in items):
                continue
            if all(not _elements(i) for i in items):
                continue  # bare links (a menu, a pager) are not records
            if items[0].tag in _NOT_ITEMS or _navigation(parent):
                continue
            if not all(_described(i) for i in items):
                continue
            for item in items:
                detail = _key(item, base)
                fields = _fields(item)
                if detail is not None and fields.get("title"):
                    found.setdefault(detail, fields)
    return list(found.items())


def _page(url: str, html: str) -> int:
    query = dict(parse_qsl(url.partition("?")[2]))
    if query.get("page", "").isdigit():
        return int(query["page"])
    match = re.search(r'aria-current="page"[^>]*>\s*(\d+)\s*<', html)
    return int(match.group(1)) if match else 1


def _query(path: list[dict[str, Any]]) -> dict[str, str]:
    """The input values of the path to a state: those of its last submit or input."""
    values: dict[str, str] = {}
    for edge in path:
        action = str(edge.get("action", ""))
        if edge.get("event") == "submit" and " " in action:
            values = {k: v for k, v in parse_qsl(action.rsplit(" ", 1)[-1]) if v}
    return values


def collect(graph: Any, html: Any) -> list[dict[str, Any]]:
    """Every record of a crawl, deduplicated by detail key (the first list state in path
    order wins); ``html(state_id)`` reads a state's DOM."""
    return _collect(graph, html, None)[0]


def _collect(graph: Any, html: Any, deadline: float | None) -> tuple[list[dict[str, Any]], str]:
    """:func:`collect` until ``deadline`` (``time.monotonic()``), and why it stopped short:
    ``""`` when every state was read."""
    paths = shortest_paths(graph)

    def way(node: str) -> list[dict[str, Any]]:
        return paths[node][1] if node in paths else []

    order = sorted(state_nodes(graph), key=lambda n: (n not in paths, len(way(n)), n))
    below: dict[str, list[str]] = defaultdict(list)  # state -> the states its edges reach
    for e in edge_records(graph):
        if e["target"] != e["source"] and is_state(graph, e["target"]):
            below[e["source"]].append(e["target"])
    out: dict[str, dict[str, Any]] = {}

    @functools.lru_cache(maxsize=1024)
    def head(state: str) -> str:
        return str(html(state))[:DETAIL_HEAD]

    for done, state in enumerate(order):
        if deadline is not None and time.monotonic() >= deadline:
            cut = f"cut short at the time limit: {done} of {len(order)} states read"
            return list(out.values()), cut
        node = graph.nodes[state]
        try:
            dom = html(state)
        except (OSError, KeyError):
            continue
        items = extract(dom, node.get("url", ""))
        if not items:
            continue
        for key, fields in items:
            if key in out:
                continue
            out[key] = {
                "key": key,
                **fields,
                "query": _query(way(state)),
                "page": _page(node.get("url", ""), dom),
                "list_state": state,
                "detail_state": _detail(graph, head, below[state], key),
            }
    return list(out.values()), ""


def _detail(graph: Any, head: Any, targets: list[str], key: str) -> str | None:
    """The state an edge of the list leads to that shows the record's detail: for a link,
    the state at its URL (none for a link out of the crawl); for an id-like key, one whose
    DOM (``head``: its start) names the key in an attribute."""
    if _URL.match(key):
        return next((t for t in targets if graph.nodes[t].get("url") == key), None)
    needle = re.compile('="' + re.escape(key) + '"')
    for target in targets:
        try:
            if needle.search(head(target)):
                return target
        except (OSError, KeyError):
            continue
    return None


def query_text(query: dict[str, str]) -> str:
    """A record's query as ``name=value`` text joined by ``&`` (``""``: listed by no query)."""
    return "&".join(f"{name}={value}" for name, value in query.items())


def per_query(path: Path) -> dict[str, int]:
    """How many records each query (:func:`query_text`) listed first, from a crawl
    directory's ``records.jsonl``; empty when it has none."""
    counts: dict[str, int] = defaultdict(int)
    try:
        lines = (path / RECORDS).read_text(encoding="utf-8").splitlines()
    except OSError:
        return {}
    for line in lines:
        with contextlib.suppress(ValueError, AttributeError):
            counts[query_text(json.loads(line).get("query") or {})] += 1
    return dict(counts)


def write(crawl: Any, path: Path) -> int:
    """Write a crawl's records (:func:`collect`) to ``path`` as JSON lines; their number."""
    rows = collect(crawl.graph, crawl.html)
    _write(rows, path)
    return len(rows)


def write_within(crawl: Any, path: Path, deadline: float | None) -> str:
    """:func:`write` until ``deadline`` (``time.monotonic()``, the run's time limit): the
    records found by then are written; why they are cut short, or ``""``."""
    rows, cut = _collect(crawl.graph, crawl.html, deadline)
    _write(rows, path)
    return cut


def _write(rows: list[dict[str, Any]], path: Path) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for row in rows:
            # fields in name order; a query's values in the form's order, as the user gave them
            ordered = {name: row[name] for name in sorted(row)}
            out.write(json.dumps(ordered, ensure_ascii=False) + "\n")
