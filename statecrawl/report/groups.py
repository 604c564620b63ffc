"""Groups of states for the report's graph: states of one URL pattern or one page structure.

A search site's crawl holds dozens of detail pages and result pages that look alike on a
graph. A URL pattern is a URL with the parts that vary across the crawl's URLs of its shape
(same host, as many path segments, the same query keys) replaced by ``*``: every query value
that takes two values or more, and a path segment that does when it holds a digit or the
position takes ``SLUG_VARIANTS`` values or more and the same rest of the path follows
most of them (``/patent/*``, ``/search?q=*&page=*``; ``/about`` and ``/help`` stay apart, and so
do ``/library/*.html`` and ``/tutorial/*.html``: a folder name followed by pages of its own is
no parameter). A parameter keeps its file extension (``*.html``). States join a group when
they share a pattern with a ``*`` in it, or when they share a structure digest (the same
element tree, as :func:`statecrawl.models.dom.structure_digest` hashes it: one template). A
group is named by what its members' patterns share (:func:`shape_name`). Pure: no browser, no
files.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

PLACEHOLDER = "*"
MIN_GROUP = 3  # states a group needs: two alike states are easier to read as they are
SLUG_VARIANTS = 5  # values a digitless path segment takes before it counts as a parameter
EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,4}$")  # a file's: .html, .pdf, .mp4


@dataclass(frozen=True, kw_only=True)
class Group:
    """States the report draws as one node until it is expanded: their numbers, and the
    URL pattern most of them share as the group's name."""

    name: str
    members: tuple[int, ...]


@dataclass(frozen=True)
class _Parts:
    host: str
    path: tuple[str, ...]
    query: tuple[tuple[str, str], ...]
    fragment: tuple[str, ...]

    @property
    def shape(self) -> tuple[object, ...]:
        return (self.host, len(self.path), tuple(k for k, _ in self.query), len(self.fragment))


def url_patterns(urls: Sequence[str], *, short: bool = False) -> list[str]:
    """The pattern of each URL among ``urls`` (see the module's docstring); the host is left
    out when every URL has the same one. ``short``: without the query items that do not
    vary (``/search?q=*&page=*`` for ``/search?q=*&field=title&page=*``), to name a group."""
    parts = [_split(url) for url in urls]
    shapes: defaultdict[tuple[object, ...], list[_Parts]] = defaultdict(list)
    for part in parts:
        shapes[part.shape].append(part)
    varying = {shape: _varying(members) for shape, members in shapes.items()}
    hosts = {part.host for part in parts}
    return [_pattern(part, *varying[part.shape], with_host=len(hosts) > 1, short=short)
            for part in parts]


def group_states(
    urls: Sequence[str | None], structures: Sequence[str | None], *, min_size: int = MIN_GROUP
) -> list[Group]:
    """The groups of ``min_size`` states or more among the nodes numbered by position:
    ``urls[n]`` and ``structures[n]`` are node ``n``'s URL and structure digest, ``None``
    for a node that is never grouped on it (an out-of-scope node has neither). Groups are
    ordered by their first member; a node is in one group at most."""
    listed = [n for n, url in enumerate(urls) if url is not None]
    patterns = dict(zip(listed, url_patterns([str(urls[n]) for n in listed]), strict=True))
    names = dict(zip(listed, url_patterns([str(urls[n]) for n in listed], short=True),
                     strict=True))
    parent = list(range(len(urls)))

    def root(n: int) -> int:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    first: dict[tuple[str, str], int] = {}
    for n, key in [*((n, ("url", p)) for n, p in patterns.items() if PLACEHOLDER in p),
                   *((n, ("dom", s)) for n, s in enumerate(structures) if s is not None)]:
        if key in first:
            parent[root(n)] = root(first[key])
        else:
            first[key] = n
    components: defaultdict[int, list[int]] = defaultdict(list)
    for n in range(len(urls)):
        if patterns.get(n) is not None or structures[n] is not None:
            components[root(n)].append(n)
    groups = []
    for members in components.values():
        if len(members) < min_size:
            continue
        groups.append(Group(name=shape_name([names[n] for n in members if n in names]),
                            members=tuple(members)))
    return sorted(groups, key=lambda g: g.members[0])


