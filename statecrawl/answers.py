"""The page agent's answers, checked before use.

The agent runs in the page's own world, so a page can break or forge what it answers. Every
field is checked for type, size and form here: a malformed answer is an ``AgentError`` (a
recorded failure of that one action or state), and oversized parts are cut to a limit.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any
from urllib.parse import urlsplit

from .errors import AgentError
from .redaction import strip_userinfo

MAX_HTML = 32 * 1024 * 1024  # characters of a snapshot; beyond, it is cut and marked
MAX_TEXT = 8192  # a URL, locator, label, action or dialog message
MAX_ITEMS = 10_000  # candidates, form fields, volatile names, dialogs, popups, blocked URLs
MAX_FRAMES = 2_000  # DOM-mutation frames of one transition
MAX_VALUES = 1_000  # field values of one action
MAX_ANSWER = 3 * MAX_HTML  # characters of one whole answer, as JSON
EVENTS = frozenset({
    "click", "dblclick", "mouseover", "input", "change", "submit", "keydown:Enter",
    "keydown:Escape", "scroll", "drop",
})
KINDS = frozenset({"link", "script", "submit"})
DIALOGS = frozenset({"alert", "confirm", "prompt", "beforeunload"})
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _fail(what: str) -> AgentError:
    return AgentError(f"the page agent's answer is malformed: {what}")


def text(value: Any, what: str, limit: int = MAX_TEXT) -> str:
    """A string of at most ``limit`` characters."""
    if not isinstance(value, str):
        raise _fail(f"{what} is not a string")
    return value[:limit]


def web_text(value: Any, what: str, limit: int = MAX_TEXT) -> str:
    """A string that may name URLs (a link, an action, a title, a label, a mutation), the
    userinfo of each removed: ``http://user:password@host/`` is recorded as ``http://host/``."""
    return strip_userinfo(text(value, what, limit))


def optional_text(value: Any, what: str) -> str | None:
    return None if value is None else text(value, what)


def url(value: Any, what: str) -> str:
    """An http(s) URL with a host and no whitespace or control characters (it may end up in
    a WARC header), without its userinfo."""
    link = web_text(value, what)
    if _CONTROL.search(link) or " " in link:
        raise _fail(f"{what} holds whitespace or control characters")
    parts = urlsplit(link)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _fail(f"{what} is not an http(s) URL")
    return link


