"""Pages that replace or extend builtins must not change what the page agent does.

``tests/pages/hostile/builtins.html`` is a small app (tabs, a fetch, an XHR, a timer, a form, a
select, a link) whose first script may replace builtins. Each row of ``ROWS`` names a family of
builtins (or getters, such as ``outerHTML``); each is replaced by a version that throws
(``Error("hostile <name>")``) or that returns garbage, before any page script runs
(``before``) or in the page's load handler (``after``). The crawl must give the clean twin's
state ids and transitions, with no failure.
A family's row replaces all its builtins in one crawl, in one combination of flavour and
time; the ``all`` rows replace every family at once, in every combination. An agent that still
calls one of the throwing versions shows it by name in the failures the assertion prints.

The page's own code uses none of the replaced builtins, so what is tested is the agent alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from werkzeug import Response

import statecrawl
from tests.conftest import PAGES, Site

QUICK = {"settle_timeout_ms": 1000, "growth_timeout_ms": 1000, "load_timeout": 10}
PANEL = re.compile(r'id="panel">([^<]*)<')
SETTINGS: dict[str, Any] = {
    "timing": QUICK,
    "limits": {"max_depth": 1},
    "inputs": {"values": {"Query": ["milk"]}},
}

CrawlFn = Callable[..., statecrawl.Crawl]

# Every own method of these objects is replaced ("*"), or the members named.
ROWS: dict[str, dict[str, list[str]]] = {
    "json": {"JSON": ["stringify", "parse"]},
    "array": {"Array.prototype": ["*"], "Array": ["from", "isArray", "of"]},
    "iteration": {
        "Array.prototype": ["[Symbol.iterator]"],
        "Map.prototype": ["[Symbol.iterator]"],
        "Set.prototype": ["[Symbol.iterator]"],
        "NodeList.prototype": ["forEach", "entries", "values"],
        "HTMLCollection.prototype": ["[Symbol.iterator]"],
        "String.prototype": ["[Symbol.iterator]"],
    },
    "promise": {"Promise.prototype": ["then", "catch", "finally"], "window": ["Promise"]},
    "object": {"Object": ["*"], "Object.prototype": ["hasOwnProperty", "toString", "valueOf"]},
    "clock": {"performance": ["now"], "Date": ["now"], "Math": ["*"]},
    "query": {
        "document": ["querySelector"],
        "Document.prototype": ["querySelector"],
        "DocumentFragment.prototype": ["querySelectorAll", "querySelector"],
        "Element.prototype": [
            "querySelectorAll",
            "querySelector",
            "getAttribute",
            "hasAttribute",
            "setAttribute",
            "removeAttribute",
            "toggleAttribute",
            "getAttributeNames",
            "closest",
            "matches",
            "getRootNode",
            "getBoundingClientRect",
            "checkVisibility",
            "getHTML",
            "scrollIntoView",
        ],
        "Node.prototype": ["contains", "cloneNode", "getRootNode"],
        "window": ["getComputedStyle"],
    },
    "collections": {
        "Map.prototype": ["*"],
        "Set.prototype": ["*"],
        "WeakMap.prototype": ["*"],
        "WeakSet.prototype": ["*"],
    },
    "string": {"String.prototype": ["*"], "String": ["fromCharCode"]},
    "regexp": {
        "RegExp.prototype": [
            "exec",
            "test",
            "[Symbol.replace]",
            "[Symbol.match]",
            "[Symbol.split]",
            "[Symbol.search]",
        ],
    },
    "function": {
        "Function.prototype": ["toString", "call", "apply", "bind"],
        "Reflect": ["*"],
    },
    "events": {
        "window": [
            "MutationObserver",
            "CustomEvent",
            "Event",
            "MouseEvent",
            "PointerEvent",
            "KeyboardEvent",
            "InputEvent",
            "queueMicrotask",
        ],
        "EventTarget.prototype": ["dispatchEvent"],
        "MutationObserver.prototype": ["observe", "takeRecords", "disconnect"],
        "HTMLElement.prototype": ["click", "focus", "blur"],
        "Event.prototype": ["preventDefault", "stopPropagation"],
        "HTMLFormElement.prototype": ["requestSubmit"],
        "Number.prototype": ["toString", "toFixed"],
    },
    # What finding the agents of frames would call, were it not for the captured copies.
    "frame-lookup": {
        "document": ["querySelectorAll"],
        "Document.prototype": ["querySelectorAll"],
        "NodeList.prototype": ["[Symbol.iterator]"],
        "Object.getPrototypeOf([][Symbol.iterator]())": ["next"],
    },
    # Getters ("get <name>", the setter kept): markup and text, which a page may decorate.
    "markup": {
        "Element.prototype": ["get outerHTML", "get innerHTML"],
        "HTMLElement.prototype": ["get innerText"],
        "Node.prototype": ["get textContent"],
    },
}
# MooTools and Prototype.js: enumerable members added to Object.prototype and Array.prototype,
# and toJSON methods that JSON.stringify calls.
ADDED = {
    "Object.prototype": ["extend", "each", "toJSON", "bubbles", "attributeFilter"],
    "Array.prototype": ["each", "toJSON", "extend"],
}

INSTALL = """
var own = Object.getOwnPropertyNames, symbols = Object.getOwnPropertySymbols;
var describe = Object.getOwnPropertyDescriptor, define = Object.defineProperty;
var spoiled = [];
function bad(name) {
  return %s;
}
function spoil(owner, name, key) {
  var d = describe(owner, key);
  if (d && typeof d.value !== "function") return;
  spoiled[spoiled.length] = [owner, key, bad(name + "." + String(key))];
}
function spoilAll(owner, name) {
  var keys = own(owner), syms = symbols(owner), i;
  for (i = 0; i < keys.length; i++) if (keys[i] !== "constructor") spoil(owner, name, keys[i]);
  for (i = 0; i < syms.length; i++) spoil(owner, name, syms[i]);
}
function add(owner, name, key) {
  spoiled[spoiled.length] = [owner, key, bad(name + "." + key), true];
}
function spoilGet(owner, name, key) {
  spoiled[spoiled.length] = [owner, key, bad(name + "." + key), "get"];
}
%s
function install() {
  for (var i = 0; i < spoiled.length; i++) {
    var s = spoiled[i];
    var setter = s[3] === "get" && describe(s[0], s[1]).set;
    if (setter) define(s[0], s[1], {get: s[2], set: setter, configurable: true});
    else if (s[3]) s[0][s[1]] = s[2];
    else define(s[0], s[1], {value: s[2], writable: true, configurable: true});
  }
}
"""
FLAVOURS = {
    "throws": 'function () { throw new Error("hostile " + name); }',
    "garbage": 'function () { return "garbage"; }',
}
WHEN = {
    "before": "install();",
    "after": 'addEventListener("load", install);',
}


def hostile_script(members: dict[str, list[str]], flavour: str, when: str, added: bool) -> str:
    """The script that replaces ``members`` (``{owner: [names]}``) with ``flavour`` versions at
    ``when``, and adds the ``ADDED`` members if ``added``."""
    lines = []
    for owner, names in members.items():
        for name in names:
            if name == "*":
                lines.append(f"spoilAll({owner}, {json.dumps(owner)});")
            elif name.startswith("get "):
                lines.append(f"spoilGet({owner}, {json.dumps(owner)}, {json.dumps(name[4:])});")
            elif name.startswith("["):
                lines.append(f"spoil({owner}, {json.dumps(owner)}, {name[1:-1]});")
            else:
                lines.append(f"spoil({owner}, {json.dumps(owner)}, {json.dumps(name)});")
    if added:
        for owner, names in ADDED.items():
            lines.extend(f"add({owner}, {json.dumps(owner)}, {json.dumps(n)});" for n in names)
    body = INSTALL % (FLAVOURS[flavour], "\n".join(lines))
    return "(function () {" + body + WHEN[when] + "})();"


def serve(site: Site, script: str) -> str:
    """Serve the app with ``script`` as its first script; its start URL."""
    text = (PAGES / "hostile" / "builtins.html").read_text(encoding="utf-8")
    site.html("/builtins/", text.replace("{HOSTILE}", script))
    for path, body in (("data", "fresh data"), ("news", "latest news")):
        site.handler(f"/builtins/{path}", lambda _r, b=body: Response(b, content_type="text/plain"))
    return site.url("/builtins/")


Summary = tuple[dict[str, str], set[tuple[str, str, str, str]]]


def summary(result: statecrawl.Crawl) -> Summary:
    """The states (id -> #panel text) and transitions (source, target, action, event)."""
    states = {}
    for state in result.states():
        match = PANEL.search(result.html(state["id"]))
        states[state["id"]] = match.group(1) if match else ""
    edges = {(t["source"], t["target"], t["name"], t["event"]) for t in result.transitions()}
    return states, edges


def failures(result: statecrawl.Crawl) -> list[dict[str, Any]]:
    """Every failure recorded on a state."""
    return [f for s in result.states() for f in s.get("failures", [])]


_twins: dict[str, Summary] = {}


def clean_twin(site: Site, crawl: CrawlFn, out: Path) -> Summary:
    """The clean twin's summary, crawled once per server."""
    if site.origin not in _twins:
        result = crawl(serve(site, ""), out=out, **SETTINGS)
        assert not failures(result)
        _twins[site.origin] = summary(result)
    return _twins[site.origin]


# Each row is crawled once, in one of the four combinations of flavour and time (row by row
# in turn); "all" replaces every row's builtins at once, in all four.
COMBINATIONS = [
    ("throws", "before"),
    ("garbage", "after"),
    ("throws", "after"),
    ("garbage", "before"),
]


def members_of(row: str) -> dict[str, list[str]]:
    """What a row replaces: ``{owner: [names]}``."""
    if row != "all":
        return ROWS.get(row, {})
    merged: dict[str, list[str]] = {}
    for members in ROWS.values():
        for owner, names in members.items():
            merged.setdefault(owner, []).extend(names)
    return merged


def case(row: str, flavour: str, when: str) -> Any:
    """One crawl of the table."""
    return pytest.param(row, flavour, when, id=f"{row}-{flavour}-{when}")


CASES = [
    *(case(row, *COMBINATIONS[i % 4]) for i, row in enumerate([*ROWS, "added"])),
    *(case("all", flavour, when) for flavour, when in COMBINATIONS),
]


@pytest.mark.parametrize(("row", "flavour", "when"), CASES)
def test_replaced_builtins(
    row: str, flavour: str, when: str, site: Site, crawl: CrawlFn, tmp_path: Path
) -> None:
    """The crawl gives the clean twin's states and transitions, and records no failure."""
    states, edges = clean_twin(site, crawl, tmp_path / "twin")
    added = row in ("added", "all")
    url = serve(site, hostile_script(members_of(row), flavour, when, added=added))
    result = crawl(url, out=tmp_path / "hostile", **SETTINGS)
    assert not failures(result), failures(result)
    got_states, got_edges = summary(result)
    assert got_states == states
    assert got_edges == edges
