"""JavaScript coverage of a crawl: which functions and characters of the app's scripts ran.

The browser side (:class:`Recorder`) keeps V8's precise coverage on (CDP ``Profiler``,
binary block coverage: each take reports only what ran since the last one) and turns each
take into records of in-scope scripts' functions. A function is known by its script's URL,
the digest of the script's source, its name and its start offset, so records of different
browsers, documents and reloads (whose ``scriptId``\\ s differ) merge (:func:`merge`).

V8 reports every function it has compiled, which leaves out the functions nested in one that
never ran. The total counts them from the source (:func:`function_starts`, a cheap tokenizer
fetched once per script with ``Debugger.getScriptSource``): a never-run function's missing
inner functions are the function literals inside it that V8 does not know. Offsets and
"bytes" are V8's, UTF-16 code units of the script's source. A script's URL is kept without
its query and fragment (the digest tells sources apart), so an inline script counts under
the URL of the document it came with, whatever its query; scripts without a URL (``eval``,
the page agent, WebDriver's own) are not counted. What runs between the last take and a
navigation an action starts (a handler that sets ``location``, a form submitted) is lost
with its document.
"""

from __future__ import annotations

import bisect
import json
import logging
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import xxhash

from .directory.layout import read_json, write_json
from .scope import origin

if TYPE_CHECKING:
    from selenium import webdriver

    from .scope import Scope

log = logging.getLogger(__name__)

FILE = "coverage.json"
FORMAT = 1

Record = dict[str, Any]  # one function: see :meth:`Recorder._record`
Delta = dict[str, Record]  # records by function id

# ---- counting function literals in a source -------------------------------------------------

_TOKEN = re.compile(
    r"""(?P<space>\s+|//[^\n]*|/\*.*?(?:\*/|\Z)|<!--[^\n]*)
    |(?P<string>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
    |(?P<template>`)
    |(?P<name>[A-Za-z_$\u0080-\uffff][\w$\u0080-\uffff]*|\#[A-Za-z_$][\w$]*)
    |(?P<number>\.?\d[\w.]*)
    |(?P<punct>=>|\.\.\.|\?\.|[{}()\[\];,<>+\-*/%&|^!~?:=.@])""",
    re.S | re.X,
)
_REGEX = re.compile(r"/(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[A-Za-z]*")
_TEMPLATE = re.compile(r"(?:[^`\\$]|\\.|\$(?!\{))*(`|\$\{|\Z)", re.S)
# after these a ``/`` starts a regular expression, not a division
_BEFORE_REGEX = frozenset(
    ("return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case",
     "do", "else", "yield", "await")
)
_NOT_METHODS = frozenset(
    ("if", "for", "while", "switch", "catch", "with", "function", "return", "typeof", "new",
     "super", "import", "await")
)
_MODIFIERS = frozenset(("get", "set", "static", "async", "*"))


def _tokens(source: str) -> list[tuple[str, str, int]]:
    """The significant tokens of JavaScript ``source`` as (kind, text, offset): strings,
    templates, comments and regular expressions are told apart well enough that no function
    literal is seen inside one."""
    tokens: list[tuple[str, str, int]] = []
    templates: list[int] = []  # brace depth at which each open ``${`` closes
    depth, pos, end = 0, 0, len(source)

    def template(at: int) -> int:
        match = _TEMPLATE.match(source, at)
        assert match is not None
        if match.group(1) == "${":
            templates.append(depth)
        return match.end()

    while pos < end:
        match = _TOKEN.match(source, pos)
        if match is None:  # a character no token starts with: skipped
            pos += 1
            continue
        kind, text = match.lastgroup or "", match.group()
        start, pos = pos, match.end()
        if kind == "space":
            continue
        if kind == "template":
            tokens.append(("string", "`", start))
            pos = template(pos)
            continue
        if text == "/":
            last = tokens[-1] if tokens else None
            if (
                last is None
                or (last[0] == "punct" and last[1] not in (")", "]"))
                or (last[0] == "name" and last[1] in _BEFORE_REGEX)
            ):
                regex = _REGEX.match(source, start)
                if regex is not None:
                    tokens.append(("string", regex.group(), start))
                    pos = regex.end()
                    continue
        if text == "{":
            depth += 1
        elif text == "}":
            if templates and templates[-1] == depth:
                templates.pop()
                pos = template(pos)
                tokens.append(("string", "}", start))
                continue
            depth -= 1
        tokens.append((kind, text, start))
    return tokens


