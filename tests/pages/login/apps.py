"""Three applications behind a login, served by the tests' ``Site`` (werkzeug):

- ``Notes``: server-rendered pages, a login form with a CSRF token, a session cookie that
  expires after ``lifetime`` requests, and a "Leave" button that logs out;
- ``Spa``: a single-page app that keeps a JWT-like token in ``localStorage`` and sends it to
  its JSON API as a bearer token; its tokens expire after ``lifetime`` API calls;
- ``Notes(remember=True)``: the notes app whose login sets a "remember me" cookie as well,
  which makes a new session silently when the short one ends; with ``admins``, the accounts
  it names also see an accounts page (content that differs by role);
- ``Guarded``: server pages behind HTTP basic or digest auth.

Each app records the secrets it handed out (``tokens``) and counts its logins, so tests can
look for both in a crawl directory.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from werkzeug import Request, Response

from tests.conftest import Site

USER = "ada"
PASSWORD = "correct-horse-battery-4711"
NOTES = {1: "Engines", 2: "Looms", 3: "Numbers"}
SIGNED_IN = "Signed in as"


def _page(title: str, body: str) -> Response:
    text = f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"
    return Response(text, content_type="text/html; charset=utf-8")


def _prefix(site: Site, prefix: str, fn: Callable[[Request], Response]) -> None:
    """Serve ``fn`` under ``prefix`` instead of what an earlier app served there."""
    site.prefixes[:] = [(p, f) for p, f in site.prefixes if p != prefix]
    site.prefix(prefix, fn)


def _redirect(to: str, status: int = 303) -> Response:
    return Response("", status=status, headers={"Location": to})


@dataclass
class Notes:
    """The server-rendered app: ``/login`` (CSRF form), ``/`` and ``/notes/<n>`` behind it."""

    lifetime: float = math.inf  # requests a session lasts
    remember: bool = False  # the login also sets a long-lived "remember me" cookie
    delay: float = 0.0  # seconds each private page takes (to kill a crawl in the middle)
    sessions: dict[str, int] = field(default_factory=dict)  # session id -> requests left
    forms: set[str] = field(default_factory=set)  # CSRF tokens handed out
    remembered: set[str] = field(default_factory=set)
    tokens: list[str] = field(default_factory=list)  # every secret handed out
    accounts: dict[str, str] = field(default_factory=lambda: {USER: PASSWORD})
    admins: set[str] = field(default_factory=set)  # who also sees the accounts page
    users: dict[str, str] = field(default_factory=dict)  # session id -> user name
    logins: int = 0
    logouts: int = 0

    def serve(self, site: Site) -> None:
        site.handler("/login", self.login)
        site.handler("/accounts", self.private(self.accounts_page))
        site.handler("/logout", self.logout)
        site.handler("/bye", lambda _r: _page("Bye", "<h1>You have left.</h1>"))
        site.handler("/", self.private(self.home))
        _prefix(site, "/notes/", self.private(self.note))

    def _token(self) -> str:
        token = secrets.token_urlsafe(24)
        self.tokens.append(token)
        return token

    def _open(self, response: Response, name: str = USER) -> None:
        sid = self._token()
        self.sessions[sid] = self.lifetime  # type: ignore[assignment]
        self.users[sid] = name
        response.set_cookie("sid", sid, httponly=True, path="/")

    def login(self, request: Request) -> Response:
        if request.method == "POST":
            form = request.form
            name = form.get("username", "")
            if (
                form.get("csrf") in self.forms
                and name in self.accounts
                and form.get("password") == self.accounts[name]
            ):
                self.forms.discard(form["csrf"])
                self.logins += 1
                response = _redirect("/")
                self._open(response, name)
                if self.remember and form.get("remember") == "on":
                    token = self._token()
                    self.remembered.add(token)
                    response.set_cookie("remember", token, max_age=86400, httponly=True)
                return response
        csrf = secrets.token_hex(16)
        self.forms.add(csrf)
        remember = (
            '<label><input type="checkbox" name="remember"> Remember me</label>'
            if self.remember else ""
        )
        return _page("Sign in", (
            '<form method="post" action="/login">'
            f'<input type="hidden" name="csrf" value="{csrf}">'
            '<label>User name <input name="username"></label>'
            '<label>Password <input type="password" name="password"></label>'
            f'{remember}<button type="submit">Sign in</button></form>'
        ))

    def logout(self, request: Request) -> Response:
        self.sessions.pop(request.cookies.get("sid", ""), None)
        self.remembered.discard(request.cookies.get("remember", ""))
        self.logouts += 1
        response = _redirect("/bye")
        response.delete_cookie("remember")
        return response

    def private(self, page: Callable[[Request], Response]) -> Callable[[Request], Response]:
        """``page`` for a live session (each request uses one of its lifetime), else a
        redirect to the login form (or a new session from a "remember me" cookie)."""

        def serve(request: Request) -> Response:
            time.sleep(self.delay)
            sid = request.cookies.get("sid", "")
            if sid in self.sessions:
                self.sessions[sid] -= 1
                if self.sessions[sid] <= 0:
                    del self.sessions[sid]
                return page(request)
            if request.cookies.get("remember") in self.remembered:
                response = page(request)
                self._open(response)
                return response
            return _redirect("/login")

        return serve

    def _user(self, request: Request) -> str:
        return self.users.get(request.cookies.get("sid", ""), USER)

    def header(self, request: Request) -> str:
        return (
            f'<header>{SIGNED_IN} {self._user(request)} '
            '<form method="post" action="/logout"><button type="submit">Leave</button></form>'
            "</header>"
        )

    def home(self, request: Request) -> Response:
        links = "".join(f'<li><a href="/notes/{n}">{t}</a></li>' for n, t in NOTES.items())
        if self._user(request) in self.admins:
            links += '<li><a href="/accounts">Accounts</a></li>'
        return _page("Notes", f"{self.header(request)}<h1>Notes</h1><ul>{links}</ul>")

    def accounts_page(self, request: Request) -> Response:
        if self._user(request) not in self.admins:
            return Response("not for you", status=403)
        names = "".join(f"<li>{html.escape(name)}</li>" for name in sorted(self.accounts))
        return _page("Accounts", f"{self.header(request)}<h1>Accounts</h1><ul>{names}</ul>")

    def note(self, request: Request) -> Response:
        number = int(request.path.rsplit("/", 1)[1] or 0)
        if number not in NOTES:
            return Response("not found", status=404)
        title = html.escape(NOTES[number])
        more = (
            f'<button onclick="document.getElementById(\'more\').hidden = false">More</button>'
            f'<p id="more" hidden>All about {title}.</p>'
        )
        return _page(title, f'{self.header(request)}<h1>{title}</h1>{more}<a href="/">Back</a>')


SPA = """<!doctype html><html><head><title>Items</title></head><body><main id="app"></main>
<script>
const app = document.getElementById('app');
async function api(path, options = {}) {
  const headers = { 'Content-Type': 'application/json' };
  const token = localStorage.getItem('jwt');
  if (token) headers.Authorization = 'Bearer ' + token;
  const response = await fetch(path, { ...options, headers });
  if (response.status === 401) { localStorage.removeItem('jwt'); showLogin(); return null; }
  return response.json();
}
function showLogin() {
  app.innerHTML = '<form id="login"><input name="username" placeholder="User name">'
    + '<input type="password" name="password" placeholder="Password">'
    + '<button type="submit">Log in</button></form>';
  document.getElementById('login').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.target;
    const body = JSON.stringify({ username: form.username.value, password: form.password.value });
    const answer = await api('/api/login', { method: 'POST', body });
    if (answer && answer.token) { localStorage.setItem('jwt', answer.token); showItems(); }
  });
}
async function showItems() {
  const me = await api('/api/me');
  if (!me) return;
  const items = await api('/api/items');
  if (!items) return;
  app.innerHTML = '<p>Signed in as ' + me.name + '</p><ul>'
    + items.map((i) => '<li><button data-id="' + i.id + '">' + i.name + '</button></li>').join('')
    + '</ul><div id="detail"></div><button id="close">Close session</button>';
  for (const button of app.querySelectorAll('button[data-id]')) {
    button.addEventListener('click', async () => {
      const item = await api('/api/items/' + button.dataset.id);
      if (item) document.getElementById('detail').textContent = item.detail;
    });
  }
  document.getElementById('close').addEventListener('click', () => {
    localStorage.removeItem('jwt');
    app.innerHTML = '<p>Session closed.</p>';
  });
}
if (localStorage.getItem('jwt')) showItems(); else showLogin();
</script></body></html>"""

# The same app whose login form is made in a dialog when a "Log in" button is pressed (the
# dialog's own button says "Log in" too, as on many single-page apps).
SPA_DIALOG = SPA.replace("function showLogin() {", """function showLogin() {
  app.innerHTML = '<button id="open">Log in</button>';
  document.getElementById('open').addEventListener('click', () => {
    const box = document.createElement('dialog');
    document.body.append(box);
    showForm(box);
    box.showModal();
  });
}
function showForm(box) {""").replace(
    """  app.innerHTML = '<form id="login">""", """  box.innerHTML = '<form id="login">"""
).replace(
    "localStorage.setItem('jwt', answer.token); showItems();",
    "localStorage.setItem('jwt', answer.token); box.remove(); showItems();",
)


@dataclass
class Spa:
    """The single-page app at ``/app`` (its login form in a dialog with ``dialog``), its JSON
    API under ``/api/``."""

    lifetime: float = math.inf  # API calls a token lasts
    dialog: bool = False
    live: dict[str, float] = field(default_factory=dict)
    tokens: list[str] = field(default_factory=list)
    logins: int = 0

    def serve(self, site: Site) -> None:
        site.html("/app", SPA_DIALOG if self.dialog else SPA)
        site.handler("/api/login", self.login)
        _prefix(site, "/api/", self.api)

    def login(self, request: Request) -> Response:
        data = json.loads(request.get_data() or b"{}")
        if data.get("username") != USER or data.get("password") != PASSWORD:
            return Response("{}", status=403, content_type="application/json")
        token = ".".join(secrets.token_urlsafe(18) for _ in range(3))
        self.tokens.append(token)
        self.live[token] = self.lifetime
        self.logins += 1
        return Response(json.dumps({"token": token}), content_type="application/json")

    def api(self, request: Request) -> Response:
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        if token not in self.live:
            return Response("{}", status=401, content_type="application/json")
        self.live[token] -= 1
        if self.live[token] <= 0:
            del self.live[token]
        path = request.path.removeprefix("/api/")
        if path == "me":
            data: object = {"name": USER}
        elif path == "items":
            data = [{"id": n, "name": t} for n, t in NOTES.items()]
        else:
            number = int(path.rsplit("/", 1)[1])
            data = {"detail": f"All about {NOTES[number]}."}
        return Response(json.dumps(data), content_type="application/json")


REALM = "statecrawl tests"


@dataclass
class Guarded:
    """Server pages behind HTTP ``scheme`` auth (``"basic"`` or ``"digest"``, RFC 7616 with
    MD5 and ``qop=auth``): ``/`` links to every note, each page shows an image from
    ``elsewhere`` (another host, which must never be sent the credentials)."""

    scheme: str
    elsewhere: str
    refused: int = 0  # requests answered with a challenge
    nonces: list[str] = field(default_factory=list)

    def serve(self, site: Site) -> None:
        _prefix(site, "/", self.page)

    def page(self, request: Request) -> Response:
        if not self.authorized(request):
            self.refused += 1
            nonce = secrets.token_hex(8)
            self.nonces.append(nonce)
            challenge = (f'Digest realm="{REALM}", nonce="{nonce}", qop="auth", algorithm=MD5'
                         if self.scheme == "digest" else f'Basic realm="{REALM}"')
            return Response("who are you?", status=401, headers={"WWW-Authenticate": challenge})
        image = f'<img src="{self.elsewhere}/pixel.png" alt="">'
        if request.path == "/":
            links = "".join(f'<li><a href="/notes/{n}">{t}</a></li>' for n, t in NOTES.items())
            return _page("Guarded", f"<h1>{SIGNED_IN} {USER}</h1>{image}<ul>{links}</ul>")
        number = request.path.removeprefix("/notes/")
        if not number.isdigit() or int(number) not in NOTES:
            return Response("not here", status=404)
        title = NOTES[int(number)]
        return _page(title, f"<h1>{title}</h1>{image}<a href='/'>back</a>")

    def authorized(self, request: Request) -> bool:
        given = request.authorization
        if given is None or given.type != self.scheme:
            return False
        if self.scheme == "basic":
            return given.username == USER and given.password == PASSWORD
        fields = given.parameters
        if fields.get("username") != USER or fields.get("nonce") not in self.nonces:
            return False

        def md5(text: str) -> str:
            return hashlib.md5(text.encode()).hexdigest()

        known = md5(f"{USER}:{REALM}:{PASSWORD}")
        asked = md5(f"{request.method}:{fields.get('uri')}")
        parts = (known, fields["nonce"], fields.get("nc"), fields.get("cnonce"), "auth", asked)
        return fields.get("response") == md5(":".join(map(str, parts)))
