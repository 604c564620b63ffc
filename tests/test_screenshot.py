"""Pictures of a state, each capture bounded in time (``statecrawl.browser.screenshot``), against a
page whose frames take seconds to draw: a stack of full-window backdrop filters, which
Chromium's compositor blurs layer on layer for every frame, so that ``Page.captureScreenshot``
(which waits for a new frame) takes seconds while the page's own scripts answer at once."""

from __future__ import annotations

import io
import json
import logging
import re
from pathlib import Path

import pytest
from PIL import Image

import statecrawl
from statecrawl.browser import Browser
from statecrawl.browser.screenshot import CaptureFailed
from tests.test_archive import all_records

SLOW_FRAMES = """<!doctype html><html><head><title>Slow frames</title><style>
.glass { position: fixed; inset: 40px 0 0 0; backdrop-filter: blur(30px) saturate(2);
         pointer-events: none; }
</style></head><body>
<button id="one">one</button> <button id="two">two</button><p id="out">none</p>
<script>
for (let i = 0; i < 12; i++) {
  const glass = document.createElement('div');
  glass.className = 'glass';
  glass.style.inset = `${40 + i}px ${i}px 0 0`;
  document.body.appendChild(glass);
}
for (const id of ['one', 'two'])
  document.getElementById(id).addEventListener('click', () => {
    document.getElementById('out').textContent = id;
  });
</script></body></html>"""
CAPTURE_TIMEOUT = 0.3  # seconds: a frame of the page above takes many more to draw


def test_a_slow_capture_is_given_up_and_the_browser_goes_on(site) -> None:
    """A capture given up leaves ChromeDriver's session free: the next calls are answered,
    within a script timeout shorter than the capture."""
    site.html("/", SLOW_FRAMES)
    config = statecrawl.Config.from_mapping({
        "start_urls": [site.url("/")],
        "archive": {"capture_timeout": CAPTURE_TIMEOUT, "thumbnails": False},  # (none ahead)
        "timing": {"settle_timeout_ms": 500},
    })  # fmt: skip
    with Browser(config) as browser:
        one = next(a for a in browser.load(site.url("/")).actions() if a.label == "one")
        with pytest.raises(CaptureFailed, match=r"no frame was drawn within 0\.3 s"):
            browser.screenshot("jpeg", 50)
        assert "one" in browser.fire(one).html
        with pytest.raises(CaptureFailed):
            browser.screenshot("jpeg", 50)
        assert browser.settled().url == site.url("/")
        assert browser.restarts == 0