def function_starts(source: str) -> list[int]:
    """The offsets at which the function literals of ``source`` start, sorted: ``function``
    expressions and declarations, arrow functions and methods (with their ``get``, ``set``,
    ``static``, ``async`` or ``*``). Each offset is at or before the start V8 reports for the
    function, and after its enclosing function's. Class field initializers and implicit
    constructors, which V8 makes functions of, are not counted."""
    tokens = _tokens(source)
    partner: dict[int, int] = {}
    opened: list[int] = []
    for i, (_, piece, _) in enumerate(tokens):
        if piece in ("(", "["):
            opened.append(i)
        elif piece in (")", "]") and opened:
            j = opened.pop()
            partner[i], partner[j] = j, i

    def text(i: int) -> str:
        return tokens[i][1] if 0 <= i < len(tokens) and tokens[i][0] != "string" else ""

    def leading(i: int, allowed: frozenset[str]) -> int:
        while i > 0 and text(i - 1) in allowed:
            i -= 1
        return i

    starts = []
    for i, (kind, word, _) in enumerate(tokens):
        if kind == "name" and word == "function":
            starts.append(tokens[leading(i, frozenset(("async",)))][2])
        elif word == "=>" and kind == "punct":
            j = partner.get(i - 1, i - 1) if text(i - 1) == ")" else i - 1
            if j >= 0:
                starts.append(tokens[leading(j, frozenset(("async",)))][2])
        elif word == "(" and kind == "punct" and text(partner.get(i, -1) + 1) == "{":
            before = tokens[i - 1] if i > 0 else None
            if before is None or (before[0] == "name" and before[1] in _NOT_METHODS):
                continue
            if before[0] == "punct" and before[1] != "]":
                continue
            j = partner.get(i - 1, i - 1) if before[1] == "]" else i - 1
            if text(j - 1) == "function" or (text(j - 1) == "*" and text(j - 2) == "function"):
                continue  # a function declaration's name: counted at ``function``
            starts.append(tokens[leading(j, _MODIFIERS)][2])
    return sorted(starts)


# ---- the browser side -------------------------------------------------------------------------


def function_id(url: str, digest: str, name: str, start: int) -> str:
    """A function's id, the same in every browser, document and crawl of the same source."""
    return xxhash.xxh64_hexdigest(f"{url}\0{digest}\0{name}\0{start}".encode())


class _Script:
    """What is known of one source: its URL, digest, length and function literals."""

    __slots__ = ("digest", "length", "starts", "url")

    def __init__(self, url: str, digest: str, length: int, starts: list[int]) -> None:
        self.url, self.digest, self.length, self.starts = url, digest, length, starts


