"""Crawls behind a login: each test app crawled whole behind its login, sessions that end
recovered by logging in again, a logout learned, a resumed crawl logged in again, imported
sessions, and no password or token anywhere in the crawl directory."""

from __future__ import annotations

import gzip
import json
import logging
import math
import stat
import subprocess
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from warcio.archiveiterator import ArchiveIterator
from werkzeug import Response

import statecrawl
from statecrawl.browser.login import (
    LoginPage,
    Secrets,
    Session,
    check_given,
    read_cookies_txt,
    read_storage_state,
)
from statecrawl.browser.network import Exchange
from statecrawl.cli import build_config, parser
from statecrawl.config import Config, Login
from statecrawl.errors import ConfigError
from statecrawl.report import build_report
from tests.conftest import BIN, Site
from tests.pages.login.apps import NOTES, PASSWORD, SIGNED_IN, USER, Guarded, Notes, Spa
from tests.test_resume import graph, stored

FIELDS = {"user name": USER, "password": PASSWORD}  # matched by label and by name


def login(site: Site, path: str = "/login") -> dict[str, Any]:
    return {"url": site.url(path), "fields": FIELDS, "logged_in": SIGNED_IN}


def ids(result: statecrawl.Crawl) -> set[str]:
    return {s["id"] for s in result.states()}


# ---- settings -----------------------------------------------------------------------------


def test_login_settings_are_checked_and_never_stored(tmp_path: Path) -> None:
    start = ["http://127.0.0.1:8000/"]
    config = Config(
        start_urls=start,
        login={"url": "http://127.0.0.1:8000/login", "fields": FIELDS, "logged_in": SIGNED_IN,
               "http_user": "ops", "http_password": "s3cret-basic"},
    )
    assert PASSWORD not in repr(config) and "s3cret-basic" not in repr(config)
    stored_login = config.to_dict()["login"]
    assert stored_login["fields"] == {"user name": "[redacted]", "password": "[redacted]"}
    assert stored_login["http_password"] == "[redacted]"
    with pytest.raises(ConfigError, match="give it again"):
        check_given(Config.from_mapping(config.to_dict()).login)
    check_given(config.login)
    for bad, message in [
        ({"url": "http://127.0.0.1:8000/login", "fields": FIELDS}, "needs a check"),
        ({"fields": FIELDS, "logged_in": "x"}, "needs login.url"),
        ({"open": "Log in", "logged_in": "x"}, "login.open needs login.url"),
        ({"url": "http://ada:pw@127.0.0.1:8000/login", "logged_in": "x"}, "user name or password"),
        ({"http_user": "ops"}, "go together"),
        ({"cookies": str(tmp_path / "none.txt")}, "no file at"),
        ({"archive": "all"}, "expected one of"),
    ]:
        with pytest.raises(ConfigError, match=message):
            Config(start_urls=start, login=bad)

    args = parser().parse_args([
        "crawl", start[0], "--login-url", "http://127.0.0.1:8000/login",
        "--login", f"user name={USER}", "--login", f"password={PASSWORD}",
        "--logged-in", SIGNED_IN, "--logged-out", "#login-form", "--login-open", "Log in",
    ])
    flags = build_config(args, args.urls).login
    assert dict(flags.fields) == FIELDS and flags.logged_out == "#login-form"
    assert flags.open == "Log in"


def test_cookie_files_are_read(tmp_path: Path) -> None:
    cookies = tmp_path / "cookies.txt"
    cookies.write_text(
        "# Netscape HTTP Cookie File\n\n"
        "#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tabc123def456\n"
        ".example.org\tTRUE\t/app\tTRUE\t2000000000\tlang\ten\n"
    )
    sid, lang = read_cookies_txt(cookies)
    assert sid["httpOnly"] and sid["session"] and sid["value"] == "abc123def456"
    assert lang == {"name": "lang", "value": "en", "domain": ".example.org", "path": "/app",
                    "secure": True, "httpOnly": False, "expires": 2e9, "session": False}
    assert Session([sid]).cookie_params() == [
        {"name": "sid", "value": "abc123def456", "domain": "127.0.0.1", "path": "/",
         "secure": False, "httpOnly": True}
    ]
    (tmp_path / "bad.txt").write_text("127.0.0.1\tFALSE\t/\n")
    with pytest.raises(ConfigError, match=r"bad\.txt, line 1: expected 7"):
        read_cookies_txt(tmp_path / "bad.txt")
    state = tmp_path / "state.json"
    state.write_text(
        '{"cookies": [{"name": "a", "value": "b", "domain": "h", "path": "/", "expires": -1,'
        ' "httpOnly": false, "secure": false, "sameSite": "Lax"}],'
        ' "origins": [{"origin": "http://h:1", "localStorage": [{"name": "jwt", "value": "t"}]}]}'
    )
    session = read_storage_state(state)
    assert session.cookies[0]["sameSite"] == "Lax" and session.cookies[0]["session"]
    assert session.storage == {"http://h:1": {"local": [["jwt", "t"]], "session": []}}
    state.write_text('{"cookies": [{"value": 1}]}')
    with pytest.raises(ConfigError, match="not a Playwright storage-state file"):
        read_storage_state(state)


