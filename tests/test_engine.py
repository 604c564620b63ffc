"""The crawl engine without Chromium: scripted applications played by a FakeBrowser.

Planning (breadth-first order, resets and replays), volatility learning and merging,
inference, the dangerous-action policy, limits, failures and resume bookkeeping, each with
the exact figures the scripted application implies.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from statecrawl.config import Config
from statecrawl.directory.crawl import Crawl
from statecrawl.engine import Explorer
from statecrawl.engine.policy import Inference
from statecrawl.engine.politeness import host_of
from statecrawl.engine.resume import Saver
from statecrawl.errors import PageTimeout
from statecrawl.models import DomModel
from statecrawl.state import Action, Snapshot
from statecrawl.store import Changes, SqliteStore, open_store
from statecrawl.store.sqlite import _json
from statecrawl.testing import FakeApp, FakeBrowser, tree

CLOCK = "#clock|content"


def explorer(
    app: FakeApp, out: Path, fake: type[FakeBrowser] = FakeBrowser, **settings: Any
) -> Explorer:
    """An explorer of ``app`` writing to ``out``, without an archive, in browsers of class
    ``fake``."""
    config = Config.from_mapping(
        {"start_urls": [app.url("/")], "out": out, "archive": {"enabled": False}, **settings}
    )
    return Explorer(config, browser_factory=lambda c, _network: fake(app, c))


def explore(app: FakeApp, out: Path, **settings: Any) -> Crawl:
    return explorer(app, out, **settings).run()


def shown(html: str) -> str:
    """The name of the scripted state a DOM shows."""
    match = re.search(r'data-state="([^"]+)"', html)
    assert match is not None
    return match.group(1)


def names(result: Crawl) -> dict[str, str]:
    """State id -> the name of the scripted state it is."""
    return {state["id"]: shown(result.html(state["id"])) for state in result.states()}


def edges(result: Crawl) -> set[tuple[str, str, str]]:
    """Transitions as (source name, action label, target name)."""
    name = names(result)
    return {
        (name[t["source"]], json_label(t["name"]), name.get(t["target"], t["target"]))
        for t in result.transitions()
    }


def json_label(action_name: str) -> str:
    """The label in an action's name (``'<locator> "<label>"'``)."""
    return action_name.split(" ", 1)[1].strip('"')


def graph(result: Crawl) -> tuple[set[str], set[tuple[str, str, str]]]:
    """The state ids and the (source, target, action key) transitions of a crawl."""
    ids = {s["id"] for s in result.states()}
    return ids, {(t["source"], t["target"], t["key"]) for t in result.transitions()}


# ---- planning --------------------------------------------------------------------------------
def test_breadth_first_to_the_depth_limit(tmp_path: Path) -> None:
    app = tree(3, 2)
    result = explore(app, tmp_path / "out", limits={"max_depth": 2})
    assert sorted(names(result).values()) == ["0", "0.0", "0.1", "1", "1.0", "1.1", "root"]
    assert {s["depth"] for s in result.states() if names(result)[s["id"]] == "root"} == {0}
    assert max(s["depth"] for s in result.states()) == 2
    assert edges(result) == {
        ("root", "child 0", "0"), ("root", "child 1", "1"),
        ("0", "child 0", "0.0"), ("0", "child 1", "0.1"),
        ("1", "child 0", "1.0"), ("1", "child 1", "1.1"),
    }  # fmt: skip
    assert result.stats["transitions"] == 6
    assert result.stats["stop_reason"] == "finished"
    assert not any(name.count(".") == 2 for name, _ in app.fired())  # depth 3: never fired from


def test_a_state_without_url_is_reached_by_replaying_its_path(tmp_path: Path) -> None:
    """The browser goes on from the state it shows while breadth-first allows; otherwise it
    reloads the start URL and replays the shortest path (one action here)."""
    app = tree(2, 2)
    result = explore(app, tmp_path / "out", limits={"max_depth": 2})
    assert len(result) == 7
    assert app.fired() == [
        ("root", "child 0"), ("0", "child 0"), ("root", "child 1"), ("1", "child 0"),
        ("0", "child 1"), ("1", "child 1"),
    ]  # fmt: skip
    assert app.fired("replay") == [("root", "child 0"), ("root", "child 1")]
    assert len(app.loaded()) == 2 + 3  # two loads to seed, then three resets
    stats = result.stats
    assert (stats["resets"], stats["replayed"], stats["unreachable"]) == (3, 2, 0)


