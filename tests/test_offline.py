"""Offline means offline: a page made of every construct that fetches or navigates without a
script, each pointing to a beacon on a second loopback host, is crawled; its static export
(from ``file://``), the replay's state views and the report's DOM view are opened in Chromium,
every element clicked and every form submitted; the beacon sees no connection at all."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from werkzeug import Response

import statecrawl
from statecrawl.export import export_static
from statecrawl.replay import ReplayServer
from statecrawl.report import build_report
from tests.conftest import Site, chrome_driver
from tests.test_report import open_report, open_state

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360f8ffff3f0005fe02fea7d6a4bf0000000049454e44ae426082"
)
# {B} is the beacon's origin, {L} the page's own; every construct names what it is in its path.
PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>leaky</title>
<base href="{B}/base/">
<link rel="prefetch" href="{B}/prefetch"><link rel="preload" href="{B}/preload" as="image">
<link rel="preconnect" href="{B}/"><link rel="dns-prefetch" href="{B}/">
<link rel="modulepreload" href="{B}/modulepreload.js"><link rel="prerender" href="{B}/prerender">
<link rel="stylesheet" href="{B}/style.css"><link rel="icon" href="{B}/icon.png">
<link rel="manifest" href="{B}/manifest.json"><link rel="next" href="{B}/next">
<link rel="stylesheet" href="{L}/local.css">
<meta http-equiv="refresh" content="0;url={B}/refresh">
<style>@import "{B}/import.css"; @import url({B}/importurl.css);
body {{ background: url({B}/cssurl.png) }}
.set {{ background-image: image-set("{B}/imageset.png" 1x) }}
.esc {{ background: u\\72l({B}/escaped.png) }}
@font-face {{ font-family: f; src: url({B}/font.woff) }} .f {{ font-family: f }}</style>
</head><body background="{B}/bodybg.png">
<p id="text" class="f set esc">visible text</p>
<img id="local" src="{L}/local.png" attributionsrc="{B}/attribution">
<a href="#top" ping="{B}/ping">ping</a> <a href="{B}/link">off-site</a>
<a href="{B}/link2" ping="{B}/ping2">both</a> <a href="relative">relative</a>
<map name="m"><area shape="rect" coords="0,0,9,9" href="{B}/area" ping="{B}/areaping"></map>
<form action="{B}/form"><input name="q" value="x"><button>go</button></form>
<form method="post" action="{B}/formpost"><button formaction="{B}/formaction">fa</button>
<input type="image" src="{B}/inputimage.png" alt="ii" formaction="{B}/inputformaction"></form>
<img src="{B}/img.png" srcset="{B}/srcset.png 2x" usemap="#m">
<picture><source srcset="{B}/source.png"><img src="{L}/local.png"></picture>
<video poster="{B}/poster.png" src="{B}/video.mp4"><track src="{B}/track.vtt"></video>
<audio src="{B}/audio.mp3" autoplay></audio>
<object data="{B}/object">fallback</object><embed src="{B}/embed">
<iframe src="{B}/iframe"></iframe>
<iframe srcdoc="<img src='{B}/srcdoc.png'><a href='{B}/srcdoclink'>in</a>"></iframe>
<svg width="40" height="40"><image href="{B}/svgimage.png" width="9" height="9"/>
<image xlink:href="{B}/xlink.png" width="9" height="9"/><use href="{B}/use.svg#a"/>
<rect width="9" height="9" fill="url({B}/fill.svg#p)" filter="url({B}/filter.svg#f)"/>
<a href="{B}/svglink"><text y="20">svg</text></a>
<set attributeName="href" to="{B}/set"/></svg>
<div style="background: url({B}/styleattr.png); width: 9px; height: 9px"></div>
<table background="{B}/tablebg.png"><tr><td background="{B}/tdbg.png">cell</td></tr></table>
</body></html>"""
LOCAL_CSS = "#text { color: rgb(1, 2, 3) }"