def test_a_page_slow_to_capture_is_crawled_whole_with_its_missing_pictures_reported(
    site, crawl, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Every state is found and archived, no browser is restarted, and each picture that
    could not be taken in time is named: in the log, on the state's node and in its frames'
    WARC record, which is there whole."""
    site.html("/", SLOW_FRAMES)
    out = tmp_path / "slow"
    archive = {"enabled": True, "screenshots": "all", "capture_timeout": CAPTURE_TIMEOUT}
    with caplog.at_level(logging.WARNING, logger="statecrawl.archive"):
        result = crawl(site.url("/"), out=out, archive=archive, max_depth=2)
    states = list(result.states())
    shown = [re.search(r'id="out">(\w+)<', (out / s["snapshot"]).read_text()) for s in states]
    assert sorted(match.group(1) for match in shown if match) == ["none", "one", "two"]
    assert result.stats["restarts"] == 0
    assert result.graph.number_of_edges() >= 6  # one and two fired in each state
    missing = {s["id"]: s["missing_images"] for s in states if s.get("missing_images")}
    assert missing, "the page's frames were drawn faster than the capture timeout"
    for state in states:  # a state has its screenshot, or says why not
        assert bool(state.get("screenshot")) != (state["id"] in missing)
    for state, parts in missing.items():  # (the thumbnail started as the state settled first)
        assert parts["thumbnail"] == f"no frame was drawn within {CAPTURE_TIMEOUT:g} s"
        assert parts["screenshot"] == "not tried: the picture before it failed"
        assert f"{state} ({site.url('/')}) has no screenshot" in caplog.text
    assert result.graph.graph["archive"]["missing_images"] == len(missing)
    records = all_records(out)
    snapshots = {r["headers"]["WARC-Statecrawl-State"] for r in records
                 if r["headers"].get("WARC-Statecrawl-Key")}  # fmt: skip
    assert snapshots == {s["id"] for s in states}
    described = {
        r["headers"]["WARC-Statecrawl-State"]: json.loads(r["payload"])
        for r in records
        if r["headers"].get("WARC-Target-URI", "").endswith(":frames")
    }
    assert {state: d.get("missing") for state, d in described.items() if "missing" in d} == missing
    shots = {r["headers"]["WARC-Statecrawl-State"] for r in records
             if r["headers"].get("WARC-Target-URI", "").endswith(":screenshot")}  # fmt: skip
    assert not shots & set(missing)


SCROLLED = """<!doctype html><html><head><title>Tall</title></head><body style="margin: 0">
<div style="height: 3000px; background: #f00"></div>
<div style="height: 1200px; background: #00f"></div>
</body></html>"""


def test_a_scrolled_page_is_thumbnailed_where_it_is_scrolled_to(site) -> None:
    """A thumbnail is the viewport as shown: its clip (in document coordinates) is put at
    the scroll offset, not at the top of the page, which the viewport no longer shows."""
    site.html("/", SCROLLED)
    config = statecrawl.Config.from_mapping({"start_urls": [site.url("/")]})
    with Browser(config) as browser:
        browser.load(site.url("/"))
        browser.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        thumbnail = Image.open(io.BytesIO(browser.thumbnail())).convert("RGB")
    assert thumbnail.width == 320
    red, _, blue = thumbnail.getpixel((160, thumbnail.height // 2))
    assert blue > 200 and red < 60, "the thumbnail shows the top of the page"


def test_a_thumbnail_taken_ahead_is_dropped_when_the_page_changes(site) -> None:
    """The thumbnail started as a state settles (:meth:`Pictures.ahead`) is the state's only
    until something is done to the page: a thumbnail asked for after a change shows it."""
    site.html("/", """<!doctype html><html><body style="margin: 0; height: 100vh">
<button onclick="document.body.style.background = 'red'">paint</button></body></html>""")
    config = statecrawl.Config.from_mapping({"start_urls": [site.url("/")]})
    with Browser(config) as browser:
        paint = next(a for a in browser.load(site.url("/")).actions() if a.label == "paint")
        browser.fire(paint)  # (its thumbnail, red, is started ahead)
        browser.screenshot()  # (taken after it, in the camera's thread: the red one is done)
        browser.evaluate("document.body.style.background = 'blue'")
        thumbnail = Image.open(io.BytesIO(browser.thumbnail())).convert("RGB")
    red, _, blue = thumbnail.getpixel((160, thumbnail.height // 2))
    assert blue > 200 and red < 60, "the thumbnail shows the page before the change"


def test_pictures_taken_up_are_copied_before_the_page_changes(site) -> None:
    """A thumbnail and a screenshot the archive took up (:meth:`Browser.thumbnail_later`,
    :meth:`Browser.screenshot_later`) are made while the crawl goes on, but the page changes
    only once their frames were copied: they show the state they were taken for, not the
    next."""
    site.html("/", """<!doctype html><html><body style="margin: 0; height: 100vh">
<button onclick="document.body.style.background = 'red'">paint</button></body></html>""")
    config = statecrawl.Config.from_mapping({"start_urls": [site.url("/")]})
    with Browser(config) as browser:
        paint = next(a for a in browser.load(site.url("/")).actions() if a.label == "paint")
        browser.fire(paint)
        later = [browser.screenshot_later("webp", 40), browser.thumbnail_later()]
        browser.evaluate("document.body.style.background = 'blue'")
        pictures = [Image.open(io.BytesIO(p.result(timeout=10))).convert("RGB") for p in later]
    assert [p.width for p in pictures] == [1280, 320]
    for picture in pictures:
        red, _, blue = picture.getpixel((picture.width // 2, picture.height // 2))
        assert red > 200 and blue < 60, "the picture shows the page after the change"


PAINTED = """<!doctype html><html><head><title>Painted</title><style>
body { margin: 0; height: 100vh; } button { font-size: 10px; }
</style></head><body data-colour="white" style="background: white">
<p id="path" style="margin: 0; font-size: 10px"></p>
<script>
// each button paints the whole page its colour a little later (a timer, or a fetch): each
// state is the path clicked, shown in the colour of its last step
for (const [colour, via] of [['red', 'timer'], ['lime', 'fetch'], ['blue', 'timer']]) {
  const button = document.createElement('button');
  button.textContent = colour;
  button.addEventListener('click', () => {
    const paint = () => {
      document.body.style.background = colour;
      document.body.dataset.colour = colour;
      document.getElementById('path').textContent += ' ' + colour;
    };
    if (via === 'timer') setTimeout(paint, 10 + Math.random() * 30);
    else fetch('/').then(paint);
  });
  document.body.insertBefore(button, document.getElementById('path'));
}
</script></body></html>"""
COLOURS = {"white": (255, 255, 255), "red": (255, 0, 0), "lime": (0, 255, 0),
           "blue": (0, 0, 255)}


def test_every_state_s_pictures_show_that_state(site, crawl, tmp_path: Path) -> None:
    """A thumbnail and a screenshot are the last frame the page drew (a screencast's first
    frame), taken once the page is settled and drew since it last changed, so no picture
    shows the state before (40 states, each painted its own colour a moment after its
    click)."""
    site.html("/", PAINTED)
    archive = {"enabled": True, "screenshots": "all"}
    result = crawl(site.url("/"), max_depth=3, archive=archive)
    states = list(result.states())
    assert len(states) == 40
    for state in states:
        colour = re.search(r'data-colour="(\w+)"', result.html(state["id"])).group(1)
        found = result.state(state["id"])
        for picture in (found.thumbnail, found.screenshot):
            with Image.open(picture) as image:
                seen = image.convert("RGB").getpixel((image.width // 2, image.height // 2))
            assert all(abs(a - b) < 60 for a, b in zip(seen, COLOURS[colour], strict=True)), (
                state["id"], picture, colour, seen)


def test_no_thumbnail_is_lost_to_a_browser_replaced_or_closed(site, crawl) -> None:
    """A browser replaced after every page (``browser.recycle_after``), and closed at the end
    of the crawl, is so only once the thumbnail the archive took up was copied: every state
    has one."""
    site.html("/", PAINTED)
    result = crawl(site.url("/"), max_depth=1, archive={"enabled": True},
                   browser={"recycle_after": 1})
    states = list(result.states())
    assert len(states) == 4
    assert not [s["id"] for s in states if s.get("missing_images")]
    assert all(result.state(s["id"]).thumbnail.is_file() for s in states)
