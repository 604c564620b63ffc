"""The service's web page in a real headless Chromium: a crawl of the demo app started from the
form, watched as its counters rise through the live events, stopped, resumed and opened in its
report; bad settings shown at their fields; crawled strings shown as text, never run."""

from __future__ import annotations

import json
import logging
import socket
import struct
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import uvicorn
from selenium import webdriver
from selenium.webdriver.common.by import By
from werkzeug import Response

from statecrawl.config import ServiceSettings
from statecrawl.demo_app import DemoApp
from statecrawl.service.app import create_app
from tests.conftest import PAGES, Site, chrome_driver

TIMEOUT = 60.0


@pytest.fixture
def service(tmp_path: Path) -> Iterator[str]:
    """The service on a free loopback port, served by uvicorn in a thread; its URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(ServiceSettings(data=tmp_path / "data", port=port, max_running=2))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the service did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(30)


@pytest.fixture
def page(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    driver = chrome_driver(tmp_path / "profile")
    try:
        yield driver
    finally:
        driver.quit()


def until(driver: webdriver.Chrome, script: str, timeout: float = TIMEOUT) -> Any:
    """Wait for ``script`` to return something true; return it."""
    deadline = time.monotonic() + timeout
    while True:
        value = driver.execute_script(script)
        if value:
            return value
        assert time.monotonic() < deadline, f"never true: {script}"
        time.sleep(0.05)


def text(driver: webdriver.Chrome, element: str) -> str:
    return str(driver.execute_script(f"return document.getElementById('{element}').textContent"))


def fill(driver: webdriver.Chrome, **values: str) -> None:
    for element, value in values.items():
        field = driver.find_element(By.ID, element)
        field.clear()
        field.send_keys(value)


def test_start_watch_stop_resume_report(
    service: str, page: webdriver.Chrome, site: Site, other_site: Site
) -> None:
    hostile = (PAGES / "report_hostile.html").read_text().replace("{RECORDER}", other_site.origin)
    site.prefix("/h/", lambda _r: Response(hostile, content_type="text/html; charset=utf-8"))
    other_site.prefix("/", lambda _r: Response("", content_type="text/plain"))
    settings = {"start_urls": [site.url("/h/")], "limits": {"max_depth": 0},
                "archive": {"screenshots": "all"}}
    marked = httpx2.post(f"{service}/api/crawls", json=settings).json()["id"]

    page.get(service + "/")
    until(page, "return !document.getElementById('home').hidden")
    fill(page, **{"f-url": "ftp://example.org/", "f-depth": "-1", "f-browsers": "two"})
    page.find_element(By.ID, "f-start").click()
    until(page, "return document.querySelector('[data-error=\"start_urls\"]').textContent")
    errors = page.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#start [data-error]')]"
        ".map(e => [e.dataset.error, e.textContent]))"
    )
    assert "not an absolute http(s) URL" in errors["start_urls"]
    assert errors["limits.max_depth"].startswith("limits.max_depth must be at least 0")
    assert errors["browser.count"] == "browser.count: expected int, got 'two'"
    assert errors["limits.max_states"] == errors["settings"] == ""
    invalid = page.find_elements(By.CSS_SELECTOR, "#start [aria-invalid=true]")
    assert {e.get_attribute("id") for e in invalid} == {"f-url", "f-depth", "f-browsers"}

    with DemoApp() as app:
        fill(page, **{"f-url": app.url, "f-depth": "2", "f-states": "8", "f-browsers": "1",
                      "f-inputs": "q=battery"})
        page.find_element(By.ID, "f-start").click()
        crawl = until(page, "return (/^#\\/crawls\\/([0-9a-f]+)$/.exec(location.hash) || [])[1]")
        until(page, "return document.getElementById('c-status').textContent")  # first fetch
        seen = set()
        deadline = time.monotonic() + TIMEOUT
        while len(seen) < 3 or max(seen) < 2:  # the figures rise, as events come
            seen.add(int(text(page, "f-v-states")))
            assert time.monotonic() < deadline, seen
            assert text(page, "c-status") in ("queued", "running"), text(page, "c-error")
            time.sleep(0.05)
        page.find_element(By.ID, "c-stop").click()
        until(page, "return document.getElementById('c-status').textContent === 'stopped'")
        stopped = int(text(page, "f-v-states"))
        assert 2 <= stopped < 8
        until(page, "return !document.getElementById('c-resume').disabled")
        page.find_element(By.ID, "c-resume").click()
        until(page, "return document.getElementById('c-status').textContent === 'done'")
        until(page, "return document.getElementById('f-v-states').textContent === '8'")
    shown = page.execute_script(
        "return [...document.querySelectorAll('#c-states li')].map(li => li.dataset.state)"
    )
    # The last states found, newest first, each once. A state found before the stop may be
    # found again after the resume under another id and merged into it later: the live list
    # has shown both (seen in 1 of 6 runs here, and in 3 of 6 before this wave's changes).
    assert len(set(shown)) == len(shown) and 8 <= len(shown) <= 12
    points = page.find_element(By.CSS_SELECTOR, "#c-chart polyline.states").get_attribute("points")
    assert len(points.split()) >= 3
    page.get(f"{service}/#/")  # the list: each crawl with its status and figures
    row = f"#crawls tr[data-id='{crawl}']"
    until(page, f"return document.querySelector(\"{row} .n-states\")")
    assert page.find_element(By.CSS_SELECTOR, f"{row} .status").text == "done"
    assert page.find_element(By.CSS_SELECTOR, f"{row} .n-states").text == "8"
    page.get(f"{service}/#/crawls/{crawl}")
    until(page, "return document.getElementById('l-report').getAttribute('href')")
    report = page.find_element(By.ID, "l-report").get_attribute("href")
    assert report == f"{service}/api/crawls/{crawl}/report/"
    page.get(report)
    until(page, "return document.getElementById('summary').textContent")
    assert page.title.startswith("statecrawl report")

    # the hostile page's crawl: its title and URL are on the page as text, nothing of it ran
    other_site.requests.clear()
    page.get(f"{service}/#/crawls/{marked}")
    until(page, "return document.getElementById('c-status').textContent === 'done'")
    until(page, "return document.querySelector('#c-states li strong')")
    title = page.find_element(By.CSS_SELECTOR, "#c-states li strong").text
    assert title.startswith("</script><script>window.__pwned=1")
    time.sleep(0.3)  # for anything that would load late
    assert page.execute_script("return window.__pwned") is None
    assert page.title == "statecrawl"
    assert other_site.requests == []


class Counted(logging.Handler):
    """Counts the records of asyncio's "socket.send() raised exception." warning."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += "socket.send() raised exception" in record.getMessage()


