"""Crawling behind a login: logging in, the session it makes, and keeping its secrets.

A browser logs in once (a form described by ``[login]``, or a plugin's ``login(page)`` hook
given a :class:`LoginPage`) and captures the session: its cookies and the storage of the
page's origin. Each reset then brings back exactly that session rather than a clean
browser; when the page agent's check says the session is gone, the browser logs in again.
The passwords given and the session's tokens are secrets: :class:`Secrets` takes them out
of every exchange before it is archived, and the session itself is written only to the
crawl directory's ``session`` file, readable by its owner alone.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote, quote_plus, urlsplit, urlunsplit

from ..config import Login
from ..directory.layout import SESSION
from ..errors import ConfigError, StatecrawlError
from ..redaction import REDACTED
from ..scope import origin
from ..state import Action, Snapshot

if TYPE_CHECKING:
    from selenium.webdriver import Chrome

    from .network import Exchange

log = logging.getLogger(__name__)
MIN_TOKEN = 8  # characters of a cookie or storage value that count it a secret
ENCODED = quote(REDACTED, safe="")  # what replaces a secret in a URL or a form's body
# Sets an origin's storage in a new document of that origin before any of its scripts runs:
# the session's localStorage and sessionStorage, after a reset cleared them.
RESTORE = """(() => {
  const saved = %s;
  const here = saved[location.origin];
  if (!here || window.top !== window) return;
  for (const [key, value] of here.local) localStorage.setItem(key, value);
  for (const [key, value] of here.session) sessionStorage.setItem(key, value);
})();"""
# The storage of the document shown, read from the crawler's isolated world.
READ_STORAGE = "JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)])"
_COOKIE_KEYS = ("name", "value", "domain", "path", "secure", "httpOnly", "sameSite", "expires")


class _Unlogged(logging.Filter):
    """Drops the records Selenium's driver connection writes of every command and answer
    (at debug level) while the thread that sends them handles secrets."""

    def __init__(self) -> None:
        super().__init__()
        self.local = threading.local()

    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(self.local, "secret", False)


_UNLOGGED = _Unlogged()
logging.getLogger("selenium.webdriver.remote.remote_connection").addFilter(_UNLOGGED)


@contextlib.contextmanager
def unlogged() -> Iterator[None]:
    """No record of the browser commands this thread sends inside the block: they hold a
    login's values or the session's cookies."""
    before = getattr(_UNLOGGED.local, "secret", False)
    _UNLOGGED.local.secret = True
    try:
        yield
    finally:
        _UNLOGGED.local.secret = before


class LoginFailed(StatecrawlError):
    """The login did not work: its form is not where the config says, or the session check
    still fails after it."""


Hook = Callable[["LoginPage"], None]


@dataclass(slots=True)
class Session:
    """What logging in left in the browser: its cookies (as CDP gives them) and the
    ``localStorage`` and ``sessionStorage`` items of each origin, as ``[key, value]`` pairs."""

    cookies: list[dict[str, Any]] = field(default_factory=list)
    storage: dict[str, dict[str, list[list[str]]]] = field(default_factory=dict)

    def cookie_params(self) -> list[dict[str, Any]]:
        """The cookies as ``Network.setCookies`` takes them (session cookies without an
        expiry)."""
        params = []
        for cookie in self.cookies:
            param = {k: cookie[k] for k in _COOKIE_KEYS if cookie.get(k) is not None}
            if cookie.get("session") or float(param.get("expires", -1)) <= 0:
                param.pop("expires", None)
            params.append(param)
        return params

    def restore_script(self) -> str | None:
        """The script that puts the storage back in a new document (``None``: none kept)."""
        kept = {o: s for o, s in self.storage.items() if s["local"] or s["session"]}
        return RESTORE % json.dumps(kept) if kept else None

    def values(self) -> set[str]:
        """The cookie and storage values long enough to be tokens: secrets."""
        found = {str(c.get("value", "")) for c in self.cookies}
        for items in self.storage.values():
            found.update(value for _, value in (*items["local"], *items["session"]))
        return {value for value in found if len(value) >= MIN_TOKEN}

    def write(self, out: Path) -> None:
        """Save the session as ``out/session``, readable and writable by its owner only."""
        path = out / SESSION
        tmp = path.with_name(path.name + ".tmp")
        data = json.dumps({"cookies": self.cookies, "storage": self.storage}).encode()
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.fchmod(fd, 0o600)
            os.write(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, path)


def imported(login: Login) -> Session | None:
    """The session of ``login.cookies`` and ``login.storage_state``, if given."""
    if login.cookies is None and login.storage_state is None:
        return None
    session = Session()
    if login.cookies is not None:
        session.cookies.extend(read_cookies_txt(login.cookies))
    if login.storage_state is not None:
        state = read_storage_state(login.storage_state)
        session.cookies.extend(state.cookies)
        session.storage.update(state.storage)
    return session


def read_cookies_txt(path: Path) -> list[dict[str, Any]]:
    """The cookies of a Netscape ``cookies.txt`` file (curl's and browsers' export format):
    seven tab-separated fields a line; ``#HttpOnly_`` before a domain marks an HTTP-only
    cookie; other lines starting with ``#`` and blank lines are comments."""
    cookies = []
    for number, line in enumerate(_read(path).splitlines(), 1):
        http_only = line.startswith("#HttpOnly_")
        if http_only:
            line = line.removeprefix("#HttpOnly_")
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 7 or not parts[4].lstrip("-").isdigit():
            raise ConfigError(
                f"{path}, line {number}: expected 7 tab-separated fields "
                "(domain, subdomains, path, secure, expiry, name, value)"
            )
        domain, _subdomains, cookie_path, secure, expires, name, value = parts
        cookies.append({
            "name": name, "value": value, "domain": domain, "path": cookie_path or "/",
            "secure": secure.upper() == "TRUE", "httpOnly": http_only,
            "expires": float(expires), "session": int(expires) <= 0,
        })
    return cookies


