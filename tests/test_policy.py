"""The crawl's action policies, without a browser."""

from __future__ import annotations

from statecrawl.config import DANGEROUS_DEFAULT
from statecrawl.policy import Danger, Effects, Leaving
from statecrawl.state import Action


def act(label: str, kind: str = "script", url: str = "") -> Action:
    return Action(name=f"#{label} {label}", status="visible,enabled", event="click",
                  action=url or f"listener:{label}", kind=kind, locator=f"#{label}", label=label)


def test_dangerous_actions_by_label_and_link_url() -> None:
    danger = Danger(DANGEROUS_DEFAULT)
    assert danger(act("Log out"))
    assert danger(act("Delete account"))
    assert danger(act("Bye", kind="link", url="http://h/logout"))
    assert not danger(act("Bye", url="listener:logout"))  # a script's identity is no label
    assert not danger(act("Search"))


def test_dangerous_actions_go_last_or_are_skipped() -> None:
    actions = [act("Delete"), act("Open"), act("Log out"), act("Next")]
    assert [a.label for a in Danger(DANGEROUS_DEFAULT).order(actions)] == [
        "Open", "Next", "Delete", "Log out"
    ]
    assert [a.label for a in Danger(DANGEROUS_DEFAULT, "skip").order(actions)] == ["Open", "Next"]


def test_an_effect_is_known_after_enough_urls_with_one_target() -> None:
    effects = Effects(after=3)
    search = act("Search")
    for n, url in enumerate(("http://h/a", "http://h/b")):
        effects.record(search, url, "results", None)
        assert effects.known(search) is None, n
    effects.record(search, "http://h/b", "results", None)  # the same URL again does not count
    assert effects.known(search) is None
    effects.record(search, "http://h/c", "results", None)
    assert effects.known(search) == "results"


def test_two_targets_or_no_threshold_mean_no_inference() -> None:
    effects = Effects(after=2)
    toggle = act("Toggle")
    effects.record(toggle, "http://h/a", "on", None)
    effects.record(toggle, "http://h/b", "off", None)
    assert effects.known(toggle) is None
    never = Effects(after=None)
    never.record(toggle, "http://h/a", "on", None)
    assert never.known(toggle) is None


def test_links_are_never_inferred() -> None:
    effects = Effects(after=1)
    link = act("Home", kind="link", url="http://h/")
    effects.record(link, "http://h/a", "home", None)
    assert effects.known(link) is None


def test_merging_renames_targets_and_the_table_round_trips() -> None:
    effects = Effects(after=2)
    search = act("Search")
    effects.record(search, "http://h/a", "old", None)
    effects.record(search, "http://h/b", "keeper", None)
    assert effects.known(search) is None
    effects.merge("old", "keeper")
    assert effects.known(search) == "keeper"
    assert effects.changed == {search.key}
    rows = effects.dump(effects.changed)
    assert rows == [(search.key, ["http://h/a", "http://h/b"], ["keeper"])]
    copy = Effects(after=2)
    copy.load({key: (urls, targets) for key, urls, targets in rows})
    copy.independent = set(effects.independent)  # a checkpoint keeps it among its tables
    assert copy.known(search) == "keeper" and copy.dump([search.key]) == rows


def test_an_action_that_returns_where_the_browser_came_from_is_not_inferred() -> None:
    """A "Back" button fired in three pages reached from one list led to that list each
    time: it follows the browser's history, not the page, so it is fired everywhere. A
    search box is inferred once it was seen to lead elsewhere than where the browser came
    from."""
    effects = Effects(after=3)
    back, search = act("Back"), act("Search")
    for page in ("a", "b", "c"):
        effects.record(back, f"http://h/{page}", "list-1", "list-1")
        effects.record(search, f"http://h/{page}", "results", "results")
    assert effects.known(back) is None and effects.known(search) is None
    effects.record(search, "http://h/d", "results", None)  # a page loaded by its URL
    assert effects.known(search) == "results" and effects.known(back) is None


def test_leaving_is_learned_for_a_whole_list_and_links_always_leave() -> None:
    def item(n: int, locator: str = "#results > li") -> Action:
        return Action(name=f"{locator}:nth-of-type({n}) item{n}", status="visible",
                      event="click", action="listener:open", locator=f"{locator}:nth-of-type({n})")

    leaving = Leaving()
    tab = Action(name="#tab-b b", status="visible", event="click", action="listener:tab",
                 locator="#tab-b")
    link = Action(name="a next", status="visible", event="click", action="http://h/next",
                  kind="link", locator="a")
    assert not leaving(item(1)) and not leaving(tab) and leaving(link)
    leaving.record(tab, "http://h/p", "http://h/p")  # a tab stays on its page
    leaving.record(item(1), "http://h/list", "http://h/item/1")
    assert leaving(item(7)) and not leaving(tab)
    assert not leaving(item(1, "#other > li"))
