"""Archive QA: a small site crawled with screenshots, its server stopped, then every state
replayed from the archive through our replay server and through pywb, and judged by its
picture and text. A broken archive (a stylesheet's records deleted) lowers the scores of
exactly the states that use it, and names the missing stylesheet."""

from __future__ import annotations

import io
import json
import os
import shutil
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from PIL import Image
from werkzeug import Response

import statecrawl
from statecrawl.cli import main
from statecrawl.replay import QAResult
from statecrawl.replay.likeness import cause, matches, pixel_similarity, text_similarity
from statecrawl.replay.pywb import Pywb
from statecrawl.replay.review import write_view
from statecrawl.service.app import qa_shares
from tests.conftest import Site, alive, children, drop_records, serving

INDEX = """<!DOCTYPE html><html><head><title>Rooms</title></head><body><h1>Rooms</h1>
<a href="/red.html">Red room</a> <a href="/plain.html">Plain room</a>
<button onclick="document.getElementById('more').hidden = false">More</button>
<p id="more" hidden>Each room of the house has a page of its own.</p></body></html>"""
RED = """<!DOCTYPE html><html><head><title>Red room</title>
<link rel="stylesheet" href="/red.css"></head><body><h1>Red room</h1>
<p>Its walls are painted red.</p><div class="wall"></div></body></html>"""
PLAIN = """<!DOCTYPE html><html><head><title>Plain room</title></head><body>
<h1>Plain room</h1><p>Nothing on its walls.</p></body></html>"""
CSS = "body { background: #c00; color: #fff } .wall { height: 400px; background: #060 }"


@pytest.fixture(scope="module")
def rooms(tmp_path_factory: pytest.TempPathFactory) -> statecrawl.Crawl:
    """The three pages crawled with a screenshot of every state; the server is stopped."""
    with serving("127.0.0.1") as server:
        site = Site(server)
        site.html("/", INDEX)
        site.html("/red.html", RED)
        site.html("/plain.html", PLAIN)
        site.handler("/red.css", lambda _r: Response(CSS, content_type="text/css"))
        out = tmp_path_factory.mktemp("rooms")
        return statecrawl.crawl(site.url("/"), out=out, max_depth=2,
                                archive={"screenshots": "all"})  # fmt: skip


@pytest.fixture(scope="module")
def judged(rooms: statecrawl.Crawl) -> QAResult:
    return statecrawl.qa(rooms.path)


def red_state(crawl: statecrawl.Crawl) -> str:
    return next(s["id"] for s in crawl.states() if s["url"].endswith("/red.html"))


@pytest.mark.browser
def test_every_state_matches_through_our_replay_and_pywb(
    rooms: statecrawl.Crawl, judged: QAResult
) -> None:
    assert len(rooms) >= 4
    left = [pid for pid in children(os.getpid()) if alive(pid) and
            b"wayback" in Path(f"/proc/{pid}/cmdline").read_bytes()]  # fmt: skip
    assert left == [], "pywb is still running"
    ours, pywb = judged.runs["ours"], judged.runs["pywb"]
    assert not ours.error and not pywb.error, pywb.error
    assert [s for s in ours.states if not s.match] == []
    assert all(s.pixels is not None and s.pixels > 0.99 for s in ours.states)
    # (a state's DOM snapshot is archived under a URN, so pywb never answers a page with it)
    assert [s for s in pywb.states if not s.match] == []
    assert all(s.misses == [] for s in [*ours.states, *pywb.states])
    # Chromium's own calls to its services (refused) are listed apart, in no state
    assert all(s.refused == [] for s in [*ours.states, *pywb.states])
    assert not any(rooms.start_url in call for call in [*ours.background, *pywb.background])
    data = json.loads((rooms.path / "qa.json").read_text())
    assert data["replayers"]["ours"]["share"] == data["replayers"]["pywb"]["share"] == 1.0
    assert len(data["states"]) == len(rooms)
    for entry in data["states"]:
        assert (rooms.path / entry["recorded"]).is_file()
        assert (rooms.path / entry["ours"]["picture"]).is_file()
        assert (rooms.path / entry["pywb"]["picture"]).is_file()
    view = (rooms.path / "qa.html").read_text()
    assert view.count("<tr>") == len(rooms) + 1 and "<script" not in view