def test_a_state_at_the_depth_limit_is_left_by_an_action_inference_knows(tmp_path: Path) -> None:
    """Nothing is fired in a state at the depth limit, so no known transition leads out of
    it and the next work used to need a reset. Its "Home", known by inference to lead to the
    root wherever it is fired, is a way out: no reset after the start page's two loads (8
    before), nothing recorded for it, and the exhaustive crawl's graph."""
    app = tree(3, 3, home=True)
    result = explore(app, tmp_path / "out", limits={"max_depth": 2})
    assert (result.stats["resets"], len(app.loaded())) == (0, 2)
    assert ("replay", "0.1", "Home") in app.log  # a way out of a state at the limit
    assert not [s for s, label in app.fired() if s.count(".") == 1]  # none fired there
    exhaustive = explore(
        tree(3, 3, home=True), tmp_path / "exhaustive", limits={"max_depth": 2},
        explore={"shortcuts": False},
    )
    assert graph(result) == graph(exhaustive)


def test_a_toggle_is_fired_back_before_the_state_it_opened_leaves(tmp_path: Path) -> None:
    """An FAQ: Help opens a dialog, each question's header opens its answer and closes it
    again. A state a header opened fires that header first (it leads back to where work
    waits), not Help (a dialog, where none does): one reset where document order takes
    three, and the same graph."""
    app = FakeApp()
    for name in ("none", "q1", "q2", "help", "q1 help", "q2 help", "q1 q2"):
        app.state(name)
    closed, opened = "visible,enabled,expanded=false", "visible,enabled,expanded=true"
    for source, shown_by_help in (("none", "help"), ("q1", "q1 help"), ("q2", "q2 help")):
        app.action(source, "Help", shown_by_help)
        app.action(shown_by_help, "Close", source)
    app.action("none", "Question 1", "q1", status=closed)
    app.action("none", "Question 2", "q2", status=closed)
    app.action("q1", "Question 1", "none", status=opened)
    app.action("q1", "Question 2", "q1 q2", status=closed)
    app.action("q2", "Question 1", "q1 q2", status=closed)
    app.action("q2", "Question 2", "none", status=opened)
    result = explore(app, tmp_path / "out", limits={"max_depth": 3})
    assert app.fired()[:6] == [
        ("none", "Help"), ("help", "Close"), ("none", "Question 1"), ("q1", "Question 1"),
        ("none", "Question 2"), ("q2", "Question 2"),
    ]  # fmt: skip
    assert len(result) == 7 and result.stats["transitions"] == 12
    assert (result.stats["resets"], result.stats["replayed"]) == (1, 2)


def test_a_state_whose_path_is_gone_is_unreachable_not_fatal(tmp_path: Path) -> None:
    """A one-time offer in a menu: its button is gone once taken, so the replay of the way
    to the offer fails (from where the browser is, then from the start URL; and both once
    more later, before the offer counts as unreachable)."""
    app = FakeApp()
    for name in ("home", "menu", "offer", "accepted", "declined"):
        app.state(name, "/")
    app.action("home", "Menu", "menu")
    app.action("menu", "Offer", "offer", once=True)
    app.action("offer", "Accept", "accepted")
    app.action("offer", "Decline", "declined")
    result = explore(app, tmp_path / "out")
    assert sorted(names(result).values()) == ["accepted", "home", "menu", "offer"]
    assert result.stats["unreachable"] == 1
    assert result.stats["failures"] == 0
    (offer,) = (s for s in result.states() if names(result)[s["id"]] == "offer")
    assert offer["unreachable"] is True
    assert offer["unreachable_reason"] == "replay failed: not-found: the element is gone"
    assert app.fired("replay") == [("home", "Menu")] * 4
    assert ("offer", "Decline") not in app.fired()


def test_a_state_missed_once_by_a_replay_is_tried_again(tmp_path: Path) -> None:
    """The first replays of the way to a state lead elsewhere (a page too slow under load):
    the state's work goes back to the frontier, and the next attempt reaches it."""
    app = FakeApp()
    for name in ("home", "list", "row", "done"):
        app.state(name, "/")
    app.action("home", "Add", "list", misses=2)
    app.action("list", "Tick", "row")
    app.action("list", "Edit", "done")
    result = explore(app, tmp_path / "out")
    assert sorted(names(result).values()) == ["done", "home", "list", "row"]
    assert result.stats["unreachable"] == 0
    assert app.fired().count(("list", "Edit")) == 1


