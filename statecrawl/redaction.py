"""What a crawl never writes: the user name and password of a URL, and the credentials of
request headers.

The browser reports URLs with their userinfo (``http://user:pw@host/``: the network log, the
navigation history, a page's links) and the requests with their ``Authorization`` headers.
Every URL and header enters statecrawl's records through these functions, so the graph, the
store, the WARC headers, ``resources.jsonl``, the report and the exports hold neither; only
the pages' own text (the DOM snapshots, the archived response bodies) is kept as it was.
"""

from __future__ import annotations

import re

REDACTED = "[redacted]"
SECRET_HEADERS = frozenset({"authorization", "proxy-authorization"})
# The userinfo of a URL: after a scheme's ``://``, everything up to the last ``@`` of the
# authority (which ends at a slash, a backslash, ``?``, ``#``, a quote or a space). The
# pattern starts with its literal, which the regex engine finds fast in a long DOM.
_USERINFO = re.compile(r"(?<=[A-Za-z0-9+.-])://(?:[^\s/?#\\\"'<>`@]*@)+")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_AUTHORITY_END = re.compile(r"[/?#\\]")


def strip_userinfo(text: str) -> str:
    """``text`` (a URL, or any text holding URLs) without the userinfo of its URLs."""
    return _USERINFO.sub("://", text) if "@" in text else text


def has_userinfo(url: str) -> bool:
    """Whether the URL ``url`` holds a user name or password: an ``@`` in its authority,
    read as loosely as a browser reads it (whitespace and all)."""
    authority = _AUTHORITY_END.split(url.partition("://")[2], maxsplit=1)[0]
    return "@" in authority


def masked(url: str) -> str:
    """``url`` as a message may show it: everything before its last ``@`` (a user name, a
    password; a user name may be a token too) shown as ``***``, its scheme kept."""
    if "@" not in url:
        return url
    scheme = _SCHEME.match(url)
    return (scheme.group() if scheme else "") + "***@" + url.rpartition("@")[2]


def redact_headers(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``headers`` with the values of credential headers replaced by ``[redacted]`` (the
    names kept) and the userinfo of URLs in the others removed (``Location``, ``Referer``)."""
    return [
        (name, REDACTED if name.lower() in SECRET_HEADERS else strip_userinfo(value))
        for name, value in headers
    ]
