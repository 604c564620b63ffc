"""State models: DOM normalisation, volatile masking, volatility detection, the other models."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

import statecrawl.browser
import statecrawl.models.dom as dom
import statecrawl.models.growth as growth
from statecrawl.errors import ConfigError
from statecrawl.models import (
    DomModel,
    ExactModel,
    StateModel,
    StructureModel,
    TextModel,
    generated_between,
    get_model,
    volatile_between,
)
from statecrawl.models.dom import text_shares, tokens
from statecrawl.models.growth import Repetition, repetition
from statecrawl.state import Snapshot

NOTHING: frozenset[str] = frozenset()


def page(body: str, head: str = "") -> str:
    return f"<!DOCTYPE html><html><head>{head}</head><body>{body}</body></html>"


def key(
    html: str,
    volatile: frozenset[str] | set[str] = NOTHING,
    model: StateModel | None = None,
    form: list[list[str]] | None = None,
) -> str:
    snapshot = Snapshot(url="http://127.0.0.1/", title="", html=html, form=form or [])
    return (model or DomModel()).key(snapshot, frozenset(volatile))


# ---- tokens -----------------------------------------------------------------------------------

SAME_AS_PLAIN = [
    pytest.param(page("<p>Hello <b>world</b></p><script>var t = 1;</script>"), id="script"),
    pytest.param(page("<p>Hello <b>world</b></p>", head="<style>p{color:red}</style>"), id="style"),
    pytest.param(page("<!-- built 10:02 --><p>Hello <b>world</b></p>"), id="comment"),
    pytest.param(page("<p>Hello <b>world</b></p><noscript><i>js!</i></noscript>"), id="noscript"),
    pytest.param(page("<p>Hello <b>world</b></p><template><i>x</i></template>"), id="template"),
    pytest.param(page("\n  <p>\n   Hello\t\t<b> world </b>\n</p>\n\n"), id="whitespace"),
    pytest.param(
        "<html><head><script src='/app.js'></script></head>"
        "<body><p>Hello   <b>world</b></p></body></html>",
        id="head-script-no-doctype",
    ),
]


@pytest.mark.parametrize("variant", SAME_AS_PLAIN)
def test_tokens_ignore_scripts_styles_comments_and_whitespace(variant: str) -> None:
    plain = page("<p>Hello <b>world</b></p>")
    assert list(tokens(variant)) == list(tokens(plain))


@pytest.mark.parametrize(
    "variant",
    [
        page("<p>Hello <b>World</b></p>"),
        page("<p>Hello <i>world</i></p>"),
        page("<p class='x'>Hello <b>world</b></p>"),
        page("<p>Hello</p><b>world</b>"),
        page("<p>Hello <b>world</b>!</p>"),
    ],
)
def test_tokens_differ_for_different_text_tags_attributes_or_nesting(variant: str) -> None:
    assert list(tokens(variant)) != list(tokens(page("<p>Hello <b>world</b></p>")))


def test_tokens_attribute_order_does_not_matter() -> None:
    a = page('<a href="/x" class="k" title="t">x</a>')
    b = page('<a title="t" class="k" href="/x">x</a>')
    assert list(tokens(a)) == list(tokens(b))


@pytest.mark.parametrize("html", ["", "   \n\t "])
def test_tokens_of_empty_document(html: str) -> None:
    assert list(tokens(html)) == []


def test_text_after_a_comment_or_script_counts() -> None:
    a = page("<p>Results: <!-- react-text -->12</p>")
    b = page("<p>Results: <!-- react-text -->13</p>")
    assert key(a) != key(b)
    c = page("<td>Total<script>track()</script> 5 EUR</td>")
    d = page("<td>Total<script>track()</script> 9 EUR</td>")
    assert key(c) != key(d)


def test_comment_inside_text_is_ignored() -> None:
    assert list(tokens(page("<p>ab</p>"))) == list(tokens(page("<p>a<!--x-->b</p>")))


# ---- DomModel ---------------------------------------------------------------------------------


def test_dom_key_is_16_hex() -> None:
    assert re.fullmatch(r"[0-9a-f]{16}", key(page("<p>x</p>")))


def test_dom_key_is_deterministic() -> None:
    html = page("<p id='a'>x</p>")
    assert key(html) == key(html)
    assert DomModel().key(Snapshot("u", "t", html), NOTHING) == key(html)


@pytest.mark.parametrize("variant", SAME_AS_PLAIN)
def test_dom_key_equal_for_insignificant_differences(variant: str) -> None:
    assert key(variant) == key(page("<p>Hello <b>world</b></p>"))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (page("<p>3 results</p>"), page("<p>4 results</p>")),
        (page("<a href='/a'>x</a>"), page("<a href='/b'>x</a>")),
        (page("<button>Go</button>"), page("<button disabled>Go</button>")),
        (page("<div aria-expanded='false'>x</div>"), page("<div aria-expanded='true'>x</div>")),
        (page("<p>x</p>"), page("<p>x</p><p></p>")),
    ],
)
def test_dom_key_differs_for_different_text_or_attributes(a: str, b: str) -> None:
    assert key(a) != key(b)


def test_dom_key_includes_form_values() -> None:
    html = page("<form><input name='q'></form>")
    empty = key(html, form=[["html/body/form/input", "q", ""]])
    filled = key(html, form=[["html/body/form/input", "q", "laser"]])
    other = key(html, form=[["html/body/form/input", "q", "maser"]])
    assert len({empty, filled, other}) == 3
    assert key(html) != empty


def test_dom_key_form_entry_order_does_not_matter() -> None:
    html = page("<form><input name='a'><input name='b'></form>")
    a = ["html/body/form/input", "a", "1"]
    b = ["html/body/form/input", "b", "2"]
    assert key(html, form=[a, b]) == key(html, form=[b, a])


def test_dom_key_form_field_identity_counts() -> None:
    html = page("<form><input name='a'><input name='b'></form>")
    assert key(html, form=[["p", "a", "1"]]) != key(html, form=[["p", "b", "1"]])


def shadow_host(text: str, mode: str = ' shadowrootmode="open"') -> str:
    """A custom element whose (declarative) template holds ``text``."""
    return page(f"<x-card><template{mode}><p>{text}</p></template><b>light</b></x-card>")


def test_dom_key_counts_the_content_of_a_shadow_root_template() -> None:
    """A serialized open shadow root is what the user sees: its content tells states apart."""
    assert key(shadow_host("0 left")) != key(shadow_host("1 left"))
    assert key(shadow_host("0 left")) == key(shadow_host("0 left"))


def test_dom_key_still_ignores_a_plain_template() -> None:
    """A plain ``<template>`` is inert markup the page clones from: never part of the state."""
    assert key(shadow_host("0 left", mode="")) == key(shadow_host("1 left", mode=""))


# ---- masking ----------------------------------------------------------------------------------

CLOCK = frozenset({"#clock|content"})


def clock_page(time: str, text: str = "Results") -> str:
    return page(f'<header><span id="clock">{time}</span></header><main><h1>{text}</h1></main>')


def test_masked_content_gives_equal_keys() -> None:
    assert key(clock_page("10:01")) != key(clock_page("10:02"))
    assert key(clock_page("10:01"), CLOCK) == key(clock_page("10:02"), CLOCK)


def test_masked_content_masks_the_whole_subtree() -> None:
    a = page('<div id="clock"><b>10</b>:<i>01</i></div>')
    b = page('<div id="clock"><span>10:02</span></div>')
    assert key(a, CLOCK) == key(b, CLOCK)


def test_masking_does_not_hide_other_differences() -> None:
    assert key(clock_page("10:01", "Results"), CLOCK) != key(clock_page("10:02", "Details"), CLOCK)


def test_masked_content_keeps_the_text_after_the_element() -> None:
    a = page('<p><span id="clock">10:01</span> 3 results</p>')
    b = page('<p><span id="clock">10:02</span> 4 results</p>')
    assert key(a, CLOCK) != key(b, CLOCK)


def test_masked_attribute_gives_equal_keys() -> None:
    a = page('<main data-n="x1">Hi</main>')
    b = page('<main data-n="y2">Hi</main>')
    volatile = {"html/body/main|@data-n"}
    assert key(a) != key(b)
    assert key(a, volatile) == key(b, volatile)


def test_masked_attribute_is_only_that_attribute() -> None:
    volatile = {"html/body/main|@data-n"}
    a = page('<main data-n="x1" class="k">Hi</main>')
    assert key(a, volatile) != key(page('<main data-n="y2" class="k">Ho</main>'), volatile)
    assert key(a, volatile) != key(page('<main data-n="y2" class="j">Hi</main>'), volatile)


def test_masked_attribute_still_counts_its_presence() -> None:
    volatile = {"html/body/main|@data-n"}
    with_attribute = key(page('<main data-n="1">Hi</main>'), volatile)
    assert with_attribute != key(page("<main>Hi</main>"), volatile)


def test_a_masked_style_still_tells_whether_it_hides_its_element() -> None:
    """A fade's opacity is noise; a panel an action shows or hides is a state of its own."""
    volatile = {"#panel|@style"}
    shown = key(page('<div id="panel" style="opacity: 0.4">Details</div>'), volatile)
    assert shown == key(page('<div id="panel" style="opacity: 1">Details</div>'), volatile)
    hidden = key(page('<div id="panel" style="opacity: 1; display: none">Details</div>'), volatile)
    assert hidden != shown
    assert hidden == key(page('<div id="panel" style="display:none">Details</div>'), volatile)