def test_several_browsers_find_the_same_graph(tmp_path: Path) -> None:
    one = explore(tree(2, 3), tmp_path / "one", limits={"max_depth": 2})
    app = tree(2, 3)
    two = explore(app, tmp_path / "two", limits={"max_depth": 2}, browser={"count": 2})
    assert len(app.browsers) == 2
    assert len(one) == 13
    assert graph(two) == graph(one)


def news_app() -> FakeApp:
    """A home page linking to ``/news`` and ``/latest``, which load one page with a clock."""
    app = FakeApp()
    app.state("home", "/")
    app.state("news", "/news", clock=True)
    app.load("/latest", "news")
    app.state("more", "/news", clock=True)
    app.state("less", "/news", clock=True)
    app.link("home", "News", "/news")
    app.link("home", "Latest", "/latest")
    app.action("news", "More", "more")
    app.action("news", "Less", "less")
    return app


# ---- volatility ------------------------------------------------------------------------------
def test_a_clock_learned_from_two_loads_merges_states_and_rekeys_them(tmp_path: Path) -> None:
    """``/news`` and ``/latest`` show one page with a clock that differs with every load:
    two states until a second load of ``/news`` shows the clock is volatile; then they are
    one, named by the key with the clock masked."""
    app = news_app()
    result = explore(app, tmp_path / "out")

    assert result.graph.graph["volatile"] == [CLOCK]
    assert sorted(names(result).values()) == ["home", "less", "more", "news"]
    assert result.stats["states"] == 4
    # /latest's page fired More before the merge; its Less was dropped with it.
    assert app.fired() == [("news", "More"), ("news", "More"), ("news", "Less")]
    by_name = {name: sid for sid, name in names(result).items()}
    news = result.state(by_name["news"])
    assert len(news.attrs["aliases"]) == 2  # /news's and /latest's ids before the merge
    assert edges(result) == {
        ("home", "News", "news"), ("home", "Latest", "news"),
        ("news", "More", "more"), ("news", "Less", "less"),
    }  # fmt: skip
    model = DomModel()
    for name in ("news", "more", "less"):  # keys with the clock masked, whatever the order
        sid = by_name[name]
        html = result.html(sid)
        assert sid == model.key(Snapshot(url="", title="", html=html), frozenset({CLOCK}))
        assert sid != model.key(Snapshot(url="", title="", html=html), frozenset())
    assert app.loaded().count(app.url("/news")) == 2


def test_ids_generated_per_render_are_learned_on_a_replay(tmp_path: Path) -> None:
    app = FakeApp()
    app.state("home", "/")
    app.state("list", "/", generated=True)
    app.state("detail", "/")
    app.action("home", "List", "list")
    app.action("list", "Open", "detail")
    app.action("list", "Close", "home")
    result = explore(app, tmp_path / "out")
    assert sorted(names(result).values()) == ["detail", "home", "list"]
    assert result.graph.graph["volatile"] == ["#app/ul/li|@data-id"]
    assert result.stats["unreachable"] == 0
    assert app.fired("replay") == [("home", "List")]
    assert ("list", "Close", "home") in edges(result)


# ---- inference and policies ------------------------------------------------------------------
def pages_with_search() -> FakeApp:
    """Four pages at their own URLs, each with the same search button leading to one state."""
    app = FakeApp()
    app.state("home", "/")
    app.state("search", "/search")
    for n in range(1, 5):
        app.state(f"p{n}", f"/p{n}")
        app.link("home", f"Page {n}", f"/p{n}")
        app.action(f"p{n}", "Search", "search")
    return app


def test_same_effect_after_records_without_firing(tmp_path: Path) -> None:
    app = pages_with_search()
    result = explore(app, tmp_path / "out", limits={"same_effect_after": 2})
    assert [pair for pair in app.fired() if pair[1] == "Search"] == [
        ("p1", "Search"), ("p2", "Search"),
    ]  # fmt: skip
    assert result.stats["inferred"] == 2
    assert result.stats["transitions"] == 4 + 2  # four links, two searches fired
    inferred = {(t["source"], t["target"]) for t in result.transitions() if t.get("inferred")}
    name = names(result)
    assert {(name[s], name[t]) for s, t in inferred} == {("p3", "search"), ("p4", "search")}


def test_without_same_effect_every_action_is_fired(tmp_path: Path) -> None:
    app = pages_with_search()
    result = explore(app, tmp_path / "out", limits={"same_effect_after": None})
    assert len([pair for pair in app.fired() if pair[1] == "Search"]) == 4
    assert result.stats["inferred"] == 0


