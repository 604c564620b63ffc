"""Frontier strategies: the order of (state, action) pairs, discarding, and the registry."""

from __future__ import annotations

import doctest
import importlib
import random

import pytest

from statecrawl.errors import ConfigError
from statecrawl.state import Action
from statecrawl.strategies import (
    BreadthFirst,
    DepthFirst,
    FairSites,
    Novelty,
    RandomOrder,
    Strategy,
    Work,
    get_strategy,
    new_words,
)
from statecrawl.strategies.frontier import NEAR_LEVELS

STRATEGIES = [BreadthFirst, DepthFirst, Novelty, RandomOrder]


def work(
    state: str, n: int = 0, depth: int = 0, leaves: bool = False, score: float = 0.0
) -> Work:
    action = Action(name=f"{state}#{n}", status="visible", event="click", action=f"h{n}")
    return Work(state=state, action=action, depth=depth, leaves=leaves, score=score)


def drain(strategy: Strategy, current: str | None = None) -> list[Work]:
    out = []
    while (item := strategy.pop([] if current is None else [current])) is not None:
        out.append(item)
    return out


def names(items: list[Work]) -> list[str]:
    return [w.action.name for w in items]


def push_all(strategy: Strategy, items: list[Work]) -> Strategy:
    for item in items:
        strategy.push(item)
    return strategy


# ---- common to every strategy -----------------------------------------------------------------


@pytest.mark.parametrize("cls", STRATEGIES)
def test_empty_frontier_pops_none(cls: type) -> None:
    strategy = cls(seed=0)
    assert len(strategy) == 0
    assert strategy.pop([]) is None
    assert strategy.pop(["s"]) is None