def test_text_shares_count_the_text_under_a_name() -> None:
    html = page('<div id="content"><h1>Welcome</h1><p id="t">10:01</p></div><nav>Menu</nav>')
    names = ["#content|content", "#t|content", "#content|@class", "#content|@data-x"]
    names.append("#gone|content")
    shares = text_shares(html, names)
    total = len("Welcome") + len("10:01") + len("Menu")
    assert shares["#content|content"] == shares["#content|@class"] == 12 / total
    assert shares["#t|content"] == 5 / total
    assert shares["#content|@data-x"] == 0
    assert "#gone|content" not in shares  # (not judged on a page without it)


def test_path_steps_use_sorted_classes() -> None:
    a = page('<div class="b a"><span data-n="1">x</span></div>')
    b = page('<div class="b a"><span data-n="2">x</span></div>')
    volatile = {"html/body/div.a.b/span|@data-n"}
    assert key(a, volatile) == key(b, volatile)
    assert key(a, {"html/body/div.b.a/span|@data-n"}) != key(b, {"html/body/div.b.a/span|@data-n"})


def test_path_starts_at_nearest_id_ancestor() -> None:
    def results(text: str) -> str:
        items = f'<ul class="r"><li>{text}</li></ul>'
        return page(f'<div id="outer"><section id="list">{items}</section></div>')

    a, b = results("1 hit"), results("2 hits")
    assert key(a, {"#list/ul.r/li|content"}) == key(b, {"#list/ul.r/li|content"})
    assert key(a, {"#outer/section/ul.r/li|content"}) != key(b, {"#outer/section/ul.r/li|content"})
    assert key(a, {"html/body/div/section/ul.r/li|content"}) != key(
        b, {"html/body/div/section/ul.r/li|content"}
    )


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Published a few seconds ago", "Published 7 minutes ago"),
        ("Edited an hour ago by Alice", "Edited 2 hours ago by Alice"),
        ("Expires in 3 days", "Expires in a month"),
        ("Seen just now", "Seen 5m ago"),
        ("Updated 5 Minutes Ago", "Updated 2 Hours Ago"),
        ("Veröffentlicht vor einer Minute", "Veröffentlicht vor 12 Minuten"),
        ("Publié il y a 3 jours", "Publié il y a une semaine"),
        ("Publicado hace un mes", "Publicado hace 2 años"),
        ("Publicado há 2 anos", "Publicado há um mês"),
    ],
)
def test_time_told_relative_to_now_is_one_state(a: str, b: str) -> None:
    """A page says the same thing again later with another number: no action did it."""
    assert key(page(f"<p>{a}</p>")) == key(page(f"<p>{b}</p>"))
    assert volatile_between(page(f"<p>{a}</p>"), page(f"<p>{b}</p>")) == set()


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Published 7 minutes ago", "Published 7 minutes ago by Bob"),
        ("Sold 3 apples", "Sold 4 apples"),
        ("Moved in 2019", "Moved in 2020"),
        ("Chapter 3 in a minute", "Chapter 4 in a minute"),
    ],
)
def test_the_rest_of_a_text_with_a_relative_time_still_counts(a: str, b: str) -> None:
    assert key(page(f"<p>{a}</p>")) != key(page(f"<p>{b}</p>"))