def logout_app() -> FakeApp:
    app = FakeApp()
    app.state("home", "/")
    app.state("panel", "/")
    app.state("bye", "/bye")
    app.action("home", "Log out", "bye", navigates=True)
    app.action("home", "Open", "panel")
    app.action("bye", "Log in", "home")
    return app


def test_dangerous_actions_go_last_and_what_follows_is_not_explored(tmp_path: Path) -> None:
    app = logout_app()
    result = explore(app, tmp_path / "out")
    assert app.fired() == [("home", "Open"), ("home", "Log out")]
    by_name = {name: sid for sid, name in names(result).items()}
    assert sorted(by_name) == ["bye", "home", "panel"]
    bye = result.state(by_name["bye"])
    assert bye.attrs["after_dangerous"] is True
    assert bye.out_actions == []
    (logout,) = (t for t in result.transitions() if t["target"] == by_name["bye"])
    assert logout["navigated"] == app.url("/bye")


def test_dangerous_actions_skipped(tmp_path: Path) -> None:
    app = logout_app()
    result = explore(app, tmp_path / "out", dangerous_policy="skip")
    assert app.fired() == [("home", "Open")]
    assert sorted(names(result).values()) == ["home", "panel"]


# ---- limits ----------------------------------------------------------------------------------
def test_max_states(tmp_path: Path) -> None:
    app = tree(3, 2)
    result = explore(app, tmp_path / "out", limits={"max_states": 3})
    assert sorted(names(result).values()) == ["0", "0.0", "root"]
    assert result.stats["stop_reason"] == "max-states"
    assert len(app.fired()) == 2


def test_max_states_per_url(tmp_path: Path) -> None:
    app = FakeApp()
    app.state("home", "/")
    for name in "abc":
        app.state(name, "/")
        app.action("home", name.upper(), name)
    app.state("other", "/other")
    app.link("home", "Other", "/other")
    result = explore(app, tmp_path / "out", limits={"max_states_per_url": 2})
    assert sorted(names(result).values()) == ["a", "home", "other"]
    assert result.stats["capped"] == 2  # b and c: a third state at /
    assert result.stats["stop_reason"] == "finished"


def test_links_out_of_scope_are_recorded_never_loaded(tmp_path: Path) -> None:
    app = FakeApp()
    app.state("home", "/")
    app.link("home", "Elsewhere", "http://127.0.0.2:9/elsewhere")
    result = explore(app, tmp_path / "out")
    assert len(result) == 1
    assert result.stats["out_of_scope"] == 1
    external = [n for n, kind in result.graph.nodes(data="kind") if kind == "external"]
    assert [result.graph.nodes[n]["url"] for n in external] == ["http://127.0.0.2:9/elsewhere"]
    assert app.loaded() == [app.url("/")] * 2


# ---- many sites ------------------------------------------------------------------------------
SITE_A, SITE_B, SITE_C = "http://127.0.0.2:4", "http://127.0.0.3:4", "http://127.0.0.4:4"


def grow(app: FakeApp, origin: str, name: str, depth: int, branching: int) -> None:
    """A tree of script states at ``origin/``, rooted at state ``name``: children ``name.K``."""
    app.state(name, origin + "/")
    level = [name]
    for _ in range(depth):
        level_below = []
        for parent in level:
            for k in range(branching):
                child = f"{parent}.{k}"
                app.state(child, origin + "/")
                app.action(parent, f"{parent} child {k}", child)
                level_below.append(child)
        level = level_below


def two_sites(depth_a: int = 2, depth_b: int = 2) -> FakeApp:
    """Site a (a tree of branching 3) and site b (branching 2), at two hosts."""
    app = FakeApp(SITE_A)
    grow(app, SITE_A, "a", depth_a, 3)
    grow(app, SITE_B, "b", depth_b, 2)
    return app


def test_the_frontier_serves_sites_in_turns(tmp_path: Path) -> None:
    """One browser: while both sites have work, each round fires one action of each (a
    single breadth-first frontier fired all of a's first level before b's); the site the
    browser is on goes first in a round, sparing a reset."""
    app = two_sites()
    result = explore(app, tmp_path / "out", start_urls=[SITE_A + "/", SITE_B + "/"])
    assert len(result) == 13 + 7
    sites = [state[0] for state, _label in app.fired()]
    assert sites[:12] == ["b", "a", "a", "b"] * 3  # b's 6 actions in the first 6 rounds
    assert sites[12:] == ["a"] * 6