def items(value: Any, what: str, limit: int = MAX_ITEMS) -> list[Any]:
    """A list of at most ``limit`` items."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise _fail(f"{what} is not a list")
    return value[:limit]


def number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _fail(f"{what} is not a number")
    return value


def _pairs(value: Any, what: str, size: int) -> list[list[str]]:
    out = []
    for item in items(value, what, MAX_VALUES if size == 2 else MAX_ITEMS):
        if not isinstance(item, list) or len(item) != size:
            raise _fail(f"{what} holds an item that is not a list of {size}")
        out.append([text(v, what) for v in item])
    return out


def candidate(value: Any) -> dict[str, Any]:
    """One candidate action, as ``Action.from_candidate`` reads it."""
    if not isinstance(value, dict):
        raise _fail("a candidate is not an object")
    event = value.get("event")
    kind = value.get("kind")
    if event not in EVENTS:
        raise _fail(f"unknown event {str(event)[:40]!r}")
    if kind not in KINDS:
        raise _fail(f"unknown kind {str(kind)[:40]!r}")
    action = web_text(value.get("action"), "an action")
    return {
        "locator": text(value.get("locator"), "a locator"),
        "label": web_text(value.get("label"), "a label", 200),
        "event": event,
        "kind": kind,
        "action": url(action, "a link") if kind == "link" else action,
        "status": text(value.get("status"), "a status", 200),
        "hover": optional_text(value.get("hover"), "a hover locator"),
        "values": _pairs(value.get("values"), "values", 2),
        "submitter": optional_text(value.get("submitter"), "a submitter"),
        "once": value.get("once") is True,
        "guarded": None if value.get("guarded") is None
        else web_text(value["guarded"], "why the guard keeps it"),
    }


def _covered(value: Any) -> dict[str, str]:
    """A candidate left out because an element lies over it, and a description of that one."""
    if not isinstance(value, dict):
        raise _fail("a covered candidate is not an object")
    names = ("locator", "label", "event", "action", "covered_by")
    return {name: web_text(value.get(name), f"a covered candidate's {name}", 200) for name in names}


def _dialog(value: Any) -> dict[str, str]:
    if not isinstance(value, dict) or value.get("type") not in DIALOGS:
        raise _fail("a dialog is not one of alert, confirm, prompt, beforeunload")
    return {"type": value["type"], "message": text(value.get("message", ""), "a dialog")}


def _frame(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail("a mutation frame is not an object")
    ops = []
    for op in items(value.get("ops"), "a frame's operations"):
        if not isinstance(op, dict) or op.get("k") not in ("html", "text", "attr"):
            raise _fail("a frame operation is malformed")
        path = items(op.get("p"), "a node path")
        if not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in path):
            raise _fail("a node path holds something other than indexes")
        checked = {"p": path, "k": op["k"], "v": None if op.get("v") is None
                   else web_text(op["v"], "a frame value", MAX_HTML)}
        if op["k"] == "attr":
            checked["n"] = text(op.get("n"), "an attribute name", 200)
        ops.append(checked)
    return {"t": number(value.get("t", 0), "a frame time"), "ops": ops}


def snapshot(data: Any) -> dict[str, Any]:
    """The fields of a snapshot answer, checked and capped (``truncated`` tells whether the
    DOM was cut)."""
    if not isinstance(data, dict):
        raise _fail("the answer is not an object")
    html = text(data.get("html", ""), "the DOM", MAX_HTML + 1)
    frames = data.get("frames")
    frames = None if frames is None else [_frame(f) for f in items(frames, "frames", MAX_FRAMES)]
    volatile = items(data.get("volatile"), "the volatile names")
    return {
        "url": web_text(data.get("url", ""), "the URL"),
        "title": web_text(data.get("title", ""), "the title", 1024),
        "html": html[:MAX_HTML],
        "truncated": len(html) > MAX_HTML,
        "form": _pairs(data.get("form"), "the form values", 3),
        "candidates": [candidate(c) for c in items(data.get("candidates"), "the candidates")],
        "covered": [_covered(c) for c in items(data.get("covered"), "the covered candidates")],
        "ruled_out": int(number(data.get("ruledOut", 0), "the candidates ruled out")),
        "volatile": [text(v, "a volatile name", 1024) for v in volatile],
        "frames": frames,
        "dialogs": [_dialog(d) for d in items(data.get("dialogs"), "the dialogs")],
        "popups": [strip_userinfo(u) for u in items(data.get("popups"), "the popups") if _web(u)],
        "blocked": [web_text(u, "a blocked URL") for u in items(data.get("blocked"), "blocked")],
        "guarded": [web_text(g, "a request kept in") for g in items(data.get("guarded"), "kept")],
        "saving": [[strip_userinfo(url), name]
                   for url, name in _pairs(data.get("saving"), "the downloads asked for", 2)],
        "unprompted": [web_text(g, "a write kept in")
                       for g in items(data.get("unprompted"), "the writes kept in")],
        "timed_out": data.get("timedOut") is True,
        "settle_ms": int(number(data.get("settleMs", 0), "the settle time")),
        "snapshot_ms": int(number(data.get("snapshotMs", 0), "the snapshot time")),
        "waits_missed": [text(css, "a wait's selector", 1024)
                         for css in items(data.get("missed"), "the missed waits")],
        "status": _status(data.get("status")),
        "session": data.get("session") if isinstance(data.get("session"), bool) else None,
    }


def reply(value: Any) -> dict[str, Any]:
    """Any answer of the agent: an object."""
    if not isinstance(value, dict):
        raise _fail("the answer is not an object")
    return value


def decode(value: Any, request: int) -> dict[str, Any]:
    """The agent's JSON answer to request number ``request``: an object."""
    if not isinstance(value, str) or len(value) > MAX_ANSWER:
        raise _fail(f"it is not JSON text of at most {MAX_ANSWER} characters")
    try:
        data = json.loads(value)
    except ValueError:
        raise _fail("it is not JSON") from None
    if not isinstance(data, dict) or data.get("id") != request:
        raise _fail("it answers another request")
    return reply(data.get("result"))


def departure(data: dict[str, Any]) -> tuple[str | None, list[str], list[dict[str, str]]]:
    """Where an action sent the page (the URL, when the agent saw it), and the requests
    blocked and the dialogs shown on the way out."""
    target = data.get("navigating")
    where = None
    if isinstance(target, dict) and target.get("url") is not None:
        where = web_text(target["url"], "a navigation")
    blocked = [web_text(u, "a blocked URL") for u in items(data.get("blocked"), "blocked")]
    return where, blocked, [_dialog(d) for d in items(data.get("dialogs"), "the dialogs")]


def _web(value: Any) -> bool:
    """Whether a window the page tried to open is a web URL to record (mailto: and the like
    are left out)."""
    try:
        url(value, "a popup")
    except AgentError:
        return False
    return True


def _status(value: Any) -> int | None:
    if value is None:
        return None
    status = number(value, "the HTTP status")
    if status != int(status) or not 100 <= status <= 999:
        raise _fail("the HTTP status is not a status code")
    return int(status)
