"""Field values anywhere in the page and waiting for late widgets, in a real headless
Chromium: loose fields (no form) filled before the link whose onclick reads them, by name and
by CSS selector, random values of a kind drawn from the seed; a widget shown a second after
load or after an action seen with the default settings; wait conditions met and timed out."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import statecrawl
from tests.conftest import Site, serving

# Fields loose in the page, read by a link's onclick (no form anywhere), as a page that
# loads its sections into one area does.
LOOSE = """<!doctype html><title>loose</title>
<div id="content">
  <div class="panel">
    <label>Name <input name="name"></label>
    <input id="city">
    <input class="zip">
    <input id="mail" type="email">
    <input id="age" type="number" min="18" max="99">
    <a href="#" onclick="send(); return false;">Send</a>
  </div>
  <p id="out"></p>
</div>
<script>
function send() {
  var v = function (css) { return document.querySelector(css).value; };
  document.getElementById('out').textContent =
    'sent ' + [v('[name=name]'), v('#city'), v('.zip'), v('#mail'), v('#age')].join(' / ');
}
</script>"""

SENT = re.compile(r"<p id=\"out\">sent ([^<]*)</p>")

# A widget a second after load, and a panel a second after a click; and two loops that would
# hold every settle if their long timers were pending work: one polls through fetch, one sets
# a timer from an interval.
LATE = """<!doctype html><title>late</title>
<button id="open" onclick="setTimeout(function () {
  var p = document.createElement('p'); p.id = 'panel'; p.textContent = 'panel after a second';
  document.body.appendChild(p);
}, 1000)">Open</button>
<script>
setTimeout(function () {
  var w = document.createElement('div'); w.id = 'widget'; w.textContent = 'widget after a second';
  document.body.appendChild(w);
}, 1000);
function poll() {
  fetch('/ping').then(function (r) { return r.text(); })
    .then(function () { setTimeout(poll, 1000); });
}
poll();
setInterval(function () { setTimeout(function () {}, 1000); }, 900);
</script>"""

# A widget three seconds after load: beyond any timer window, seen only when waited for.
SLOW = """<!doctype html><title>slow</title><p>loading</p>
<script>
setTimeout(function () {
  var w = document.createElement('div'); w.id = 'late'; w.textContent = 'after three seconds';
  document.body.appendChild(w);
}, 3000);
</script>"""

FIELDS: dict[str, Any] = {
    "values": {"name": ["Ada", "Bob"]},
    "fields": [
        {"name": "City", "values": ["Oslo"]},
        {"css": ".zip", "values": ["0150"]},
        {"css": "#mail", "kind": "email"},
        {"css": "#age", "kind": "auto", "count": 2},
    ],
}


@pytest.fixture(scope="module")
def pages() -> Iterator[Site]:
    with serving("127.0.0.1") as server:
        site = Site(server)
        site.html("/loose", LOOSE)
        site.html("/late", LATE)
        site.html("/slow", SLOW)
        site.html("/ping", "pong")
        yield site


def crawl_of(site: Site, path: str, out: Path, **options: Any) -> statecrawl.Crawl:
    options.setdefault("archive", {"enabled": False})
    return statecrawl.crawl(site.url(path), out=out, **options)


@pytest.fixture(scope="module")
def loose(pages: Site, tmp_path_factory: pytest.TempPathFactory) -> list[statecrawl.Crawl]:
    """The loose-field page crawled twice with one seed, once with another."""
    return [
        crawl_of(pages, "/loose", tmp_path_factory.mktemp("loose"), max_depth=1, seed=seed,
                 inputs=FIELDS)
        for seed in (7, 7, 8)
    ]


def sent(result: statecrawl.Crawl) -> list[list[str]]:
    """What each state's page says was sent, sorted."""
    found = (SENT.search(result.html(s["id"])) for s in result.states())
    return sorted(m.group(1).split(" / ") for m in found if m)


def link_actions(result: statecrawl.Crawl) -> list[dict[str, Any]]:
    return [d for _, _, d in result.graph.edges(data=True) if d.get("event") == "click"]


