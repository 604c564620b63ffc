"""The crawl report: real crawls, opened from file:// in a real headless Chromium."""

from __future__ import annotations

import base64
import gzip
import io
import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import lxml.html
import networkx as nx
import pytest
from PIL import Image
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait
from warcio.archiveiterator import ArchiveIterator
from werkzeug import Response

import statecrawl
from statecrawl.config import Archive
from statecrawl.demo_app import DemoApp
from statecrawl.demo_app import data as demo_data
from statecrawl.directory.label import crawl_labels, uniqueness
from statecrawl.directory.paths import searched_text
from statecrawl.report import build_report
from statecrawl.report.builder import pack, script_call, shard, terms
from tests.conftest import PAGES, Site, console_chrome, error_line


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """One Chromium for the module, logging the console."""
    yield from console_chrome(tmp_path_factory.mktemp("report-profile"))


def open_report(driver: webdriver.Chrome, index: Path) -> None:
    driver.get_log("browser")  # drop what earlier tests logged
    driver.get(index.as_uri())
    until(driver, "return document.documentElement.hasAttribute('data-ready')")


def until(driver: webdriver.Chrome, script: str, *args: Any) -> Any:
    return WebDriverWait(driver, 10).until(lambda d: d.execute_script(script, *args))


def open_state(driver: webdriver.Chrome, n: int) -> None:
    driver.execute_script("SC.open(arguments[0])", n)
    until(
        driver,
        "const p = document.getElementById('panel');"
        "return location.hash === '#s' + arguments[0] && !p.hidden && !p.hasAttribute('aria-busy')",
        n,
    )


def text(driver: webdriver.Chrome, element_id: str) -> str:
    return driver.execute_script(
        "return document.getElementById(arguments[0]).textContent", element_id
    )


def assert_no_console_errors(driver: webdriver.Chrome) -> None:
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, "\n".join(errors)


def numbers(path: Path) -> dict[str, int]:
    """Node id -> its number in the report (graph.json order)."""
    return {node: n for n, node in enumerate(statecrawl.load(path).graph.nodes)}


def test_report_of_a_crawl_shows_graph_states_frames_and_search(
    site: Site,
    crawl: Callable[..., statecrawl.Crawl],
    browser: webdriver.Chrome,
    capsys: pytest.CaptureFixture[str],
) -> None:
    site.page("/tabs", "tabs.html")
    archive = {"enabled": True, "screenshots": "all"}  # the state opened below has its own
    result = crawl(site.url("/tabs"), max_depth=2, archive=archive)
    assert statecrawl.cli.main(["report", str(result.path)]) == 0
    index = result.path / "report" / "index.html"
    assert capsys.readouterr().out == f"report: {index}\n"
    specs = next(
        s["id"] for s in result.states() if "<h2>Specifications</h2>" in result.html(s["id"])
    )
    n = numbers(result.path)[specs]

    open_report(browser, index)
    assert browser.title == f"statecrawl report: {site.url('/tabs')}"
    # Clicking the node on the canvas opens its state.
    canvas = browser.find_element(By.ID, "canvas")
    spot = browser.execute_script("return SC.locate(arguments[0])", n)
    box = canvas.rect
    ActionChains(browser).move_to_element_with_offset(
        canvas, int(spot["x"] - box["width"] / 2), int(spot["y"] - box["height"] / 2)
    ).click().perform()
    until(browser, "return location.hash === '#s' + arguments[0]", n)
    until(browser, "return !document.getElementById('panel').hasAttribute('aria-busy')")
    assert text(browser, "s-title") == crawl_labels(result.graph, result.path)[specs]
    assert "titleTabs" in text(browser, "s-facts")
    assert text(browser, "s-url") == site.url("/tabs")
    assert text(browser, "s-out-head") == f"Actions ({result.graph.out_degree(specs)})"
    assert text(browser, "s-in-head") == f"Reached by ({result.graph.in_degree(specs)})"
    out_rows = browser.find_elements(By.CSS_SELECTOR, "#s-out tr")
    assert len(out_rows) == result.graph.out_degree(specs) + 1
    assert any('"Overview"' in row.get_attribute("textContent") for row in out_rows)
    # The picture is the crawl's own file, shown where it is: the report holds no copy of it.
    shot = result.path / "states" / f"{specs}.{Archive().screenshot_format}"
    assert browser.find_element(By.ID, "s-shot").get_attribute("src") == shot.as_uri()
    assert browser.execute_script("return document.getElementById('s-shot').naturalWidth") > 0
    assert not any((result.path / "report" / "shots").iterdir())
    dom = browser.find_element(By.ID, "dom")
    assert dom.get_attribute("sandbox") == ""
    assert "Specifications</h2>" in dom.get_attribute("srcdoc")

    # The frames: from the state the action was fired in, step by step.
    browser.find_element(By.ID, "tab-frames").click()
    until(browser, "return document.getElementById('f-pos').textContent.startsWith('frame 0 of 1')")
    assert "Specifications</h2>" not in dom.get_attribute("srcdoc")
    assert "Overview</h2>" in dom.get_attribute("srcdoc")
    assert "div#panels replaced" in text(browser, "f-list")
    assert "not applied" not in text(browser, "f-list")
    browser.find_element(By.ID, "f-step").click()
    assert text(browser, "f-pos").startswith("frame 1 of 1")
    srcdoc = dom.get_attribute("srcdoc")
    assert "Specifications</h2>" in srcdoc and "data-sc-changed" in srcdoc
    browser.find_element(By.ID, "f-first").click()
    browser.find_element(By.ID, "f-play").click()
    until(browser, "return document.getElementById('f-pos').textContent.startsWith('frame 1 of 1')")

    # Search by a word of the state's text, by its prefix, then open the result.
    browser.find_element(By.ID, "q").send_keys("batt")
    until(browser, "return document.getElementById('hits').textContent === '1 state'")
    browser.find_element(By.CSS_SELECTOR, "#results button").click()
    until(browser, "return location.hash === '#s' + arguments[0]", n)
    search = browser.find_element(By.ID, "q")
    search.clear()
    search.send_keys("product")  # the heading of every state
    until(browser, "return document.getElementById('hits').textContent === '4 states'")
    assert_no_console_errors(browser)