def read_storage_state(path: Path) -> Session:
    """The session of a Playwright storage-state file: ``{"cookies": [...], "origins":
    [{"origin": ..., "localStorage": [{"name": ..., "value": ...}]}]}``."""
    try:
        data = json.loads(_read(path))
        cookies = [
            {**{k: c[k] for k in _COOKIE_KEYS if k in c}, "session": c.get("expires", -1) <= 0}
            for c in data.get("cookies", [])
        ]
        if any(not isinstance(c.get("name"), str) or not isinstance(c.get("value"), str)
               for c in cookies):
            raise ValueError("a cookie without a name or value")
        storage = {
            str(o["origin"]).rstrip("/"): {
                "local": [[str(i["name"]), str(i["value"])] for i in o.get("localStorage", [])],
                "session": [],
            }
            for o in data.get("origins", [])
        }
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise ConfigError(f"{path}: not a Playwright storage-state file ({exc})") from None
    return Session(cookies, storage)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None


def check_given(login: Login) -> None:
    """Refuse the values a stored config redacted and nobody gave again (a resumed crawl)."""
    for name, value in login.fields.items():
        if value == REDACTED:
            raise ConfigError(
                f"login.fields.{name}: login values are never stored; give it again "
                f"(--login {name}=VALUE)"
            )
    if login.http_password == REDACTED:
        raise ConfigError("login.http_password is never stored; give it again")


def http_auth_urls(login: Login, start_urls: Iterable[str]) -> list[str]:
    """The first start URL of each start origin with the HTTP credentials in it (none when
    not configured). A new browser loads each once, before anything is archived: Chromium
    then answers that origin's basic or digest challenges itself, and sends the credentials
    to no other host."""
    if login.http_user is None or login.http_password is None:
        return []
    userinfo = f"{quote(login.http_user, safe='')}:{quote(login.http_password, safe='')}@"
    firsts: dict[str, str] = {}
    for url in start_urls:
        firsts.setdefault(origin(url), url)
    return [
        urlunsplit(parts._replace(netloc=userinfo + parts.netloc))
        for parts in map(urlsplit, firsts.values())
    ]


