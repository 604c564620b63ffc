"""Secrets are never written: a URL's userinfo and the credentials of request headers stay
out of every file of a crawl, its report and its static export, and out of the log.

The one exception is the page's own text: the DOM snapshot of the page whose source holds
the link (``states/<id>.html``, its WARC resource record) and that page's WARC response
payload keep the link as the server sent it. Nothing else may hold a planted secret.
"""

from __future__ import annotations

import base64
import gzip
import re
import sqlite3
import zlib
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator
from werkzeug import Request, Response

import statecrawl
from statecrawl.cli import main
from statecrawl.directory.resources import snapshot_url

from .conftest import Site, error_line

SECRET = b"PLANTEDSECRET"  # the link's password, the only one in a page's source
# Every planted secret starts so: the link's, the bearer token (2), the redirect's (3), the
# location's (4); the others are built by the page's script, never written in its source.
ANY_SECRET = re.compile(rb"PLANTEDSECRET\d?")
BASIC = base64.b64encode(b"user:PLANTEDSECRET4")  # what Chromium answers a challenge with

PAGE = """<!doctype html><html><head><title>home</title></head><body>
<a href="http://user:PLANTEDSECRET@{host}/next.html">next</a>
<a href="/go">go</a>
<button id="away">away</button><div id="out"></div>
<script>
const secret = (n) => 'PLANTED' + 'SECRET' + n;
fetch('/api', {{headers: {{Authorization: 'Bearer ' + secret(2)}}}})
  .then((r) => r.text()).then((t) => {{ document.getElementById('out').textContent = t; }});
document.getElementById('away').addEventListener('click', () => {{
  location.href = 'http://user:' + secret(4) + '@{host}/loc.html';
}});
</script></body></html>"""


def _protected(request: Request) -> Response:
    """A page behind HTTP basic auth: Chromium answers the challenge with the URL's userinfo."""
    if request.headers.get("Authorization"):
        return Response("<title>in</title><p>welcome</p>", content_type="text/html")
    return Response("no", status=401, headers={"WWW-Authenticate": 'Basic realm="r"'})


@pytest.fixture
def secret_site(site: Site) -> Site:
    host = site.origin.removeprefix("http://")
    site.html("/", PAGE.format(host=host))
    site.handler(
        "/next.html",
        lambda r: Response(f"<p>{r.query_string!r}</p>", content_type="text/html"),
    )
    site.handler("/loc.html", _protected)
    site.json("/api", {"ok": 1})
    location = f"http://user:PLANTEDSECRET3@{host}/next.html?r=1"
    site.handler("/go", lambda _r: Response("", status=302, headers={"Location": location}))
    return site


def _warc_findings(path: Path, allowed: set[str]) -> list[str]:
    """Where a WARC file holds a secret: its headers, its HTTP headers, and each payload but
    those of the records of ``allowed`` URLs' pages (the page source with the link)."""
    found = []
    with path.open("rb") as stream:
        for record in ArchiveIterator(stream):
            uri = record.rec_headers.get_header("WARC-Target-URI") or ""
            page_url = snapshot_url(record.rec_headers)  # a state's snapshot: its page's URL
            head = record.rec_headers.to_bytes()
            if record.http_headers is not None:
                head += record.http_headers.to_bytes()
            body = record.content_stream().read()
            if ANY_SECRET.search(head) or BASIC in head:
                found.append(f"{path.name}: {record.rec_type} {uri}: headers")
            page = record.rec_type in ("response", "resource") and page_url in allowed
            hits = set(ANY_SECRET.findall(body))
            if (hits - {SECRET}) or (hits and not page) or BASIC in body:
                found.append(f"{path.name}: {record.rec_type} {uri}: payload")
    return found