def test_where_the_focus_is_is_not_a_state() -> None:
    """The marks a UI kit puts on a focused control and its ancestors are left out, in keys
    and in the paths of masks; a class that merely has the word in it counts."""
    focused = page(
        '<div class="MuiAutocomplete-root Mui-focused"><div class="MuiInputBase-root '
        'Mui-focused"><input class="focus-visible" data-focus-visible-added></div></div>'
        '<button class="p-button p-focus" data-focus="true">Go</button>'
    )
    blurred = page(
        '<div class="MuiAutocomplete-root"><div class="MuiInputBase-root">'
        '<input></div></div><button class="p-button">Go</button>'
    )
    assert key(focused) == key(blurred)
    assert dom._step(dom.parse(focused).find(".//div")) == "div.MuiAutocomplete-root"
    mode = page('<main class="focus-mode">Text</main>')
    assert key(mode) != key(page("<main>Text</main>"))
    assert key(page('<i class="autofocus"></i>')) != key(page("<i></i>"))


def test_a_ripples_empty_element_is_not_a_state() -> None:
    """A kit makes a ripple's element the first time a control is pressed, and keeps it."""
    pressed = page(
        '<button class="MuiButton-root">Save<span class="MuiTouchRipple-root css-4mb1j7">'
        '<span class="MuiTouchRipple-ripple MuiTouchRipple-rippleVisible"></span></span>'
        '</button><a class="v-btn">Go<span class="v-ripple__container"></span></a>'
    )
    untouched = page('<button class="MuiButton-root">Save</button><a class="v-btn">Go</a>')
    assert key(pressed) == key(untouched)
    assert volatile_between(pressed, untouched) == set()  # no mask needed
    texted = page('<div class="ripple-price">0.52 USD</div>')
    assert key(texted) != key(page("<div>0.52 USD</div>"))