def test_max_states_counts_per_site(tmp_path: Path) -> None:
    app = two_sites()
    result = explore(
        app, tmp_path / "out", start_urls=[SITE_A + "/", SITE_B + "/"], limits={"max_states": 4}
    )
    per_site = Counter(name[0] for name in names(result).values())
    assert per_site == {"a": 4, "b": 4}
    assert result.stats["stop_reason"] == "max-states"


def test_a_site_at_its_limit_leaves_the_others_going(tmp_path: Path) -> None:
    app = two_sites(depth_a=1, depth_b=3)
    result = explore(
        app, tmp_path / "out", start_urls=[SITE_A + "/", SITE_B + "/"], limits={"max_states": 6}
    )
    per_site = Counter(name[0] for name in names(result).values())
    assert per_site == {"a": 4, "b": 6}  # a is whole with 4
    assert result.stats["stop_reason"] == "finished"  # not every site reached the limit


def test_a_cross_link_to_another_start_site_is_that_sites_and_to_others_out_of_scope(
    tmp_path: Path,
) -> None:
    app = FakeApp(SITE_A)
    app.state("a", SITE_A + "/")
    app.state("b", SITE_B + "/")
    app.state("b-page", SITE_B + "/page")
    app.link("a", "To b", SITE_B + "/page")
    app.link("a", "To c", SITE_C + "/")
    result = explore(
        app, tmp_path / "out", start_urls=[SITE_A + "/", SITE_B + "/"], limits={"max_states": 2}
    )
    assert sorted(names(result).values()) == ["a", "b", "b-page"]  # b-page counts for b
    assert ("a", "To b", "b-page") in edges(result)
    external = [n for n, kind in result.graph.nodes(data="kind") if kind == "external"]
    assert [result.graph.nodes[n]["url"] for n in external] == [SITE_C + "/"]


class Counting(FakeBrowser):
    """A fake browser whose every page load or action takes a few milliseconds, counting the
    browsers at work on each host at once (``peak``)."""

    lock = threading.Lock()
    busy: ClassVar[Counter[str]] = Counter()
    peak: ClassVar[Counter[str]] = Counter()

    def _at(self, url: str) -> Iterator[None]:
        host = host_of(url)
        with self.lock:
            self.busy[host] += 1
            self.peak[host] = max(self.peak[host], self.busy[host])
        try:
            time.sleep(0.003)
            yield
        finally:
            with self.lock:
                self.busy[host] -= 1

    def load(self, url: str, light: bool = False) -> Snapshot:
        with contextlib.contextmanager(self._at)(url):
            return super().load(url, light)

    def fire(self, action: Action, light: bool = False) -> Snapshot:
        with contextlib.contextmanager(self._at)(self.url()):
            return super().fire(action, light)

    def replay(self, actions: list[Action]) -> list[Snapshot]:
        with contextlib.contextmanager(self._at)(self.url()):
            return super().replay(actions)


def test_no_host_has_more_browsers_than_politeness_allows(tmp_path: Path) -> None:
    Counting.busy.clear()
    Counting.peak.clear()
    app = two_sites()
    result = explorer(
        app, tmp_path / "out", Counting, start_urls=[SITE_A + "/", SITE_B + "/"],
        browser={"count": 3}, politeness={"max_browsers_per_host": 1},
    ).run()
    assert len(result) == 13 + 7
    assert Counting.peak == {"127.0.0.2": 1, "127.0.0.3": 1}


def test_min_delay_between_tasks_on_a_host(tmp_path: Path) -> None:
    app = two_sites(depth_a=1, depth_b=0)
    started = time.monotonic()
    result = explore(
        app, tmp_path / "out", start_urls=[SITE_A + "/", SITE_B + "/"],
        browser={"count": 2}, politeness={"min_delay_ms": 40},
    )
    assert len(result) == 4 + 1
    assert time.monotonic() - started >= 3 * 0.040  # a's seed, then its three actions


def refusing(times: int) -> type[FakeBrowser]:
    """A fake browser class whose loads of SITE_A/busy answer 429 the first ``times`` times,
    logging when each load of it happened (``loads``)."""

    class Refusing(FakeBrowser):
        loads: ClassVar[list[float]] = []

        def load(self, url: str, light: bool = False) -> Snapshot:
            snapshot = super().load(url, light)
            if url.endswith("/busy"):
                self.loads.append(time.monotonic())
                if len(self.loads) <= times:
                    snapshot.status = 429
            return snapshot

    return Refusing