class Recorder:
    """Precise coverage in one browser, turned into records of the in-scope scripts."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.pending: Delta = {}
        self._scripts: dict[str, _Script] = {}  # scriptId -> script, in the current process
        self._known: dict[str, _Script] = {}  # a script's first report's fingerprint -> it
        self._parsed: dict[str, list[int]] = {}  # digest -> function starts

    def start(self, web: webdriver.Chrome) -> None:
        """Turn coverage on, before the first document."""
        self._scripts.clear()
        web.execute_cdp_cmd("Profiler.enable", {})
        web.execute_cdp_cmd("Profiler.startPreciseCoverage", {"callCount": False, "detailed": True})

    def in_scope(self, url: str) -> bool:
        """Whether a script of ``url`` is the application's: served from a start origin and
        not excluded."""
        if not url.startswith(("http:", "https:")):
            return False
        return origin(url) in self.scope.origins and not any(
            p.search(url) for p in self.scope.exclude
        )

    def take(self, web: webdriver.Chrome) -> None:
        """Add what ran since the last take to :attr:`pending` (before a document is left:
        its scripts' coverage goes with it)."""
        for script in web.execute_cdp_cmd("Profiler.takePreciseCoverage", {})["result"]:
            functions = script["functions"]
            if not functions or not self.in_scope(script["url"]):
                continue
            url = urlsplit(script["url"])._replace(query="", fragment="").geturl()
            known = self._script(web, script["scriptId"], url, functions)
            if known is None:
                continue
            for function in functions:
                fid, record = self._record(known, function)
                merge_record(self.pending, fid, record)

    def collect(self) -> Delta:
        """The records gathered since the last call."""
        taken, self.pending = self.pending, {}
        return taken

    def _script(
        self, web: webdriver.Chrome, script_id: str, url: str, functions: list[dict[str, Any]]
    ) -> _Script | None:
        """The script ``script_id`` is. A script's first report starts with its top-level
        code (offset 0 to its length), which tells a new script from one seen before; a
        known source is recognised by that report, without fetching it again."""
        top = functions[0]
        first = top["ranges"][0]
        if first["startOffset"] != 0 or top["functionName"] != "":
            return self._scripts.get(script_id)
        length = first["endOffset"]
        seen = self._scripts.get(script_id)
        if seen is not None and seen.url == url and seen.length == length:
            return seen
        shape = [(f["functionName"], f["ranges"][0]["startOffset"]) for f in functions]
        fingerprint = xxhash.xxh64_hexdigest(json.dumps([url, length, shape]).encode())
        known = self._known.get(fingerprint)
        if known is None:
            source = self._source(web, script_id)
            if source is None:
                log.debug("no source of %s", url)
                return None
            digest = xxhash.xxh64_hexdigest(source.encode("utf-8", "surrogatepass"))
            if digest not in self._parsed:
                self._parsed[digest] = function_starts(source)
            known = _Script(url, digest, len(source), self._parsed[digest])
            self._known[fingerprint] = known
        self._scripts[script_id] = known
        return known

    @staticmethod
    def _source(web: webdriver.Chrome, script_id: str) -> str | None:
        """A script's source, from the debugger, on only meanwhile: enabled, it costs every
        script compiled (a crawl took a third longer), and it never pauses the page."""
        web.execute_cdp_cmd("Debugger.enable", {})
        try:
            web.execute_cdp_cmd("Debugger.setSkipAllPauses", {"skip": True})
            answer = web.execute_cdp_cmd("Debugger.getScriptSource", {"scriptId": script_id})
            return str(answer["scriptSource"])
        except Exception:  # a script of a document already gone: best effort
            return None
        finally:
            web.execute_cdp_cmd("Debugger.disable", {})

    @staticmethod
    def _record(script: _Script, function: dict[str, Any]) -> tuple[str, Record]:
        """A function's id and record: where it lies, whether it ran, the ranges of it that
        ran (its own range less the blocks that did not), and how many function literals lie
        inside it (``inner``, for the total when it never ran)."""
        own, *blocks = function["ranges"]
        start, end, name = own["startOffset"], own["endOffset"], function["functionName"]
        ran = own["count"] > 0
        ranges = _subtract([(start, end)], [(b["startOffset"], b["endOffset"]) for b in blocks
                                            if b["count"] == 0]) if ran else []
        ranges = _union([*ranges, *((b["startOffset"], b["endOffset"]) for b in blocks
                                    if b["count"] > 0 and ran)])
        inner = bisect.bisect_left(script.starts, end) - bisect.bisect_right(script.starts, start)
        record = {
            "url": script.url,
            "digest": script.digest,
            "length": script.length,
            "name": name,
            "start": start,
            "end": end,
            "top": start == 0 and end == script.length and name == "",
            "inner": inner,
            "ran": ran,
            "ranges": [list(r) for r in ranges],
        }
        return function_id(script.url, script.digest, name, start), record


# ---- merging and totals (no browser) ----------------------------------------------------------


def _union(ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Ranges as the fewest sorted, disjoint ones covering the same offsets."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if end <= start:
            continue
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _subtract(ranges: list[tuple[int, int]], holes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The offsets of ``ranges`` outside every one of ``holes``."""
    out = []
    holes = _union(holes)
    for start, end in _union(ranges):
        at = start
        for hole_start, hole_end in holes:
            if hole_end <= at or hole_start >= end:
                continue
            if hole_start > at:
                out.append((at, hole_start))
            at = max(at, hole_end)
        if at < end:
            out.append((at, end))
    return out


def merge_record(table: MutableMapping[str, Record], fid: str, record: Record) -> bool:
    """Merge ``record`` into ``table[fid]``; whether the function ran for the first time."""
    old = table.get(fid)
    if old is None:
        table[fid] = dict(record)
        return bool(record["ran"])
    if not record["ran"]:
        return False
    ranges = _union([*map(tuple, old["ranges"]), *map(tuple, record["ranges"])])
    first = not old["ran"]
    if first or len(ranges) != len(old["ranges"]) or any(
        list(r) != o for r, o in zip(ranges, old["ranges"], strict=True)
    ):
        table[fid] = {**old, "ran": True, "ranges": [list(r) for r in ranges]}
    return first


def merge(table: MutableMapping[str, Record], delta: Mapping[str, Record],
          by: list[str] | None = None) -> list[str]:
    """Merge a browser's ``delta`` into the crawl's ``table``; the ids of the functions (not
    a script's top-level code) that ran for the first time, sorted. Those remember ``by``
    (source, target, action key: the transition that ran them), if given."""
    new = []
    for fid, record in delta.items():
        if merge_record(table, fid, record) and not record["top"]:
            new.append(fid)
            if by is not None:
                table[fid] = {**table[fid], "by": by}
    return sorted(new)


def _source_totals(records: list[Record]) -> dict[str, Any]:
    """Functions and characters of one source, covered and in all, and the covered ranges."""
    functions = sorted((r for r in records if not r["top"]), key=lambda r: (r["start"], -r["end"]))
    covered = sum(r["ran"] for r in functions)
    total = len(functions)
    # a never-run function not inside another holds literals V8 has not compiled
    outer: tuple[int, int] | None = None
    for i, r in enumerate(functions):
        if r["ran"] or (outer is not None and r["start"] < outer[1]):
            continue
        outer = (r["start"], r["end"])
        known_inside = sum(
            1 for s in functions[i + 1 :] if s["start"] < r["end"] and s["end"] <= r["end"]
        )
        total += max(0, r["inner"] - known_inside)
    spans = [(r["start"], r["end"]) for r in functions]
    ran: list[tuple[int, int]] = []
    for r in records:
        if r["ran"]:
            nested = [(s, e) for s, e in spans if r["start"] <= s and e <= r["end"]
                      and (s, e) != (r["start"], r["end"])]
            ran += _subtract([tuple(x) for x in r["ranges"]], nested)
    ranges = _union(ran)
    return {
        "functions_covered": covered,
        "functions_total": total,
        "bytes_covered": sum(e - s for s, e in ranges),
        "bytes_total": records[0]["length"],
        "ranges": [list(r) for r in ranges],
    }


def report(table: Mapping[str, Record], resolve: Callable[[str], str] = str) -> dict[str, Any]:
    """The content of ``coverage.json`` for a crawl's ``table``: per script URL its functions
    and bytes covered and in all, its sources' covered ranges and functions; a total; the
    functions each transition ran first (state ids through ``resolve``)."""
    by_source: dict[tuple[str, str], list[Record]] = defaultdict(list)
    for fid, record in table.items():
        by_source[(record["url"], record["digest"])].append({**record, "id": fid})
    scripts: dict[str, dict[str, Any]] = {}
    keys = ("functions_covered", "functions_total", "bytes_covered", "bytes_total")
    for (url, digest), records in sorted(by_source.items()):
        totals = _source_totals(records)
        script = scripts.setdefault(url, {"url": url, **dict.fromkeys(keys, 0), "sources": []})
        for k in keys:
            script[k] += totals[k]
        script["sources"].append({
            "digest": digest,
            "length": totals["bytes_total"],
            "ranges": totals["ranges"],
            "functions": {
                r["id"]: {"name": r["name"], "start": r["start"], "end": r["end"], "ran": r["ran"]}
                for r in sorted(records, key=lambda r: r["start"]) if not r["top"]
            },
        })
    firsts: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for fid, record in table.items():
        if record.get("by"):
            source, target, key = record["by"]
            firsts[(resolve(source), resolve(target), key)].append(fid)
    return {
        "format": FORMAT,
        "total": {k: sum(s[k] for s in scripts.values()) for k in keys},
        "scripts": list(scripts.values()),
        "transitions": [
            {"source": s, "target": t, "key": k, "functions": sorted(ids)}
            for (s, t, k), ids in sorted(firsts.items())
        ],
    }


def write(
    directory: Path, table: Mapping[str, Record], resolve: Callable[[str], str] = str
) -> None:
    """Write ``coverage.json`` into the crawl ``directory``."""
    write_json(directory / FILE, report(table, resolve))


def read(directory: Path) -> dict[str, Any] | None:
    """A crawl directory's ``coverage.json``, or ``None`` when the crawl has none."""
    data: dict[str, Any] | None = read_json(Path(directory) / FILE)
    return data


def share(total: Mapping[str, int]) -> str:
    """``total``'s functions covered, as "12/40 functions (30 %)"."""
    covered, whole = total["functions_covered"], total["functions_total"]
    percent = f" ({100 * covered / whole:.0f} %)" if whole else ""
    return f"{covered}/{whole} JS functions{percent}"
