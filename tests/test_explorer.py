"""The explorer against real pages in a real headless Chromium."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from werkzeug import Request, Response

import statecrawl
from statecrawl.browser import Browser
from statecrawl.config import Config
from statecrawl.engine import Explorer
from statecrawl.models.dom import visible_text
from statecrawl.state import Action, Snapshot
from statecrawl.testing import difference
from tests.conftest import PAGES, Site, labels

CLAIMS = re.compile(r"CLAIMS (US\d+)")


def test_tabs_every_tab_once(site: Site, crawl) -> None:
    site.page("/", "tabs.html")
    result = crawl(site.url("/"))
    assert len(result) == 4
    assert labels(result, r'aria-selected="true"[^>]*>([^<]+)') == {
        "Overview", "Specifications", "Reviews", "Support"
    }
    assert result.stats["transitions"] >= 12  # every tab fired in every state


def test_an_opened_section_is_closed_by_its_header_before_the_crawl_moves_on(
    site: Site, tmp_path
) -> None:
    """Each question's header is fired again in the state it opened (it closes the answer),
    before Help, which comes first in the page but leads to a dialog where no work of the
    start's depth waits: the start's four sections cost no reset."""
    site.page("/", "accordion.html")
    fired: list[tuple[str, str]] = []

    class Recording(Browser):
        def fire(self, action: Action, light: bool = False) -> Snapshot:
            fired.append((action.label, action.status.rsplit(",", 1)[-1]))
            return super().fire(action, light)

    config = Config.from_mapping({
        "start_urls": [site.url("/")], "out": tmp_path / "out", "archive": {"enabled": False},
        "limits": {"max_depth": 2},
    })  # fmt: skip
    explorer = Explorer(config, browser_factory=lambda c, net: Recording(c, capture_network=net))
    result = explorer.run()
    for n in range(1, 5):
        opening = fired.index((f"Question {n}", "expanded=false"))
        assert fired[opening + 1] == (f"Question {n}", "expanded=true")
    assert len(result) == 1 + 5 + 4 + 6  # the start, 5 at depth 1, 4 with Help, 6 pairs open
    assert result.stats["plugin_failures"] == 0


def test_on_attributes_and_properties(site: Site, crawl) -> None:
    site.page("/", "onattr.html")
    result = crawl(site.url("/"), max_depth=1)
    assert len(result) == 6
    events = {t["event"] for t in result.transitions()}
    assert events == {"click"}


def test_delegated_body_listener(site: Site, crawl) -> None:
    site.page("/", "delegated.html")
    result = crawl(site.url("/"))
    assert len(result) == 8
    actions = {t["action"].split(":")[0] for t in result.transitions()}
    assert "delegated" in actions


def test_hover_revealed_controls(site: Site, crawl, tmp_path) -> None:
    site.page("/", "hover.html")
    assert len(crawl(site.url("/"), max_depth=1)) == 8
    # The rows' buttons say "Delete": explored like any other action here (no dangerous list).
    result = crawl(site.url("/"), max_depth=2, out=tmp_path / "deeper", dangerous=[])
    assert len(result) == 23
    assert any(t.get("hover") for t in result.transitions())
    kept = crawl(site.url("/"), max_depth=2, out=tmp_path / "careful")
    after = [s["id"] for s in kept.states() if s.get("after_dangerous")]
    assert after and len(kept) < 23  # what follows a deletion is kept, not explored
    assert all(kept.graph.out_degree(s) == 0 for s in after)


def test_a_hover_action_leaves_the_mouse_over_nothing(site: Site) -> None:
    """Deleting the first row (fired with the mouse over it) brings the second row under
    where the mouse was: the state that follows offers its "Delete" as a load of that state
    would, revealed by hovering its row, never as plainly visible (a state's actions must
    not depend on where the way to it left the pointer)."""
    site.page("/", "hover.html")
    url = site.url("/")
    with Browser(statecrawl.Config(start_urls=(url,))) as browser:
        browser.start()
        start = browser.load(url)
        deletes = [Action.from_candidate(c) for c in start.candidates
                   if c["label"].startswith("Delete")]
        assert [a.status for a in deletes] == ["hover-visible,enabled"] * 3
        after = browser.fire(deletes[0])
    assert after.frames  # the deletion's mutations, recorded by the fire
    assert [(c["label"], c["status"], c["hover"]) for c in after.candidates
            if c["label"].startswith("Delete")] == [
        ("Delete invoice #1002", "hover-visible,enabled", "#rows > div:nth-of-type(1)"),
        ("Delete invoice #1003", "hover-visible,enabled", "#rows > div:nth-of-type(2)"),
    ]


TOOLTIPS = """<!DOCTYPE html><title>Tips</title><style>.tip { position: absolute }</style>
<button id="save">Save</button> <button id="share">Share</button>
<button id="more" onclick="panel.hidden = !panel.hidden">More</button>
<p id="panel" hidden>More settings.</p>
<script>
for (const button of [save, share]) {  // a kit's tooltip: shown on mouseover, gone on leave
  button.addEventListener("mouseover", () => {
    if (document.getElementById("tip-" + button.id)) return;
    const tip = document.createElement("div");
    tip.id = "tip-" + button.id; tip.className = "tip"; tip.textContent = button.id + " it";
    document.body.append(tip);
  });
  button.addEventListener("mouseleave", () => document.getElementById("tip-" + button.id).remove());
}
</script>"""


def test_the_next_action_leaves_what_a_mouseover_action_hovered(
    site: Site, crawl: Callable[..., statecrawl.Crawl], tmp_path: Path
) -> None:
    """A tooltip opened by a mouseover action shows in the state that follows, and goes as
    the next action moves the pointer on, as a real pointer's leaving does: no state shows
    two tooltips, or a tooltip beside what another control did. The default crawl records
    the exhaustive one's graph with nothing verified: "mouseover Save" led to one state from
    every state without the panel, which tells nothing of the state with it."""
    site.html("/", TOOLTIPS)
    results = {
        name: crawl(site.url("/"), out=tmp_path / name, max_depth=3,
                    explore={"shortcuts": shortcuts, "verify": 0})
        for name, shortcuts in (("default", True), ("exhaustive", False))
    }  # fmt: skip
    result = results["default"]
    texts = {s["id"]: visible_text(result.html(s["id"])) for s in result.states()}
    shown = {(text.count(" it"), "More settings." in text) for text in texts.values()}
    assert shown == {(0, False), (1, False), (0, True), (1, True)}, texts
    assert len(result) == 6  # the start, each tip, the panel, the panel with each tip
    more = [t for s, t, d in result.graph.edges(data=True)
            if " it" in texts[s] and d["name"] == '#more "More"']  # fmt: skip
    assert len(more) == 4 and all(" it" not in texts[t] for t in more)
    assert difference(results["exhaustive"], result) is None


def test_a_navigation_started_by_the_mouse_leaving_is_followed(site: Site) -> None:
    """A card that sends the page elsewhere when the pointer leaves it ("exit intent"):
    parking the mouse after its hover-revealed button was fired starts a navigation, and
    the state that follows is the page it leads to, with its candidates, and the action is
    known to navigate (whether the snapshot after parking meets the old document leaving or
    the new one, a race)."""
    site.html("/", """<!DOCTYPE html><style>.card button { visibility: hidden }
      .card:hover button { visibility: visible }</style>
      <div class="card" style="padding: 2em">Offer <button id="more">More</button>
      <p id="out"></p></div><script>
      more.addEventListener("click", () => { out.textContent = "Details of the offer"; });
      document.querySelector(".card").addEventListener("mouseleave", () => {
        location.href = "/left";
      });</script>""")
    site.html("/left", "<!DOCTYPE html><p>Leaving so soon?</p><button>Stay</button>")
    url = site.url("/")
    with Browser(statecrawl.Config(start_urls=(url,))) as browser:
        browser.start()
        more = next(Action.from_candidate(c) for c in browser.load(url).candidates
                    if c["label"] == "More")
        assert more.hover
        after = browser.fire(more)
    assert after.url == after.navigated == site.url("/left")
    assert [c["label"] for c in after.candidates] == ["Stay"]


def test_pushstate_router_states_have_urls(site: Site, crawl) -> None:
    site.page("/router/", "router.html")
    for route in "abc":
        site.page(f"/router/{route}", "router.html")
    for name, payload in json.loads((PAGES / "router_api.json").read_text()).items():
        site.json(f"/router/api/{name}", payload)
    result = crawl(site.url("/router/"))
    assert {s["url"] for s in result.states()} == {
        site.url(p) for p in ("/router/", "/router/a", "/router/b", "/router/c")
    }


def test_volatile_clock_and_nonce_make_no_states(site: Site, crawl) -> None:
    site.page("/", "clock.html")
    result = crawl(site.url("/"))
    assert len(result) == 3
    volatile = set(result.graph.graph["volatile"])
    assert {"#clock|content", "#main|@data-nonce"} <= volatile


def test_infinite_scroll(site: Site, crawl) -> None:
    site.page("/", "scroll.html")
    result = crawl(site.url("/"))
    assert len(result) == 3
    assert {t["event"] for t in result.transitions()} == {"scroll"}


def test_links_in_scope_followed_once_and_outside_never_requested(
    site: Site, other_site: Site, crawl
) -> None:
    site.page("/links/", "links.html", OTHER=other_site.origin)
    site.page("/links/one", "links_one.html")
    site.page("/links/two", "links_two.html")
    other_site.html("/outside", "<p>outside</p>")
    result = crawl(site.url("/links/"))
    assert len(result) == 3
    assert other_site.requests == []
    external = [n for n, kind in result.graph.nodes(data="kind") if kind == "external"]
    assert [result.graph.nodes[n]["url"] for n in external] == [other_site.url("/outside")]
    assert site.requests.count("/links/one") == 1  # a link is loaded once, not once per state


def test_exclude_pattern_keeps_a_link_out(site: Site, crawl) -> None:
    site.page("/links/", "links.html", OTHER="http://127.0.0.1:9")
    site.page("/links/one", "links_one.html")
    site.page("/links/two", "links_two.html")
    result = crawl(site.url("/links/"), scope={"exclude": ["/two$"]})
    assert len(result) == 2
    assert "/links/two" not in site.requests


def test_tree_depth_limit_and_replay(site: Site, crawl) -> None:
    site.page("/", "tree.html")
    result = crawl(site.url("/"), max_depth=2)
    assert len(result) == 1 + 4 + 16
    assert max(s["depth"] for s in result.states()) == 2
    stats = result.stats
    assert stats["resets"] > 0 and stats["replayed"] > 0  # no URL per state: paths are replayed
    assert stats["unreachable"] == 0


def test_state_limit(site: Site, crawl) -> None:
    site.page("/", "tree.html")
    result = crawl(site.url("/"), max_depth=4, max_states=7)
    assert len(result) == 7
    assert result.stats["stop_reason"] == "max-states"


def test_unreproducible_state_is_marked_not_fatal(site: Site, crawl) -> None:
    counter = {"n": 0}

    def next_value(_request: Request) -> Response:
        counter["n"] += 1
        return Response(json.dumps({"n": counter["n"]}), content_type="application/json")

    site.handler("/api/next", next_value)
    site.html("/", """<!doctype html><title>c</title><button id=go>go</button><p id=v>none</p>