def test_two_patents_that_differ_only_in_their_number_stay_distinct() -> None:
    def patent(number: str, time: str) -> str:
        return page(
            f'<header><span id="clock">{time}</span></header>'
            f'<article id="patent"><h2>US {number} B2</h2><p>Laser diode</p></article>'
        )

    a, b = patent("7,654,321", "10:01"), patent("7,654,322", "10:02")
    assert key(a, CLOCK) != key(b, CLOCK)
    assert key(a, CLOCK, TextModel()) != key(b, CLOCK, TextModel())
    assert key(patent("7,654,321", "10:03"), CLOCK) == key(a, CLOCK)


# ---- volatile_between -------------------------------------------------------------------------


def test_volatile_between_names_differing_text_and_attributes() -> None:
    a = page('<p id="t">10:01</p><main data-n="x1" lang="en">Hi</main>')
    b = page('<p id="t">10:02</p><main data-n="y2" lang="en">Hi</main>')
    assert volatile_between(a, b) == {"#t|content", "html/body/main|@data-n"}


def test_text_beside_elements_is_masked_without_them() -> None:
    """A footer whose own text is a timing, beside links (Datasette's "Queries took 15.4ms"):
    its text is volatile, its links still count."""
    a = page('<footer>Powered by <a href="/d">D</a> · Queries took 15.4ms</footer>')
    b = page('<footer>Powered by <a href="/d">D</a> · Queries took 9.3ms</footer>')
    names = volatile_between(a, b)
    assert names == {"html/body/footer|text"}
    masked = frozenset(names)
    assert list(tokens(a, masked)) == list(tokens(b, masked))
    other = a.replace('href="/d">D<', 'href="/e">E<')
    assert list(tokens(other, masked)) != list(tokens(a, masked))
    assert 0 < text_shares(a, names)["html/body/footer|text"] < 1


def test_volatile_between_identical_is_empty() -> None:
    html = page("<p id='t'>same</p>")
    assert volatile_between(html, html) == set()


def test_volatile_between_ignores_whitespace_and_scripts() -> None:
    a = page("<p>x</p><script>var nonce = 1</script>")
    b = page("<p>  x\n</p><script>var nonce = 2</script>")
    assert volatile_between(a, b) == set()


def test_volatile_between_paths_use_sorted_classes() -> None:
    a = page('<div class="b a"><span>1</span></div>')
    b = page('<div class="b a"><span>2</span></div>')
    assert volatile_between(a, b) == {"html/body/div.a.b/span|content"}


