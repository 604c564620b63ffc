"""Query harvesting (statecrawl.harvest.queries) and pagination to the end
(statecrawl.harvest.pagination): the query policy and the page walks without a browser, then crawls
of the plant-registry app
(``tests/pages/registry/``: a keyword form with a collection select, results in a table that
grows by "Load more", a "Sheet" button per row that saves a fetched blob) with no query given."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from werkzeug import Request, Response

from statecrawl.cli import HARVEST_QUERIES, build_config, parser
from statecrawl.config import Config
from statecrawl.directory.resources import payload_digest
from statecrawl.errors import ConfigError
from statecrawl.harvest.pagination import Walks, pager
from statecrawl.harvest.queries import Corpus, Policy, forms, read, terms
from statecrawl.harvest.records import extract
from statecrawl.state import Action
from tests.conftest import Site
from tests.pages.registry import specimens

DEMO_PAGE = Path(__file__).parents[1] / "demo_app" / "static" / "index.html"
NO_DETAILS = {"exclude": ["/specimen/"]}  # the records are in the tables: details cost time


def serve(site: Site) -> None:
    """The registry at /registry/, its search API, a page and a CSV sheet per specimen."""
    site.page("/registry/", "registry/index.html")

    def search(request: Request) -> Response:
        offset = request.args.get("offset", "0")
        found = specimens.search(
            request.args.get("terms", ""),
            request.args.get("collection", "all"),
            int(offset) if offset.isdigit() else 0,
        )
        return Response(json.dumps(found), content_type="application/json")

    def detail(request: Request) -> Response:
        found = specimens.specimen(request.path.rsplit("/", 1)[-1])
        if found is None:
            return Response("no such specimen", status=404)
        body = f"<h1>{found['name']}</h1><p>{found['family']}, {found['region']}</p>"
        return Response(body, content_type="text/html")

    def sheet(request: Request) -> Response:
        found = specimens.sheet(request.path.rsplit("/", 1)[-1])
        if found is None:
            return Response("no such specimen", status=404)
        return Response(found, content_type="text/csv")

    site.handler("/registry/api/search", search)
    site.prefix("/registry/specimen/", detail)
    site.prefix("/registry/api/sheet/", sheet)


def click(label: str) -> Action:
    return Action("b", "visible", "click", "handler:click", label=label)


# ---- without a browser ---------------------------------------------------------------------
def test_terms_and_pager_labels() -> None:
    assert terms("The Lithium-ion battery, 2024: a pack of cells") == [
        "lithium-ion",
        "battery",
        "pack",
        "cells",
    ]
    labels = ("Next \u203a", "Load more", "Page 4", "7", "\u2039 Prev", "Sort")
    assert [pager(click(t)) for t in labels] == ["next", "next", 4, 7, None, None]


def test_forms_reads_the_demo_search_form_and_builds_its_submits() -> None:
    (form,) = forms(DEMO_PAGE.read_text(encoding="utf-8"), "http://127.0.0.1/")
    assert form.locator == "#search-form" and form.text.locator == "#search-q"
    assert form.fields[1].options == ("title", "abstract", "claims")
    assert {"patents", "abstract", "claims", "synthetic"} <= set(form.vocabulary)
    variants = form.variants(2)  # the current values, then one other option of each select
    assert len(variants) == 4 and variants[1][0] == ("#search-field", "abstract")
    action = form.action("drone", variants[1])
    assert action.event == "submit" and action.values[0] == ("#search-q", "drone")
    assert action.action.endswith(" q=drone&field=abstract&from=&to=")


def policy(seed: int = 0, budget: int = 10, vocabulary: tuple[str, ...] | None = None) -> Policy:
    page = DEMO_PAGE.read_text(encoding="utf-8")
    (form,) = forms(page, "http://127.0.0.1/")
    if vocabulary is not None:
        form = type(form)(
            form.locator, form.label, form.prefix, form.submitter, form.fields, vocabulary
        )
    return Policy(form, Corpus(), budget=budget, max_options=1, seed=seed, given=["battery"])


def test_the_next_query_is_the_frequent_term_not_issued_nor_given_nor_returned() -> None:
    p = policy(vocabulary=("battery", "drone"))
    first = p.next()
    assert first is not None and first.term == "drone"  # battery is a given --input value
    for key, text in (("r1", "drone sensor"), ("r2", "drone sensor lidar")):
        first.new += p.corpus.add(key, text, record=True, returned_by="q")
    # seen in details but in no list a query returned: lidar and motor beat sensor
    p.corpus.add("d1", "motor lidar sensor", record=False)
    p.corpus.add("d2", "motor lidar", record=False)
    assert [p.next().term for _ in range(3)] == ["lidar", "motor", "sensor"]


def test_the_same_seed_gives_the_same_queries() -> None:
    def run(seed: int) -> list[str]:
        p = policy(seed, vocabulary=())
        for i in range(30):  # thirty terms seen once each: ties, broken by the seed
            p.corpus.add(f"d{i}", f"word{i:02}x", record=False)
        return [p.next().term for _ in range(10)]

    assert run(7) == run(7)
    assert run(7) != run(8)


def test_saturation_stops_a_form_and_so_does_the_budget() -> None:
    p = policy(budget=50, vocabulary=tuple(f"term{c}" for c in "abcdefghijklmnop"))
    q = p.next()
    for i in range(20):
        q.new += p.corpus.add(f"r{i}", "alpha", record=True, returned_by="q")
    issued = 1
    while p.next() is not None:  # the next ones bring nothing new
        issued += 1
    assert p.stopped == "saturated" and issued == 1 + 5
    p = policy(budget=3, vocabulary=("one", "two", "three", "four"))
    assert [p.next() is not None for _ in range(4)] == [True, True, True, False]
    assert p.stopped == "budget"


def test_walks_number_pages_up_to_the_cap() -> None:
    walks = Walks(3)
    submit = Action("f", "visible", "submit", "SCRIPT GET q=x", kind="submit")
    assert walks.page("root", submit, lists=True) == 1
    walks.enter("p1", 1)
    assert walks.step("p1", click("Next")) == 2 and walks.step("p1", click("3")) == 3
    walks.enter("p3", 3)
    assert walks.step("p3", click("Next")) is None and walks.beyond("p3", click("Next"))
    assert not walks.beyond("p1", click("Next")) and not walks.beyond("p3", click("Open"))
    assert walks.step("p1", click("Open")) is None and Walks(None).step("p1", click("Next")) is None


def test_harvest_and_max_pages_flags() -> None:
    def inputs(*flags: str):
        args = parser().parse_args(["crawl", "http://127.0.0.1/", *flags])
        return build_config(args, args.urls).inputs

    assert inputs("--harvest").harvest == HARVEST_QUERIES and inputs().harvest is None
    assert (
        inputs("--harvest", "9", "--max-pages", "4").harvest,
        inputs("--max-pages", "4").max_pages,
    ) == (9, 4)


def test_harvest_and_max_pages_are_validated() -> None:
    for bad in ({"harvest": 0}, {"max_pages": -1}):
        with pytest.raises(ConfigError, match=r"inputs\.(harvest|max_pages) must be"):
            Config.from_mapping({"start_urls": ["http://127.0.0.1/"], "inputs": bad})


# ---- crawls of the registry ----------------------------------------------------------------
def table_records(result) -> set[str]:
    return {key for s in result.states() for key, _ in extract(result.html(s["id"]), s["url"])}


def test_load_more_to_the_end_one_state_per_page_and_a_cap(site: Site, crawl, tmp_path) -> None:
    serve(site)
    url = site.url("/registry/")
    # 12 specimens in 3 batches of 5, in all collections only (max_options 1)
    query = {"values": {"terms": ["fern moss"]}, "max_options": 1}
    full = crawl(
        url, inputs={**query, "max_pages": 10}, scope=NO_DETAILS, max_depth=2, out=tmp_path / "full"
    )
    expected = {
        f"{url[:-10]}/registry/specimen/{s['id']}"
        for s in specimens.SPECIMENS
        if {"fern", "moss"} & specimens._words(s)
    }
    assert table_records(full) == expected
    rows = sorted(len(extract(full.html(s["id"]), s["url"])) for s in full.states())
    assert [n for n in rows if n] == [5, 10, 12]  # one state per batch
    capped = crawl(
        url,
        inputs={**query, "max_pages": 2},
        scope=NO_DETAILS,
        max_depth=2,
        out=tmp_path / "capped",
    )
    assert len(table_records(capped)) == 10


def sheets(result) -> dict[str, set[str]]:
    """The specimens whose sheet is an archived document with its own bytes, each with the
    states whose download edges saved it."""
    graph = result.graph
    saved: dict[str, set[str]] = {}
    for source, target, edge in graph.edges(data=True):
        if not edge.get("download"):
            continue
        document = graph.nodes[target]
        assert graph.nodes[source]["kind"] == "state" and document["kind"] == "document"
        number = document["filename"].removesuffix(".csv")
        body = specimens.sheet(number)
        if body is not None and document.get("digest") == payload_digest(body.encode()):
            saved.setdefault(number, set()).add(source)
    return saved


def test_harvest_finds_nine_tenths_of_the_registry_unasked(site: Site, crawl, tmp_path) -> None:
    """A budget of 30 queries (27 are issued before saturation): nine tenths of the records
    and of their sheets, each sheet a document of the state that listed it, never a state."""
    serve(site)
    archive = {"thumbnails": False}  # the downloads are known from the network capture
    result = crawl(
        site.url("/registry/"),
        inputs={"harvest": 30, "max_options": 1},
        scope=NO_DETAILS,
        max_depth=2,
        archive=archive,
        out=tmp_path / "harvest",
    )
    found = table_records(result)
    assert len(found) >= 0.9 * len(specimens.SPECIMENS), len(found)
    saved = sheets(result)
    assert len(saved) >= 0.9 * len(specimens.SPECIMENS), sorted(saved)
    for number, sources in saved.items():
        assert any(
            key.endswith("/" + number)
            for s in sources
            for key, _ in extract(result.html(s), result.graph.nodes[s]["url"])
        )
    assert all(s["url"].startswith("http://") for s in result.states())
    assert result.stats["documents"] >= len(saved)
    data = read(result.path)
    assert data is not None and 1 <= len(data["queries"]) <= 30
    assert data["curve"] == sorted(data["curve"]) and data["curve"][-1] == data["records"]
    assert result.stats["queries"] == len(data["queries"])


def test_one_browser_and_one_seed_issue_the_same_queries(site: Site, crawl, tmp_path) -> None:
    serve(site)
    terms_of = []
    for run in range(2):
        result = crawl(
            site.url("/registry/"),
            inputs={"harvest": 3, "max_options": 1},
            scope=NO_DETAILS,
            max_depth=2,
            seed=3,
            out=tmp_path / f"run{run}",
        )
        terms_of.append([q["term"] for q in read(result.path)["queries"]])
    assert terms_of[0] == terms_of[1] and len(terms_of[0]) == 3
