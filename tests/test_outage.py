"""Outages: a state seen while the server could not be reached is never kept; the work is done
again once the server is back, or recorded as a failure that ``--resume`` does again."""

from __future__ import annotations

import io
import json
import logging
import re
import socket
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from werkzeug import Request, Response

import statecrawl
from statecrawl.browser.network import Exchange
from statecrawl.cli import summary
from statecrawl.outage import Outages, unreached
from statecrawl.testing import Relay
from tests.conftest import Site

ITEMS = [{"id": n, "title": f"Record {n}", "text": f"The text of record number {n}."}
         for n in range(1, 5)]
FAST = {"backoff_ms": 100, "max_backoff_ms": 400}  # the crawl waits little for the server


def own(url: str) -> bool:
    return url.startswith("http://127.0.0.1:1/")


def exchange(
    path: str, status: int = 200, failed: str | None = None, started: float | None = None
) -> Exchange:
    """An exchange of the crawl's own site, begun at ``started`` (by default now)."""
    begun = {} if started is None else {"started": started}
    return Exchange("1", f"http://127.0.0.1:1{path}", status=status, failed=failed, **begun)


def test_unreached_tells_a_server_down_from_a_request_cancelled() -> None:
    assert unreached("net::ERR_CONNECTION_REFUSED")
    assert unreached("cannot load http://127.0.0.1:1/: ERR_EMPTY_RESPONSE")
    assert not unreached("net::ERR_ABORTED")
    assert not unreached("net::ERR_BLOCKED_BY_CLIENT")
    assert not unreached(None)


def test_a_failure_counts_only_for_an_origin_that_answered_before() -> None:
    outages = Outages()
    # a port nothing ever answered on is a broken resource of the page, not an outage
    assert outages.failed([exchange("/a", failed="net::ERR_CONNECTION_REFUSED")], own, 1.0) == []
    assert outages.failed([exchange("/"), exchange("/api", 0, "net::ERR_EMPTY_RESPONSE")],
                          own, 2.0) == ["GET http://127.0.0.1:1/api: net::ERR_EMPTY_RESPONSE"]
    assert outages.failed([exchange("/b", failed="net::ERR_CONNECTION_REFUSED")], own, 5.0)
    other = Exchange("1", "http://127.0.0.2:1/", failed="net::ERR_CONNECTION_REFUSED")
    assert outages.failed([other], own, 6.0) == []  # not the crawl's own
    (period,) = outages.seen()
    assert (period.origin, period.seconds, period.failed) == ("http://127.0.0.1:1", 3.0, 2)
    assert outages.answered(["http://127.0.0.1:1/c"]) == [period]
    assert outages.down == {}
    assert "could not be reached for 3 s or more (2 requests failed)" in period.describe()


def test_a_5xx_is_a_breakdown_only_where_the_request_succeeded_before() -> None:
    outages = Outages()
    assert outages.failed([exchange("/api/7", 500)], own, 1.0) == []  # the application's answer
    assert outages.failed([exchange("/api/8")], own, 2.0) == []
    assert outages.failed([exchange("/api/8", 502)], own, 3.0) == [
        "GET http://127.0.0.1:1/api/8: HTTP 502"
    ]


def test_a_request_the_server_drops_while_it_answers_is_no_outage() -> None:
    """A logout the server answers by closing the connection: the first time it is an
    outage (nothing tells it apart); once the server answered since and answers around it
    again, it is the server's way with that request, no outage, from then on. A server
    down again, with nothing answered around the failure, is an outage again."""
    outages = Outages()
    empty = "net::ERR_EMPTY_RESPONSE"
    first = [exchange("/", started=1.0), exchange("/logout", 0, empty, 1.5)]
    assert outages.failed(first, own, 2.0) == [f"GET http://127.0.0.1:1/logout: {empty}"]
    assert outages.failed([exchange("/", started=3.0)], own, 3.0) == []
    outages.answered(["http://127.0.0.1:1/"])
    again = [exchange("/", started=4.0), exchange("/logout", 0, empty, 4.5)]
    assert outages.failed(again, own, 5.0) == []
    assert outages.failed([exchange("/logout", 0, empty, 9.0)], own, 9.0) == []  # known now
    # whatever its body (a form token of its own each time: Trac's forms)
    other_token = exchange("/logout", 0, empty, 10.0)
    other_token.method, other_token.request_body = "POST", b"__FORM_TOKEN=2"
    first_post = exchange("/logout", 0, empty, 9.5)
    first_post.method, first_post.request_body = "POST", b"__FORM_TOKEN=1"
    assert outages.failed([exchange("/", started=9.4), first_post], own, 9.5)
    outages.answered(["http://127.0.0.1:1/"])
    assert outages.failed([exchange("/", started=9.9), other_token], own, 10.0) == []
    # a server down again: the start page fails with nothing answered around it
    down = [exchange("/", 0, "net::ERR_CONNECTION_REFUSED", 20.0)]
    assert outages.failed(down, own, 20.0) and outages.down
    outages.answered(["http://127.0.0.1:1/"])
    assert outages.failed([exchange("/", 0, "net::ERR_CONNECTION_REFUSED", 30.0)], own, 30.0)
    assert len(outages.seen()) == 4