@pytest.mark.parametrize(
    ("a", "b"),
    [
        pytest.param(page("<p>x</p>"), page("<p>x</p><p>y</p>"), id="extra element"),
        pytest.param(page("<p>x</p>"), page("<div>x</div>"), id="different tag"),
        pytest.param(page("<p>x</p>"), page("<p title='t'>x</p>"), id="extra attribute"),
        pytest.param(page("<p lang='en'>x</p>"), page("<p dir='ltr'>x</p>"), id="other attribute"),
        pytest.param(page("<p id='a'>x</p>"), page("<p id='b'>x</p>"), id="different id"),
        pytest.param(page("<p class='a'>x</p>"), page("<p class='b'>x</p>"), id="class no id"),
        pytest.param(page("<p>x</p>"), "", id="empty"),
    ],
)
def test_volatile_between_none_when_structure_differs(a: str, b: str) -> None:
    assert volatile_between(a, b) is None
    assert volatile_between(b, a) is None


def test_volatile_between_class_change_under_an_id_is_an_attribute() -> None:
    a = page('<div id="s" class="busy">x</div>')
    b = page('<div id="s" class="idle">x</div>')
    assert volatile_between(a, b) == {"#s|@class"}


def test_masking_what_volatile_between_finds_makes_the_keys_equal() -> None:
    a = page(
        '<header><span id="clock">10:01</span></header>'
        '<ul class="ads"><li data-nonce="a1">Ad</li><li>Buy <b>now</b></li></ul>'
        '<footer class="z y"><small>42 visitors</small></footer>'
    )
    b = (
        a.replace("10:01", "10:07")
        .replace('data-nonce="a1"', 'data-nonce="b2"')
        .replace("42 visitors", "43 visitors")
    )
    found = volatile_between(a, b)
    assert found == {
        "#clock|content",
        "html/body/ul.ads/li|@data-nonce",
        "html/body/footer.y.z/small|content",
    }
    assert key(a) != key(b)
    assert key(a, found) == key(b, found)


# ---- generated_between: values made up per action ---------------------------------------------

UUID_A = "4f1c2a9e-77b0-4c1e-9d2b-0a6f3e5d8c71"
UUID_B = "0b9d7e6c-2f4a-4b3e-8c1d-9e8f7a6b5c4d"


def item(value: str, text: str = "milk") -> str:
    """A list item carrying ``value`` as its ``data-key``, with ``text`` after a time stamp."""
    return page(f'<ul id="list"><li data-key="{value}">{text}</li></ul>')


@pytest.mark.parametrize(
    ("a", "b"),
    [
        pytest.param(UUID_A, UUID_B, id="uuid"),
        pytest.param("k3j9x2ab0q", "p8q1z7mn4w", id="base-36 with digits"),
        pytest.param("k3j9x2ab0q", "pwqhzvmnrt", id="base-36 with and without digits"),
        pytest.param("pwqhzvmnrt", "k3j9x2ab0q", id="base-36 without and with digits"),
        pytest.param("1732998091234", "1732998095678", id="13-digit timestamp"),
        pytest.param("2026-11-30", "2026-12-01", id="ISO date"),
        pytest.param("2026-11-30T21:21:31Z", "2026-12-01T08:02:11.512Z", id="ISO date-time"),
        pytest.param("10:01", "9:59", id="hh:mm"),
    ],
)
def test_generated_between_accepts_generated_values_in_attributes(a: str, b: str) -> None:
    assert generated_between(item(a), item(b)) == {"#list/li|@data-key"}


@pytest.mark.parametrize(
    ("a", "b"),
    [
        pytest.param(f"added {UUID_A}", f"added {UUID_B}", id="uuid"),
        pytest.param("ref k3j9x2ab0q", "ref p8q1z7mn4w", id="base-36"),
        pytest.param("at 1732998091234 ms", "at 1732998095678 ms", id="13-digit timestamp"),
        pytest.param("due 2026-11-30", "due 2026-12-01", id="ISO date"),
        pytest.param("saved at 10:01", "saved at 10:07:42", id="hh:mm"),
    ],
)
def test_generated_between_accepts_generated_values_in_text(a: str, b: str) -> None:
    left, right = page(f'<p id="note">{a}</p><p>milk</p>'), page(f'<p id="note">{b}</p><p>milk</p>')
    assert generated_between(left, right) == {"#note|content"}


