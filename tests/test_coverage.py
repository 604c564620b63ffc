"""JavaScript coverage: coverage.json counts the functions a crawl ran and those it did not,
the same with two browsers as with one, through a resume; the merge logic without a browser."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from werkzeug import Response

import statecrawl
from statecrawl import analysis, coverage
from statecrawl.cli import build_config, parser, summary
from statecrawl.errors import ConfigError
from tests.conftest import PAGES, Site

PAGE = PAGES / "coverage"
# app.html: paint, shade, deep and the blue listener run, ghost never (its button is hidden);
# lib.js: helper and inner run, unused never, nor its nested function and arrow (which V8
# never compiles: counted from the source); other.html: go runs.
RAN = {"paint", "shade", "deep", "", "helper", "inner", "go"}
TOTAL = {"functions_covered": 7, "functions_total": 11}


def serve(site: Site) -> str:
    site.page("/", "coverage/app.html")
    site.page("/other.html", "coverage/other.html")
    script = (PAGE / "lib.js").read_text(encoding="utf-8")
    site.handler("/lib.js", lambda _r: Response(script, content_type="text/javascript"))
    return site.url("/")


def read(out: Path) -> dict[str, Any]:
    return json.loads((out / "coverage.json").read_text(encoding="utf-8"))


def ran(data: dict[str, Any]) -> dict[str, set[str]]:
    """The names of the functions that ran, and of those that did not, over all scripts."""
    functions = [
        f for s in data["scripts"] for source in s["sources"] for f in source["functions"].values()
    ]
    return {
        "ran": {f["name"] for f in functions if f["ran"]},
        "not": {f["name"] for f in functions if not f["ran"]},
    }


def test_coverage_counts_what_ran_and_survives_resume(
    site: Site, crawl: Callable[..., statecrawl.Crawl], tmp_path: Path
) -> None:
    url = serve(site)
    out = tmp_path / "out"
    first = crawl(url, out=out, max_depth=2, max_states=2, browser={"coverage": True})
    before = read(out)
    assert 0 < before["total"]["functions_covered"] < TOTAL["functions_covered"]

    result = crawl(url, out=out, max_depth=2, resume=True, browser={"coverage": True})
    data = read(out)
    assert {k: data["total"][k] for k in TOTAL} == TOTAL
    assert ran(data) == {"ran": RAN, "not": {"ghost", "unused"}}
    scripts = {s["url"].removeprefix(site.origin): s for s in data["scripts"]}
    counted = {u: (s["functions_covered"], s["functions_total"]) for u, s in scripts.items()}
    assert counted == {"/": (4, 5), "/lib.js": (2, 5), "/other.html": (1, 1)}
    lib = scripts["/lib.js"]["sources"][0]
    source = (PAGE / "lib.js").read_text(encoding="utf-8")
    covered = "".join(source[s:e] for s, e in lib["ranges"])
    assert "return inner()" in covered and "nestedUnused() +" not in covered

    # each function a transition ran first is counted on its edge, none twice
    # (those of the first run were kept: replays on the way run them again, unattributed)
    assert all(t in data["transitions"] for t in before["transitions"])
    firsts = [f for t in data["transitions"] for f in t["functions"]]
    assert len(firsts) == len(set(firsts)) == TOTAL["functions_covered"]
    counts = [t.get("new_functions", 0) for t in result.transitions()]
    assert sum(counts) == TOTAL["functions_covered"]
    assert {t["source"] for t in data["transitions"]} <= {s["id"] for s in result.states()}
    assert first.stats["states"] == 2

    frame = analysis.coverage(result)
    assert list(frame.columns) == [
        "url", "functions_covered", "functions_total", "bytes_covered", "bytes_total", "sources"
    ]
    assert int(frame["functions_covered"].sum()) == TOTAL["functions_covered"]
    line = io.StringIO()
    summary(result, line)
    assert "; 7/11 JS functions (64 %)" in line.getvalue()


def test_two_browsers_cover_what_one_does(
    site: Site, crawl: Callable[..., statecrawl.Crawl], tmp_path: Path
) -> None:
    url = serve(site)
    crawl(url, out=tmp_path / "two", max_depth=2, browser={"count": 2, "coverage": True})
    data = read(tmp_path / "two")
    assert {k: data["total"][k] for k in TOTAL} == TOTAL
    assert ran(data) == {"ran": RAN, "not": {"ghost", "unused"}}
    crawl(url, out=tmp_path / "off", max_depth=1)  # off by default
    assert not (tmp_path / "off" / "coverage.json").exists()
    assert analysis.coverage(statecrawl.load(tmp_path / "off")).empty
    # --strategy coverage only orders the work: the same states and the same coverage
    first = crawl(url, out=tmp_path / "first", max_depth=2, strategy="coverage",
                  browser={"coverage": True})
    two = statecrawl.load(tmp_path / "two")
    assert {s["id"] for s in first.states()} == {s["id"] for s in two.states()}
    assert read(tmp_path / "first")["total"] == data["total"]


def test_function_literals_are_counted_from_the_source() -> None:
    source = (
        "var r = /a\\/(b)/g; x = a / b / c; t = `x${ (y) => y }` + `${`${function(){}}`}`;"
        " o = {[k](){}, 's'(){}, 1(){} }; if (a) {} for (;;) {} while (b) {}"
        " class A extends B { static async *g() {} #p() {} get q() { return 1; } }"
        " function f(a) { return a; } async (z) => z; // function not() {}\n"
        " /* () => {} */ 'function' + \"=>\""
    )
    starts = coverage.function_starts(source)
    at = [source[s : s + 6] for s in starts]
    assert at == ["(y) =>", "functi", "[k](){", "'s'(){", "1(){} ", "static", "#p() {",
                  "get q(", "functi", "async "]


def test_merging_records() -> None:
    def record(name: str, start: int, end: int, ran: bool, ranges: list[list[int]],
               inner: int = 0) -> dict[str, Any]:
        return {"url": "http://h/a.js", "digest": "d", "length": 100, "name": name,
                "start": start, "end": end, "top": name == "top", "inner": inner, "ran": ran,
                "ranges": ranges}

    table: dict[str, dict[str, Any]] = {}
    first = {"t": record("top", 0, 100, True, [[0, 100]]),
             "f": record("f", 10, 40, True, [[10, 20], [30, 40]]),
             "g": record("g", 50, 90, False, [], inner=3),
             "h": record("h", 60, 70, False, [])}
    assert coverage.merge(table, first, by=["s", "t", "k"]) == ["f"]
    assert table["f"]["by"] == ["s", "t", "k"]
    # f runs again along its other branch, h now runs: only h is new
    again = {"f": record("f", 10, 40, True, [[10, 35]]), "h": record("h", 60, 70, True, [[60, 70]])}
    assert coverage.merge(table, again) == ["h"]
    assert table["f"]["ranges"] == [[10, 40]]
    data = coverage.report(table, {"s": "S", "t": "T"}.get)
    (script,) = data["scripts"]
    # f, g, h, and the two literals inside g that V8 never compiled (three, one of them h)
    assert (script["functions_covered"], script["functions_total"]) == (2, 5)
    # the top level less f's, g's (and h's) spans, plus f and h
    assert script["sources"][0]["ranges"] == [[0, 50], [60, 70], [90, 100]]
    assert script["bytes_covered"] == 70 and data["total"]["bytes_total"] == 100
    assert data["transitions"] == [{"source": "S", "target": "T", "key": "k", "functions": ["f"]}]


def test_the_switch() -> None:
    def config(*flags: str) -> statecrawl.Config:
        args = parser().parse_args(["crawl", "http://127.0.0.1:4/", *flags])
        return build_config(args, ["http://127.0.0.1:4/"])

    assert config().browser.coverage is False
    assert config("--coverage").browser.coverage is True
    assert config("--coverage", "--no-coverage").browser.coverage is False
    assert config("--coverage").to_dict()["browser"]["coverage"] is True
    with pytest.raises(ConfigError, match=r"browser\.coverage"):
        statecrawl.Config(start_urls=("http://h/",), browser={"coverage": "yes"})