def busy_app() -> FakeApp:
    app = FakeApp(SITE_A)
    app.state("home", "/")
    app.state("busy", "/busy")
    app.link("home", "Busy", "/busy")
    return app


def test_a_429_is_loaded_again_after_a_growing_backoff(tmp_path: Path) -> None:
    browser = refusing(2)
    result = explorer(busy_app(), tmp_path / "out", browser, politeness={"backoff_ms": 50}).run()
    assert sorted(names(result).values()) == ["busy", "home"]
    assert {s["status"] for s in result.states()} == {200}
    first, second, third = browser.loads  # type: ignore[attr-defined]
    assert second - first >= 0.050
    assert third - second >= 0.100  # the second refusal in a row: twice as long


def test_a_host_that_keeps_refusing_gives_its_answer_after_the_retries(tmp_path: Path) -> None:
    browser = refusing(100)
    result = explorer(
        busy_app(), tmp_path / "out", browser, politeness={"backoff_ms": 1, "retries": 2}
    ).run()
    busy = next(s for s in result.states() if s["url"].endswith("/busy"))
    assert busy["status"] == 429
    assert len(browser.loads) == 3  # type: ignore[attr-defined]


# ---- failures --------------------------------------------------------------------------------
def test_a_failed_action_is_a_recorded_failure(tmp_path: Path) -> None:
    app = FakeApp()
    app.state("home", "/")
    app.state("panel", "/")
    app.action("home", "Broken", "panel", fails=True)
    app.action("home", "Open", "panel")
    result = explore(app, tmp_path / "out")
    assert sorted(names(result).values()) == ["home", "panel"]
    assert result.stats["failures"] == 1
    assert result.stats["resets"] == 0  # the page is still there: no reload
    home = next(s for s in result.states() if s["depth"] == 0)
    assert [(f["name"], f["error"]) for f in home["failures"]] == [
        ('#broken "Broken"', "handler: Broken threw")
    ]


def test_a_hung_page_is_retried_once_then_recorded_and_its_browser_restarted(
    tmp_path: Path,
) -> None:
    app = FakeApp()
    app.state("home", "/")
    app.state("panel", "/")
    app.action("home", "Freeze", "panel", hangs=True)
    app.action("home", "Open", "panel")
    result = explore(app, tmp_path / "out")
    # tried once more in a new browser (a slow page may answer then), then recorded
    assert sorted(app.fired()) == [("home", "Freeze"), ("home", "Freeze"), ("home", "Open")]
    assert sorted(names(result).values()) == ["home", "panel"]
    stats = result.stats
    assert (stats["failures"], stats["restarts"]) == (1, 2)
    assert [b.restarts for b in app.browsers] == [2]
    home = next(s for s in result.states() if s["depth"] == 0)
    assert [f["error"] for f in home["failures"]] == ["the page did not answer 'fire' in time"]


def test_a_hung_link_is_recorded_once(tmp_path: Path) -> None:
    app = FakeApp()
    app.state("home", "/")
    app.state("stuck", "/stuck")
    app.link("home", "Stuck", "/stuck")
    app.link("home", "Stuck again", "/stuck")
    app.fail("/stuck", PageTimeout("loading /stuck took longer than 30s"))
    result = explore(app, tmp_path / "out")
    assert len(result) == 1
    assert result.stats["failures"] == 2
    assert result.stats["restarts"] == 1  # one hang: the second link is not loaded


# ---- resume ----------------------------------------------------------------------------------
def test_raising_max_states_and_resuming_gives_the_uninterrupted_graph(tmp_path: Path) -> None:
    reference_app = tree(3, 2)
    reference = explore(reference_app, tmp_path / "reference")
    assert len(reference) == 15

    first = tree(3, 2)
    stopped = explore(first, tmp_path / "out", limits={"max_states": 5})
    assert (len(stopped), stopped.stats["stop_reason"]) == (5, "max-states")
    second = tree(3, 2)
    resumed = explore(second, tmp_path / "out", resume=True, limits={"max_states": 100})
    assert graph(resumed) == graph(reference)
    assert resumed.stats["stop_reason"] == "finished"
    # Nothing fired twice: the two runs fired what the uninterrupted one did.
    assert sorted(first.fired() + second.fired()) == sorted(reference_app.fired())
    assert len(open_store(tmp_path / "out").runs()) == 2