def session_check(login: Login) -> dict[str, str | None] | None:
    """What the page agent checks in every snapshot (``None``: no check)."""
    if login.logged_in is None and login.logged_out is None:
        return None
    return {"in": login.logged_in, "out": login.logged_out}


class LoginBrowser(Protocol):
    """What logging in asks of a browser (a :class:`statecrawl.browser.Browser`): the page it
    shows, the page agent's answers, and the secrets it keeps out of every record."""

    secrets: Secrets

    @property
    def web(self) -> Chrome: ...

    def ask(self, method: str, arg: Any) -> dict[str, Any]: ...

    def evaluate(self, expression: str) -> Any: ...

    def url(self) -> str: ...

    def load(self, url: str, light: bool = False) -> Snapshot: ...

    def settled(self, light: bool = False, navigating: bool = False) -> Snapshot: ...

    def fire(self, action: Action, light: bool = False) -> Snapshot: ...


class LoginPage:
    """The page a login hook drives: a small API over one browser, not the crawl engine."""

    def __init__(self, browser: LoginBrowser) -> None:
        self._browser = browser
        self.snapshot: Snapshot | None = None

    @property
    def url(self) -> str:
        """The URL of the page shown."""
        return self._browser.url()

    def goto(self, url: str) -> None:
        """Load ``url`` and wait until it settles."""
        self.snapshot = self._browser.load(url)

    def fill(self, name: str, value: str) -> None:
        """Type ``value`` into the field called ``name`` (matched as ``inputs`` are)."""
        (found,) = self._fields([name])
        self._fire(found, "input", [(found, value)])

    def press(self, target: str) -> None:
        """Click what ``target`` names: a CSS selector, or the text of a button or link."""
        where = self._browser.ask("present", target).get("locator")
        if not isinstance(where, str):
            raise LoginFailed(f"nothing to press for {target!r} at {self.url}")
        self._fire(where, "click", [])

    def submit(self, values: dict[str, str] | None = None, press: str | None = None) -> None:
        """Fill ``values`` (field name to value) and send their form, through the button
        ``press`` names if given, else its own submit button."""
        values = values or {}
        answer = self._browser.ask("login", list(values))
        fields = answer.get("fields") or []
        missing = [name for name, loc in zip(values, fields, strict=False) if loc is None]
        if missing or len(fields) != len(values):
            raise LoginFailed(
                f"the login page {self.url} has no field {missing[0]!r} (fields are matched by "
                "label, aria-label, placeholder, name or id)"
                if missing else f"the login page {self.url} answered no fields"
            )
        pairs = list(zip(fields, values.values(), strict=True))
        self._browser.secrets.add_values(
            value for value, secret in zip(values.values(), answer["secret"], strict=False)
            if secret
        )
        if press is not None:
            where = self._browser.ask("present", press).get("locator")
            if not isinstance(where, str):
                raise LoginFailed(f"the login page {self.url} shows nothing like {press!r}")
            self._fire(where, "click", pairs)
        elif isinstance(answer.get("form"), str):
            self._fire(answer["form"], "submit", pairs, answer.get("submitter"))
        else:
            raise LoginFailed(f"the login fields at {self.url} are in no form: give login.submit")

    def shows(self, target: str) -> bool:
        """Whether the page shows ``target``: a CSS selector that matches, or a text."""
        return self._browser.ask("present", target).get("shown") is True

    def _fields(self, names: list[str]) -> list[str]:
        found = self._browser.ask("login", names).get("fields") or []
        for name, loc in zip(names, found, strict=False):
            if not isinstance(loc, str):
                raise LoginFailed(f"the page {self.url} has no field {name!r}")
        return found

    def _fire(
        self, where: str, event: str, pairs: list[tuple[str, str]], submitter: str | None = None
    ) -> None:
        action = Action(
            "login", "", event, "", locator=where, values=tuple(pairs), submitter=submitter
        )
        self.snapshot = self._browser.fire(action, light=True)