def shape_name(patterns: Sequence[str]) -> str:
    """What URL patterns share, as one pattern: the path segments they all have, ``*`` and
    the file extension they share (``*.html``) where they differ, ``/**`` after the segments
    they share when their paths are of several lengths, and the query keys they all have
    (``*`` for a value that differs). Patterns that share nothing but their length (``/app``
    and ``/other``) are named by the most common one and how many others there are."""
    if not patterns:
        return "same structure"
    split = [_split(("//h" if p.startswith("/") else "//") + p) for p in patterns]
    hosts = {part.host for part in split}
    host = "" if hosts == {"h"} else hosts.pop() if len(hosts) == 1 else PLACEHOLDER
    path = _merged([part.path for part in split])
    text = f"{host}/" + "/".join(path)
    queries = [dict(part.query) for part in split]
    keys = [k for k, _ in split[0].query if all(k in query for query in queries)]
    if keys:
        text += "?" + "&".join(f"{k}={_merged([(q[k],) for q in queries])[0]}" for k in keys)
    fragment = _merged([part.fragment for part in split])
    if any(part.fragment for part in split):
        text += "#" + "/".join(fragment)
    distinct = Counter(patterns).most_common()
    if len(distinct) > 1 and not keys and not any(v.strip(PLACEHOLDER) for v in path + fragment):
        others = len(distinct) - 1
        return f"{distinct[0][0]} and {others} other URL{'s' if others > 1 else ''}"
    return text


def _merged(columns: Sequence[tuple[str, ...]]) -> list[str]:
    """Segments merged position by position (see :func:`shape_name`)."""
    if len({len(column) for column in columns}) == 1:
        return [_merged_value(set(values)) for values in zip(*columns, strict=True)]
    out = []
    for values in zip(*columns, strict=False):  # as far as the shortest goes
        if len(set(values)) > 1:
            break
        out.append(values[0])
    last = _merged_value({column[-1] if column else "" for column in columns})
    return [*out, PLACEHOLDER * 2, *([last] if last != PLACEHOLDER else [])]


def _merged_value(values: set[str]) -> str:
    """One value, or ``*`` with the file extension every value has."""
    if len(values) == 1:
        return values.pop()
    extensions = {_extension(value) for value in values}
    return PLACEHOLDER + (extensions.pop() if len(extensions) == 1 else "")


def _extension(value: str) -> str:
    """A segment's file extension (``.html``), or ``""``."""
    match = EXTENSION.search(value)
    return match.group(0) if match and match.start() > 0 else ""


def _split(url: str) -> _Parts:
    split = urlsplit(url)
    path = split.path.strip("/")
    fragment = split.fragment.strip("/")
    return _Parts(
        host=split.netloc,
        path=tuple(path.split("/")) if path else (),
        query=tuple(parse_qsl(split.query, keep_blank_values=True)),
        fragment=tuple(fragment.split("/")) if fragment else (),
    )


Masks = list[str]  # per position: "" kept, "all" a parameter, "digits" one where it has digits


def _varying(members: list[_Parts]) -> tuple[Masks, Masks, Masks]:
    """Which path segments, query values and fragment segments of a shape are parameters:
    every value of a position (``"all"``), or those with a digit (``"digits"``: ``/page1``
    and ``/page2`` are one page's, ``/about`` is not)."""

    def parameters(rows: list[tuple[str, ...]], query: bool) -> Masks:
        out = []
        for i, values in enumerate(set(column) for column in zip(*rows, strict=True)):
            if len(values) >= 2 and (query or (len(values) >= SLUG_VARIANTS and _shared(rows, i))):
                out.append("all")
            elif sum(_numeric(v) for v in values) >= 2:
                out.append("digits")
            else:
                out.append("")
        return out

    return (
        parameters([m.path for m in members], query=False),
        parameters([tuple(v for _, v in m.query) for m in members], query=True),
        parameters([m.fragment for m in members], query=False),
    )


def _shared(rows: list[tuple[str, ...]], i: int) -> bool:
    """Whether the same rest of the path (digits aside) follows two values or more of
    position ``i`` in half the rows or more: true of a parameter (``/user/*/posts``, the last
    segment), false of a folder name followed by pages of its own (``/library/os.html``)."""
    rests = [tuple(PLACEHOLDER if _numeric(v) else v for v in row[i + 1 :]) for row in rows]
    before: defaultdict[tuple[str, ...], set[str]] = defaultdict(set)
    for row, rest in zip(rows, rests, strict=True):
        before[rest].add(row[i])
    return 2 * sum(len(before[rest]) >= 2 for rest in rests) >= len(rows)


def _pattern(
    part: _Parts, path: Masks, query: Masks, fragment: Masks, *, with_host: bool, short: bool
) -> str:
    def masked(values: tuple[str, ...], masks: Masks, *, kept: bool = False) -> list[str]:
        return [PLACEHOLDER + (_extension(value) if kept else "")
                if mask == "all" or (mask and _numeric(value)) else value
                for value, mask in zip(values, masks, strict=True)]

    text = "/" + "/".join(masked(part.path, path, kept=True))
    values = masked(tuple(v for _, v in part.query), query)
    items = [f"{k}={v}" for (k, _), v in zip(part.query, values, strict=True)
             if not short or v == PLACEHOLDER]
    if items:
        text += "?" + "&".join(items)
    if part.fragment:
        text += "#" + "/".join(masked(part.fragment, fragment))
    return f"{part.host}{text}" if with_host else text


def _numeric(value: str) -> bool:
    return any(c.isdigit() for c in value)