<button onclick="this.textContent += '!'">mark</button>
<script>
document.getElementById('go').addEventListener('click', () =>
  fetch('/api/next').then(r => r.json()).then(d => {
    document.getElementById('v').textContent = 'value ' + d.n; }));
</script>""")
    result = crawl(site.url("/"), max_depth=3)
    assert result.stats["unreachable"] >= 1
    unreachable = [s for s in result.states() if s.get("unreachable")]
    assert unreachable and all(s["depth"] >= 1 for s in unreachable)


def test_graph_json_contract(site: Site, crawl, tmp_path) -> None:
    site.page("/", "tabs.html")
    out = tmp_path / "contract"
    crawl(site.url("/"), out=out)
    data = json.loads((out / "graph.json").read_text())
    assert data["directed"] and data["multigraph"]
    graph = data["graph"]
    assert graph["start_url"] == site.url("/")
    assert {"config", "started", "finished", "stats"} <= set(graph)
    assert graph["config"]["start_urls"] == [site.url("/")]
    for node in data["nodes"]:
        assert len(node["id"]) == 16 and int(node["id"], 16) >= 0
        assert {"url", "title", "depth", "snapshot", "screenshot", "found_at"} <= set(node)
        assert node["snapshot"] == f"states/{node['id']}.html"
        assert (out / node["snapshot"]).read_text().lower().startswith("<!doctype html>")
    for edge in data["edges"]:
        assert {"key", "name", "status", "event", "action", "source", "target"} <= set(edge)
        assert len(edge["key"]) == 16
    assert (out / "graph.graphml").exists()
    again = statecrawl.load(out)
    assert again.graph.number_of_nodes() == len(data["nodes"])
    assert again.config.start_urls == (site.url("/"),)


def test_same_origin_frame_is_part_of_the_state(site: Site, other_site: Site, crawl) -> None:
    """A frame's controls are fired, its XHR awaited and its content kept in the snapshot;
    a cross-origin frame is left alone."""
    site.page("/", "frames.html", OTHER=other_site.origin)
    site.page("/panel.html", "frames_panel.html")

    def note(_r: Request) -> Response:
        return Response(json.dumps({"text": "Note from the server"}),
                        content_type="application/json")

    site.handler("/note.json", note)
    other_site.html("/foreign.html", "<button onclick=\"this.textContent='x'\">Foreign</button>")
    result = crawl(site.url("/"), max_depth=2)
    assert len(result) == 2
    fired = {t["name"] for t in result.transitions()}
    assert fired == {'#panel |> #load "Load the note"'}
    htmls = [result.html(s["id"]) for s in result.states()]
    assert sum("Note from the server" in h for h in htmls) == 1
    assert all("srcdoc=" in h and "Load the note" in h for h in htmls)
    assert result.stats["failures"] == 0


def test_novelty_reaches_the_claims_before_the_permutations_of_the_list(
    site: Site, crawl, tmp_path
) -> None:
    """Six patents listed in 12 permutations (3 sort keys, 2 orders, 2 formats), each with
    a detail whose Claims tab says what no other view says. Under the same state budget,
    breadth-first spends it on the permutations and shows no claims; the novelty strategy
    fires first the details that brought new words and shows half of them."""
    site.page("/", "facets.html")

    def claims(strategy: str) -> set[str]:
        result = crawl(site.url("/"), out=tmp_path / strategy, max_depth=3, max_states=14,
                       strategy=strategy)
        assert len(result) == 14
        return {c for s in result.states() for c in CLAIMS.findall(result.html(s["id"]))}

    assert not claims("breadth-first")
    assert len(claims("novelty")) >= 3