def test_secrets_are_taken_out_of_exchanges() -> None:
    """Headers and URLs of every exchange, the bodies of a login's own, in each encoding."""
    secrets = Secrets(Login())
    secrets.add_values(["pw 1&x", "token-12345678"])
    form = Exchange(
        "1", "http://h/login?next=token-12345678", "POST",
        [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", "sid=token-12345678")],
        b"user=ada&password=pw+1%26x", body=b'{"token": "token-12345678", "echo": "pw 1&x"}',
    )
    (login_exchange,) = secrets.scrub([form], login=True)
    assert login_exchange.url == "http://h/login?next=%5Bredacted%5D"
    assert login_exchange.request_headers[1] == ("Cookie", "sid=[redacted]")
    assert login_exchange.request_body == b"user=ada&password=%5Bredacted%5D"
    assert login_exchange.body == b'{"token": "[redacted]", "echo": "[redacted]"}'
    assert login_exchange.redacted
    (later,) = secrets.scrub([form])
    assert later.request_headers[1] == ("Cookie", "sid=[redacted]")
    assert later.request_body == form.request_body and not later.redacted


# ---- crawls behind a login ----------------------------------------------------------------

ARCHIVE = {"enabled": True, "screenshots": "none"}


def leaks(out: Path, secrets: list[str], log: str, session: bool = True) -> list[tuple[str, str]]:
    """Where in the crawl directory ``out`` (every file, each WARC record decompressed) and
    in the log text ``log`` a secret shows; the ``session`` file, mode 0600, must hold one
    (where a login made a session)."""
    kept = out / "session"
    if session:
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
        assert any(s.encode() in kept.read_bytes() for s in secrets)
    texts: dict[str, bytes] = {"the log": log.encode()}
    for path in out.rglob("*"):
        if path.is_file() and path != kept:
            texts[str(path.relative_to(out))] = path.read_bytes()
    for warc in (out / "archive").glob("*.warc.gz"):
        texts[f"{warc.name}, decompressed"] = gzip.decompress(warc.read_bytes())
        with warc.open("rb") as stream:
            for record in ArchiveIterator(stream):
                where = f"{warc.name} {record.rec_headers['WARC-Record-ID']}"
                texts[where] = record.content_stream().read()
    return [(where, s[:6]) for where, data in texts.items() for s in secrets if s.encode() in data]


def redacted_records(out: Path) -> list[bytes]:
    """The payloads of the WARC records marked as a login's redacted exchange."""
    found = []
    for warc in (out / "archive").glob("*.warc.gz"):
        with warc.open("rb") as stream:
            for record in ArchiveIterator(stream):
                if record.rec_headers.get_header("WARC-Statecrawl-Redacted") == "login":
                    found.append(record.content_stream().read())
    return found


def test_notes_with_an_expiring_session(
    site: Site, crawl: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A session that ends every 3 requests gives the states of one that never ends: the
    crawl logs in again each time; the "Leave" button is learned to log out (its label
    matches no pattern) and costs no state. No password or session id is written anywhere
    but the session file: not in the graph, the store, the WARC files, the report, the log."""
    forever = Notes()
    forever.serve(site)
    reference = crawl(site.url("/"), login=login(site), max_depth=2, out=tmp_path / "ref")
    caplog.set_level(logging.DEBUG)
    expiring = Notes(lifetime=3)
    expiring.serve(site)
    out = tmp_path / "expiring"
    result = crawl(site.url("/"), login=login(site), max_depth=2, out=out, archive=ARCHIVE)
    assert ids(result) == ids(reference)
    titles = {s["title"] for s in result.states()}
    assert titles == {"Notes", "Engines", "Looms", "Numbers", "Bye"}  # no login form
    assert reference.stats["relogins"] >= 1  # the "Leave" button logs out
    assert result.stats["relogins"] > reference.stats["relogins"]  # sessions ended too
    assert result.stats["relogins"] == expiring.logins - 1
    bye = {t["target"] for t in result.transitions() if t["name"].endswith('"Leave"')}
    assert len(bye) == 1 and result.graph.nodes[bye.pop()]["after_dangerous"]

    build_report(out)
    assert leaks(out, [PASSWORD, *expiring.tokens], caplog.text) == []
    posts = [r for r in redacted_records(out) if b"&password=" in r]
    assert posts and all(b"&password=%5Bredacted%5D" in r for r in posts)


def test_spa_with_a_token_in_local_storage(
    site: Site, crawl: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The token comes back with every reset; one that expires between two API calls (after
    an action: the app shows its login form) is recovered by logging in and firing again.
    Neither the password nor a token is written anywhere but the session file."""
    forever = Spa()
    forever.serve(site)
    spa_login = login(site, "/app")
    reference = crawl(site.url("/app"), login=spa_login, max_depth=2, out=tmp_path / "ref")
    assert reference.stats["relogins"] == 1  # after "Close session", learned to log out
    caplog.set_level(logging.DEBUG)
    expiring = Spa(lifetime=8)
    expiring.serve(site)
    out = tmp_path / "expiring"
    result = crawl(site.url("/app"), login=spa_login, max_depth=2, out=out, archive=ARCHIVE)
    assert ids(result) == ids(reference)
    assert len(ids(result)) == 5  # the list, three details, the session closed
    assert result.stats["relogins"] == expiring.logins - 1 > 1
    assert leaks(out, [PASSWORD, *expiring.tokens], caplog.text) == []
    answers = [r for r in redacted_records(out) if b'{"token": "[redacted]"}' in r]
    assert answers and any(b'"password":"[redacted]"' in r for r in redacted_records(out))


def test_a_login_form_in_a_dialog_a_button_opens(site: Site, crawl: Any, tmp_path: Path) -> None:
    """``login.open`` presses the button that shows the form first: the same states as the
    app whose page shows its form, logging in again after "Close session" as it does."""
    Spa().serve(site)
    reference = crawl(site.url("/app"), login=login(site, "/app"), max_depth=2,
                      out=tmp_path / "ref")
    app = Spa(dialog=True)
    app.serve(site)
    with pytest.raises(statecrawl.StatecrawlError, match="has no field 'user name'"):
        crawl(site.url("/app"), login=login(site, "/app"), max_depth=2, out=tmp_path / "no")
    result = crawl(site.url("/app"), login={**login(site, "/app"), "open": "Log in"},
                   max_depth=2, out=tmp_path / "dialog")
    assert ids(result) == ids(reference)
    assert len(ids(result)) == 5
    assert result.stats["relogins"] == reference.stats["relogins"] == app.logins - 1 == 1


@pytest.mark.parametrize("scheme", ["basic", "digest"])
def test_http_auth(
    scheme: str, site: Site, other_site: Site, crawl: Any, tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Pages behind HTTP basic or digest auth are crawled whole: Chromium answers the
    challenges itself once given the credentials, and never sends them to another host (an
    allowed one here). The password is written nowhere, the session file aside (none here)."""
    sent: list[str | None] = []

    def pixel(request: Any) -> Any:
        sent.append(request.headers.get("Authorization"))
        return Response(b"", content_type="image/png")

    other_site.handler("/pixel.png", pixel)
    app = Guarded(scheme, other_site.origin)
    app.serve(site)
    caplog.set_level(logging.DEBUG)
    out = tmp_path / scheme
    login = {"http_user": USER, "http_password": PASSWORD}
    allow = [other_site.origin.removeprefix("http://")]
    result = crawl(site.url("/"), login=login, max_depth=1, out=out, archive=ARCHIVE,
                   scope={"allow": allow})
    assert {s["title"] for s in result.states()} == {"Guarded", *NOTES.values()}
    assert sent and not any(sent)
    assert leaks(out, [PASSWORD], caplog.text, session=False) == []


def test_remember_me_cookie(site: Site, crawl: Any) -> None:
    """A "remember me" cookie outlives the session: it logs in again, not the crawl."""
    app = Notes(lifetime=3, remember=True)
    app.serve(site)
    fields = {**FIELDS, "remember me": "on"}
    keep = {"dangerous": ["Leave"], "dangerous_policy": "skip"}
    result = crawl(site.url("/"), login={**login(site), "fields": fields}, max_depth=1, **keep)
    assert {s["title"] for s in result.states()} == {"Notes", "Engines", "Looms", "Numbers"}
    assert app.logins == 1 and len(app.tokens) > 3  # sessions made from the cookie


class StepByStep(statecrawl.Plugin):
    """Logs in the way a multi-step flow would: field by field, then a press."""

    def __init__(self, url: str) -> None:
        self.url = url

    def login(self, page: LoginPage) -> None:
        page.goto(self.url)
        assert page.url == self.url and not page.shows(SIGNED_IN)
        page.fill("username", USER)
        page.fill("Password", PASSWORD)
        assert page.shows("button[type=submit]")
        page.press("Sign in")


def test_a_plugin_logs_in(site: Site, tmp_path: Path) -> None:
    app = Notes(lifetime=4)
    app.serve(site)
    keep = {"dangerous": ["Leave"], "dangerous_policy": "skip"}
    config = Config(start_urls=[site.url("/")], out=tmp_path / "out", limits={"max_depth": 1},
                    archive={"enabled": False}, login={"logged_in": SIGNED_IN}, **keep)
    result = statecrawl.crawl(config=config, plugins=[StepByStep(site.url("/login"))])
    assert {s["title"] for s in result.states()} == {"Notes", "Engines", "Looms", "Numbers"}
    assert app.logins > 1 and result.stats["relogins"] == app.logins - 1


def test_imported_cookies_and_storage_state(site: Site, crawl: Any, tmp_path: Path) -> None:
    """A session made elsewhere (cookies.txt, Playwright's storage state) is crawled behind."""
    notes = Notes()
    notes.serve(site)
    sid = "imported-session-0001"
    notes.sessions[sid] = math.inf  # type: ignore[assignment]
    cookies = tmp_path / "cookies.txt"
    cookies.write_text(f"127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\t{sid}\n")
    keep = {"dangerous": ["Leave"], "dangerous_policy": "skip"}  # no way to log in again
    result = crawl(site.url("/"), login={"cookies": cookies, "logged_in": SIGNED_IN},
                   max_depth=1, out=tmp_path / "cookies", **keep)
    assert {s["title"] for s in result.states()} == {"Notes", "Engines", "Looms", "Numbers"}
    assert notes.logins == 0

    spa = Spa()
    spa.serve(site)
    spa.live["imported.token.0002"] = math.inf
    state = tmp_path / "state.json"
    item = {"name": "jwt", "value": "imported.token.0002"}
    state.write_text(json.dumps({"origins": [{"origin": site.origin, "localStorage": [item]}]}))
    result = crawl(site.url("/app"), login={"storage_state": state, "logged_in": SIGNED_IN},
                   max_depth=1, out=tmp_path / "state")
    assert len(ids(result)) == 5 and spa.logins == 0


def test_killed_and_resumed_logs_in_again(site: Site, crawl: Any, tmp_path: Path) -> None:
    """A crawl killed midway and resumed (its login values given again: they are never
    stored) logs in again and ends with the graph of an uninterrupted crawl."""
    app = Notes(delay=0.2)
    app.serve(site)
    crawl(site.url("/"), login=login(site), max_depth=1, out=tmp_path / "ref")
    flags = ["--login-url", site.url("/login"), "--login", f"user name={USER}",
             "--login", f"password={PASSWORD}", "--logged-in", SIGNED_IN, "--max-depth", "1",
             "-q", "--no-archive"]
    out = tmp_path / "killed"
    run = subprocess.Popen(
        [BIN / "statecrawl", "crawl", site.url("/"), "--out", out, *flags],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 120
    while stored(out, "SELECT count(*) FROM states") < [(2,)] and run.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert run.poll() is None, run.stderr.read()
    run.kill()
    run.wait()
    logins = app.logins
    missing = subprocess.run(
        [BIN / "statecrawl", "crawl", "--out", out, "--resume", "-q"],
        capture_output=True, text=True, timeout=60,
    )
    assert missing.returncode == 1 and "give it again (--login" in missing.stderr
    resumed = subprocess.run(
        [BIN / "statecrawl", "crawl", "--out", out, "--resume", *flags],
        capture_output=True, text=True, timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert app.logins > logins
    assert graph(out) == graph(tmp_path / "ref")


ADMIN, ADMIN_PASSWORD = "grace", "hopper-cobol-1959"
ROLES_TOML = """start_urls = ["{start}"]
dangerous = ["Leave"]
dangerous_policy = "skip"
[limits]
max_depth = 1
[archive]
enabled = false
[[login]]
role = "user"
url = "{login}"
logged_in = "{check}"
fields = {{ "user name" = "{user}", password = "{password}" }}
[[login]]
role = "admin"
url = "{login}"
logged_in = "{check}"
fields = {{ "user name" = "{admin}", password = "{admin_password}" }}
"""


def test_roles_are_crawled_compared_and_resumed(site: Site, tmp_path: Path) -> None:
    """``[[login]]`` entries crawl the app once per role into one directory; roles.json and
    ``statecrawl diff`` say what only the admin reaches (the accounts page); a crawl killed
    in its second role and resumed with the config file (the values are never stored) gives
    each role the graph of an uninterrupted crawl; no password is written anywhere."""
    app = Notes(accounts={USER: PASSWORD, ADMIN: ADMIN_PASSWORD}, admins={ADMIN}, delay=0.1)
    app.serve(site)
    toml = tmp_path / "roles.toml"
    toml.write_text(ROLES_TOML.format(
        start=site.url("/"), login=site.url("/login"), check=SIGNED_IN, user=USER,
        password=PASSWORD, admin=ADMIN, admin_password=ADMIN_PASSWORD,
    ))
    config = Config.from_toml(toml, out=str(tmp_path / "any"))
    assert [r.role for r in config.roles] == ["user", "admin"] and not config.login.enabled
    assert ADMIN_PASSWORD not in json.dumps(config.to_dict())
    with pytest.raises(ConfigError, match="not both"):
        replace(config, login=Login(http_user="ops", http_password="x"))
    with pytest.raises(ConfigError, match="need --out"):
        replace(config, out=None)
    with pytest.raises(ConfigError, match="crawl_by_role"):
        statecrawl.crawl(config=config)
    out = tmp_path / "roles"
    run = subprocess.Popen(
        [BIN / "statecrawl", "crawl", "--config", toml, "--out", out, "-q"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 120
    while stored(out / "roles" / "admin", "SELECT count(*) FROM states") < [(2,)]:
        assert time.monotonic() < deadline and run.poll() is None, run.stderr
        time.sleep(0.02)
    run.kill()
    run.wait()
    resumed = subprocess.run(
        [BIN / "statecrawl", "crawl", "--out", out, "--resume", "--config", toml],
        capture_output=True, text=True, timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert "roles user and admin: 0 states only user reaches, 1 only admin" in resumed.stdout
    compared = json.loads((out / "roles.json").read_text())
    (accounts,) = compared["pairs"][0]["only"]["admin"]
    assert accounts["title"] == "Accounts"
    assert accounts["path"] == [f'click "Accounts" -> {site.url("/accounts")}']
    titles = {r: {s["title"] for s in statecrawl.load(out / "roles" / r).states()}
              for r in ("user", "admin")}
    assert titles == {"user": {"Notes", *NOTES.values()}, "admin": {"Notes", "Accounts",
                                                                    *NOTES.values()}}
    logins = [{**login(site), "role": "user"},
              {**login(site), "role": "admin", "fields": {"user name": ADMIN,
                                                          "password": ADMIN_PASSWORD}}]
    fresh = statecrawl.crawl_by_role(
        site.url("/"), out=tmp_path / "fresh", login=logins, max_depth=1,
        archive={"enabled": False}, dangerous=["Leave"], dangerous_policy="skip",
    )
    for role, result in fresh.items():
        assert graph(out / "roles" / role) == graph(result.path)
    done = subprocess.run(
        [BIN / "statecrawl", "diff", out / "roles" / "user", out / "roles" / "admin"],
        capture_output=True, text=True, timeout=60,
    )
    assert "Accounts" in done.stdout, done.stdout
    assert leaks(out, [PASSWORD, ADMIN_PASSWORD], "", session=False) == []