@pytest.mark.parametrize("cls", STRATEGIES)
def test_every_item_comes_out_exactly_once(cls: type) -> None:
    items = [work(f"s{i % 7}", i, depth=i % 7 // 2) for i in range(60)]
    strategy = push_all(cls(seed=3), items)
    assert len(strategy) == 60
    rng = random.Random(1)
    out = []
    while len(strategy):
        near = rng.choice([[], ["s0"], ["s3", "s1"], ["s6", "unknown", "s2"], ["unknown"]])
        item = strategy.pop(near)
        assert item is not None
        out.append(item)
        assert len(strategy) == 60 - len(out)
    assert sorted(names(out)) == sorted(names(items))
    assert strategy.pop([]) is None


@pytest.mark.parametrize("cls", STRATEGIES)
def test_discard_drops_a_states_work_and_counts_it(cls: type) -> None:
    strategy = push_all(
        cls(seed=0), [work("a", 0), work("b", 1), work("a", 2), work("c", 3), work("a", 4)]
    )
    assert strategy.discard("a") == 3
    assert len(strategy) == 2
    assert strategy.discard("a") == 0
    assert strategy.discard("never") == 0
    assert len(strategy) == 2
    assert sorted(names(drain(strategy, "a"))) == ["b#1", "c#3"]
    assert len(strategy) == 0


@pytest.mark.parametrize("cls", STRATEGIES)
def test_len_through_push_pop_discard(cls: type) -> None:
    strategy = cls(seed=0)
    strategy.push(work("a", 0))
    strategy.push(work("a", 1))
    strategy.push(work("b", 2, depth=1))
    assert len(strategy) == 3
    assert strategy.pop([]) is not None
    assert len(strategy) == 2
    strategy.push(work("c", 3, depth=1))
    assert len(strategy) == 3
    dropped = strategy.discard("c")
    assert dropped == 1
    assert len(strategy) == 2
    drain(strategy)
    assert len(strategy) == 0
    strategy.push(work("a", 9))
    assert len(strategy) == 1


@pytest.mark.parametrize("cls", STRATEGIES)
def test_work_can_be_pushed_again_after_discard(cls: type) -> None:
    strategy = push_all(cls(seed=0), [work("a", 0, depth=2), work("a", 1, depth=2)])
    assert strategy.discard("a") == 2
    strategy.push(work("a", 0, depth=1))
    assert len(strategy) == 1
    item = strategy.pop([])
    assert item is not None
    assert item.depth == 1
    assert strategy.discard("a") == 0


# ---- novelty -----------------------------------------------------------------------------------


def test_novelty_counts_the_words_no_earlier_state_showed() -> None:
    seen: set[str] = set()
    assert new_words("<ul><li>US1 Battery</li><li>US2 Drone</li></ul>", seen) == 4
    assert new_words("<ul><li>US2 Drone</li><li>US1 Battery</li></ul>", seen) == 0  # sorted again
    assert new_words("<p>US1 Battery <b>claims</b></p><script>var hidden</script>", seen) == 1


def test_novelty_fires_the_states_that_brought_new_text_first_then_breadth_first() -> None:
    strategy = push_all(Novelty(), [
        work("sorted", 0, depth=1, score=0), work("root", 1, depth=0, score=3),
        work("detail", 2, depth=2, score=9), work("csv", 3, depth=1, score=0),
        work("detail", 4, depth=2, score=9),
    ])
    assert names(drain(strategy)) == ["detail#2", "detail#4", "root#1", "sorted#0", "csv#3"]


def test_novelty_goes_on_from_the_browsers_state_among_the_best_only() -> None:
    strategy = push_all(Novelty(), [
        work("a", 0, score=5), work("b", 1, score=5), work("c", 2, score=1),
    ])
    assert strategy.pop(["b"]).action.name == "b#1"  # as good as the best: no reset
    assert strategy.pop(["c"]).action.name == "a#0"  # worse: the best one, whatever it costs


# ---- breadth-first ----------------------------------------------------------------------------


def test_breadth_first_pops_shallowest_first() -> None:
    strategy = push_all(
        BreadthFirst(),
        [work("deep", 0, depth=2), work("mid", 1, depth=1), work("root", 2, depth=0)],
    )
    assert names(drain(strategy)) == ["root#2", "mid#1", "deep#0"]


def test_breadth_first_keeps_insertion_order_within_a_level() -> None:
    strategy = push_all(
        BreadthFirst(),
        [work("a", 0, 1), work("b", 1, 1), work("a", 2, 1), work("b", 3, 1)],
    )
    assert names(drain(strategy)) == ["a#0", "a#2", "b#1", "b#3"]


def test_breadth_first_prefers_current_at_the_shallowest_level() -> None:
    strategy = push_all(BreadthFirst(), [work("a", 0, 1), work("b", 1, 1)])
    assert names([strategy.pop(["b"])]) == ["b#1"]


def test_breadth_first_prefers_current_one_level_deeper() -> None:
    strategy = push_all(
        BreadthFirst(), [work("root", 0, depth=0), work("child", 1, depth=1), work("child", 2, 1)]
    )
    assert names(drain(strategy, current="child")) == ["child#1", "child#2", "root#0"]


def test_breadth_first_fires_what_mutates_after_the_read_only_work_of_its_depth() -> None:
    def mutating(state: str, n: int, depth: int) -> Work:
        action = Action(name=f"{state}#{n}", status="visible", event="click", action=f"h{n}")
        return Work(state=state, action=action, depth=depth, mutates=True)

    items = [mutating("root", 0, 0), work("root", 1, 0), work("other", 2, 0),
             mutating("child", 3, 1), work("child", 4, 1)]
    strategy = push_all(BreadthFirst(), items)
    # (the browser's own state first, its mutating work only once the level has no other)
    assert names(drain(strategy, current="root")) == [
        "root#1", "other#2", "root#0", "child#4", "child#3"]
    strategy = push_all(BreadthFirst(), items)
    assert strategy.discard("root") == 2 and len(strategy) == 3


def test_breadth_first_prefers_current_two_levels_deeper_not_three() -> None:
    assert NEAR_LEVELS == 2
    strategy = push_all(
        BreadthFirst(),
        [work("root", 0, depth=0), work("mid", 1, depth=1), work("deep", 2, depth=2),
         work("deeper", 3, depth=3)],
    )
    assert names([strategy.pop(["deeper"])]) == ["root#0"]  # three levels below root
    assert names([strategy.pop(["deeper"])]) == ["deeper#3"]  # two levels below mid
    assert names(drain(strategy, current="deep")) == ["deep#2", "mid#1"]


@pytest.mark.parametrize("current", [None, "gone", "unknown"])
def test_breadth_first_current_without_work_falls_back_to_shallowest(current: str | None) -> None:
    strategy = push_all(BreadthFirst(), [work("a", 0, depth=1), work("b", 1, depth=0)])
    assert names(drain(strategy, current)) == ["b#1", "a#0"]


def test_breadth_first_takes_the_nearest_state_with_work_in_its_window() -> None:
    strategy = push_all(
        BreadthFirst(),
        [work("a", 0, 1), work("b", 1, 3), work("c", 2, 4), work("d", 3, 1)],
    )
    # c is too deep (three levels below a); b is the nearest with work two levels below
    assert names([strategy.pop(["here", "c", "b", "d"])]) == ["b#1"]
    assert names([strategy.pop(["here", "c", "d"])]) == ["d#3"]
    assert names([strategy.pop(["here", "c"])]) == ["a#0"]


def test_breadth_first_does_work_that_stays_on_a_page_first_wherever_it_is_near() -> None:
    strategy = push_all(
        BreadthFirst(),
        [
            work("here", 0, 1, leaves=True), work("here", 1, 1), work("here", 2, 1, leaves=True),
            work("next", 3, 1, leaves=True), work("near", 4, 2, leaves=True), work("near", 5, 2),
        ],
    )
    taken = [strategy.pop(["here", "near"]) for _ in range(3)]
    assert names(taken) == ["here#1", "near#5", "here#0"]
    assert names([strategy.pop(["here"]), strategy.pop([]), strategy.pop([])]) == [
        "here#2", "next#3", "near#4"
    ]


def test_breadth_first_discard_keeps_other_levels() -> None:
    strategy = push_all(
        BreadthFirst(), [work("a", 0, 0), work("b", 1, 1), work("b", 2, 1), work("c", 3, 2)]
    )
    assert strategy.discard("b") == 2
    assert names(drain(strategy)) == ["a#0", "c#3"]


def test_breadth_first_after_the_last_item_of_a_state_it_is_not_current() -> None:
    strategy = push_all(BreadthFirst(), [work("a", 0, 0), work("b", 1, 1), work("c", 2, 0)])
    assert names([strategy.pop(["b"])]) == ["b#1"]
    assert names([strategy.pop(["b"])]) == ["a#0"]
    assert strategy.discard("b") == 0


# ---- depth-first ------------------------------------------------------------------------------


def test_depth_first_continues_from_current() -> None:
    strategy = push_all(DepthFirst(), [work("a", 0), work("a", 1), work("b", 2), work("c", 3)])
    assert names([strategy.pop(["a"]), strategy.pop(["a"])]) == ["a#0", "a#1"]


def test_depth_first_goes_on_from_the_nearest_state_with_work() -> None:
    strategy = push_all(DepthFirst(), [work("a", 0), work("b", 1), work("c", 2)])
    assert names([strategy.pop(["here", "b", "a"])]) == ["b#1"]


def test_depth_first_takes_the_newest_state_otherwise() -> None:
    strategy = push_all(DepthFirst(), [work("a", 0), work("b", 1), work("c", 2), work("c", 3)])
    assert names(drain(strategy)) == ["c#2", "c#3", "b#1", "a#0"]


def test_depth_first_new_work_makes_a_state_newest() -> None:
    strategy = push_all(DepthFirst(), [work("a", 0), work("b", 1), work("a", 2)])
    assert names(drain(strategy, current="gone")) == ["a#0", "a#2", "b#1"]


def test_depth_first_follows_the_browser() -> None:
    strategy = push_all(DepthFirst(), [work("root", 0), work("root", 1)])
    first = strategy.pop(["root"])
    assert first is not None
    strategy.push(work("child", 2, depth=1))
    strategy.push(work("child", 3, depth=1))
    assert names([strategy.pop(["child"]), strategy.pop(["child"]), strategy.pop([])]) == [
        "child#2",
        "child#3",
        "root#1",
    ]


# ---- random -----------------------------------------------------------------------------------

MANY = [work(f"s{i % 10}", i) for i in range(50)]


def test_random_is_reproducible_for_a_seed() -> None:
    first = names(drain(push_all(RandomOrder(seed=11), MANY)))
    again = names(drain(push_all(RandomOrder(seed=11), MANY)))
    assert first == again


def test_random_differs_across_seeds() -> None:
    orders = {tuple(names(drain(push_all(RandomOrder(seed=s), MANY)))) for s in range(5)}
    assert len(orders) == 5


def test_random_is_not_insertion_order() -> None:
    assert names(drain(push_all(RandomOrder(seed=0), MANY))) != names(MANY)


def test_random_ignores_current_but_stays_reproducible() -> None:
    plain = names(drain(push_all(RandomOrder(seed=5), MANY)))
    with_current = names(drain(push_all(RandomOrder(seed=5), MANY), current="s3"))
    assert plain == with_current


def test_random_discard_then_every_other_item_once() -> None:
    strategy = push_all(RandomOrder(seed=2), MANY)
    assert strategy.discard("s4") == 5
    out = names(drain(strategy))
    assert sorted(out) == sorted(w.action.name for w in MANY if w.state != "s4")


# ---- registry ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "cls"),
    [("breadth-first", BreadthFirst), ("depth-first", DepthFirst), ("novelty", Novelty),
     ("random", RandomOrder)],
)
def test_get_strategy_builtins(name: str, cls: type) -> None:
    strategy = get_strategy(name)
    assert isinstance(strategy, cls)
    assert strategy.name == name


def test_get_strategy_passes_the_seed() -> None:
    via_registry = names(drain(push_all(get_strategy("random", seed=9), MANY)))
    direct = names(drain(push_all(RandomOrder(seed=9), MANY)))
    assert via_registry == direct


def test_get_strategy_unknown_lists_builtins() -> None:
    with pytest.raises(ConfigError, match="unknown strategy 'best-first'") as info:
        get_strategy("best-first")
    assert "breadth-first, coverage, depth-first, novelty, random" in str(info.value)


# ---- fair across sites ------------------------------------------------------------------------


def fair(strategy: str = "breadth-first") -> FairSites:
    """Sites named by the first letter of a state (``a1`` is a state of site ``a``); a
    link action (``name`` starting with ``link:``) is the work of the site its target is on."""

    def site(w: Work) -> str:
        name = w.action.name
        return name[5] if name.startswith("link:") else w.state[0]

    return FairSites(lambda: get_strategy(strategy), site, lambda state: state[0])


def test_fair_sites_serves_sites_in_rounds_keeping_each_sites_order() -> None:
    """Site a has 6 pairs queued before b's 2 and c's 1: a round gives each site one."""
    items = [work("a1", i, depth=i // 3) for i in range(6)]
    items += [work("b1", 0), work("b2", 1, depth=1), work("c1", 0)]
    strategy = push_all(fair(), items)
    assert len(strategy) == 9
    assert names(drain(strategy)) == [
        "a1#0", "b1#0", "c1#0", "a1#1", "b2#1", "a1#2", "a1#3", "a1#4", "a1#5",
    ]  # fmt: skip


def test_fair_sites_goes_on_with_the_browsers_site_within_a_round() -> None:
    strategy = push_all(fair(), [work("a1", 0), work("a1", 1), work("b1", 0), work("b1", 1)])
    assert strategy.pop(["b1"]) == work("b1", 0)  # b's turn first: the browser shows b1
    assert strategy.pop(["b1"]) == work("a1", 0)  # b had its turn this round
    assert strategy.pop(["b1"]) == work("b1", 1)  # a new round
    assert strategy.pop(["b1"]) == work("a1", 1)


def test_fair_sites_with_one_site_is_its_strategy() -> None:
    items = [work(f"a{i % 5}", i, depth=i % 5 // 2) for i in range(30)]
    for name, cls in (("breadth-first", BreadthFirst), ("depth-first", DepthFirst)):
        for current in (None, "a3"):
            alone = push_all(cls(), items)
            assert drain(push_all(fair(name), items), current) == drain(alone, current)


def test_fair_sites_skips_sites_not_ready_without_losing_their_turn() -> None:
    strategy = push_all(fair(), [work("a1", 0), work("a1", 1), work("b1", 0), work("b1", 1)])
    assert strategy.pop([], ready=lambda site: site != "a") == work("b1", 0)
    assert strategy.pop([], ready=lambda site: site != "a") == work("b1", 1)
    assert strategy.pop([], ready=lambda site: site != "a") is None  # a waits: no work is free
    assert len(strategy) == 2
    assert names(drain(strategy)) == ["a1#0", "a1#1"]


def test_fair_sites_queues_a_cross_link_as_work_of_its_target_site() -> None:
    strategy = fair()
    link = Work("a1", Action(name="link:b", status="visible", event="click", action="/"), 0)
    push_all(strategy, [work("a1", 0), link, work("b1", 0)])
    assert set(strategy.frontiers) == {"a", "b"}
    assert len(strategy.frontiers["b"]) == 2
    assert strategy.discard("a1") == 2  # its work in both sites
    assert names(drain(strategy)) == ["b1#0"]


def test_fair_sites_a_closed_site_drops_its_work_and_takes_no_more() -> None:
    strategy = push_all(fair(), [work("a1", 0), work("b1", 0), work("b1", 1)])
    assert strategy.close("b") == 2
    strategy.push(work("b2", 0))
    assert len(strategy) == 1
    assert names(drain(strategy)) == ["a1#0"]


def test_fair_sites_names_its_strategy_and_fails_early_for_an_unknown_one() -> None:
    assert fair("depth-first").name == "depth-first"
    with pytest.raises(ConfigError, match="unknown strategy"):
        fair("best-first")


def test_novelty_doctest_runs() -> None:
    module = importlib.import_module("statecrawl.strategies.novelty")
    assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("cls", [BreadthFirst, DepthFirst, Novelty])
def test_breadth_first_takes_work_that_returns_first_among_its_states(cls: type) -> None:
    """Breadth-first goes back where its level's work waits; depth-first and novelty go on
    from the new state, in its order."""
    strategy = push_all(cls(seed=0), [work("s", 0, depth=1), work("s", 1, depth=1)])
    back = Work("s", Action(name="s#back", status="visible", event="click", action="h9"), 1,
                returns=True)
    strategy.push(back)
    first = ["s#back", "s#0", "s#1"] if cls is BreadthFirst else ["s#0", "s#1", "s#back"]
    assert names(drain(strategy, "s")) == first