@pytest.mark.browser
def test_a_deleted_stylesheet_lowers_the_states_that_use_it(
    rooms: statecrawl.Crawl, judged: QAResult, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(rooms.path, broken)
    drop_records(broken, ".css")
    assert main(["qa", str(broken)]) == 2  # fewer than 95 % of the states match
    assert "missing: 404 GET http://127.0.0.1:" in capsys.readouterr().out
    data = json.loads((broken / "qa.json").read_text())
    red = red_state(rooms)
    before = {s.state: s for s in judged.runs["ours"].states}
    dropped = {e["id"] for e in data["states"] if e["ours"]["score"] < before[e["id"]].score - 0.1}
    assert dropped == {red}
    assert all(e["ours"]["match"] for e in data["states"] if e["id"] != red)
    for name in ("ours", "pywb"):
        entry = next(e[name] for e in data["states"] if e["id"] == red)
        assert not entry["match"] and entry["cause"] == "missing resource", name
        assert [m.split()[2].rstrip(":") for m in entry["misses"]] == [
            rooms.start_url.rstrip("/") + "/red.css"
        ], name
    view = (broken / "qa.html").read_text()
    assert view.index(red) < min(view.index(s) for s in before if s != red)  # worst first
    assert data["replayers"]["pywb"]["misses"] >= 1


def picture(colour: str, block: str | None = None) -> bytes:
    image = Image.new("RGB", (640, 400), colour)
    if block is not None:
        image.paste(Image.new("RGB", (320, 200), block), (0, 0))
    data = io.BytesIO()
    image.save(data, "JPEG", quality=50)
    return data.getvalue()


def test_likeness_of_pictures_and_texts() -> None:
    white = picture("white")
    assert pixel_similarity(white, white) == 1.0
    assert pixel_similarity(white, picture("white", "black")) == pytest.approx(0.75, abs=0.01)
    assert pixel_similarity(white, picture("#fafafa")) == 1.0  # within the tolerance
    assert text_similarity("", "") == 1.0
    assert text_similarity("a b c d", "a b c d") == 1.0
    assert text_similarity("a b c d", "a b x d") == 0.75
    assert matches(None, 1.0) and matches(0.99, 0.99) and not matches(0.5, 1.0)
    assert cause(["404 GET http://h/f.woff2?v=1: no recorded exchange"], True, False) == "font"
    assert cause(["404 GET http://h/a.css: no recorded exchange"], True, True) == (
        "missing resource"
    )
    assert cause([], True, True) == "animation"
    assert cause([], False, False).startswith("timing")


def test_qa_view_and_the_service_figures_read_qa_json(tmp_path: Path) -> None:
    """The view lists the worst state first and escapes crawled text; the service's crawl
    page shows each replayer's share, none when QA did not run or pywb could not."""
    assert qa_shares(tmp_path) is None
    judged = {"pixels": 0.5, "text": 1.0, "score": 0.5, "match": False, "reproduced": True,
              "reason": "", "misses": ["404 GET http://h/a.css: no recorded exchange"],
              "cause": "missing resource", "picture": "qa/b.ours.jpg"}  # fmt: skip
    data = {
        "thresholds": {"min_pixels": 0.97},
        "replayers": {"ours": {"states": 2, "matched": 1, "share": 0.5, "misses": 1,
                               "seconds_per_state": 0.4, "error": ""},
                      "pywb": {"error": "pywb's wayback is not installed"}},
        "states": [
            {"id": "a", "title": "A", "url": "http://h/", "recorded": "states/a.thumb.jpg",
             "ours": {**judged, "pixels": 1.0, "score": 1.0, "match": True, "misses": []}},
            {"id": "b", "title": "<b>B</b>", "url": "http://h/b", "recorded": None,
             "ours": judged},
        ],
    }  # fmt: skip
    (tmp_path / "qa.json").write_text(json.dumps(data))
    view = write_view(tmp_path).read_text()
    assert view.index("&lt;b&gt;B&lt;/b&gt;") < view.index(">A<") and "<b>B</b>" not in view
    assert "not run: pywb&#x27;s wayback is not installed" in view
    assert "http://h/a.css" in view and 'src="qa/b.ours.jpg"' in view
    assert qa_shares(tmp_path) == {"ours": 0.5}


@pytest.mark.browser
def test_pywb_names_every_miss_of_a_block_before_the_block_ends(rooms: statecrawl.Crawl) -> None:
    """pywb's log is read behind it: each block still gets the misses made in it."""
    missing = rooms.start_url.rstrip("/") + "/gone.css"
    with Pywb(rooms.path) as pywb:
        proxied = urllib.request.build_opener(urllib.request.ProxyHandler({"http": pywb.url}))
        for number in range(20):
            with pywb.preferring(()) as seen, pytest.raises(urllib.error.HTTPError):
                proxied.open(f"{missing}?{number}", timeout=10)
            assert [miss.url for miss in seen] == [f"{missing}?{number}"]
