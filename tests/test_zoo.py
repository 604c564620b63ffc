"""Real single-page apps: one app ("Errands", ``tests/pages/zoo/``) built in nine front-end
stacks, crawled as a new user would, with a value for its text field and depth 3.

Every stack must show every marker of the app's states (the added item, "1 errand left",
"0 errands left", "Clear done"), visibly, and all stacks must give the same states: the app
is the same, so the state graph must not depend on the framework.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from werkzeug import Request, Response

import statecrawl
from statecrawl.browser import Browser
from statecrawl.directory.label import crawl_labels, uniqueness
from statecrawl.testing import difference
from tests.conftest import Site, served

DIST = Path(__file__).parent / "pages" / "zoo" / "dist"
STACKS = ("vanilla", "jquery", "backbone", "react", "preact", "vue", "svelte", "lit",
          "shadow-closed")
MARKERS = ("buy milk", "1 errand left", "0 errands left", "Clear done")
ITEM = {"values": {"New errand": ["buy milk"]}}

# Chromium's own view of the page, closed shadow roots included (CDP pierces them): the
# visible elements whose text holds a marker.
VISIBLE = """function () {
  const r = this.getBoundingClientRect();
  return this.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })
    && r.width > 0 && r.height > 0;
}"""


def shown(browser: Browser, markers: tuple[str, ...]) -> set[str]:
    """The markers whose text is visible in the browser's page now."""
    web = browser.web
    root = web.execute_cdp_cmd("DOM.getDocument", {"depth": -1, "pierce": True})["root"]
    found: set[str] = set()
    stack: list[tuple[dict[str, Any], dict[str, Any] | None]] = [(root, None)]
    while stack:
        node, parent = stack.pop()
        text = node.get("nodeValue", "") if node.get("nodeType") == 3 else ""
        wanted = [m for m in markers if m in text and m not in found]
        if wanted and parent is not None:
            obj = web.execute_cdp_cmd("DOM.resolveNode", {"backendNodeId": parent["backendNodeId"]})
            visible = web.execute_cdp_cmd("Runtime.callFunctionOn", {
                "objectId": obj["object"]["objectId"], "functionDeclaration": VISIBLE,
                "returnByValue": True,
            })["result"].get("value")
            if visible:
                found.update(wanted)
        for child in [*node.get("children", ()), *node.get("shadowRoots", ())]:
            stack.append((child, node if node.get("nodeType") == 1 else parent))
    return found


class Shown(statecrawl.Plugin):
    """Records which markers each new state shows, looked at in the live browser."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def on_state(self, crawl: Any, event: statecrawl.StateEvent) -> None:
        assert event.browser is not None
        self.seen |= shown(event.browser, MARKERS)


def screen(html: str) -> tuple[Any, ...]:
    """What a state of the app shows: its rows (done or open, edited or not), the selected
    filter, the counter, and whether "Clear done" is offered."""
    doc = lxml.html.document_fromstring(html)
    rows = tuple(
        ("done" if "done" in li.get("class", "").split() else "open")
        + ("/edit" if li.xpath(".//input[contains(@class, 'edit')]") else "")
        for li in doc.xpath("//li[contains(concat(' ', @class, ' '), ' errand ')]")
    )
    selected = doc.xpath("//footer//a[contains(@class, 'selected')]/text()")
    count = doc.xpath("//span[contains(@class, 'count')]/text()")
    clear = bool(doc.xpath("//button[contains(@class, 'clear')]"))
    return rows, tuple(selected), tuple(count), clear


def static(request: Request) -> Response:
    path = (DIST / request.path.lstrip("/")).resolve()
    if path.is_dir():
        path = path / "index.html"
    if DIST.resolve() not in path.parents or not path.is_file():
        return Response("not found", status=404)
    kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return Response(path.read_bytes(), content_type=kind)


@pytest.fixture(scope="module")
def zoo() -> Iterator[Site]:
    """The built zoo apps at /<stack>/ on a loopback server of their own."""
    for site in served("127.0.0.1"):
        site.prefix("/", static)
        yield site


@pytest.fixture(scope="module")
def crawls(zoo: Site, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Each stack crawled once: (result, markers shown)."""
    out = {}
    for stack in STACKS:
        plugin = Shown()
        config = statecrawl.Config.from_mapping({
            "start_urls": [zoo.url(f"/{stack}/")], "out": tmp_path_factory.mktemp(stack),
            "limits": {"max_depth": 3}, "inputs": ITEM, "archive": {"enabled": False},
        })
        result = statecrawl.crawl(config=config, plugins=[plugin])
        out[stack] = (result, plugin.seen)
    return out