@pytest.fixture
def records(site: Site) -> Iterator[tuple[Relay, Callable[[float | None], None]]]:
    """The record browser behind a relay, and a way to have the relay cut (for that many
    seconds, or until it is put up again) at the first fetch of record 3."""
    site.page("/", "outage/app.html")
    site.json("/api/items", [{"id": i["id"], "title": i["title"]} for i in ITEMS])
    relay = Relay(("127.0.0.1", int(site.origin.rsplit(":", 1)[1])))
    cut: dict[str, float | None] = {}

    def item(request: Request) -> Response:
        n = int(request.path.rsplit("/", 1)[1])
        if n == 3 and "seconds" in cut:
            relay.down(cut.pop("seconds"))  # this exchange is dropped with the others
        return Response(json.dumps(ITEMS[n - 1]), mimetype="application/json")

    site.prefix("/api/item/", item)
    yield relay, lambda seconds: cut.__setitem__("seconds", seconds)
    relay.down()


def run(relay: Relay, out: Path, **options: object) -> statecrawl.Crawl:
    options.setdefault("politeness", FAST)
    return statecrawl.crawl(
        relay.origin + "/", out=out, max_depth=3, archive={"screenshots": "none"}, **options
    )


def shown(result: statecrawl.Crawl) -> list[str]:
    return sorted(s["id"] for s in result.states())


def headings(result: statecrawl.Crawl) -> set[str]:
    """What each state shows as its heading."""
    return {re.search(r'id="view"><h1>([^<]*)', result.html(s))[1] for s in shown(result)}


def test_an_outage_is_ridden_out_and_leaves_the_graph_as_it_was(
    records: tuple[Relay, Callable[[float | None], None]], tmp_path: Path
) -> None:
    relay, cut = records
    reference = run(relay, tmp_path / "reference")
    cut(1.5)
    result = run(relay, tmp_path / "out")
    assert shown(result) == shown(reference)
    assert len(shown(result)) == 5  # the list and four records
    assert headings(result) == {"Records", *(i["title"] for i in ITEMS)}
    assert result.stats["failures"] == 0
    (outage,) = result.graph.graph["outages"]
    assert outage["origin"] == relay.origin and outage["failed"] >= 1
    assert result.stats["outages"] == 1
    text = io.StringIO()
    summary(result, text)
    assert f"the server {relay.origin} could not be reached for" in text.getvalue()


def test_work_a_server_failed_for_good_is_a_failure_that_resume_does_again(
    records: tuple[Relay, Callable[[float | None], None]], tmp_path: Path
) -> None:
    relay, cut = records
    reference = run(relay, tmp_path / "reference")
    cut(None)  # down until the test puts it up
    out = tmp_path / "out"
    result = run(relay, out, politeness={**FAST, "outage_retries": 1})
    assert "Something went wrong" not in headings(result)
    failures = [f for s in result.states() for f in s.get("failures", [])]
    assert failures and all(f["outage"] for f in failures)
    assert "ERR_" in failures[0]["error"]
    assert result.stats["failures"] == len(failures)
    assert len(shown(result)) < len(shown(reference))
    text = io.StringIO()
    summary(result, text)
    assert f"{len(failures)} actions a server failed are done again by --resume" in text.getvalue()
    relay.up()
    resumed = run(relay, out, resume=True, politeness={**FAST, "outage_retries": 1})
    assert shown(resumed) == shown(reference)
    assert resumed.stats["failures"] == 0
    assert not [f for s in resumed.states() for f in s.get("failures", [])]


