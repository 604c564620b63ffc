"""The page agent (``statecrawl/browser/agent.js``) in a real headless Chromium: form controls with
listeners of their own fired as actions, values typed and committed, delegation with no
framework, open shadow roots, field values in snapshots, values generated per action, and
what a pointer reaches (styled checks, covered buttons, SVG icons).

Each page is a small hand-written one in ``tests/pages/agent/`` (plain HTML and JS)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import lxml.html

import statecrawl
from statecrawl.browser import Browser
from statecrawl.state import Action
from tests.conftest import Site, labels
from tests.test_zoo import shown

Crawler = Callable[..., statecrawl.Crawl]


def serve(site: Site, name: str) -> str:
    """Serve ``tests/pages/agent/<name>.html`` at ``/``; its URL."""
    site.page("/", f"agent/{name}.html")
    return site.url("/")


def locator(edge: dict[str, Any]) -> str:
    """The locator part of an edge's ``name`` (``<locator> "<label>"``)."""
    return edge["name"].rsplit(' "', 1)[0]


def test_select_with_its_own_listener_reaches_a_state_per_option(
    site: Site, crawl: Crawler
) -> None:
    """A select outside any form whose change listener renders the choice: each option up to
    ``inputs.max_options`` (the current one first) is chosen and its state reached."""
    result = crawl(serve(site, "select"), inputs={"max_options": 3})
    assert labels(result, r"Chosen: (\w+)") == {"alpha", "beta", "gamma"}  # never delta
    changes = [t for t in result.transitions() if t["event"] == "change"]
    assert changes and all(locator(t) == "#flavour" for t in changes)


def test_checkbox_and_radios_with_their_own_listeners_are_clicked(
    site: Site, crawl: Crawler
) -> None:
    """A checkbox and a radio group outside any form: each is clicked and its effect reached."""
    result = crawl(serve(site, "choices"), max_depth=1)
    assert labels(result, r"wrap: (\w+)") == {"no", "yes"}
    assert labels(result, r"size: (\w)") == {"S", "M", "L"}
    clicked = {t["name"] for t in result.transitions() if t["event"] == "click"}
    assert '#wrap "gift wrap"' in clicked
    for size in ("small", "medium", "large"):
        assert any(name.endswith(f'input:nth-of-type(1) "{size}"') for name in clicked), size


def test_text_field_with_a_change_listener_gets_the_value_committed(
    site: Site, crawl: Crawler
) -> None:
    """A field outside any form whose only listener is ``change``: the given value is typed
    and committed with Enter, and its effect reached."""
    result = crawl(serve(site, "commit"), inputs={"values": {"City": ["Paris"]}})
    assert labels(result, r'id="weather">([^<]*)<') == {"No city yet", 'Weather for "Paris"'}
    typed = [t for t in result.transitions() if t["event"] == "keydown:Enter"]
    assert typed and all(locator(t) == "#city" and "Paris" in t["action"] for t in typed)


def test_text_field_without_a_value_is_not_committed_empty(site: Site, crawl: Crawler) -> None:
    """With no value for the field and no ``inputs.default_text``, nothing is typed: an empty
    commit would make a state of its own."""
    result = crawl(serve(site, "commit"))
    assert len(result) == 1
    assert labels(result, r'id="weather">([^<]*)<') == {"No city yet"}
    assert not any(locator(t) == "#city" for t in result.transitions())


def test_root_delegation_fires_the_controls_never_the_row_wrapper(
    site: Site, crawl: Crawler
) -> None:
    """One click listener on the list, acting on ``closest('button')`` or a checkbox: the
    crawl fires each checkbox and each button, and nothing on the ``div.row`` wrappers (which
    carry ``data-n``) or on the list itself."""
    result = crawl(serve(site, "delegation"), max_depth=1)
    assert labels(result, r'id="status">([^<]*)<') == {
        "nothing yet", "opened 1", "opened 2", "row 1 done", "row 2 done"
    }
    fired = {locator(t).rsplit(" > ", 1)[-1] for t in result.transitions()}
    assert fired == {"input:nth-of-type(1)", "button:nth-of-type(1)"}
    targets = {locator(t).rsplit(" > ", 1)[0] for t in result.transitions()}
    assert targets == {"#list > div:nth-of-type(1)", "#list > div:nth-of-type(2)"}


def test_open_shadow_root_button_is_fired_and_its_content_snapshotted(
    site: Site, crawl: Crawler
) -> None:
    """A button inside a native custom element's open shadow root is fired through a
    ``>>>`` locator; the new state's snapshot holds the shadow root as a template."""
    result = crawl(serve(site, "shadow"), max_depth=1)
    assert labels(result, r"count (\d)") == {"0", "1"}
    (edge,) = result.transitions()
    assert locator(edge).endswith(" >>> button:nth-of-type(1)")
    assert "x-counter" in locator(edge).split(" >>> ")[0]
    html = result.html(edge["target"])
    assert '<template shadowrootmode="open">' in html
    assert html.index('<template shadowrootmode="open">') < html.index("count 1")


