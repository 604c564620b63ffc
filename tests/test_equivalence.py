"""Equivalent controls (statecrawl.engine.equivalence), without a browser: a pair is learned from
states where both actions led one way, used where one was fired, and broken for good by a
state where they differed."""

from __future__ import annotations

from statecrawl.engine.equivalence import Equivalence

NONE = ()  # no requests
ASKED = (("GET", "http://127.0.0.1/api/op/1", ""),)


class Graph:
    """What was fired where: (state, action key) -> target."""

    def __init__(self) -> None:
        self.edges: dict[tuple[str, str], str] = {}

    def outcome(self, state: str, key: str) -> str | None:
        return self.edges.get((state, key))

    def together(self, a: str, b: str) -> set[str]:
        return {s for (s, k) in self.edges if k == a} & {s for (s, k) in self.edges if k == b}

    def fire(self, eq: Equivalence, state: str, key: str, target: str,
             requests: tuple = NONE) -> dict[str, set[str]]:  # fmt: skip
        fired = {k: t for (s, k), t in self.edges.items() if s == state}
        lost = eq.record(state, key, target, requests, fired, self.together, self.outcome)
        self.edges[state, key] = target
        return lost


def test_a_pair_is_learned_in_after_states_then_used_where_one_was_fired() -> None:
    eq, g = Equivalence(after=2), Graph()
    for n in (1, 2):  # summary and path link expand the same operation in two states
        g.fire(eq, f"s{n}", "summary", f"s{n}+open")
        assert eq.known("path", f"s{n}", g.outcome) is None  # not yet: one agreement, or none
        g.fire(eq, f"s{n}", "path", f"s{n}+open")
    g.fire(eq, "s3", "summary", "s3+open")
    assert eq.known("path", "s3", g.outcome) == "s3+open"
    assert eq.known("path", "s4", g.outcome) is None  # summary not fired in s4


def test_no_ops_other_requests_and_an_earlier_difference_pair_nothing() -> None:
    eq, g = Equivalence(after=1), Graph()
    g.fire(eq, "s1", "a", "s1")  # both do nothing: no evidence of one control
    g.fire(eq, "s1", "b", "s1")
    g.fire(eq, "s1", "try1", "s1+answer", ASKED)
    g.fire(eq, "s1", "try2", "s1+answer")  # same state, other requests
    g.fire(eq, "s2", "a", "s2+x")
    g.fire(eq, "s2", "b", "s2+x")  # agree now, but differed (did nothing) in s1
    g.fire(eq, "s3", "a", "s3+x")
    assert eq.known("b", "s3", g.outcome) is None
    g.fire(eq, "s3", "try1", "s3+answer", ASKED)
    assert eq.known("try2", "s3", g.outcome) is None


def test_a_difference_breaks_the_pair_and_gives_back_what_it_backed() -> None:
    eq, g = Equivalence(after=1), Graph()
    g.fire(eq, "s1", "lock1", "dialog")
    g.fire(eq, "s1", "lock2", "dialog")
    g.fire(eq, "s2", "lock1", "dialog")
    assert eq.known("lock2", "s2", g.outcome) == "dialog"
    eq.infer("lock2", "s2")
    g.fire(eq, "s3", "lock1", "dialog")
    lost = g.fire(eq, "s3", "lock2", "other")  # fired in a state of its own: they differ
    assert lost == {"lock2": {"s2"}}
    g.fire(eq, "s4", "lock1", "dialog")
    assert eq.known("lock2", "s4", g.outcome) is None  # broken for good


def test_a_failed_check_retracts_every_pair_of_the_action() -> None:
    eq, g = Equivalence(after=1), Graph()
    for lock in ("lock1", "lock2", "lock3"):
        g.fire(eq, "s1", lock, "dialog")
    eq.infer("lock3", "s2")
    assert eq.retract("lock3") == {"lock3": {"s2"}}
    g.fire(eq, "s5", "lock1", "dialog")
    assert eq.known("lock3", "s5", g.outcome) is None
    assert eq.known("lock2", "s5", g.outcome) == "dialog"  # lock1 and lock2 still agree


def test_off_for_the_exhaustive_crawl() -> None:
    eq, g = Equivalence(after=None), Graph()
    g.fire(eq, "s1", "a", "t")
    g.fire(eq, "s1", "b", "t")
    g.fire(eq, "s2", "a", "u")
    assert eq.known("b", "s2", g.outcome) is None
