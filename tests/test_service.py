"""``statecrawl serve``: the JSON API over the job queue, each crawl a real ``statecrawl crawl``
process with a headless Chromium, driven through Starlette's test client; and the service
itself as a process, killed with SIGKILL while two crawls run and started again."""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.routing import Route
from starlette.testclient import TestClient
from werkzeug import Request, Response

import statecrawl
from statecrawl.config import ServiceSettings
from statecrawl.service.app import create_app
from statecrawl.testing import PROFILE, command_line, processes_below, running_with, still_alive
from tests.conftest import PAGES, Site, error_line, served

BASE = "http://127.0.0.1:8080"
TIMEOUT = 60.0  # seconds for a small crawl to reach a status
TOKEN = "a-token-of-the-service-0123456789"
ENDED = {"done", "failed", "stopped", "interrupted"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The service on ``tmp_path/data``, one crawl at a time."""
    app = create_app(ServiceSettings(data=tmp_path / "data", max_running=1, max_browsers=2))
    with TestClient(app, base_url=BASE) as running:
        yield running


def tree(site: Site, depth: int, **settings: Any) -> dict[str, Any]:
    """Settings for a crawl of ``tests/pages/tree.html`` to ``depth`` (4**depth leaves)."""
    site.page("/", "tree.html")
    return {"start_urls": [site.url("/")], "limits": {"max_depth": depth}, **settings}


def wait(client: TestClient, crawl: str, until: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
    """Poll a crawl until ``until(view)``; its view then."""
    deadline = time.monotonic() + timeout
    while True:
        view = client.get(f"/api/crawls/{crawl}").json()
        if until(view):
            return view
        assert time.monotonic() < deadline, view
        time.sleep(0.1)


def ended(view: dict[str, Any]) -> bool:
    return view["status"] in ENDED


def states_at_least(count: int) -> Any:
    return lambda view: (view["stats"] or {}).get("states", 0) >= count or ended(view)


def events(client: TestClient, crawl: str, start: int = 0) -> list[tuple[str, Any]]:
    """The server-sent events of an ended crawl, from byte ``start``: (event, data)."""
    found = []
    with client.stream("GET", f"/api/crawls/{crawl}/events?from={start}") as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        kind = None
        for line in response.iter_lines():
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: "):
                found.append((kind, json.loads(line.removeprefix("data: "))))
    return found


def test_openapi_documents_every_route(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    documented = {
        (path, method.upper())
        for path, item in spec["paths"].items()
        for method in item
        if method != "parameters"
    }
    app = client.app.app  # type: ignore[attr-defined]  # inside the Guard
    served = set()
    for route in app.routes:
        assert isinstance(route, Route)
        path = route.path.replace("{path:path}", "{path}")
        served |= {(path, m) for m in route.methods or () if m != "HEAD"}
    assert documented == served
    for path, method in documented:
        responses = spec["paths"][path][method.lower()]["responses"]
        assert any(code.startswith("2") or code == "308" for code in responses), (path, method)


def test_bad_settings_are_refused_at_their_fields(client: TestClient) -> None:
    bad = {
        "start_urls": ["ftp://example.org/"],
        "limits": {"max_depth": -1, "max_states": "many"},
        "browser": {"count": 3},  # over the operator's cap (checked once the rest is good)
        "colour": "blue",
    }
    response = client.post("/api/crawls", json=bad)
    assert response.status_code == 400
    body = response.json()
    assert set(body["fields"]) == {"start_urls", "limits.max_depth", "limits.max_states", "colour"}
    assert body["fields"]["limits.max_depth"].startswith("limits.max_depth must be at least 0")
    assert body["fields"]["limits.max_states"] == "limits.max_states: expected int, got 'many'"
    assert "not an absolute http(s) URL" in body["fields"]["start_urls"]
    assert "\n" not in body["error"] and body["error"].endswith("(and 3 more)")

    capped = client.post("/api/crawls", json={"start_urls": [BASE], "browser": {"count": 3}})
    assert capped.status_code == 400
    assert capped.json()["fields"] == {
        "browser.count": "browser.count must be at most 2 on this service, got 3"
    }
    reserved = {"start_urls": [BASE], "out": "/etc", "browser": {"binary": "/bin/sh"},
                "login": {"cookies": "/etc/shadow"}}
    fields = client.post("/api/crawls", json=reserved).json()["fields"]
    assert set(fields) == {"out", "browser.binary", "login.cookies"}
    assert fields["out"] == "out: set by the service, not by a crawl's settings"
    listed = client.post("/api/crawls", json=[1]).json()
    assert listed["fields"] == {"settings": "expected an object"}
    assert client.post("/api/crawls", json={}).json()["fields"] == {
        "start_urls": "config: missing setting(s) 'start_urls'"
    }
    broken = client.post("/api/crawls", content=b"{", headers={"Content-Type": "application/json"})
    assert broken.status_code == 400
    assert broken.json()["error"].startswith("settings: not valid JSON")
    plain = client.post("/api/crawls", content=b"{}", headers={"Content-Type": "text/plain"})
    assert plain.status_code == 400  # a form of another site cannot post settings
    assert client.get("/api/crawls").json() == {"crawls": []}


def test_unknown_crawls_and_filters(client: TestClient) -> None:
    for method, path in [
        ("GET", ""), ("DELETE", ""), ("POST", "/stop"), ("POST", "/resume"), ("POST", "/recrawl"),
        ("GET", "/events"), ("GET", "/graph.json"), ("GET", "/report/"), ("GET", "/export.wacz"),
    ]:
        for crawl in ("0123456789ab", "x" * 12, "%2e%2e"):
            response = client.request(method, f"/api/crawls/{crawl}{path}")
            assert response.status_code == 404, (method, path, crawl)
            assert "error" in response.json()
    response = client.get("/api/crawls?status=sleeping")
    assert response.status_code == 400
    assert response.json()["error"].startswith("status: expected one of queued, running")
    status = client.get("/api/status").json()
    assert status["max_running"] == 1 and status["caps"]["browser.count"] == 2
    assert client.get("/").headers["content-security-policy"].startswith("default-src 'none'")
    assert client.get("/static/page.js").status_code == 200
    assert client.get("/static/..%2Fapp.py").status_code == 404


def test_a_crawl_from_queue_to_report(client: TestClient, site: Site, tmp_path: Path) -> None:
    response = client.post("/api/crawls", json=tree(site, 1, archive={"screenshots": "all"}))
    assert response.status_code == 201
    crawl = response.json()
    assert crawl["status"] == "queued" and response.headers["location"] == crawl["links"]["self"]
    assert crawl["settings"]["limits"]["max_depth"] == 1 and "out" not in crawl["settings"]
    view = wait(client, crawl["id"], ended)
    assert view["status"] == "done", view
    assert view["stats"]["states"] == 5 and view["stats"]["stop_reason"] == "finished"
    assert view["failures"] == [] and view["runs"] == 1 and view["returncode"] == 0
    listed = client.get("/api/crawls?status=done").json()["crawls"]
    assert [c["id"] for c in listed] == [crawl["id"]]

    seen = events(client, crawl["id"])
    kinds = [kind for kind, _ in seen]
    assert kinds[-1] == "closed" and "end" in kinds and kinds.count("progress") >= 1
    assert [d["status"] for k, d in seen if k == "status"] == ["done"]
    found = [data["id"] for kind, data in seen if kind == "state"]
    graph = client.get(crawl["links"]["graph"]).json()
    assert sorted(found) == sorted(n["id"] for n in graph["nodes"])
    progress = [data["states"] for kind, data in seen if kind in ("progress", "end")]
    assert progress == sorted(progress) and progress[-1] == 5
    half = client.stream("GET", f"/api/crawls/{crawl['id']}/events")  # resumable by offset
    with half as response:
        first = next(line for line in response.iter_lines() if line.startswith("id: "))
    later = events(client, crawl["id"], int(first.removeprefix("id: ")))
    assert len([k for k, _ in later if k == "state"]) == len(found) - 1

    report = client.get(crawl["links"]["report"])
    assert report.status_code == 200 and "statecrawl report" in report.text
    assert "script-src 'self'" in report.headers["content-security-policy"]
    bare = client.get(f"/api/crawls/{crawl['id']}/report", follow_redirects=False)
    assert bare.status_code == 308
    assert client.get(crawl["links"]["report"] + "report.js").status_code == 200
    pictures = [data["picture"] for kind, data in seen if kind == "state"]
    assert all(pictures), pictures  # each thumbnail was written by the time the crawl ended
    for url in pictures:
        image = client.get(url)
        assert image.status_code == 200 and image.headers["content-type"] == "image/webp"
    with pytest.MonkeyPatch.context() as patch:  # without the wacz package: one line, no trace
        patch.setitem(sys.modules, "wacz.main", None)
        missing = client.get(crawl["links"]["wacz"])
    assert missing.status_code == 500 and missing.json()["error"].startswith(
        "a WACZ export needs wacz.main, which is not installed: pip install 'statecrawl[export]'"
    )
    wacz = client.get(crawl["links"]["wacz"])
    assert wacz.status_code == 200 and wacz.content[:2] == b"PK"
    root = found[0]
    snapshot = client.get(f"/api/crawls/{crawl['id']}/files/states/{root}.html")
    assert snapshot.status_code == 200
    assert snapshot.headers["content-security-policy"].startswith("sandbox")
    shot = client.get(f"/api/crawls/{crawl['id']}/states/{root}/screenshot")
    assert shot.status_code == 200 and shot.headers["content-type"] == "image/webp"
    links = client.get(crawl["links"]["self"]).json()["links"]  # (the crawl is done now)
    records = client.get(links["records"])  # the crawl writes its records at the end
    assert records.status_code == 200 and records.headers["content-type"] == "application/x-ndjson"
    assert all(json.loads(line)["key"] for line in records.text.splitlines())

    # nothing outside the crawl directory is served: not by a path, not by a symlink
    directory = tmp_path / "data" / "crawls" / crawl["id"]
    (directory / "states" / "escape.html").symlink_to(tmp_path / "data" / "service.sqlite")
    (directory / "inside.txt").symlink_to(directory / "graph.json")
    base = f"/api/crawls/{crawl['id']}/files/"
    for path in ("..%2F..%2Fservice.sqlite", "%2e%2e/%2e%2e/service.sqlite", "states/escape.html",
                 "%2Fetc%2Fpasswd", "states", "states/%00.html"):
        assert client.get(base + path).status_code == 404, path
    assert client.get(base + "inside.txt").status_code == 200
    assert client.get(base + f"states%2F{root}.html").status_code == 200  # %2F reaches it

    # a recrawl since it, then the diff between the two, then both are deleted
    recrawl = client.post(f"/api/crawls/{crawl['id']}/recrawl")
    assert recrawl.status_code == 201 and recrawl.json()["since"] == crawl["id"]
    second = wait(client, recrawl.json()["id"], ended)
    assert second["status"] == "done" and second["stats"]["states"] == 5, second
    diff = client.get(f"/api/crawls/{second['id']}/diff?against={crawl['id']}").json()
    assert len(diff["unchanged"]) == 5 and diff["new"] == diff["deleted"] == []
    assert client.get(f"/api/crawls/{second['id']}/diff?against=0123456789ab").status_code == 404
    for job in (second["id"], crawl["id"]):
        assert client.delete(f"/api/crawls/{job}").status_code == 204
        assert not (tmp_path / "data" / "crawls" / job).exists()
    assert client.get("/api/crawls").json() == {"crawls": []}


def test_stop_resume_queue_and_failure(client: TestClient, site: Site, tmp_path: Path) -> None:
    first = client.post("/api/crawls", json=tree(site, 2)).json()["id"]  # 21 states
    second = client.post("/api/crawls", json=tree(site, 1)).json()["id"]
    wait(client, first, lambda v: v["status"] == "running")
    assert client.get(f"/api/crawls/{second}").json()["status"] == "queued"  # one at a time
    assert client.post(f"/api/crawls/{second}/stop").json()["status"] == "stopped"
    assert client.delete(f"/api/crawls/{first}").status_code == 409

    wait(client, first, states_at_least(3))
    stopping = client.post(f"/api/crawls/{first}/stop")
    assert stopping.status_code == 200 and stopping.json()["status"] in ("stopping", "stopped")
    stopped = wait(client, first, ended)
    assert stopped["status"] == "stopped" and stopped["stats"]["stop_reason"] == "interrupted"
    assert 3 <= stopped["stats"]["states"] < 21
    assert client.post(f"/api/crawls/{first}/stop").status_code == 409

    assert client.post(f"/api/crawls/{first}/resume").json()["status"] == "queued"
    assert client.post(f"/api/crawls/{first}/resume").status_code == 409
    done = wait(client, first, ended)
    assert done["status"] == "done" and done["stats"]["states"] == 21 and done["runs"] == 2
    assert client.post(f"/api/crawls/{first}/resume").status_code == 409
    assert client.delete(f"/api/crawls/{second}").status_code == 204  # never ran

    failed = client.post("/api/crawls", json=tree(site, 1, model="nosuch")).json()["id"]
    view = wait(client, failed, ended)
    assert view["status"] == "failed" and view["returncode"] == 1, view
    assert view["error"].startswith("unknown state model 'nosuch'")
    assert client.post(f"/api/crawls/{failed}/recrawl").status_code == 409


class Counting:
    """A handler serving ``tests/pages/tree.html`` slowly, counting the requests it serves at
    once: the browsers working on its host at once."""

    def __init__(self) -> None:
        self.page = (PAGES / "tree.html").read_text(encoding="utf-8")
        self.lock = threading.Lock()
        self.now = self.most = self.served = 0

    def __call__(self, _request: Request) -> Response:
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
            self.served += 1
        time.sleep(0.15)
        with self.lock:
            self.now -= 1
        return Response(self.page, content_type="text/html; charset=utf-8")


def test_jobs_share_each_hosts_browsers(tmp_path: Path) -> None:
    settings = ServiceSettings(data=tmp_path / "data", max_running=3, max_browsers_per_host=1)
    with contextlib.ExitStack() as stack:
        sites = [stack.enter_context(contextlib.contextmanager(served)(h))
                 for h in ("127.0.0.1", "127.0.0.2")]
        counts = [Counting(), Counting()]
        for site, count in zip(sites, counts, strict=True):
            site.handler("/", count)
        client = stack.enter_context(TestClient(create_app(settings), base_url=BASE))
        jobs = [
            client.post("/api/crawls", json={"start_urls": [site.url("/")],
                                             "limits": {"max_depth": 1}}).json()["id"]
            for site in (sites[0], sites[0], sites[1])  # two jobs on one host, one on another
        ]
        views = [wait(client, job, ended) for job in jobs]
    assert [(v["status"], v["stats"]["states"]) for v in views] == [("done", 5)] * 3, views
    assert counts[0].served >= 2 * 5 and counts[1].served >= 5
    assert [c.most for c in counts] == [1, 1]  # never two browsers on a host at once
    assert all(v["settings"]["politeness"]["max_browsers_per_host"] == 1 for v in views)


def test_a_token_guards_every_api_call(tmp_path: Path) -> None:
    token = tmp_path / "token"
    token.write_text(TOKEN + "\n")
    settings = ServiceSettings(data=tmp_path / "data", host="0.0.0.0", token_file=token)
    with TestClient(create_app(settings), base_url="http://crawler.example:8080") as client:
        for path in ("/api/crawls", "/api/status", "/api/openapi.json", "/api/crawls/x/events"):
            refused = client.get(path)
            assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
        assert client.post("/api/crawls", json={}).status_code == 401
        wrong = {"Authorization": "Bearer " + TOKEN[:-1]}
        assert client.get("/api/crawls", headers=wrong).status_code == 401
        right = {"Authorization": f"Bearer {TOKEN}"}
        assert client.get("/api/crawls", headers=right).json() == {"crawls": []}
        assert client.get("/").status_code == 200  # the page holds nothing of the crawls
        assert client.post("/api/session", json={"token": "nope"}).status_code == 401
        signed = client.post("/api/session", json={"token": TOKEN})
        assert signed.status_code == 204
        assert "httponly" in signed.headers["set-cookie"].lower()
        assert client.get("/api/crawls").status_code == 200  # by the cookie
        foreign = client.post("/api/crawls", json={}, headers={"Origin": "http://evil.example"})
        assert foreign.status_code == 403


def test_loopback_by_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    app = create_app(ServiceSettings(data=tmp_path / "data"))
    with TestClient(app, base_url="http://rebound.example:8080") as client:  # DNS rebinding
        assert client.get("/api/crawls").status_code == 403
        assert client.get("/api/crawls", headers={"Host": "localhost:8080"}).status_code == 200
        foreign = client.post("/api/crawls", json={}, headers={
            "Host": "127.0.0.1:8080", "Origin": "http://evil.example"})
        assert foreign.status_code == 403
    line = error_line(capsys, ["serve", "--data", str(tmp_path), "--host", "0.0.0.0"])
    assert line == ("statecrawl: error: --host 0.0.0.0 is reachable from other machines: give "
                    "--token-file, the token every API call must bring")
    (tmp_path / "short").write_text("abc\n")
    line = error_line(capsys, ["serve", "--data", str(tmp_path), "--token-file",
                               str(tmp_path / "short")])
    assert "the token must be at least 16 characters" in line
    assert ServiceSettings(data=tmp_path, host="::1").loopback


def test_serve_without_the_extra(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    line = error_line(capsys, ["serve", "--data", str(tmp_path)])
    assert line == (
        "statecrawl: error: statecrawl serve needs uvicorn: pip install 'statecrawl[serve]'"
    )


def test_the_serve_extra_holds_what_its_links_need() -> None:
    """The page links each crawl's WACZ: ``statecrawl[serve]`` installs what builds it."""
    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    assert set(extras["export"]) <= set(extras["serve"])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_service(data: Path, port: int) -> subprocess.Popen[bytes]:
    service = subprocess.Popen(
        [sys.executable, "-m", "statecrawl.cli", "serve", "--data", str(data), "--port",
         str(port), "--max-running", "3"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )
    deadline = time.monotonic() + 20
    while True:
        try:
            httpx2.get(f"http://127.0.0.1:{port}/api/status", timeout=1).raise_for_status()
            return service
        except httpx2.HTTPError:
            assert service.poll() is None, service.communicate()
            assert time.monotonic() < deadline, "the service did not start"
            time.sleep(0.1)


def test_killed_service_restarts_and_resumes(
    site: Site, tmp_path: Path, small_crawl: statecrawl.Crawl
) -> None:
    """``small_crawl`` is the same page crawled to the same depth, never interrupted."""
    data, port = tmp_path / "data", _free_port()
    api = f"http://127.0.0.1:{port}/api/crawls"
    service = _start_service(data, port)
    try:
        jobs = [httpx2.post(api, json=tree(site, 2)).json()["id"] for _ in range(2)]
        started: dict[int, tuple[str, str]] = {}
        deadline = time.monotonic() + TIMEOUT
        while True:
            started.update(processes_below(service.pid))
            views = [httpx2.get(f"{api}/{job}").json() for job in jobs]
            if all((v["stats"] or {}).get("states", 0) >= 3 for v in views):
                break
            assert all(v["status"] == "running" for v in views), views
            assert time.monotonic() < deadline, views
            time.sleep(0.05)
        started.update(processes_below(service.pid))
        profiles = {m.group(1) for pid in started if (m := PROFILE.search(command_line(pid)))}
        assert profiles and "chromedriver" in {name for _, name in started.values()}
        service.send_signal(signal.SIGKILL)
        service.wait()
    finally:
        if service.poll() is None:
            service.kill()
            service.wait()
    deadline = time.monotonic() + 10
    while still_alive(started) or running_with(profiles):
        assert time.monotonic() < deadline, (still_alive(started), running_with(profiles))
        time.sleep(0.05)

    service = _start_service(data, port)
    try:
        interrupted = httpx2.get(api, params={"status": "interrupted"}).json()["crawls"]
        assert sorted(c["id"] for c in interrupted) == sorted(jobs)
        assert all(c["stats"]["states"] < 21 for c in interrupted)
        for job in jobs:
            assert httpx2.post(f"{api}/{job}/resume").json()["status"] == "queued"
        deadline = time.monotonic() + 2 * TIMEOUT
        while True:
            started.update(processes_below(service.pid))
            profiles |= {m.group(1) for p in started if (m := PROFILE.search(command_line(p)))}
            views = [httpx2.get(f"{api}/{job}").json() for job in jobs]
            if all(v["status"] in ENDED for v in views):
                break
            assert time.monotonic() < deadline, views
            time.sleep(0.1)
        assert [(v["status"], v["runs"]) for v in views] == [("done", 2)] * 2, views
        service.send_signal(signal.SIGTERM)
        service.wait(30)
    finally:
        if service.poll() is None:
            service.kill()
            service.wait()
    assert still_alive(started) == [] and running_with(profiles) == []
    reference = {s["id"] for s in small_crawl.states()}
    assert len(reference) == 21
    for job in jobs:
        assert {s["id"] for s in statecrawl.load(data / "crawls" / job).states()} == reference