def form_login(login: Login) -> Hook:
    """The hook a ``[login]`` form makes: load its page, press what shows the form (if
    ``open`` says what), fill its fields, submit."""

    def hook(page: LoginPage) -> None:
        assert login.url is not None
        page.goto(login.url)
        if login.open is not None:
            page.press(login.open)
        page.submit(dict(login.fields), login.submit)

    return hook


def log_in(browser: LoginBrowser, hook: Hook) -> Session:
    """Log ``browser`` in with ``hook``, check the session is alive, and capture it."""
    page = LoginPage(browser)
    hook(page)
    alive = browser.settled(light=True).session
    if alive is False:
        raise LoginFailed(f"logging in did not work: {page.url} fails the session check")
    return capture(browser)


def capture(browser: LoginBrowser) -> Session:
    """The browser's session now: every cookie, and the storage of the page's origin."""
    cookies = browser.web.execute_cdp_cmd("Network.getAllCookies", {})["cookies"]
    local, session = json.loads(browser.evaluate(READ_STORAGE) or "[[], []]")
    return Session(cookies, {origin(browser.url()): {"local": local, "session": session}})


class Secrets:
    """The values an archive must never hold: passwords typed into a login, the HTTP auth
    password, the session's tokens. Exchanges leave the browser through :meth:`scrub`."""

    def __init__(self, login: Login) -> None:
        self.values: set[str] = set()
        if login.http_user is not None and login.http_password is not None:
            basic = f"{login.http_user}:{login.http_password}".encode()
            self.add_values([login.http_password, base64.b64encode(basic).decode()])

    def add_values(self, values: Iterable[str]) -> None:
        """Count ``values`` (and their URL-encoded and JSON-escaped forms) as secrets."""
        for value in values:
            if value:
                self.values.update({
                    value, quote(value, safe=""), quote_plus(value), json.dumps(value)[1:-1]
                })

    def pattern(self) -> re.Pattern[str] | None:
        if not self.values:
            return None
        return re.compile("|".join(map(re.escape, sorted(self.values, key=len, reverse=True))))

    def scrub(self, exchanges: list[Exchange], login: bool = False) -> list[Exchange]:
        """``exchanges`` without the secrets in their URLs' queries and their headers; a
        ``login`` exchange (of the login itself) also without them in its bodies, and
        marked ``redacted`` when something was taken out."""
        pattern = self.pattern()
        if pattern is None:
            return exchanges
        return [self._scrub(ex, pattern, login) for ex in exchanges]

    def _scrub(self, ex: Exchange, pattern: re.Pattern[str], login: bool) -> Exchange:
        def text(value: str, encoded: bool = False) -> str:
            """``value`` with every secret replaced (URL-encoded in an ``encoded`` text)."""
            return pattern.sub(ENCODED if encoded else REDACTED, value)

        def body(value: bytes | None, encoded: bool = False) -> bytes | None:
            if value is None:
                return None
            decoded = value.decode("utf-8", "surrogateescape")
            return text(decoded, encoded).encode("utf-8", "surrogateescape")

        parts = urlsplit(ex.url)
        changes: dict[str, Any] = {
            "url": urlunsplit(parts._replace(query=text(parts.query, encoded=True))),
            "request_headers": [(n, text(v)) for n, v in ex.request_headers],
            "response_headers": [(n, text(v)) for n, v in ex.response_headers],
        }
        if login:
            form = "x-www-form-urlencoded" in (ex.request_header("Content-Type") or "")
            changes["request_body"] = body(ex.request_body, encoded=form)
            changes["body"] = body(ex.body)
        scrubbed = replace(ex, **changes)
        if login and scrubbed != ex:
            scrubbed.redacted = True
        return scrubbed


def announce(session: Session, out: Path | None) -> None:
    """Keep the captured session in the crawl directory's ``session`` file, if there is one."""
    if out is not None and out.is_dir():
        session.write(out)
    log.info("logged in: %d cookies kept", len(session.cookies))