def test_snapshots_show_typed_values_and_ticked_boxes(site: Site, crawl: Crawler) -> None:
    """A live filter keeps the typed text and a box stays ticked: both show in the state's
    serialized DOM (``value="…"``, ``checked``), and not in the start state's."""
    result = crawl(serve(site, "filter"), max_depth=1, inputs={"values": {"Filter": ["ap"]}})
    (start,) = [s["id"] for s in result.states() if s["depth"] == 0]
    after = {t["event"]: t["target"] for t in result.transitions()}
    assert set(after) == {"keydown:Enter", "click"}

    def fields(state: str) -> tuple[str | None, bool]:
        doc = lxml.html.document_fromstring(result.html(state))
        return doc.get_element_by_id("filter").get("value"), "checked" in doc.get_element_by_id(
            "ripe"
        ).attrib

    assert fields(start) == (None, False)
    assert fields(after["keydown:Enter"]) == ("ap", False)
    assert 'value="ap"' in result.html(after["keydown:Enter"])
    assert fields(after["click"]) == (None, True)


def test_random_id_per_add_is_learned_on_replay_not_unreachable(
    site: Site, crawl: Crawler
) -> None:
    """Items get a random ``data-id`` on each add, so a replayed path brings a state back
    with other ids: it is that state (no unreachable state), and ``@data-id`` is volatile."""
    result = crawl(serve(site, "random_ids"), max_depth=2)
    stats = result.stats
    assert stats["replayed"] > 0  # some state was brought back by replaying its path
    assert stats["unreachable"] == 0
    assert any(name.endswith("|@data-id") for name in result.graph.graph["volatile"])
    # start, help shown, one item (with or without help), two items
    assert len(result) == 5


def test_counter_named_attributes_are_learned_on_replay_not_unreachable(
    site: Site, crawl: Crawler
) -> None:
    """A kit names an attribute of every element it mounts after a counter (``pc7``): a
    state first met after another menu was opened shows other names when its path is replayed
    from a load. It is that state (no unreachable state), and the names' stem is volatile."""
    result = crawl(serve(site, "counters"), max_depth=2)
    assert result.stats["replayed"] > 0
    assert result.stats["unreachable"] == 0
    assert any(name.endswith("|@pc#") for name in result.graph.graph["volatile"])
    assert labels(result, r'id="status">([^<]*)<') == {"active", "archived"}


def test_a_state_is_the_end_of_its_css_animations(site: Site) -> None:
    """A menu whose kit waits for its 2 s enter animation to end before it calls it open is
    snapshot open, not half-way; a toast that fades after 5 s is still shown when the page
    has settled (an animation's delay is kept)."""
    url = serve(site, "animated")
    with Browser(statecrawl.Config(start_urls=(url,))) as browser:
        browser.start()
        start = browser.load(url)
        actions = {c["label"]: Action.from_candidate(c) for c in start.candidates}
        opened = browser.fire(actions["Open"])
        assert '<div id="menu" class="">Archive</div>' in opened.html
        assert '<p id="status">open</p>' in opened.html
        browser.fire(actions["Save"])
        assert shown(browser, ("Saved",)) == {"Saved"}
        assert shown(browser, ("drawer open",)) == set()
        browser.fire(actions["Drawer"])  # its animation: in a shadow root's own sheet
        assert shown(browser, ("drawer open",)) == {"drawer open"}
        browser.fire(actions["Fade"])  # its animation: started by a script
        assert shown(browser, ("faded in",)) == {"faded in"}


def test_animations_at_the_pages_own_pace(site: Site) -> None:
    """``browser.animations = "page"``: the 2 s animations run their course, and a state
    is taken once the page is quiet, half-way through them."""
    url = serve(site, "animated")
    settings = {"start_urls": [url], "browser": {"animations": "page"}}
    with Browser(statecrawl.Config.from_mapping(settings)) as browser:
        browser.start()
        start = browser.load(url)
        actions = {c["label"]: Action.from_candidate(c) for c in start.candidates}
        assert '<div id="menu" class="entering">' in browser.fire(actions["Open"]).html
        browser.fire(actions["Drawer"])
        browser.fire(actions["Fade"])
        assert shown(browser, ("drawer open", "faded in")) == set()


class Shown(statecrawl.Plugin):
    """Records which of ``markers`` each new state shows, looked at in the live browser."""

    def __init__(self, markers: tuple[str, ...]) -> None:
        self.markers = markers
        self.seen: set[str] = set()

    def on_state(self, crawl: Any, event: statecrawl.StateEvent) -> None:
        assert event.browser is not None
        self.seen |= shown(event.browser, self.markers)


