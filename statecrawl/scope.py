"""Which URLs a crawl may load: the start origins, or include patterns, minus excludes."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from .config import Config

CLOSED_PORT = 9  # the discard port: nothing listens there, so a connection fails at once
_INLINE_FLAGS = re.compile(r"^\(\?([aiLmsux]+)\)")


def origin(url: str) -> str:
    """``scheme://host[:port]`` of an absolute URL."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    port = parts.port
    if port is None or port == {"http": 80, "https": 443}.get(parts.scheme):
        return f"{parts.scheme}://{host}"
    return f"{parts.scheme}://{host}:{port}"


def js_pattern(pattern: str) -> list[str]:
    """``[source, flags]`` for JavaScript's RegExp: leading inline flags become flags."""
    match = _INLINE_FLAGS.match(pattern)
    if not match:
        return [pattern, ""]
    flags = "".join(f for f in match.group(1) if f in "ims")
    return [pattern[match.end() :], flags]


def _url_pattern(host: str) -> str:
    """A ``host[:port]`` as URLPattern text: the colons of an IPv6 address escaped (in a
    pattern they would start named groups)."""
    if not host.startswith("["):
        return host
    address, _, rest = host[1:].partition("]")
    return "[" + address.replace(":", "\\:") + "]" + rest


class Scope:
    """Decides whether a URL belongs to the crawl; the page agent applies the same rules.

    The browser fetches from the start origins' hosts and ``allow``'s only; ``include``
    patterns narrow what is crawled within the start origins, never widen it.
    """

    def __init__(self, config: Config) -> None:
        self.origins = frozenset(origin(u) for u in config.start_urls)
        self.include = [re.compile(p) for p in config.scope.include]
        self.exclude = [re.compile(p) for p in config.scope.exclude]
        self.allow = config.scope.allow

    def __contains__(self, url: str) -> bool:
        if urlsplit(url).scheme not in ("http", "https"):
            return False
        if any(p.search(url) for p in self.exclude):
            return False
        if origin(url) not in self.origins:
            return False
        return not self.include or any(p.search(url) for p in self.include)

    def hosts(self) -> list[str]:
        """The ``host[:port]`` the browser may reach: the start origins' and ``allow``'s."""
        return sorted({urlsplit(o).netloc for o in self.origins} | set(self.allow))

    def request_patterns(self) -> list[dict[str, str | bool]]:
        """CDP ``Network.setBlockedURLs`` patterns that fail out-of-scope requests at once."""
        allowed = [f"*://{_url_pattern(h)}/*" for h in self.hosts()]
        patterns: list[dict[str, str | bool]] = [{"urlPattern": p, "block": False} for p in allowed]
        patterns += [{"urlPattern": p, "block": True} for p in ("*://*/*", "*://*:*/*")]
        return patterns

    def proxy_flags(self) -> list[str]:
        """Chromium flags sending every request outside the allowed hosts to a closed loopback
        port, so frames, workers and sockets cannot leave the scope either."""
        return [
            f"--proxy-server=http://127.0.0.1:{CLOSED_PORT}",
            "--proxy-bypass-list=" + ";".join(["<-loopback>", *self.hosts()]),
        ]

    def for_agent(self) -> dict[str, object]:
        """The rules as data for the page agent."""
        # An include pattern holds for the agent only at a start origin, as it does here.
        origins = "|".join(re.escape(o) for o in sorted(self.origins))
        guard = f"^(?=(?:{origins})(?:[/?#]|$))[\\s\\S]*?"
        include = (js_pattern(p.pattern) for p in self.include)
        return {
            "origins": sorted(self.origins),
            "include": [[f"{guard}(?:{source})", flags] for source, flags in include],
            "exclude": [js_pattern(p.pattern) for p in self.exclude],
        }