def test_hostile_payloads_stay_inert(
    site: Site,
    other_site: Site,
    crawl: Callable[..., statecrawl.Crawl],
    browser: webdriver.Chrome,
) -> None:
    page = (PAGES / "report_hostile.html").read_text().replace("{RECORDER}", other_site.origin)
    site.prefix("/h/", lambda _r: Response(page, content_type="text/html; charset=utf-8"))
    other_site.prefix("/", lambda _r: Response("", content_type="text/plain"))
    result = crawl(site.url("/h/"), max_depth=1, archive={"enabled": True})
    index = build_report(result.path, result.path.parent / "hostile-report")
    # Every data file is a script call with no markup character anywhere.
    for data in (index.parent / "data").rglob("*.js"):
        content = data.read_text(encoding="ascii")
        assert re.fullmatch(r"SC\.(index|state|terms|asset)\([^<>&\u2028\u2029]*\);\n", content)
    nodes = numbers(result.path)
    clicked = next(
        (nodes[t] for _, t, d in result.graph.edges(data=True) if d.get("dialogs")), None
    )
    assert clicked is not None
    other_site.requests.clear()  # the crawl itself loaded what the page asked for

    open_report(browser, index)
    for n in range(len(nodes)):
        open_state(browser, n)
        browser.find_element(By.ID, "tab-dom").click()
        browser.find_element(By.ID, "tab-frames").click()
    open_state(browser, clicked)
    until(browser, "return !document.getElementById('f-step').disabled")
    browser.find_element(By.ID, "f-step").click()
    srcdoc = browser.find_element(By.ID, "dom").get_attribute("srcdoc")
    assert "clicked" in srcdoc
    shown = lxml.html.document_fromstring(srcdoc)
    names = {name.lower() for element in shown.iter() for name in element.attrib}
    assert not {n for n in names if n.startswith("on")} | (names & {"src", "href", "action"})
    assert "alert: “</script><script>window.__pwned=9</script>”" in text(browser, "s-in")
    browser.find_element(By.ID, "tab-dom").click()
    browser.find_element(By.ID, "q").send_keys("script window")
    until(browser, "return /^[1-9]/.test(document.getElementById('hits').textContent)")
    browser.find_element(By.CSS_SELECTOR, "#results button").click()
    open_state(browser, 0)
    time.sleep(0.5)  # time for anything that would load late

    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018 - reading it is what raises
    assert browser.execute_script("return window.__pwned") is None
    assert browser.title.startswith("statecrawl report")
    assert other_site.requests == []
    assert_no_console_errors(browser)
    # The payloads are there, as text.
    assert text(browser, "s-title").startswith("</script><script>window.__pwned=1")
    links = browser.execute_script(
        "return Array.from(document.querySelectorAll('[href]'), (a) => a.getAttribute('href'))"
    )
    assert all(href.startswith(("http://", "https://", "report.css", "data:")) for href in links)