def test_styled_checks_are_reached_through_their_box_or_their_label(
    site: Site, tmp_path: Path
) -> None:
    """Opacity-0 checkboxes laid over styled labels, and a 1 px opacity-0 "toggle all"
    reached through its ``<label for>``, are fired: a crawl to depth 3 shows "0 items left"
    and "Clear completed", and "toggle all" is one action (the input), never its label too."""
    markers = ("2 items left", "1 item left", "0 items left", "Clear completed")
    plugin = Shown(markers)
    config = statecrawl.Config.from_mapping({
        "start_urls": [serve(site, "styled")], "out": tmp_path, "limits": {"max_depth": 3},
        "archive": {"enabled": False},
    })
    result = statecrawl.crawl(config=config, plugins=[plugin])
    assert plugin.seen == set(markers)
    fired = {locator(t) for t in result.transitions()}
    assert "#toggle-all" in fired
    assert not any("label" in name.rsplit(" > ", 1)[-1] for name in fired)


def test_a_covered_button_is_not_fired_while_covered(site: Site) -> None:
    """A modal's fixed backdrop covers "Delete": the start state offers only "Close", and
    says what covers "Delete"; once the modal is closed, "Delete" is offered and fired."""
    url = serve(site, "covered")
    with Browser(statecrawl.Config(start_urls=(url,))) as browser:
        browser.start()
        start = browser.load(url)
        assert [c["locator"] for c in start.candidates] == ["#close"]
        assert [(c["locator"], c["covered_by"]) for c in start.covered] == [
            ("#delete", "div#backdrop.modal-backdrop")
        ]
        closed = browser.fire(Action.from_candidate(start.candidates[0]))
        assert [c["locator"] for c in closed.candidates] == ["#delete"]
        assert not closed.covered
        deleted = browser.fire(Action.from_candidate(closed.candidates[0]))
    assert '<p id="status">deleted</p>' in deleted.html


def test_svg_icon_and_pointer_cursor_are_fired(site: Site, crawl: Crawler) -> None:
    """An SVG icon with a click listener (no ``click()`` method) gets a mouse click at its
    box; a ``cursor: pointer`` element whose listener no hook saw is clicked too."""
    result = crawl(serve(site, "icons"), max_depth=1)
    assert labels(result, r'id="status">([^<]*)<') == {"idle", "menu at its box", "starred"}
    assert result.stats["failures"] == 0


def test_widgets_get_the_gestures_users_give_them(site: Site, crawl: Crawler) -> None:
    """A ``<summary>`` with no listener is opened; ARIA tabs served by a handler property no
    hook sees are clicked by their role; a range gets its ends and middle, a date and a colour
    a value each; the text is typed into an editable box; a draggable card is dropped on the
    target that listens."""
    result = crawl(serve(site, "widgets"), max_depth=1,
                   inputs={"values": {"Note": ["buy milk"]}})
    assert labels(result, r"<details( open)?") == {None, " open"}
    assert labels(result, r"Tab (\w+) shown") == {"one", "two"}
    assert "role:tab" in {t["action"] for t in result.transitions()}
    assert labels(result, r"Volume: (\d+)") == {"30", "0", "50", "100"}
    assert labels(result, r"Due: ([\w-]+)") == {"none", "2024-06-15"}
    assert labels(result, r"Colour: (#\w+)") == {"#000000", "#ff0000"}
    assert labels(result, r"Note: ([\w ]+)<") == {"empty", "buy milk"}
    assert labels(result, r"Bin: (\w+)") == {"empty", "card"}
    assert result.stats["failures"] == 0


def test_escape_closes_what_a_modal_opened(site: Site, crawl: Crawler) -> None:
    """Escape is pressed in a native modal ``<dialog>`` (cancelled and closed, as a real key
    does) and in an ``aria-modal`` sheet whose page listens for the key."""
    result = crawl(serve(site, "modals"), max_depth=2)
    assert labels(result, r"(dialog \w+|sheet \w+)<") >= {"dialog closed", "sheet dismissed"}
    escapes = {locator(t) for t in result.transitions() if t["event"] == "keydown:Escape"}
    assert escapes == {"#dialog", "#sheet"}


def test_a_popup_is_opened_and_an_option_chosen_in_one_action(site: Site, crawl: Crawler) -> None:
    """A combobox, a searchable select and a menu button whose options exist only while open,
    with new ids at each open: each option is chosen in the action that opens the popup (a
    state at depth 1); the options a popup does not have (inputs.max_options is 5) are no
    failures, and Escape closes the popup they opened, so the next action needs no reload."""
    result = crawl(serve(site, "popups"), max_depth=1)
    assert labels(result, r'id="status">([^<]*)<') == {
        "nothing chosen", "Plan: Free", "Plan: Pro", "Plan: Team", "Ships to Norway",
        "Ships to Peru", "Rename chosen", "Archive chosen",
    }
    chosen = {t["action"] for t in result.transitions() if t["action"].startswith("choose:")}
    assert chosen == {"choose:0", "choose:1", "choose:2"}
    assert result.stats["failures"] == 0
    assert result.stats["resets"] <= result.stats["states"]  # 16 resets for 10 states if reloaded
