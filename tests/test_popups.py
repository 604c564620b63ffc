"""Popup sizes (statecrawl.engine.popups), without a browser: a choice past the options a control's
popup showed is left out, until one such choice finds its option."""

from __future__ import annotations

from statecrawl.engine.popups import Popups
from statecrawl.state import Action


def choose(k: int, name: str = '#plan "Plan"') -> Action:
    return Action(name, "visible,enabled", "click", f"choose:{k}")


def test_choices_past_the_fewest_options_seen_are_left_out() -> None:
    popups = Popups(enabled=True)
    assert not popups.beyond(choose(3))
    popups.absent(choose(4), 3)
    popups.absent(choose(3), 4)  # (the fewest is kept)
    assert [popups.beyond(choose(k)) for k in range(5)] == [False] * 3 + [True] * 2
    assert not popups.beyond(choose(4, '#more "More"'))
    assert not popups.beyond(Action('#plan "Plan"', "visible,enabled", "click", "handler:x"))


def test_a_choice_found_past_the_count_ends_it_and_gives_back_what_it_left_out() -> None:
    popups = Popups(enabled=True)
    popups.absent(choose(3), 3)
    popups.leave_out("s2", choose(4))
    assert popups.chosen(choose(1)) == []  # within the count: nothing learned
    assert popups.chosen(choose(3)) == [("s2", choose(4))]
    popups.absent(choose(4), 3)
    assert not popups.beyond(choose(4))  # never trusted again


def test_off_for_the_exhaustive_crawl() -> None:
    popups = Popups(enabled=False)
    popups.absent(choose(3), 3)
    assert not popups.beyond(choose(4))
