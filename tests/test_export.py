"""Exports of a crawl of the demo app (its server stopped): a WACZ that ``wacz validate``
accepts, a static copy walked by clicking in Chromium from ``file://`` with no request leaving
the machine, and pywb replaying our WARCs."""

from __future__ import annotations

import gzip
import hashlib
import json
import socket
import subprocess
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

import statecrawl
from statecrawl.cli import main
from statecrawl.demo_app import DemoApp
from statecrawl.replay import ArchiveIndex
from statecrawl.replay.rewrite import find, link_actions, serialize, static_html
from tests.conftest import BIN, chrome_driver, run_tool


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> statecrawl.Crawl:
    """A small crawl of the demo app: the start page, results, patents; the app stopped."""
    with DemoApp(latency=False) as app:
        return statecrawl.crawl(
            app.url,
            out=tmp_path_factory.mktemp("demo"),
            max_depth=2,
            max_states=12,
            inputs={"values": {"q": ["battery"]}, "max_options": 1},
        )


def test_wacz_export_validates(
    demo: statecrawl.Crawl, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "demo.wacz"
    assert main(["export", str(demo.path), "--wacz", str(out)]) == 0
    assert capsys.readouterr().out == f"wacz: {out}\n"
    check = run_tool("wacz", "validate", "-f", str(out))
    assert check.returncode == 0 and "Validation succeeded" in check.stdout, check.stdout

    with zipfile.ZipFile(out) as wacz:
        names = set(wacz.namelist())
        warcs = sorted(p.name for p in (demo.path / "archive").iterdir())
        assert {f"archive/{name}" for name in warcs} <= names
        assert {"indexes/index.cdx.gz", "pages/pages.jsonl", "datapackage.json"} <= names
        package = json.loads(wacz.read("datapackage.json"))
        for resource in package["resources"]:
            data = wacz.read(resource["path"])
            assert resource["hash"] == "sha256:" + hashlib.sha256(data).hexdigest()
            assert resource["bytes"] == len(data)
        header, *pages = (json.loads(line) for line in wacz.read("pages/pages.jsonl").splitlines())
        index = gzip.decompress(wacz.read("indexes/index.cdx.gz")).decode()
    assert header["format"] == "json-pages-1.0"
    snapshots = ArchiveIndex(demo.path).snapshots
    records = {s.record_id: s for s in snapshots.values()}
    assert {p["id"] for p in pages} == {s["id"] for s in demo.states()}
    for page in pages:
        node = demo.graph.nodes[page["id"]]
        assert (page["url"], page["title"]) == (node["url"], node["title"])
        assert records[page["record"]].url == page["url"]
        assert records[page["record"]].date == page["ts"]
    assert demo.start_url.split("//")[1].split("/")[0].split(":")[1] in index  # CDXJ of ours


def test_static_export_is_walked_from_file_with_no_request_leaving(
    demo: statecrawl.Crawl, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "static"
    assert main(["export", str(demo.path), "--static", str(out)]) == 0
    assert capsys.readouterr().out == f"static: {out / 'index.html'}\n"
    assert all("<script" not in p.read_text() for p in (out / "states").iterdir())
    start = next(s for s in demo.states() if s["depth"] == 0)
    driver = chrome_driver(
        tmp_path / "profile",
        **{"goog:loggingPrefs": {"performance": "ALL"}},
    )
    try:
        driver.get((out / "index.html").as_uri())
        driver.find_element(By.CSS_SELECTOR, f"a[href='states/{start['id']}.html']").click()
        walked = [start["id"]]
        for _ in range(2):
            here = demo.state(walked[-1])
            onward = {
                a["target"]
                for a in here.out_actions
                if demo.graph.nodes[a["target"]].get("depth") == here.depth + 1
            }
            link = next(
                link
                for link in driver.find_elements(By.CSS_SELECTOR, "a[href$='.html']")
                if link.get_attribute("href").rsplit("/", 1)[1][:-5] in onward
                and link.is_displayed()
            )
            target = link.get_attribute("href").rsplit("/", 1)[1][:-5]
            link.click()
            assert driver.current_url == (out / "states" / f"{target}.html").as_uri()
            walked.append(target)
        assert [demo.state(s).depth for s in walked] == [0, 1, 2]
        assert driver.title == demo.state(walked[-1]).title
        requested = [
            message["params"]["request"]["url"]
            for message in (
                json.loads(entry["message"])["message"] for entry in driver.get_log("performance")
            )
            if message["method"] == "Network.requestWillBeSent"
        ]
    finally:
        driver.quit()
    # (chrome: URLs are the browser's own new-tab page, served from inside it)
    local = ("file:", "data:", "chrome:")
    assert requested and all(url.startswith(local) for url in requested), requested
    assert any("/assets/" in url and url.endswith(".css") for url in requested)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_pywb_indexes_and_replays_our_warcs(demo: statecrawl.Crawl, tmp_path: Path) -> None:
    """pywb (run as its own process: it monkey-patches the standard library with gevent)
    indexes the crawl's WARC files and answers a recorded page and script with their
    archived bytes."""
    if not (BIN / "wayback").exists():
        pytest.skip("pywb is not installed (test extra)")
    for command in (["init", "crawl"], ["add", "crawl", *map(str, demo.path.glob("archive/*"))]):
        done = subprocess.run(
            [str(BIN / "wb-manager"), *command],
            cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    port = free_port()
    wayback = subprocess.Popen(
        [str(BIN / "wayback"), "--port", str(port), "--bind", "127.0.0.1"],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        index = ArchiveIndex(demo.path)
        expected: dict[str, tuple[str, bytes]] = {}
        for url in (demo.start_url, demo.start_url + "static/app.js"):
            capture, _ = index.lookup("GET", url)
            assert capture is not None
            stamp = "".join(c for c in capture.date if c.isdigit())[:14]
            expected[url] = (stamp, index.payload(capture))
        deadline = time.monotonic() + 60
        while True:
            try:
                if get(f"http://127.0.0.1:{port}/")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "pywb did not start"
            time.sleep(0.2)
        # A state's DOM is a resource record of the page's URL too; when it was taken in
        # the same second as the page's response, pywb (14-digit timestamps) may answer
        # either: both are the crawl's own bytes of that URL.
        snapshots = {demo.html(s["id"]).encode("utf-8") for s in demo.states()
                     if s["url"] == demo.start_url}
        for url, (stamp, body) in expected.items():
            status, replayed = get(f"http://127.0.0.1:{port}/crawl/{stamp}id_/{url}")
            assert status == 200
            assert replayed == body or (url == demo.start_url and replayed in snapshots)
    finally:
        wayback.terminate()
        wayback.wait(timeout=10)


RECORDED = """<!DOCTYPE html><html><head><meta charset="utf-8"><base href="/sub/">
<script>steal()</script><link rel="stylesheet" href="a.css"><link rel="next" href="n.html">
<link rel="prefetch" href="hint.html"><link rel="preconnect" href="http://hint/">
<meta http-equiv="refresh" content="0;url=http://elsewhere/"></head>
<body onload="steal()"><a href="javascript:steal()">j</a>
<img src="i.png" srcset="i.png 1x, gone.png 2x" onerror="steal()">
<div style="background: url('/bg.png')"></div>
<style>@import "s.css"; p { background: url(p.png) }</style>
<iframe src="f.html" srcdoc="<script>steal()</script><img src=k.png><a href=/x>x</a>"></iframe>
<noscript>no scripts</noscript><p id="a:b">text</p><a href="/x" ping="/beacon">x</a>
<a href="/crawled">c</a><form action="/f"><button formaction="/g">g</button></form>
<div style="background: u\\72l(/esc.png), image-set('/sub/i.png' 1x, 'set.png' 2x)"></div>
</body></html>"""


def test_static_html_runs_nothing_and_maps_what_it_loads() -> None:
    archived = {
        f"http://h{path}": name
        for path, name in [
            ("/sub/a.css", "A"), ("/sub/i.png", "I"), ("/bg.png", "BG"),
            ("/sub/s.css", "S"), ("/sub/p.png", "P"), ("/sub/k.png", "K"),
        ]
    }  # fmt: skip
    pages = {"http://h/crawled": "C.html"}
    root = static_html(RECORDED, "http://h/page", archived.get, pages.get)
    assert root is not None
    page = serialize(root)
    for gone in ("<script", "steal", "onload", "onerror", "javascript:", "refresh", "noscript",
                 "<base", "gone.png", "f.html", "hint", "ping", "beacon", "72l", "set.png",
                 ' href="n.html"', ' href="/x"', ' action=', ' formaction='):  # fmt: skip
        assert gone not in page, gone
    head = root.find("head")
    assert [e.get("charset") or e.get("http-equiv") for e in head][:2] == [
        "utf-8", "Content-Security-Policy",
    ]  # fmt: skip
    assert "script-src 'none'" in head[1].get("content")
    assert 'href="A"' in page and 'href="C.html"' in page  # a crawled page is followed
    assert 'data-href="n.html"' in page and 'data-href="/x"' in page  # the rest made inert
    assert 'data-action="/f"' in page and 'data-formaction="/g"' in page
    assert 'image-set("I" 1x, "" 2x)' in page and "background: void(/esc.png)" in page
    assert 'src="I"' in page and 'srcset="I 1x"' in page
    assert 'url("BG")' in page and '@import "S"' in page and 'url("P")' in page
    frame = next(root.iter("iframe"))
    assert frame.get("sandbox") == "" and "K" in frame.get("srcdoc")
    assert 'data-href="/x"' in frame.get("srcdoc") and frame.get("src") is None
    assert find(root, "#a\\:b") is next(root.iter("p"))
    assert find(root, "html > body:nth-of-type(1) > p:nth-of-type(1)") is next(root.iter("p"))
    assert find(root, "html > body:nth-of-type(1) > p:nth-of-type(2)") is None


def test_actions_become_links_or_a_bar_of_links() -> None:
    root = static_html(
        '<div id="app"><button>Go</button><a href="/x">X</a><form id="f"></form></div>',
        "http://h/",
        lambda _url: None,
    )
    assert root is not None
    link_actions(
        root,
        [
            ("#app > button:nth-of-type(1)", "s1.html", 'click "Go"'),
            ("#app > a:nth-of-type(1)", "s2.html", 'click "X"'),
            ("#f", "s3.html", "submit q=a"),
            ("#f", "s4.html", "submit q=b"),
            ("x-app:nth-of-type(1) >>> button:nth-of-type(1)", "s5.html", "click in shadow"),
        ],
        "Other ways on",
    )
    button = next(root.iter("button"))
    assert button.get("type") == "button" and button[0].get("href") == "s1.html"
    assert button[0].text == "Go"
    assert root.get_element_by_id("app")[1].get("href") == "s2.html"
    bar = next(root.iter("nav"))
    assert [a.get("href") for a in bar.iter("a")] == ["s3.html", "s4.html", "s5.html"]
    assert [a.text for a in bar.iter("a")] == ["submit q=a", "submit q=b", "click in shadow"]
