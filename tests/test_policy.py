"""The crawl's action policies, without a browser."""

from __future__ import annotations

from collections import Counter

from statecrawl.config import DANGEROUS_DEFAULT
from statecrawl.engine.policy import Danger, Inference, Leaving, asked, requests_of, words
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


PAGE = Counter({"patents": 1, "search": 1})  # words every state of the examples shows


def shows(*extra: str) -> Counter[str]:
    return PAGE + Counter(extra)


def page(_state: str) -> Counter[str]:
    return PAGE


def record(inference: Inference, action: Action, source: str, target: str,
           requests=(), came_from: str | None = None, shared=PAGE) -> None:
    """``action`` fired in ``source`` led to ``target``, both showing the words ``shared``."""
    inference.record(action, source, target, requests, came_from, lambda: (shared, shared))


def test_an_effect_is_known_after_enough_states_with_one_target() -> None:
    inference = Inference(after=3)
    search = act("Search")
    for n, source in enumerate(("a", "b")):
        record(inference, search, source, "results")
        assert inference.known(search, "x", page) is None, n
    record(inference, search, "b", "results")  # the same state again does not count
    assert inference.known(search, "x", page) is None
    record(inference, search, "c", "results")
    assert inference.known(search, "x", page) == "results"


def test_two_targets_or_no_threshold_mean_no_inference() -> None:
    inference = Inference(after=2)
    toggle = act("Toggle")
    record(inference, toggle, "a", "on")
    record(inference, toggle, "b", "off")
    assert inference.known(toggle, "x", page) is None
    never = Inference(after=None)
    never.record(toggle, "a", "on", (), None, lambda: (PAGE, PAGE))
    assert never.known(toggle, "x", page) is None


def test_links_are_never_inferred() -> None:
    inference = Inference(after=1)
    link = act("Home", kind="link", url="http://h/")
    record(inference, link, "a", "home")
    assert inference.known(link, "x", page) is None


def test_an_action_whose_requests_differ_depends_on_the_state() -> None:
    inference = Inference(after=2)
    more = act("More")
    record(inference, more, "a", "list", requests=(("GET", "http://h/api?after=1", "-"),))
    record(inference, more, "b", "list", requests=(("GET", "http://h/api?after=2", "-"),))
    assert inference.known(more, "x", page) is None
    same = Inference(after=2)
    for source in ("a", "b"):
        record(same, more, source, "list", requests=(("GET", "http://h/api/all", "-"),))
    assert same.known(more, "x", page) == "list"


def test_next_seen_in_the_pages_of_one_query_is_not_inferred_in_another() -> None:
    """The bug of a patent-search app: "Next" fired in three detail views of the query
    "battery" led to battery's page 2 each time. The target shares "battery" with every
    state it was fired in; a page of "graphene" lacks that word, so "Next" is fired there."""
    inference = Inference(after=3)
    following = act("Next")
    for detail in ("d1", "d2", "d3"):
        record(inference, following, detail, "battery-2", shared=shows("battery"))
    words = {"graphene-1": shows("graphene"), "d4": shows("battery"), "battery-2": shows("battery")}
    assert inference.known(following, "graphene-1", words.__getitem__) is None
    assert inference.known(following, "d4", words.__getitem__) == "battery-2"


def test_a_state_closer_to_the_target_than_the_evidence_is_not_inferred() -> None:
    """A result row opens its patent on its first tab from the results and beside other
    patents; beside its own patent's second tab it does nothing. That state shares the
    patent's words with the target, which no state the row was fired in did."""
    inference = Inference(after=3)
    row = act("Open US1")
    for source in ("results", "US2 claims", "US3 claims"):
        record(inference, row, source, "US1 abstract")
    words = {"US1 claims": shows("us1"), "US4 claims": shows("us4"), "US1 abstract": shows("us1")}
    assert inference.known(row, "US1 claims", words.__getitem__) is None
    assert inference.known(row, "US4 claims", words.__getitem__) == "US1 abstract"