def _store_text(path: Path) -> bytes:
    """Every statement that rebuilds the store: each table's every value (the compressed ones
    decompressed)."""
    connection = sqlite3.connect(path)
    try:
        dump = "\n".join(connection.iterdump()).encode("utf-8")
        tables = [name for (name,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        packed = [zlib.decompress(value) for table in tables
                  for row in connection.execute(f"SELECT * FROM {table}")
                  for value in row if isinstance(value, bytes)]
        return b"\n".join([dump, *packed])
    finally:
        connection.close()


def test_no_secret_in_any_output(
    secret_site: Site, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    start = secret_site.url("/")
    argv = ["--log-level", "debug", "crawl", start, "--out", str(out), "--max-depth", "1"]
    assert main(argv) == 0
    assert main(["report", str(out)]) == 0
    assert main(["export", str(out), "--static", str(out / "export")]) == 0
    log = capsys.readouterr()
    # the secrets were in play: the link, the redirect, the location, the token, the challenge
    requests = set(secret_site.requests)
    assert {"/next.html", "/go", "/next.html?r=1", "/loc.html", "/api"} <= requests
    crawl = statecrawl.load(out)
    urls = {s["url"] for s in crawl.states()}
    origin = secret_site.origin
    assert {f"{origin}/next.html", f"{origin}/next.html?r=1", f"{origin}/loc.html"} <= urls
    assert not ANY_SECRET.search((log.out + log.err).encode())

    home = next(s for s in crawl.states() if s["url"] == start)
    findings = []
    files = [p for p in out.rglob("*") if p.is_file()]
    assert any(p.suffix == ".gz" for p in files) and (out / "export" / "index.html").is_file()
    for path in files:
        if path.name.endswith((".warc.gz", ".warc.gz.open")):
            findings += _warc_findings(path, {start})
            continue
        data = _store_text(path) if path.name == "crawl.sqlite" else path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
        if path.relative_to(out) == Path("states", f"{home['id']}.html"):
            # the page's own source, as the server sent it: the link's secret, nothing else
            assert set(ANY_SECRET.findall(data)) == {SECRET}
        elif ANY_SECRET.search(data) or BASIC in data:
            findings.append(str(path.relative_to(out)))
    assert findings == []
    # a credential header keeps its name, a sign that the request was authenticated
    headers = _request_headers(out)
    assert headers["authorization"] == {"[redacted]"}
    assert all("@" not in host for host in headers["host"])


def _request_headers(out: Path) -> dict[str, set[str]]:
    """The values of each header of the WARC request records, by lower-case name."""
    values: dict[str, set[str]] = {}
    for path in (out / "archive").glob("*.warc.gz"):
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream):
                if record.rec_type == "request":
                    for name, value in record.http_headers.headers:
                        values.setdefault(name.lower(), set()).add(value)
    return values


SECRET_URL = "http://alice:s3cretpw@127.0.0.1:4/"


def _refusal(message: str) -> None:
    assert "\n" not in message
    assert "s3cretpw" not in message and "alice" not in message
    assert "user name or password" in message and "remove it" in message


def test_cli_refuses_userinfo(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _refusal(error_line(capsys, ["crawl", SECRET_URL, "--out", str(tmp_path / "o")]))
    config = tmp_path / "crawl.toml"
    config.write_text(f'start_urls = ["{SECRET_URL}"]\n', encoding="utf-8")
    _refusal(error_line(capsys, ["crawl", "--config", str(config)]))
    seeds = tmp_path / "seeds.txt"
    seeds.write_text(f"{SECRET_URL}\n", encoding="utf-8")
    _refusal(error_line(capsys, ["crawl", "--seeds", str(seeds)]))
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"scope": {"allow": ["alice:s3cretpw@cdn.example.com"]}},
        {"executor": "dask", "cluster": "tcp://alice:s3cretpw@127.0.0.1:8786"},
    ],
)
def test_api_refuses_userinfo(options: dict[str, object], tmp_path: Path) -> None:
    url = SECRET_URL if not options else "http://127.0.0.1:4/"
    with pytest.raises(statecrawl.ConfigError) as error:
        statecrawl.crawl(url, out=tmp_path / "o", **options)
    _refusal(str(error.value))