STYLED = """const e = document.querySelector(arguments[0]); const s = getComputedStyle(e);
return [s.backgroundColor, s.backgroundImage, s.fontFamily, s.color];"""


def test_demo_report_pictures_names_and_styles_every_state(
    demo_crawl_live: statecrawl.Crawl, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    demo = demo_crawl_live
    index = build_report(demo.path, tmp_path / "report")
    labels = crawl_labels(demo.graph, demo.path)
    states = [node for node, kind in demo.graph.nodes(data="kind") if kind == "state"]
    assert uniqueness({node: labels[node] for node in states}) >= 0.95
    assert "#clock|content" in demo.graph.graph["volatile"]  # and so no label shows the clock
    assert not [label for label in labels.values() if "Server time" in label]
    assert len(states) >= 30
    nodes = list(demo.graph.nodes)

    open_report(browser, index)
    for n, node in enumerate(nodes):
        open_state(browser, n)
        assert text(browser, "s-title") == labels[node]
        if demo.graph.nodes[node]["kind"] == "state":  # a screenshot or a thumbnail, loaded
            until(browser, "const i = document.getElementById('s-shot');"
                           "return i && i.complete && i.naturalWidth > 0")
        else:
            assert text(browser, "s-url") == demo.graph.nodes[node]["url"]
        assert browser.execute_script(
            "return Array.from(document.images).every((i) => i.complete && i.naturalWidth > 0)"
        )

    # The start page's snapshot is styled as the live page is.
    start = next(n for n, node in enumerate(nodes) if demo.graph.nodes[node].get("depth") == 0)
    open_state(browser, start)
    browser.switch_to.frame(browser.find_element(By.ID, "dom"))
    styled = {css: browser.execute_script(STYLED, css) for css in (".brand-mark", ".topbar")}
    browser.switch_to.default_content()
    browser.get(demo.start_url)
    until(browser, "return document.readyState === 'complete' && document.querySelector('.topbar')")
    live = {css: browser.execute_script(STYLED, css) for css in (".brand-mark", ".topbar")}
    assert styled == live
    assert styled[".brand-mark"][2].startswith('Inter, "Segoe UI"')

    # Before the action, the frames show the element it fired outlined.
    fired = nodes.index(next(
        t for _, t, d in demo.graph.edges(data=True) if d["name"].endswith(' "drone"')
    ))
    open_report(browser, index)
    open_state(browser, fired)
    browser.find_element(By.ID, "tab-frames").click()
    until(browser, "return document.getElementById('f-pos').textContent.startsWith('frame 0')")
    srcdoc = browser.find_element(By.ID, "dom").get_attribute("srcdoc")
    shown = lxml.html.document_fromstring(srcdoc)
    assert [e.text_content().strip() for e in shown.xpath("//*[@data-sc-fired]")] == ["drone"]

    # Search finds a state by its label and lists it by its label.
    browser.find_element(By.ID, "q").send_keys("drone page")
    until(browser, "return /^[1-9]/.test(document.getElementById('hits').textContent)")
    assert labels[nodes[fired]] in text(browser, "results")
    assert_no_console_errors(browser)


def test_every_state_has_a_thumbnail_in_the_archive(demo_crawl_live: statecrawl.Crawl) -> None:
    found = {}
    for warc in (demo_crawl_live.path / "archive").glob("*.warc.gz"):
        with warc.open("rb") as stream:
            for record in ArchiveIterator(stream):
                uri = record.rec_headers.get_header("WARC-Target-URI") or ""
                if uri.endswith(":thumbnail"):
                    found[uri.split(":")[3]] = record.content_stream().read()
    states = [s["id"] for s in demo_crawl_live.states()]
    # a state renamed after it was archived (a volatile part learned) is named by its alias
    names = {a: s["id"] for s in demo_crawl_live.states() for a in s.get("aliases", ())}
    found = {names.get(state, state): image for state, image in found.items()}
    assert sorted(found) == sorted(states)
    for state in states:
        view = demo_crawl_live.state(state)
        assert view.thumbnail is not None and view.thumbnail.read_bytes() == found[state]
        image = Image.open(io.BytesIO(found[state]))
        # the 1280x900 window's visible part (a scrollbar's width less) scaled to 320 across
        assert image.format == "WEBP" and image.width == 320 and 225 <= image.height <= 230


def click_canvas(driver: webdriver.Chrome, spot: dict[str, float]) -> None:
    """Click the graph's canvas at ``spot`` (CSS pixels from its top left corner)."""
    canvas = driver.find_element(By.ID, "canvas")
    box = canvas.rect
    ActionChains(driver).move_to_element_with_offset(
        canvas, int(spot["x"] - box["width"] / 2), int(spot["y"] - box["height"] / 2)
    ).click().perform()


def until_shown(driver: webdriver.Chrome, n: int, node: str) -> None:
    """Wait until the panel shows node number ``n`` (state id ``node``) in full."""
    until(driver, "const p = document.getElementById('panel');"
                  "return location.hash === '#s' + arguments[0] && !p.hidden && "
                  "!p.hasAttribute('aria-busy') && "
                  "document.getElementById('s-facts').textContent.includes(arguments[1])", n, node)


def test_demo_report_groups_states_and_shows_a_tree_and_a_list(
    demo_crawl_live: statecrawl.Crawl, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    demo = demo_crawl_live
    index = build_report(demo.path, tmp_path / "report")
    nodes = list(demo.graph.nodes)
    urls = [demo.graph.nodes[node]["url"] for node in nodes]
    details = [n for n, url in enumerate(urls) if "/patent/" in url]
    open_report(browser, index)
    # The layout sweep: 0 -> 1, 2; 1 -> 4; 2 -> 3: in layer 2, node 4 (child of 1) sits left
    # of node 3; with 3 and 4 a group, the group sits under both.
    x = browser.execute_script(
        "return [SC.layoutOf(...arguments), SC.layoutOf(...arguments, [-1, -1, -1, 0, 0])]",
        [0, 1, 1, 2, 2], [(0, 1), (0, 2), (2, 3), (1, 4), (3, 0)])
    assert x[0][0] == 0 and x[0][1] < x[0][2] and x[0][4] < x[0][3]
    assert x[1][5] == 0

    # Every patent page is in one group, drawn as one node until it is clicked.
    groups = browser.execute_script("return SC.groups()")
    patent = next(g for g, group in enumerate(groups) if group["name"] == "/patent/*")
    assert groups[patent]["count"] == len(details) >= 20
    assert any(g["name"].startswith("/search?q=*") for g in groups)
    # The downloaded documents are groups of their own, not a fan of single dots.
    documents = [n for n in nodes if demo.graph.nodes[n].get("kind") == "document"]
    assert len(documents) >= 3
    assert sum(g["count"] for g in groups if g["units"] == "documents") == len(documents)
    assert all(g["units"] == "states" for g in groups if g["name"] == "/patent/*")
    start = urls.index(demo.start_url)
    assert browser.execute_script("return SC.locate(arguments[0])", details[0]) == (
        browser.execute_script("return SC.locateGroup(arguments[0])", patent))
    click_canvas(browser, browser.execute_script("return SC.locateGroup(arguments[0])", patent))
    until(browser, "return SC.groups()[arguments[0]].expanded", patent)
    assert browser.execute_script("return SC.locate(arguments[0])", details[0]) != (
        browser.execute_script("return SC.locate(arguments[1])", details[0], details[1]))
    width, height = (browser.find_element(By.ID, "canvas").rect[k] for k in ("width", "height"))
    spots = {n: browser.execute_script("return SC.locate(arguments[0])", n) for n in details}
    member = next(n for n, at in spots.items()
                  if 20 < at["x"] < width - 20 and 20 < at["y"] < height - 40)
    click_canvas(browser, spots[member])
    until_shown(browser, member, nodes[member])
    assert "/patent/* (" in text(browser, "s-facts")
    browser.find_element(By.ID, "groups-fold").click()
    assert not browser.execute_script("return SC.groups()[arguments[0]].expanded", patent)

    # The tree: the start page at the root, open; a detail under the result page that first
    # reached it.
    browser.find_element(By.ID, "view-tree").click()
    assert browser.find_element(By.ID, "tree").is_displayed()
    root = browser.find_element(By.CSS_SELECTOR, "#tree-root > li > button.state")
    assert root.get_attribute("data-n") == str(start)
    page = browser.find_element(By.CSS_SELECTOR, "#tree-root > li > ul > li")
    page.find_element(By.CSS_SELECTOR, ".toggle").click()
    row = page.find_element(By.CSS_SELECTOR, "ul > li > button.state")
    child = int(row.get_attribute("data-n"))
    labels = crawl_labels(demo.graph, demo.path)
    parent = int(page.find_element(By.CSS_SELECTOR, "button.state").get_attribute("data-n"))
    assert any(s == nodes[parent] for s, _ in demo.graph.in_edges(nodes[child]))
    assert labels[nodes[child]] in row.text
    row.click()
    until_shown(browser, child, nodes[child])

    # The list: every state, by depth, then by time found; a row opens its state.
    browser.find_element(By.ID, "view-list").click()
    assert not browser.find_element(By.ID, "tree").is_displayed()
    rows = "return Array.from(document.querySelectorAll('#list-space .row'), (r) => +r.dataset.n)"
    shown = browser.execute_script(rows)
    depth = [demo.graph.nodes[nodes[n]].get("depth", 99) for n in shown]
    assert shown[0] == start and depth == sorted(depth) and len(shown) >= 15
    browser.find_element(By.CSS_SELECTOR, "#list-sort option[value=found]").click()
    until(browser, "return document.getElementById('list-count').textContent.endsWith('found')")
    shown = browser.execute_script(rows)
    found = [demo.graph.nodes[nodes[n]].get("found_at", 1e9) for n in shown]
    assert found == sorted(found)
    browser.find_element(By.CSS_SELECTOR, f'#list-space .row[data-n="{shown[5]}"]').click()
    until_shown(browser, shown[5], nodes[shown[5]])
    row = browser.find_element(By.CSS_SELECTOR, f'#list-space .row[data-n="{shown[5]}"]')
    assert "current" in row.get_attribute("class").split()
    browser.find_element(By.ID, "view-graph").click()
    assert not browser.find_element(By.ID, "list").is_displayed()
    assert_no_console_errors(browser)


def patents(entries: Iterator[dict[str, Any]] | list[dict[str, Any]]) -> set[str]:
    """The patent numbers of the patent pages among ``entries`` (states as diff lists them)."""
    return {e["url"].rsplit("/", 1)[-1] for e in entries if "/patent/" in e["url"]}


def test_report_against_an_earlier_crawl_marks_new_changed_and_deleted_states(
    demo_crawl_live: statecrawl.Crawl,
    browser: webdriver.Chrome,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    old = demo_crawl_live
    with DemoApp(latency=False, revision=1) as app:
        new = statecrawl.crawl(app.url, out=tmp_path / "revision-1", max_depth=2,
                               inputs={"values": {"q": ["battery"]}, "max_options": 1})
    assert statecrawl.cli.main(["report", str(new.path), "--against", str(old.path)]) == 0
    index = new.path / "report" / "index.html"
    assert capsys.readouterr().out == f"report: {index}\n"
    changes = statecrawl.analysis.diff(old, new)
    known = demo_data.changes(0, 1)
    # The patents the demo's revision 1 changed, added and removed, as both crawls reach them.
    reached = patents(old.states()) & patents(new.states())
    changed = patents(changes["changed"])
    assert set(known["changed"]) & reached <= changed <= {*known["changed"], *known["cited"]}
    assert changed
    assert patents(changes["new"]) == set(known["added"]) & patents(new.states())
    assert patents(changes["deleted"]) == set(known["removed"]) & patents(old.states()) != set()

    nodes = numbers(new.path)
    open_report(browser, index)
    summary = text(browser, "summary")
    counts = {name: len(changes[name]) for name in ("new", "changed", "deleted")}
    assert f"{counts['new']} new · {counts['changed']} changed · {counts['deleted']} deleted" in (
        summary)
    flags = browser.execute_script("return SC.flags()")
    assert {n for n, f in enumerate(flags) if f & 256} == {nodes[c["id"]] for c in changes["new"]}
    assert {n for n, f in enumerate(flags) if f & 512} == {
        nodes[c["id"]] for c in changes["changed"]}
    labels = crawl_labels(old.graph, old.path)
    for gone in changes["deleted"]:
        assert labels[gone["id"]] in text(browser, "deleted-list")
    patent = next(c for c in changes["changed"] if c["url"].rsplit("/", 1)[-1] in known["changed"])
    open_state(browser, nodes[patent["id"]])
    assert "changed since the earlier crawl" in text(browser, "s-badges")
    assert patent["diff"].splitlines()[3] in text(browser, "s-diff")
    until(browser, "const i = document.querySelectorAll('#s-pictures img');"
                   "return i.length === 2 && [...i].every((e) => e.complete && e.naturalWidth > 0)")
    assert_no_console_errors(browser)


def test_a_directory_that_is_not_a_crawl_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = error_line(capsys, ["report", str(tmp_path)])
    assert line == f"statecrawl: error: no graph.json in {tmp_path}: not a crawl directory"


def synthetic(path: Path, count: int) -> Path:
    """A crawl directory of ``count`` states in a chain, without a browser."""
    graph = statecrawl.StateGraph()
    path.mkdir()
    (path / "states").mkdir()
    for n in range(count):
        state = f"{n:016x}"
        (path / "states" / f"{state}.html").write_text(f"<title>t{n}</title><p>word{n} common")
        graph.add_state(
            state,
            url=f"http://127.0.0.1/{n}",
            title=f"t{n}",
            depth=n,
            snapshot=f"states/{state}.html",
        )
        if n:
            graph.add_transition(
                f"{n - 1:016x}", state, f"k{n}", name="a", status="", event="click", action=""
            )
    graph.graph.graph["start_url"] = "http://127.0.0.1/0"
    graph.write(path)
    return path


def test_a_report_replaces_an_earlier_report_but_nothing_else(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    crawl_dir = synthetic(tmp_path / "crawl", 3)
    out = tmp_path / "out"
    build_report(crawl_dir, out)
    synthetic(tmp_path / "small", 1)
    build_report(tmp_path / "small", out)
    assert sorted(p.name for p in (out / "data" / "s").iterdir()) == ["0.js"]
    assert not list(tmp_path.glob(".out*"))
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep")
    line = error_line(capsys, ["report", str(crawl_dir), "--out", str(tmp_path / "mine")])
    assert "is not a statecrawl report: choose another --out" in line
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep"


def test_data_files_are_script_safe_json() -> None:
    value = {"t": "</script><!--<script>&\u2028\u2029é\ud800"}
    call = script_call("SC.state", 3, value)
    assert not set(call) & set("<>&\u2028\u2029")
    assert json.loads(call[len("SC.state(3,") : -len(");\n")]) == value
    dom = "<p>é</p>" * 1000  # a state's DOM and frames: packed, in a fraction of the bytes
    packed = pack({"html": dom, "t": value["t"]})
    assert not set(packed) & set("<>&\"\\") and len(packed) < len(dom) / 20
    assert json.loads(gzip.decompress(base64.b64decode(packed))) == {"html": dom, "t": value["t"]}


def test_terms_and_shards() -> None:
    assert terms("Ünïcode WORDS, a 42 x" + " y" * 3) == {"ünïcode", "words", "42"}
    page = '<p id="clock">Server time: 10:42:07</p><p>Claims<script>x = 1</script></p>'
    graph = nx.MultiDiGraph()
    # blocks apart: "07" and "claims" are two terms, not "07claims"
    assert terms(searched_text(graph, page)) == {"server", "time", "10", "42", "07", "claims"}
    graph.graph["volatile"] = ["#clock|content"]
    assert terms(searched_text(graph, page)) == {"claims"}  # no clock found
    assert all(0 <= shard(t) < 64 for t in ("ab", "üx", "日本"))