def errands(*rows: str, shown: str = "All") -> Counter[str]:
    """The words of a list of errands (``rows``: "open" or "done"), with a filter shown."""
    items = "".join(
        f"<li class='errand {row}'><span>buy milk</span><button>Remove</button></li>"
        for row in rows
    )
    return words(f"<h1>Errands</h1><ul>{items}</ul><a class='selected'>{shown}</a>")


def test_a_row_removed_in_lists_of_one_is_not_inferred_in_a_list_of_two() -> None:
    """The bug of the zoo's Errands app crawled by the coverage strategy: "Remove" of the
    first row, fired in three lists of one row, led to the empty list each time. A list of
    two identical rows has the words of a list of one, but twice as many of them: there the
    action may remove one row, not lead to the empty list, so it is fired. An action seen to
    empty lists of one, two and three rows does not depend on how many there are."""
    empty = errands()
    lists = {
        "open": errands("open"), "done": errands("done"), "filtered": errands("open", shown="Open"),
        "two": errands("open", "open"), "four": errands(*["open"] * 4), "empty": empty,
    }
    inference, clear = Inference(after=3), Inference(after=3)
    remove, everything = act("Remove"), act("Clear")
    for source in ("open", "done", "filtered"):
        inference.record(remove, source, "empty", (), None, lambda s=source: (lists[s], empty))
    assert inference.known(remove, "two", lists.__getitem__) is None
    assert inference.known(remove, "four", lists.__getitem__) is None
    copy = Inference(after=3)
    copy.load(dict(inference.dump([remove.key])))
    assert copy.known(remove, "two", lists.__getitem__) is None
    lists["other filter"] = errands("open", shown="Done")  # one row, as in the sources
    assert inference.known(remove, "other filter", lists.__getitem__) == "empty"
    for rows in (1, 2, 3):
        before = errands(*["open"] * rows)
        clear.record(everything, f"{rows} rows", "empty", (), None, lambda b=before: (b, empty))
    assert clear.known(everything, "four", lists.__getitem__) == "empty"


def test_an_action_that_took_a_word_away_is_not_inferred_where_that_word_never_was() -> None:
    """The bug of generated app 61: its result pages never show their query (a header
    button "Find lidar" is on every page), only a result set's id. "Prev" fired on lidar's
    page 2 and beside its details led to lidar's page 1, taking page 2's set id away each
    time; on drone's page 2, which never held that id, it leads to drone's page 1."""
    inference = Inference(after=3)
    previous = act("Prev")
    page2 = shows("lidar", "set949702")
    request = (("GET", "http://h/api/search?q=lidar&page=1", ""),)
    for source in ("lidar-2", "lidar-2 US1001", "lidar-2 US1004"):
        inference.record(previous, source, "lidar-1", request, None,
                         lambda: (page2, shows("lidar", "set310871")))  # fmt: skip
    words = {"drone-2": shows("lidar", "set422749"), "lidar-2 US1009": page2,
             "lidar-1": shows("lidar", "set310871")}
    assert inference.known(previous, "drone-2", words.__getitem__) is None
    assert inference.known(previous, "lidar-2 US1009", words.__getitem__) == "lidar-1"


def test_a_wrong_inference_is_retracted_for_good() -> None:
    inference = Inference(after=2)
    search = act("Search")
    for source in ("a", "b"):
        record(inference, search, source, "results")
    inference.infer(search, "c")
    inference.infer(search, "d")
    assert inference.retract(search) == {"c", "d"}
    assert inference.known(search, "e", page) is None