@pytest.mark.parametrize(
    ("a", "b"),
    [
        pytest.param(
            page('<span id="n">1 left</span>'), page('<span id="n">2 left</span>'), id="count"
        ),
        pytest.param(
            page('<main data-view="summary">x</main>'),
            page('<main data-view="reviews">x</main>'),
            id="tab name of the same length",
        ),
        pytest.param(item(UUID_A, "milk"), item(UUID_B, "eggs"), id="uuid and a real change"),
        pytest.param(item(UUID_A), page(f'<ul id="list"><li data-key="{UUID_A}">milk</li>'
                                        "<li>eggs</li></ul>"), id="extra element"),
        pytest.param(item(UUID_A), item(UUID_A).replace("<li ", "<li hidden "),
                     id="extra attribute"),
        pytest.param(item(UUID_A), item(UUID_A).replace("li", "p"), id="different tag"),
        pytest.param(item(UUID_A), "", id="empty"),
    ],
)
def test_generated_between_none_for_any_other_difference(a: str, b: str) -> None:
    assert generated_between(a, b) is None
    assert generated_between(b, a) is None


def test_generated_between_accepts_counter_attribute_names() -> None:
    """A kit's per-instance attribute (``pc23``: the 23rd component mounted since the load)
    differs with the page's history, not with what it shows: its stem is learned."""

    def dialog(first: int) -> str:
        return page(f'<div id="dlg"><button pc{first}="" class="b">Cancel</button>'
                    f'<button pc{first + 1}="" pc{first + 2}="" class="b">Confirm</button></div>')

    a, b = dialog(23), dialog(26)
    found = generated_between(a, b)
    assert found == {"#dlg/button.b|@pc#"}
    assert key(a) != key(b)
    assert key(a, found) == key(b, found)
    assert key(a, found) != key(dialog(23).replace("Confirm", "Archive"), found)


@pytest.mark.parametrize(
    "b",
    [
        pytest.param('<p id="x" pc24="">a</p><p id="y">b</p>', id="another text"),
        pytest.param('<p id="x" pc24="" pc25="">a</p><p id="y">a</p>', id="one more"),
        pytest.param('<p id="x" pd24="">a</p><p id="y">a</p>', id="another stem"),
        pytest.param('<p id="x" pc24="on">a</p><p id="y">a</p>', id="another value"),
        pytest.param('<p id="x" pc="">a</p><p id="y">a</p>', id="no digits"),
    ],
)
def test_generated_between_counter_names_and_any_other_difference(b: str) -> None:
    a = page('<p id="x" pc23="">a</p><p id="y">a</p>')
    assert generated_between(a, page(b)) is None
    assert generated_between(page(b), a) is None


def test_generated_between_equal_doms_is_empty() -> None:
    assert generated_between(item(UUID_A), item(UUID_A)) == set()


def test_generated_id_anchors_no_path_but_a_real_id_does() -> None:
    """A uuid id is no anchor: the name goes through the tag.class chain to ``#results``."""

    def row(ident: str, time: str) -> str:
        return page(
            f'<section id="results"><ul><li id="{ident}" class="row">'
            f"<time>{time}</time> milk</li></ul></section>"
        )

    a, b = row(UUID_A, "10:01"), row(UUID_B, "10:02")
    found = generated_between(a, b)
    assert found == {"#results/ul/li.row|@id", "#results/ul/li.row/time|content"}
    assert key(a) != key(b)
    assert key(a, found) == key(b, found)
    assert volatile_between(row(UUID_A, "10:01"), row(UUID_A, "10:02")) == {
        "#results/ul/li.row/time|content"
    }
    assert volatile_between(row("milk", "10:01"), row("milk", "10:02")) == {"#milk/time|content"}
    assert dom.GENERATED_ID.search(UUID_A) and not dom.GENERATED_ID.search("results")
    # a chart toolbar's six hex digits, drawn anew each load: digits only, letters only, both
    for made in ("modebar-929528", "modebar-beecbc", "modebar-c29e92"):
        assert dom.GENERATED_ID.search(made), made