def test_loose_fields_filled_before_the_link_that_reads_them(loose: list[statecrawl.Crawl]) -> None:
    """Values by name and by selector are typed into fields outside any form before the
    link's onclick runs; one field varied at a time, as for a form's fields."""
    result = loose[0]
    found = sent(result)
    # name: 2 values; age: 2 random values; the others one each -> 3 combinations
    assert len(found) == 3, found
    assert {f[0] for f in found} == {"Ada", "Bob"}
    assert {(f[1], f[2]) for f in found} == {("Oslo", "0150")}
    for *_, mail, age in found:
        assert re.fullmatch(r"[a-z]+@example\.com", mail), mail
        assert age.isdigit() and 18 <= int(age) <= 99, age
    assert len({f[4] for f in found}) == 2  # the two random ages


def test_loose_values_in_the_edges_action(loose: list[statecrawl.Crawl]) -> None:
    """The edge's action carries the values, so two values are two actions."""
    actions = link_actions(loose[0])
    assert len({a["action"] for a in actions}) == 3
    for action in actions:
        assert action["kind"] == "submit"
        assert "name=" in action["action"] and "city=Oslo" in action["action"]
        assert "=0150" in action["action"]  # a field with no name or id: by its locator
        assert re.search(r"mail=[a-z]+%40example\.com", action["action"])


def test_random_values_depend_on_the_seed_alone(loose: list[statecrawl.Crawl]) -> None:
    """Two crawls with one seed type the same random values; another seed others."""
    first, again, other = loose
    assert sent(first) == sent(again)
    assert {a["action"] for a in link_actions(first)} == {a["action"] for a in link_actions(again)}
    assert sent(first) != sent(other)


@pytest.fixture(scope="module")
def late(pages: Site, tmp_path_factory: pytest.TempPathFactory) -> statecrawl.Crawl:
    return crawl_of(pages, "/late", tmp_path_factory.mktemp("late"), max_depth=1)


def test_widget_a_second_after_load_and_after_an_action_seen(late: statecrawl.Crawl) -> None:
    """With the default settings, a widget that a 1 s timer shows is in the state taken at
    load, and a panel a 1 s timer shows after a click is in the state after it."""
    by_depth = {s["depth"]: late.html(s["id"]) for s in late.states()}
    assert 'id="widget"' in by_depth[0]
    assert 'id="panel"' in by_depth[1]


def test_polling_loops_do_not_hold_the_settle(late: statecrawl.Crawl) -> None:
    """Neither the fetch-and-timer loop nor the interval's timers keep the page from
    settling: no load and no action waited out the settle timeout."""
    assert not any(s.get("settle_timed_out") for s in late.states())
    assert not any(d.get("settle_timed_out") for _, _, d in late.graph.edges(data=True))


@pytest.fixture(scope="module")
def slow(pages: Site, tmp_path_factory: pytest.TempPathFactory) -> dict[str, statecrawl.Crawl]:
    """The 3 s widget's page loaded with a wait long enough, one too short, and none."""
    def waits(timeout_ms: int) -> dict[str, Any]:
        return {"waits": [{"url": "/slow$", "css": "#late", "visible": True,
                           "timeout_ms": timeout_ms}]}
    return {
        name: crawl_of(pages, "/slow", tmp_path_factory.mktemp(name), max_depth=0, timing=timing)
        for name, timing in (("long", waits(6000)), ("short", waits(300)), ("none", {}))
    }


def test_wait_condition_sees_a_late_widget(slow: dict[str, statecrawl.Crawl]) -> None:
    """A wait for the 3 s widget takes the state once it shows, and times out nowhere."""
    (state,) = slow["long"].states()
    assert 'id="late"' in slow["long"].html(state["id"])
    assert slow["long"].stats["waits_timed_out"] == 0


def test_wait_too_short_is_recorded_not_an_error(slow: dict[str, statecrawl.Crawl]) -> None:
    """A wait out of time is counted, and the state taken as it is; without a wait the
    widget is not waited for at all."""
    for name in ("short", "none"):
        (state,) = slow[name].states()
        assert 'id="late"' not in slow[name].html(state["id"]), name
    assert slow["short"].stats["waits_timed_out"] >= 1
    assert slow["none"].stats["waits_timed_out"] == 0