def test_renaming_states_and_the_table_round_trips() -> None:
    inference = Inference(after=2)
    search = act("Search")
    record(inference, search, "a", "old")
    record(inference, search, "b", "keeper")
    assert inference.known(search, "x", page) is None
    inference.retarget({"old": "keeper"})
    assert inference.known(search, "x", page) == "keeper"
    inference.infer(search, "x")
    assert inference.changed == {search.key}
    assert inference.added == {(search.key, "sources", "a"), (search.key, "sources", "b"),
                               (search.key, "targets", "keeper"), (search.key, "inferred", "x")}
    assert inference.dropped == {(search.key, "targets", "old")}
    rows = inference.dump(inference.changed)
    data = {key: dict(evidence) for key, evidence in rows}  # and the states, as a store reads
    for key, role, state in inference.states():
        data[key].setdefault(role, []).append(state)
    copy = Inference(after=2)
    copy.load(data)
    assert copy.known(search, "y", page) == "keeper" and copy.dump([search.key]) == rows
    assert sorted(copy.states()) == sorted(inference.states())
    assert copy.retract(search) == {"x"} and copy.dropped == {(search.key, "inferred", "x")}


def test_an_action_that_returns_where_the_browser_came_from_is_not_inferred() -> None:
    """A "Back" button fired in three pages reached from one list led to that list each
    time: it follows the browser's history, not the page, so it is fired everywhere. A
    search box is inferred once it was seen to lead elsewhere than where the browser came
    from."""
    inference = Inference(after=3)
    back, search = act("Back"), act("Search")
    for source in ("a", "b", "c"):
        record(inference, back, source, "list-1", came_from="list-1")
        record(inference, search, source, "results", came_from="results")
    assert inference.known(back, "x", page) is None
    assert inference.known(search, "x", page) is None
    record(inference, search, "d", "results")  # a page loaded by its URL
    assert inference.known(search, "x", page) == "results"
    assert inference.known(back, "x", page) is None


def tips(tip: str = "", panel: bool = False) -> Counter[str]:
    """The words of a toolbar whose "More" toggles a panel (``panel``: open) by a script that
    names it, and a tooltip (``tip``) appended to the body."""
    hidden = "" if panel else " hidden"
    return words(f"<button onclick='panel.hidden = !panel.hidden'>More</button>"
                 f"<p id='panel'{hidden}>More settings.</p><div class='tip'>{tip}</div>")


def test_a_part_the_action_never_touched_is_compared_by_its_tag() -> None:
    """A mouseover that opened "Save"'s tooltip from three states with the panel closed says
    nothing of the state with it open, whose words the script's ``panel.hidden`` holds: the
    start tag ``<p id='panel' hidden>`` is what the target shares with every source."""
    states = {"start": tips(), "share": tips("share it"), "other": tips("other it"),
              "save": tips("save it"), "panel": tips(panel=True),
              "panel share": tips("share it", panel=True)}  # fmt: skip
    inference, save = Inference(after=3), act("Save")
    for source in ("start", "share", "other"):
        contents = (states[source], states["save"])
        inference.record(save, source, "save", (), None, lambda c=contents: c)
    assert inference.known(save, "panel", states.__getitem__) is None
    assert inference.known(save, "panel share", states.__getitem__) is None
    states["another"] = tips("another it")
    assert inference.known(save, "another", states.__getitem__) == "save"


def test_words_and_requests() -> None:
    found = words("<p class='hit'>Battery packs, 2 of 10</p>")
    assert {"hit", "battery", "packs", "battery packs"} <= found.keys() and "of" not in found
    assert words("<li>buy milk</li><li>buy milk</li>")["buy milk"] == 2
    assert words("<p id='panel' hidden>Tip</p><p>x</p>")["<p id='panel' hidden"] == 1
    assert asked((("GET", "http://h/api/patent/US123/claims?q=battery&offset=0", "page=2"),)) == {
        "us123", "battery", "page"
    }

    class Asked:
        def __init__(self, url: str, kind: str = "XHR", body: bytes | None = None) -> None:
            self.method, self.url, self.resource_type, self.request_body = "GET", url, kind, body

    one = requests_of([Asked("http://h/api?q=a#x"), Asked("http://h/logo.png", "Image")])
    assert one == requests_of([Asked("http://h/api?q=a")])
    assert one != requests_of([Asked("http://h/api?q=b")])


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