def test_the_page_agent_names_paths_by_the_same_rules() -> None:
    """The agent names the parts it sees change as the model does: the same pattern of ids
    made up per page view, the same marks of focus left out of a step."""
    agent = (Path(statecrawl.browser.__file__).parent / "agent.js").read_text()
    for name, pattern in (("GENERATED_ID", dom.GENERATED_ID), ("FOCUS_CLASS", dom.FOCUS_CLASS)):
        literal = re.search(rf"const {name} = /(.+)/i;", agent)
        assert literal is not None, name
        assert literal.group(1) == pattern.pattern and pattern.flags & re.IGNORECASE, name


def test_module_doctests_pass() -> None:
    result = doctest.testmod(dom)
    assert result.attempted > 0
    assert result.failed == 0


# ---- growth that repeats --------------------------------------------------------------------


def lines(*texts: str, tag: str = "p") -> str:
    return page('<h1>Log</h1><div id="log">' + "".join(f"<{tag}>{t}</{tag}>" for t in texts)
                + "</div><footer>end</footer>")  # fmt: skip


def test_one_more_copy_is_a_repetition_counted_by_the_copies_held() -> None:
    for held in (1, 2, 5):
        found = repetition(lines(*["More"] * held), lines(*["More"] * (held + 1)))
        assert found == Repetition("<p>More</p>", held)


def test_copies_inserted_first_or_between_are_repetitions_too() -> None:
    before = page("<ul><li>a</li><li>b</li></ul>")
    assert repetition(before, page("<ul><li>a</li><li>a</li><li>b</li></ul>")) is not None
    assert repetition(before, page("<ul><li>b</li><li>a</li><li>b</li></ul>")) is not None


def test_counters_in_attributes_and_generated_text_make_no_other_fragment() -> None:
    def buttons(count: int) -> str:
        return page("".join(f'<button id="b{n}" data-n="{n}">Add</button>' for n in range(count)))

    assert repetition(buttons(1), buttons(3)) == Repetition(
        '<button id="b1" data-n="1">Add</button>', 1
    )
    assert repetition(buttons(3), buttons(5)) is not None
    stamped = repetition(lines(f"Saved {UUID_A} at 10:01"),
                         lines(f"Saved {UUID_A} at 10:01", f"Saved {UUID_B} at 10:02"))  # fmt: skip
    assert stamped is not None and stamped.copies == 1


def test_growth_by_other_words_or_counted_text_is_no_repetition() -> None:
    assert repetition(lines("Buy milk"), lines("Buy milk", "Walk the dog")) is None
    assert repetition(lines("Item 1"), lines("Item 1", "Item 2")) is None
    assert repetition(lines("x", tag="h1"), lines("x", tag="h1") + "<h2>x</h2>") is None


def test_anything_else_changed_is_no_repetition() -> None:
    one, two = lines("More"), lines("More", "More")
    assert repetition(one, two.replace("end", "the end")) is None  # a change besides
    assert repetition(two, one) is None  # a removal
    assert repetition(one, one) is None  # nothing inserted
    assert repetition(lines(), one) is None  # the first one: no copy of anything held
    assert repetition(one, two.replace("<h1>Log</h1>", "")) is None
    assert repetition("", two) is None


def test_copies_in_two_places_count_by_the_fewest_held() -> None:
    before = page("<ul><li>a</li></ul><ol><li>b</li><li>b</li></ol>")
    after = page("<ul><li>a</li><li>a</li></ul><ol><li>b</li><li>b</li><li>b</li></ol>")
    found = repetition(before, after)
    assert found is not None and found.copies == 1


def test_volatile_parts_may_differ_and_long_fragments_are_cut() -> None:
    clock = '<p id="clock">{}</p>'
    text = "word " * 40
    before = page(clock.format("ten past") + f'<div id="log"><p>{text}</p></div>')
    after = page(clock.format("eleven past") + f'<div id="log"><p>{text}</p><p>{text}</p></div>')
    assert repetition(before, after) is None
    found = repetition(before, after, frozenset({"#clock|content"}))
    assert found is not None and len(found.fragment) == growth.EXCERPT
    assert found.fragment.endswith("\u2026")