@pytest.mark.parametrize("stack", STACKS)
def test_every_marker_is_shown(crawls: dict[str, Any], stack: str) -> None:
    result, seen = crawls[stack]
    assert set(MARKERS) <= seen, f"{stack}: never showed {sorted(set(MARKERS) - seen)}"
    assert result.stats["unreachable"] == 0
    assert result.stats["failures"] == 0


def test_every_stack_gives_the_same_states(crawls: dict[str, Any]) -> None:
    screens = {
        stack: sorted(screen(result.html(s["id"])) for s in result.states())
        for stack, (result, _) in crawls.items()
    }
    reference = screens["vanilla"]
    # Add (twice), tick, edit, the three filters and remove, one to three levels deep.
    assert len(reference) == len(set(reference)) == 18
    for stack, found in screens.items():
        assert found == reference, f"{stack} differs from vanilla: {set(found) ^ set(reference)}"


def test_labels_tell_the_states_apart(crawls: dict[str, Any]) -> None:
    for stack, (result, _) in crawls.items():
        labels = crawl_labels(result.graph, result.path)
        assert uniqueness(labels) >= 0.95, f"{stack}: {sorted(labels.values())}"
        assert dict(statecrawl.load(result.path).graph.nodes(data="label")) == labels  # stored
        starts = [labels[s["id"]] for s in result.states() if s.get("depth") == 0]
        # the title, less the stack's name all states share
        assert starts == ["Errands"], (stack, [(s["id"], s.get("depth")) for s in result.states()])
        assert {'enter "buy milk" · 1 errand left', '"Done" · #/done'} <= set(labels.values())


def test_shadow_content_is_in_the_snapshot(crawls: dict[str, Any]) -> None:
    for stack in ("lit", "shadow-closed"):
        result, _ = crawls[stack]
        html = "".join(result.html(s["id"]) for s in result.states())
        assert 'shadowrootmode="' + ("open" if stack == "lit" else "closed") in html
        assert "0 errands left" in html


def test_ids_do_not_depend_on_the_browser_count(zoo: Site, crawl: Any, tmp_path: Path) -> None:
    runs = [
        crawl(zoo.url("/react/"), out=tmp_path / f"browsers-{count}", max_depth=3, inputs=ITEM,
              browser={"count": count})
        for count in (1, 3)
    ]
    one, three = ({s["id"] for s in r.states()} for r in runs)
    assert one == three
    assert len(one) == 18


@pytest.mark.parametrize(
    ("stack", "strategy"),
    [("react", "breadth-first"), ("vue", "breadth-first"), ("vanilla", "coverage"),
     ("vanilla", "depth-first")],
)
def test_the_crawl_with_shortcuts_is_the_exhaustive_one(
    zoo: Site, request: pytest.FixtureRequest, stack: str, strategy: str, tmp_path: Path
) -> None:
    """The shortcuts (inference, going on from where the browser is, own URLs) give the
    graph of the crawl that takes none, on apps built with real frameworks, in the default
    order (breadth-first: the crawls of :func:`crawls`) and in the coverage strategy's,
    where "Remove" was fired in three lists of one row before a list of two identical rows.
    Depth-first reaches the open list of one row right after a "Remove" (fired with the mouse
    over its row) took a row from under the mouse: the row that took its place must not
    show its hover-revealed "Remove" as plainly visible (nor lend it to the new-errand
    field as its button)."""
    def run(name: str, **settings: Any) -> statecrawl.Crawl:
        config = statecrawl.Config.from_mapping({
            "start_urls": [zoo.url(f"/{stack}/")], "out": tmp_path / name,
            "limits": {"max_depth": 3}, "inputs": ITEM, "archive": {"enabled": False},
            **settings,
        })
        return statecrawl.crawl(config=config)

    reference = run("exhaustive", explore={"shortcuts": False})
    other = (
        request.getfixturevalue("crawls")[stack][0] if strategy == "breadth-first"
        else run(strategy, strategy=strategy, browser={"coverage": True}) if strategy == "coverage"
        else run(strategy, strategy=strategy)
    )
    why = difference(reference, other)
    assert why is None, f"{stack}, strategy {strategy}: {why}"
