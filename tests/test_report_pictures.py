"""The report's pictures explain the crawl: a small docs site's report at 1400 x 900 in a real
headless Chromium opens on groups named by their path shape and labelled without overlap,
``index.html#sN`` centres and rings state N, the panel's tables wrap between words, and each
colour of the graph means one thing, as the legend says."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

import statecrawl
from statecrawl.report import build_report
from tests.conftest import Site, console_chrome, serving
from tests.test_report import assert_no_console_errors, open_report, until

# A documentation site's folders, each page of a folder of one template of its own.
FOLDERS = {
    "library": ("os", "sys", "re", "json", "asyncio-task"),
    "tutorial": ("index", "introduction", "controlflow", "classes"),
    "whatsnew": ("3.12", "3.11", "3.10", "index"),
}
TEMPLATES = {
    "library": "<dl><dt>{name}</dt><dd>The {name} module.</dd></dl>",
    "tutorial": "<ol><li>{name}</li><li>Read on.</li></ol>",
    "whatsnew": "<table><tr><td>{name}</td></tr></table>",
}


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[statecrawl.Crawl, Path]]:
    """The docs site crawled to depth 1 (an index and 13 pages) and its report."""
    out = tmp_path_factory.mktemp("docs")
    pages = [f"/{folder}/{name}.html" for folder, names in FOLDERS.items() for name in names]
    with serving("127.0.0.1") as server:
        site = Site(server)
        links = "".join(f'<li><a href="{p}">{p.rsplit("/", 1)[1]}</a></li>' for p in pages)
        site.html("/index.html", f"<title>Docs</title><h1>Docs</h1><ul>{links}</ul>")
        for page in pages:
            folder, name = page.strip("/").removesuffix(".html").split("/")
            body = TEMPLATES[folder].format(name=name)
            up = '<a href="/index.html">up</a>'
            site.html(page, f"<title>{name}</title><h1>{name}</h1>{body}{up}")
        result = statecrawl.crawl(site.url("/index.html"), out=out / "crawl", max_depth=1,
                                  archive={"enabled": False})
    yield result, build_report(result.path, out / "report")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """One Chromium at 1400 x 900, logging the console."""
    yield from console_chrome(tmp_path_factory.mktemp("pictures-profile"))


def number(crawl: statecrawl.Crawl, path: str) -> int:
    """The report's number of the state at ``path``."""
    urls = [crawl.graph.nodes[node].get("url", "") for node in crawl.graph.nodes]
    return next(n for n, url in enumerate(urls) if url.endswith(path))


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
            and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])


def test_the_first_view_labels_each_group_with_its_path_shape_and_count(
    docs: tuple[statecrawl.Crawl, Path], browser: webdriver.Chrome
) -> None:
    crawl, index = docs
    open_report(browser, index)
    groups = browser.execute_script("return SC.groups()")
    assert {(g["name"], g["count"]) for g in groups} == {
        ("/library/*.html", 5), ("/tutorial/*.html", 4), ("/whatsnew/*.html", 4)}
    labels = browser.execute_script("return SC.labels()")
    canvas = browser.find_element(By.ID, "canvas").rect
    shown = [label for label in labels if label["group"]]
    assert sorted(label["text"] for label in shown) == sorted(
        f"{g['name']} · {g['count']} states" for g in groups)
    for label in shown:  # on the canvas, whole
        assert label["x"] >= 0 and label["x"] + label["w"] <= canvas["width"]
        assert label["y"] >= 0 and label["y"] + label["h"] <= canvas["height"]
    assert any(not label["group"] for label in labels)  # the start page's name
    assert not [(a["text"], b["text"]) for i, a in enumerate(labels) for b in labels[i + 1:]
                if overlaps(a, b)]
    # a state's name on hover
    start = number(crawl, "/index.html")
    spot = browser.execute_script("return SC.locate(arguments[0])", start)
    element = browser.find_element(By.ID, "canvas")
    ActionChains(browser).move_to_element_with_offset(
        element, int(spot["x"] - canvas["width"] / 2), int(spot["y"] - canvas["height"] / 2)
    ).perform()
    until(browser, "return !document.getElementById('tip').hidden")
    assert browser.find_element(By.ID, "tip").text.startswith("Docs")
    assert_no_console_errors(browser)