class Beacon:
    """A listener on 127.0.0.2 that records every connection and what was asked on it."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.2", 0))
        self.socket.settimeout(0.2)
        self.origin = f"http://127.0.0.2:{self.socket.getsockname()[1]}"
        self.seen: list[str] = []
        self.running = True
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while self.running:
            try:
                connection, _ = self.socket.accept()
            except TimeoutError:
                continue
            with connection:
                connection.settimeout(0.5)
                try:
                    first = connection.recv(4096).split(b"\r\n")[0].decode("latin-1")
                    connection.sendall(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n")
                except OSError:
                    first = ""
                self.seen.append(first or "(connection only)")

    def take(self) -> list[str]:
        seen, self.seen = self.seen, []
        return seen

    def close(self) -> None:
        self.running = False
        self.thread.join()
        self.socket.close()


@pytest.fixture
def beacon() -> Iterator[Beacon]:
    beacon = Beacon()
    yield beacon
    beacon.close()


# Click the elements from number arguments[0] on, until one leaves the page (a navigation or
# a form submitted): the number of the next one to click.
CLICK = """let left = false;
addEventListener('beforeunload', () => { left = true; });
addEventListener('submit', () => { left = true; }, true);
const all = document.querySelectorAll('body *');
for (let i = arguments[0]; i < all.length; i++) {
  all[i].dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));
  if (left) return i + 1;
}
return all.length;"""


def walk(driver: webdriver.Chrome, url: str) -> int:
    """Open ``url``, click each of its elements (opening it again after one that leaves it)
    and submit each of its forms; the number of elements clicked."""
    driver.get(url)
    count = driver.execute_script("return document.querySelectorAll('body *').length")
    clicked = 0
    while clicked < count:
        clicked = driver.execute_script(CLICK, clicked)
        driver.get(url)
    for i in range(driver.execute_script("return document.forms.length")):
        driver.execute_script("document.forms[arguments[0]].submit()", i)
        driver.get(url)
    return int(count)


def shows_the_page(driver: webdriver.Chrome) -> bool:
    """The view shows the recorded text, styled by the archived stylesheet, and its image."""
    text = driver.find_element(By.ID, "text")
    image = driver.find_element(By.ID, "local")
    return (
        text.text == "visible text"
        and text.value_of_css_property("color") == "rgba(1, 2, 3, 1)"
        and driver.execute_script("return arguments[0].naturalWidth", image) == 1
    )


def test_no_view_of_a_crawl_reaches_another_host(
    site: Site, beacon: Beacon, tmp_path: Path
) -> None:
    site.html("/", PAGE.format(B=beacon.origin, L=site.origin))
    site.handler("/local.css", lambda _r: Response(LOCAL_CSS, content_type="text/css"))
    site.handler("/local.png", lambda _r: Response(PNG, content_type="image/png"))
    crawl = statecrawl.crawl(site.url("/"), out=tmp_path / "out", max_depth=0)
    seen = {"crawl": beacon.take()}
    states = [s["id"] for s in crawl.states()]
    assert states
    export = export_static(crawl.path, tmp_path / "static")
    report = build_report(crawl.path, tmp_path / "report")
    driver = chrome_driver(tmp_path / "profile")
    try:
        pages = [(export.parent / "states" / f"{s}.html").as_uri() for s in states]
        for page in [export.as_uri(), *pages]:
            assert walk(driver, page) > 0
        driver.get(pages[0])
        assert shows_the_page(driver)
        seen["export"] = beacon.take()
        with ReplayServer(crawl.path) as server:
            for page in [server.url, *(f"{server.url}state/{s}" for s in states)]:
                assert walk(driver, page) > 0
            driver.get(f"{server.url}state/{states[0]}")
            assert shows_the_page(driver)
        seen["replay"] = beacon.take()
        open_report(driver, report)
        open_state(driver, 0)
        time.sleep(1)  # pings and prefetches may be sent after load
        seen["report"] = beacon.take()
    finally:
        driver.quit()
    # the crawl's browser refuses requests to other hosts; a preconnect may still connect
    seen["crawl"] = [line for line in seen["crawl"] if line != "(connection only)"]
    assert not any(seen.values()), {k: sorted(set(v)) for k, v in seen.items()}