def test_a_client_that_leaves_is_written_to_no_more(
    service: str, site: Site, tmp_path: Path
) -> None:
    site.page("/", "tree.html")
    settings = {"start_urls": [site.url("/")], "limits": {"max_depth": 1}}
    crawl = httpx2.post(f"{service}/api/crawls", json=settings).json()["id"]
    deadline = time.monotonic() + TIMEOUT
    while httpx2.get(f"{service}/api/crawls/{crawl}").json()["status"] != "done":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    events = tmp_path / "data" / "jobs" / crawl / "events.jsonl"
    line = json.dumps({"event": "progress", "states": 5}) + "\n"
    with events.open("a") as file:  # a long backlog, as a big crawl's replay from 0 has
        file.write(line * 3000)
    counted = Counted()
    logging.getLogger("asyncio").addHandler(counted)
    try:
        host, port = service.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port))) as client:
            client.sendall(f"GET /api/crawls/{crawl}/events HTTP/1.1\r\nHost: {host}\r\n\r\n"
                           .encode())
            assert client.recv(100).startswith(b"HTTP/1.1 200")
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        time.sleep(1.5)
    finally:
        logging.getLogger("asyncio").removeHandler(counted)
    assert counted.count == 0


def test_the_page_asks_for_nothing_missing_while_a_crawl_runs(
    service: str, site: Site, tmp_path: Path
) -> None:
    """Watched from its start, a crawl's page shows a thumbnail only where one exists: the
    console holds no 404 and no failed load, and every picture shown has loaded."""
    site.page("/", "tree.html")
    driver = chrome_driver(tmp_path / "console", **{"goog:loggingPrefs": {"browser": "ALL"}})
    try:
        driver.get(service + "/")
        until(driver, "return !document.getElementById('home').hidden")
        settings = {"start_urls": [site.url("/")], "limits": {"max_depth": 1}}
        crawl = httpx2.post(f"{service}/api/crawls", json=settings).json()["id"]
        driver.get(f"{service}/#/crawls/{crawl}")
        until(driver, "return document.getElementById('c-status').textContent === 'done'")
        until(driver, "return document.querySelectorAll('#c-states li img').length >= 2")
        time.sleep(0.5)  # for any picture asked late
        assert driver.execute_script(
            "return [...document.images].every((i) => i.complete && i.naturalWidth > 0)")
        errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, "\n".join(errors)
    finally:
        driver.quit()


def test_the_crawl_page_shows_the_qa_score_and_links_its_view(
    service: str, page: webdriver.Chrome, site: Site, tmp_path: Path
) -> None:
    """Once ``statecrawl qa`` wrote ``qa.json`` and ``qa.html`` into a crawl, its page shows
    each replayer's share and links to the view."""
    site.html("/q", "<!DOCTYPE html><title>Q</title><p>One page</p>")
    settings = {"start_urls": [site.url("/q")], "limits": {"max_depth": 0}}
    job = httpx2.post(f"{service}/api/crawls", json=settings).json()["id"]
    deadline = time.monotonic() + TIMEOUT
    while httpx2.get(f"{service}/api/crawls/{job}").json()["status"] != "done":
        assert time.monotonic() < deadline, "the crawl did not end"
        time.sleep(0.1)
    crawl = tmp_path / "data" / "crawls" / job
    replayers = {"ours": {"share": 1.0, "error": ""}, "pywb": {"share": 0.974, "error": ""}}
    (crawl / "qa.json").write_text(json.dumps({"replayers": replayers, "states": []}))
    (crawl / "qa.html").write_text("<!DOCTYPE html><title>Archive QA</title>")
    page.get(f"{service}/#/crawls/{job}")
    # (the list's view of the crawl unhides the link; the crawl's full view adds the shares)
    until(page, "return document.getElementById('l-qa').textContent.startsWith('QA: ')")
    assert text(page, "l-qa") == "QA: ours 100.0 %, pywb 97.4 %"
    view = page.find_element(By.ID, "l-qa").get_attribute("href")
    assert view == f"{service}/api/crawls/{job}/files/qa.html"
    assert "Archive QA" in httpx2.get(view).text