CENTRED = """const n = arguments[0], at = SC.locate(n), box = document.getElementById('canvas')
  .getBoundingClientRect();
return SC.selected() === n && !document.getElementById('panel').hasAttribute('aria-busy')
  && Math.abs(at.x - box.width / 2) < 1 && Math.abs(at.y - box.height / 2) < 1;"""
# The colours on the canvas along a line from a state's centre to the right, as [r, g, b].
RING = """const at = SC.locate(arguments[0]), c = document.getElementById('canvas');
const k = c.width / c.getBoundingClientRect().width;
const row = c.getContext('2d')
  .getImageData(Math.round(at.x * k), Math.round(at.y * k), 40 * k, 1).data;
const out = [];
for (let i = 0; i < row.length; i += 4) out.push([row[i], row[i + 1], row[i + 2]]);
return out;"""


def hex_colour(rgb: list[int]) -> str:
    return "#" + "".join(f"{v:02x}" for v in rgb)


def test_an_address_of_a_state_centres_and_rings_it(
    docs: tuple[statecrawl.Crawl, Path], browser: webdriver.Chrome
) -> None:
    crawl, index = docs
    sys_page = number(crawl, "/library/sys.html")
    browser.get_log("browser")
    browser.get(f"{index.as_uri()}#s{sys_page}")
    until(browser, "return document.documentElement.hasAttribute('data-ready')")
    until(browser, CENTRED, sys_page)  # its group opened, the state in the middle
    palette = browser.execute_script("return SC.palette()")
    colours = {hex_colour(rgb) for rgb in browser.execute_script(RING, sys_page)}
    assert {palette["state"], palette["selected"]} <= colours
    # another address, from the page itself
    classes = number(crawl, "/tutorial/classes.html")
    browser.execute_script("location.hash = '#s' + arguments[0]", classes)
    until(browser, CENTRED, classes)
    assert browser.execute_script("return SC.groups().filter((g) => g.expanded).length") == 2
    assert_no_console_errors(browser)


LEGEND = """return Array.from(document.querySelectorAll('#legend .key'), (key) => {
  const s = getComputedStyle(key, '::before');
  return [key.classList[1], key.classList.contains('ring') ? s.borderTopColor : s.backgroundColor];
});"""


def test_each_colour_means_one_thing_and_the_legend_shows_it(
    docs: tuple[statecrawl.Crawl, Path], browser: webdriver.Chrome
) -> None:
    open_report(browser, docs[1])
    palette = browser.execute_script("return SC.palette()")
    assert len(set(palette.values())) == len(palette)  # the selection is not "unreachable"
    legend = dict(browser.execute_script(LEGEND))
    assert set(legend) == set(palette)
    for name, css in legend.items():
        rgb = [int(v) for v in css.removeprefix("rgb(").removesuffix(")").split(",")]
        assert hex_colour(rgb) == palette[name], name


# Every word (letters and digits) of the panel's tables that the page breaks across lines.
BROKEN = """const out = [];
for (const cell of document.querySelectorAll('#s-in th, #s-in td, #s-out th, #s-out td')) {
  const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    for (const m of node.data.matchAll(/[\\p{L}\\p{N}_]+/gu)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
      if (tops.size > 1) out.push(m[0]);
    }
  }
}
return out;"""


def test_panel_tables_wrap_between_words(
    docs: tuple[statecrawl.Crawl, Path], browser: webdriver.Chrome
) -> None:
    crawl, index = docs
    open_report(browser, index)
    start = number(crawl, "/index.html")
    browser.execute_script("SC.open(arguments[0])", start)
    until(browser, "return !document.getElementById('panel').hasAttribute('aria-busy')"
                   " && document.querySelectorAll('#s-out tr').length > 10")
    cells = browser.execute_script(
        "return Array.from(document.querySelectorAll('#s-out td'), (c) => c.textContent)")
    assert any("," in cell for cell in cells)  # a status such as visible,enabled
    assert any(len(cell) > 40 for cell in cells)  # an action's URL
    assert browser.execute_script(BROKEN) == []
    assert_no_console_errors(browser)