def test_work_in_flight_at_a_checkpoint_is_done_again_after_resume(tmp_path: Path) -> None:
    """A checkpoint taken while ``1`` fires ``child 0`` (the last one before a kill) counts
    that work as not done: the resumed crawl does it, and only what followed."""
    app = tree(2, 2)
    killed = tmp_path / "killed.sqlite"  # the store as a kill at that moment leaves it

    class CheckpointWhileFiring(FakeBrowser):
        def fire(self, action: Action, light: bool = False) -> Snapshot:
            state = self.document.state if self.document is not None else None
            if (state, action.label) == ("1", "child 0"):
                with crawler.lock:
                    crawler.checkpoint()
                    with (
                        contextlib.closing(sqlite3.connect(out / "crawl.sqlite")) as live,
                        contextlib.closing(sqlite3.connect(killed)) as copy,
                    ):
                        live.backup(copy)
                        copy.execute("PRAGMA journal_mode=DELETE")  # one file
            return super().fire(action, light)

    out = tmp_path / "out"
    crawler = explorer(app, out, CheckpointWhileFiring, limits={"max_depth": 2})
    uninterrupted = graph(crawler.run())
    with contextlib.closing(SqliteStore(killed)) as side:
        checkpoint = side.load()
    assert checkpoint is not None
    labels = {a["label"]: key for _, key, a in checkpoint.actions}
    ids = {shown((out / "states" / f"{s.id}.html").read_text()): s.id for s in checkpoint.states}
    assert (ids["1"], labels["child 0"]) not in checkpoint.fired
    assert (ids["root"], labels["child 1"]) in checkpoint.fired
    assert len(checkpoint.fired) == 3

    for leftover in out.glob("crawl.sqlite*"):
        leftover.unlink()
    killed.rename(out / "crawl.sqlite")
    again = tree(2, 2)
    resumed = explore(again, out, resume=True, limits={"max_depth": 2})
    assert sorted(again.fired()) == [("0", "child 1"), ("1", "child 0"), ("1", "child 1")]
    assert graph(resumed) == uninterrupted


def test_a_checkpoint_writes_what_an_action_added_not_its_history(tmp_path: Path) -> None:
    """The inference evidence of an action fired in every state (a tree's "child 0") grows
    with the crawl: a checkpoint after it is fired once more writes the two states it added
    (a row each), not the states it was fired in before; and reads back whole."""
    crawler = explorer(tree(3, 6), tmp_path / "out", limits={"same_effect_after": 2})
    crawler.run()
    memory, written = crawler.memory, []
    inference = memory.inference
    key, evidence = max(inference.table.items(), key=lambda item: len(item[1].sources))
    history = len(_json(sorted(evidence.sources)))
    assert len(evidence.sources) > 40

    class Measured(SqliteStore):
        def write(self, changes: Changes) -> None:
            written.append(sum(len(_json(r)) for rows in changes.rows.values() for r in rows))
            super().write(changes)

    store = Measured(tmp_path / "out" / "crawl.sqlite")
    saver = Saver(store)
    saver.save(memory, {}, [], {})  # whole
    action = next(a for (_, k), a in memory.edge_actions.items() if k == key)
    requests = next(iter(evidence.requests))
    inference.record(action, "new", "newer", requests, None, lambda: (Counter(), Counter()))
    rows_before = store._db.total_changes
    saver.save(memory, {}, [], {})
    assert store._db.total_changes - rows_before <= 4  # two states, the figures, "saved"
    assert written[-1] < history / 4 < written[0] / 100
    checkpoint = store.load()
    assert checkpoint is not None
    again = Inference(2)
    again.load(checkpoint.effects)
    assert again.table == inference.table and again.inferred == inference.inferred
    store.close()


def test_volatility_learned_after_a_resume_from_two_loads(tmp_path: Path) -> None:
    """Stopped at 5 states, before ``/news`` was loaded a second time: the resumed crawl
    must compare that second load with the first one, as the uninterrupted crawl does."""

    def deeper() -> FakeApp:
        app = news_app()
        app.state("deep", "/news", clock=True)
        app.action("less", "Deep", "deep")
        return app

    reference = explore(deeper(), tmp_path / "reference")
    app = deeper()  # one app for both runs: its clock goes on, as time does
    stopped = explore(app, tmp_path / "out", limits={"max_states": 5})
    assert (len(reference), len(stopped)) == (5, 5)
    assert stopped.graph.graph["volatile"] == []
    resumed = explore(app, tmp_path / "out", resume=True)
    assert resumed.graph.graph["volatile"] == [CLOCK]
    assert graph(resumed) == graph(reference)


