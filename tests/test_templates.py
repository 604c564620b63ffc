"""The templates strategy: a page's template (URL family and structure skeleton), and a crawl
of a server-rendered app of seven templates that reaches them all in fewer transitions than
breadth-first (which loads every item the home page lists before it looks a level down)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import statecrawl
from statecrawl.state import Action, Snapshot
from statecrawl.strategies import Templates, Work
from statecrawl.strategies.templates import SAMPLE, Families, TemplateBook, skeleton
from tests.conftest import Site, served
from tests.pages.templates.app import TEMPLATES, Reach, handler

ITEMS = 30


def test_skeleton_keeps_structure_and_drops_text_ids_and_repeats() -> None:
    one = '<main class="item"><h1 id="t1">Item 1</h1><ul><li><a href="/a">A</a></li></ul></main>'
    many = ('<main class="item"><h1 id="t9">Item 9</h1><ul>'
            + '<li><a href="/b">B</a></li>' * 7 + "</ul></main>")
    assert skeleton(one) == skeleton(many)
    assert skeleton(one) != skeleton(one.replace('class="item"', 'class="user"'))
    assert skeleton(one) != skeleton(one.replace("<ul>", "<ol>").replace("</ul>", "</ol>"))
    deep = "<div>" * 5000 + "</div>" * 5000  # no recursion
    assert skeleton(deep) == skeleton(deep)


def test_families_mask_numbers_query_values_and_many_slugs() -> None:
    families = Families()
    assert families.family("http://h/cal/2024/5") == families.family("http://h/cal/2031/12")
    assert families.family("http://h/list?sort=a&page=2") == families.family(
        "http://h/list?page=9&sort=z")
    assert families.family("http://h/wiki/Apple") != families.family("http://h/wiki/Pear")
    for name in ("Apple", "Pear", "Plum", "Fig", "Lime"):
        families.see(f"http://h/wiki/{name}")
    assert families.family("http://h/wiki/Kiwi") == families.family("http://h/wiki/Apple")
    book = TemplateBook()
    scores = [book.score(Snapshot(f"http://h/item/{n}", "", f"<p>item {n}</p>"))
              for n in range(5)]
    assert scores == [SAMPLE, SAMPLE - 1, SAMPLE - 2, 0, 0]


def link(state: str, url: str, score: float = 1.0) -> Work:
    return Work(state, Action(url, "visible", "click", url, kind="link"), 1, score=score)


def test_new_families_first_then_samples_then_the_rest_and_nothing_dropped() -> None:
    order = Templates()
    works = [*(link("home", f"http://h/item/{n}") for n in range(6)), link("home", "http://h/about"),
             Work("old", Action("b", "visible", "click", "handler:x"), 1, score=0)]
    for work in works:
        order.push(work)
    taken = [order.pop() for _ in range(len(works))]
    assert order.pop() is None and len(order) == 0
    urls = [w.action.action for w in taken if w is not None]
    assert urls[:2] == ["http://h/item/0", "http://h/about"]  # a family of each first
    assert urls[2:4] == ["http://h/item/1", "http://h/item/2"]  # the item family sampled
    assert sorted(urls) == sorted(w.action.action for w in works)  # then the rest: all


@pytest.fixture(scope="module")
def tracker() -> Iterator[Site]:
    for site in served("127.0.0.1"):
        site.prefix("/", handler(ITEMS))
        yield site


def reach(site: Site, strategy: str, tmp_path_factory: pytest.TempPathFactory) -> Reach:
    plugin = Reach()
    statecrawl.crawl(site.url("/"), out=tmp_path_factory.mktemp(strategy), strategy=strategy,
                     max_states=ITEMS + 12, archive={"enabled": False}, plugins=[plugin])
    return plugin


def test_templates_reach_every_template_sooner_than_breadth_first(
    tracker: Site, tmp_path_factory: pytest.TempPathFactory
) -> None:
    ours, bfs = (reach(tracker, s, tmp_path_factory) for s in ("templates", "breadth-first"))
    assert ours.all_after() is not None, ours.first
    assert ours.all_after() < (bfs.all_after() or bfs.fired + 1), (ours.first, bfs.first)
    assert len(ours.first) == len(TEMPLATES)