def test_the_relay_refuses_while_cut(site: Site) -> None:
    site.html("/", "hello")
    relay = Relay(("127.0.0.1", int(site.origin.rsplit(":", 1)[1])))
    assert urllib.request.urlopen(relay.origin + "/").read() == b"hello"
    relay.down()
    with pytest.raises(urllib.error.URLError, match="Connection refused"):
        urllib.request.urlopen(relay.origin + "/")
    relay.up()
    assert urllib.request.urlopen(relay.origin + "/").read() == b"hello"
    relay.down()


DROPPING = """<!doctype html><html><body><h1>Home</h1>
<form method="post" action="/signout"><button>Sign out</button></form>
<button id="sync" onclick="fetch('/api/sync', {method: 'POST', body: 'x'}).then(
  () => said('synced'), () => said('sync failed'))">Sync</button>
<p id="said"></p><a href="/about">About</a>
<script>function said(text) { document.getElementById('said').textContent = text; }</script>
</body></html>"""


def test_requests_the_server_drops_are_the_application_s_answer(
    site: Site, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A server that closes the connection on a sign-out form and on a script's POST, and
    answers everything else (as Trac's tracd did with its logout under HTTP auth): each is
    taken for an outage once, then for what the server does with that request. The form's
    navigation to the browser's error page is a failure of the action in every state (not
    an outage, not a state); the script's failure shows the page's own message, a state."""
    def drop(request: Request) -> Response:
        request.environ["werkzeug.socket"].shutdown(socket.SHUT_RDWR)
        return Response("never")

    site.html("/", DROPPING)
    site.html("/about", "<h1>About</h1><a href='/'>Home</a>")
    site.handler("/signout", drop)
    site.handler("/api/sync", drop)
    with caplog.at_level(logging.INFO, logger="statecrawl.engine.hosts"):
        result = statecrawl.crawl(site.url("/"), out=tmp_path / "out", max_depth=2,
                                  archive={"screenshots": "none"}, politeness=FAST)
    urls = {s["url"] for s in result.states()}
    assert urls == {site.url("/"), site.url("/about")}  # no chrome-error:// page
    assert any("sync failed" in result.html(s["id"]) for s in result.states())
    failures = [f for s in result.states() for f in s.get("failures", [])]
    assert failures and all("Sign out" in f["name"] and not f.get("outage") for f in failures)
    assert all("ERR_EMPTY_RESPONSE" in f["error"] for f in failures)
    assert result.stats["outages"] <= 2  # the first failure of each
    # The form's POST is logged after its task ended, in the next task's log: that task,
    # whose own requests were answered, is no outage (a Trac crawl had 33 of them in 300 s).
    again = [r.getMessage() for r in caplog.records if "its work is done again" in r.getMessage()]
    assert again and not any(m.startswith("POST " + site.url("/signout")) for m in again), again


QUERY_FORMS = {
    "/": "<h1>Home</h1><a href='/tickets'>Tickets</a> <a href='/wiki'>Wiki</a>",
    "/tickets": """<h1>Tickets</h1><form method="post" action="/query">
<input name="status" value="open"><button>Run the query</button></form><a href='/'>Home</a>""",
    "/wiki": """<h1>Wiki</h1><form method="post" action="/query">
<input name="text" value="start"><button>Find pages</button></form><a href='/'>Home</a>""",
}


def test_a_navigation_the_server_drops_is_known_by_its_request_in_every_state(
    site: Site, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Two forms of different pages post to one URL the server drops (as tracd drops Trac's
    ``/query``): the actions differ, their request is one. The first failure is an outage,
    done again once; from then on the server is known to drop that request, and the other
    form's failure is its answer, not another outage."""
    def drop(request: Request) -> Response:
        request.environ["werkzeug.socket"].shutdown(socket.SHUT_RDWR)
        return Response("never")

    for path, html in QUERY_FORMS.items():
        site.html(path, html)
    site.handler("/query", drop)
    with caplog.at_level(logging.INFO, logger="statecrawl.engine.hosts"):
        result = statecrawl.crawl(site.url("/"), out=tmp_path / "out", max_depth=2,
                                  archive={"screenshots": "none"}, politeness=FAST)
    failures = {f["name"]: f for s in result.states() for f in s.get("failures", [])}
    assert len(failures) == 2 and not any(f.get("outage") for f in failures.values())
    again = [r.getMessage() for r in caplog.records if "its work is done again" in r.getMessage()]
    assert len(again) == 1, again
    assert result.stats["outages"] == 1