def test_a_deep_dom_takes_no_recursion() -> None:
    deep = "<div>" * 1500 + "{}" + "</div>" * 1500  # (deeper than Python's stack)
    found = repetition(page(deep.format("<p>x</p>")), page(deep.format("<p>x</p><p>x</p>")))
    assert found == Repetition("<p>x</p>", 1)


def test_growth_doctests_pass() -> None:
    result = doctest.testmod(growth)
    assert result.attempted > 0
    assert result.failed == 0


# ---- the other models -------------------------------------------------------------------------


def test_exact_model_every_byte_counts() -> None:
    html = page("<p>x</p>")
    assert key(html, model=ExactModel()) == key(html, model=ExactModel())
    assert key(html, model=ExactModel()) != key(html + " ", model=ExactModel())
    assert key(html, model=ExactModel()) != key(html + "<!---->", model=ExactModel())


def test_exact_model_ignores_volatile_and_form() -> None:
    a, b = clock_page("10:01"), clock_page("10:02")
    assert key(a, CLOCK, ExactModel()) != key(b, CLOCK, ExactModel())
    assert key(a, model=ExactModel(), form=[["p", "q", "1"]]) == key(a, model=ExactModel())


def test_structure_model_ignores_text_and_attribute_values() -> None:
    a = page('<ul id="r" class="list"><li><a href="/p/1">Laser</a></li></ul>')
    b = page('<ul id="r" class="list"><li><a href="/p/2" title="t">Maser</a></li></ul>')
    assert key(a, model=StructureModel()) == key(b, model=StructureModel())


def test_structure_model_ignores_class_order_and_form() -> None:
    a = page('<div class="a b"></div>')
    b = page('<div class=" b  a"></div>')
    assert key(a, model=StructureModel()) == key(b, model=StructureModel())
    assert key(a, model=StructureModel(), form=[["p", "q", "1"]]) == key(a, model=StructureModel())


@pytest.mark.parametrize(
    "variant",
    [
        page('<ul id="s" class="list"><li></li></ul>'),
        page('<ul id="r" class="grid"><li></li></ul>'),
        page('<ol id="r" class="list"><li></li></ol>'),
        page('<ul id="r" class="list"><li></li><li></li></ul>'),
    ],
)
def test_structure_model_counts_tags_ids_and_classes(variant: str) -> None:
    plain = page('<ul id="r" class="list"><li></li></ul>')
    assert key(variant, model=StructureModel()) != key(plain, model=StructureModel())


def test_structure_model_counts_nesting() -> None:
    a = page("<div><p></p></div><span></span>")
    b = page("<div><p></p><span></span></div>")
    assert key(a, model=StructureModel()) != key(b, model=StructureModel())


def test_structure_model_of_empty_document() -> None:
    assert re.fullmatch(r"[0-9a-f]{16}", key("", model=StructureModel()))
    assert key("", model=StructureModel()) != key(page(""), model=StructureModel())


def test_text_model_ignores_markup_that_shows_nothing_new() -> None:
    a = page("<p>Hello <b>world</b></p>")
    b = page('<div class="x"><span>Hello</span> <i>world</i></div>')
    assert key(a, model=TextModel()) == key(b, model=TextModel())
    assert key(a) != key(b)


def test_text_model_counts_text_and_masks_volatile() -> None:
    assert key(page("<p>a</p>"), model=TextModel()) != key(page("<p>b</p>"), model=TextModel())
    a, b = clock_page("10:01"), clock_page("10:02")
    assert key(a, model=TextModel()) != key(b, model=TextModel())
    assert key(a, CLOCK, TextModel()) == key(b, CLOCK, TextModel())


def test_text_model_counts_text_that_starts_with_a_less_than_sign() -> None:
    a = page("<p>&lt;5 results</p>")
    b = page("<p>&lt;9 results</p>")
    assert key(a, model=TextModel()) != key(b, model=TextModel())


# ---- registry ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "cls"),
    [("dom", DomModel), ("exact", ExactModel), ("structure", StructureModel), ("text", TextModel)],
)
def test_get_model_builtins(name: str, cls: type) -> None:
    model = get_model(name)
    assert isinstance(model, cls)
    assert model.name == name


def test_get_model_unknown_lists_builtins() -> None:
    with pytest.raises(ConfigError, match="unknown state model 'nope'") as info:
        get_model("nope")
    assert "dom, exact, structure, text" in str(info.value)
