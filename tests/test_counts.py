"""One vocabulary of counts: the CLI, ``graph.json``, the report, the service and
``statecrawl.analysis`` print the same figures for one crawl, and ``find_states`` and the
report's search find the same states."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

import pytest
from selenium import webdriver
from werkzeug import Response

import statecrawl
from statecrawl import analysis
from statecrawl.cli import summary
from statecrawl.directory.figures import Counts, counts
from statecrawl.plugins.events import EventLog
from statecrawl.report import build_report
from statecrawl.service.app import counted
from statecrawl.service.jobs import last_figures
from tests.conftest import Site, serving
from tests.test_report import open_report, text, until

PDF = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n"
# A table of records whose cells run together in a DOM's raw text ("3Lithium"), a download
# linked from every page, a link out of scope; the links back home are inferred, not fired.
HOME = """<!doctype html><html><head><title>Catalogue</title></head><body><h1>Catalogue</h1>
<table><tr><th>stock</th><th>title</th></tr>
<tr><td>3</td><td><a href="/item/1">Lithium cell</a></td></tr>
<tr><td>5</td><td><a href="/item/2">Alkaline cell</a></td></tr></table>
<p><a href="/sheet.pdf">Data sheet</a> <a href="{OTHER}/partner">Partner</a></p></body></html>"""
ITEM = """<!doctype html><html><head><title>{name}</title></head><body><h1>{name}</h1>
<p>Made of</p><p>{made}</p>{hidden}<a href="/">Back</a> <a href="/sheet.pdf">Data sheet</a>
</body></html>"""
EXPECTED = Counts(states=3, transitions=2, inferred=2, depth=1, documents=1, downloads=3,
                  out_of_scope=1, records=2)  # fmt: skip


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[statecrawl.Crawl]:
    """The pages above crawled to depth 2 (3 states, a document, a page out of scope), their
    servers kept for the module."""
    with serving("127.0.0.1") as main, serving("127.0.0.1") as other:
        site, elsewhere = Site(main), Site(other)
        site.html("/", HOME.replace("{OTHER}", elsewhere.origin))
        site.html("/item/1", ITEM.format(name="Lithium cell", made="lithium", hidden=""))
        hidden = "<p hidden>lithium recall</p>"
        site.html("/item/2", ITEM.format(name="Alkaline cell", made="zinc", hidden=hidden))
        site.handler("/sheet.pdf", lambda _r: Response(PDF, content_type="application/pdf"))
        elsewhere.html("/partner", "<p>partner</p>")
        out = tmp_path_factory.mktemp("counts") / "out"
        yield statecrawl.crawl(site.url("/"), out=out, max_depth=2,
                               archive={"thumbnails": False})  # fmt: skip


def surfaces_agree(crawl: statecrawl.Crawl, printed: str, tmp_path: Path) -> Counts:
    """Check that the CLI's summary (``printed``), ``graph.json``'s stats, ``analysis``, the
    service (a finished job's counts, its events' end line) and the report's data say
    :func:`counts` of ``crawl``; return them."""
    found = counts(crawl)
    figures = {**asdict(found), "max_depth": found.depth}
    del figures["depth"]
    assert found.describe() + "; " in printed
    # graph.json's stats, written at the end of the crawl (the records included).
    graph = json.loads((crawl.path / "graph.json").read_text(encoding="utf-8"))
    assert figures.items() <= graph["graph"]["stats"].items()
    assert figures.items() <= analysis.summary(statecrawl.load(crawl.path)).items()
    assert counted(crawl.path) == asdict(found)
    events = tmp_path / "events.jsonl"
    log = EventLog(events)
    log.end(crawl.stats)
    log.close()
    assert figures.items() <= (last_figures(events) or {}).items()
    index = build_report(crawl.path, tmp_path / "report")
    script = (index.parent / "data" / "index.js").read_text(encoding="utf-8")
    meta = json.loads(script.removeprefix("SC.index(").removesuffix(");\n"))["meta"]
    assert (meta["summary"], meta["counts"]) == (found.describe(), asdict(found))
    return found


def test_every_surface_prints_the_same_counts(
    catalogue: statecrawl.Crawl, walk_driver: webdriver.Chrome, tmp_path: Path
) -> None:
    printed = io.StringIO()
    summary(catalogue, printed)
    assert printed.getvalue().startswith(counts(catalogue).describe() + "; ")
    found = surfaces_agree(catalogue, printed.getvalue(), tmp_path)
    assert found == EXPECTED
    title = analysis.plot(catalogue).get_title()  # (analysis.plot's title)
    assert title == "3 states, 2 transitions, 1 documents, 1 out of scope"
    # The report as it shows: its header, its list view (a document listed as one).
    open_report(walk_driver, tmp_path / "report" / "index.html")
    assert text(walk_driver, "summary").startswith(found.describe() + " · ")
    walk_driver.execute_script("SC.view('list')")
    until(walk_driver, "return document.querySelectorAll('#list-space .row').length === 5")
    assert text(walk_driver, "list-count") == "3 states, 1 documents, 1 out of scope by depth"
    kinds = walk_driver.execute_script(
        "return Array.from(document.querySelectorAll('#list-space .depth'), (d) => d.textContent)"
    )
    assert sorted(kinds) == ["depth 0", "depth 1", "depth 1", "document", "out of scope"]


def test_find_states_and_the_report_search_find_the_same_states(
    catalogue: statecrawl.Crawl, walk_driver: webdriver.Chrome, tmp_path: Path
) -> None:
    """Both read the visible text with blocks apart: "3 | Lithium cell" is found by
    "lithium", a hidden paragraph is not."""
    found = analysis.find_states(catalogue, "lithium")
    urls = sorted(catalogue.state(s).url for s in found)
    assert urls == [catalogue.start_url, catalogue.start_url + "item/1"]
    open_report(walk_driver, build_report(catalogue.path, tmp_path / "report"))
    walk_driver.execute_script("SC.search('lithium')")
    until(walk_driver, "return document.getElementById('hits').textContent === '2 states'")
    shown = walk_driver.execute_script(
        "return Array.from(document.querySelectorAll('#results .url'), (u) => u.textContent)"
    )
    assert sorted(shown) == urls