# ---- locality ---------------------------------------------------------------------------------


def catalogue(items: int) -> FakeApp:
    """A list whose items open details at ``/item/N`` (loaded directly, such a URL shows a
    page without the list's "Back" button), each with two tabs and a "Back" to the list."""
    app = FakeApp()
    app.state("list", "/")
    for n in range(items):
        app.state(f"direct {n}", f"/item/{n}")  # what a load of the URL shows
        app.state(f"item {n}", f"/item/{n}")
        app.state(f"item {n} specs", f"/item/{n}")
        app.action("list", f"Item {n}", f"item {n}", locator=f"#list > li:nth-of-type({n + 1})")
        for state in (f"item {n}", f"item {n} specs"):
            app.action(state, "Back", "list", locator="#back")
            app.action(state, "Overview", f"item {n}", locator="#tab-overview")
            app.action(state, "Specs", f"item {n} specs", locator="#tab-specs")
    return app


def test_own_urls_of_a_kind_that_show_other_states_are_not_loaded_for_them_again(
    tmp_path: Path,
) -> None:
    app = catalogue(6)
    result = explore(app, tmp_path / "out", limits={"max_depth": 3})
    found = sorted(names(result).values())
    assert found == sorted(["list", *(f"item {n}{t}" for n in range(6) for t in ("", " specs"))])
    direct = [url for url in app.loaded() if "/item/" in url]
    assert len(direct) == 2  # two tries, then the kind of URL is known to show another state
    assert result.stats["unreachable"] == 0


def test_a_browser_does_the_work_that_stays_on_a_page_before_leaving_it(tmp_path: Path) -> None:
    """Once "Back" (the first item's first work) is seen to lead to another URL, every other
    item's tabs are fired while the browser is on it, and the tabs' own states, a level
    deeper, while it is near them (by replays from the list, which "Back" leads to): the
    start page's two loads, the two tries of an item's URL, and two more of the list."""
    app = catalogue(6)
    result = explore(app, tmp_path / "out", limits={"max_depth": 3})
    fired = app.fired()
    for n in range(1, 6):
        opened = fired.index(("list", f"Item {n}"))
        tabs = [(f"item {n}", "Overview"), (f"item {n}", "Specs")]
        assert fired[opened + 1 : opened + 3] == tabs
    loads = app.loaded()
    assert len(loads) == 2 + 2 + 2
    assert loads[-1] == app.url("/")
    assert (result.stats["transitions"], result.stats["inferred"]) == (33, 9)


def test_a_crawl_whose_states_were_renamed_resumes_deeper(tmp_path: Path) -> None:
    """States named by their final key at the end of a run (the clock was learned after
    they were found) keep their place in every table: resumed with a greater depth, the
    crawl goes on from them (it raised ``KeyError`` in path planning) and finds what a crawl
    to that depth finds at once."""

    def deeper() -> FakeApp:
        app = news_app()
        app.state("deep", "/news", clock=True)
        app.state("deeper", "/news", clock=True)
        app.action("less", "Deep", "deep")
        app.action("deep", "Deeper", "deeper")
        return app

    first = explore(deeper(), tmp_path / "out", limits={"max_depth": 2})
    assert any(s.attrs.get("aliases") for s in map(first.state, (s["id"] for s in first.states())))
    resumed = explore(deeper(), tmp_path / "out", resume=True, limits={"max_depth": 4})
    assert sorted(names(resumed).values()) == ["deep", "deeper", "home", "less", "more", "news"]
    assert graph(resumed) == graph(explore(deeper(), tmp_path / "at-once", limits={"max_depth": 4}))


def test_a_large_frontier_is_estimated_once(tmp_path: Path, caplog: Any) -> None:
    """60 states of 60 actions each put thousands of actions in the frontier: the crawl says once
    what waits, and what bounds it (``inputs.max_options``)."""
    with caplog.at_level("WARNING", logger="statecrawl.engine.scheduler"):
        explore(tree(2, 60), tmp_path / "out", limits={"max_depth": 2, "max_states": 100})
    said = [m for m in (r.getMessage() for r in caplog.records) if "actions wait to be" in m]
    assert len(said) == 1, said
    assert int(said[0].split()[0]) >= 2000 and "inputs.max_options (now 5)" in said[0]
