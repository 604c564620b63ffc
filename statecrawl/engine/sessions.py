"""Server-side sessions: what each browser's session has been through since it began.

Real applications keep state on the server (a preference in the session, a watchlist, a
cart): once an action changed it, loading a URL no longer shows what it showed. An action
*mutates* when its requests are not safe (a method other than GET, HEAD or OPTIONS), when a
response set a cookie, or when its effect outlived a reload (a reset then showed the state it
led to: a drift). Mutating actions are learned by family (as :class:`.policy.Leaving`
learns), recorded on their edges (``mutates``, ``mutates_why``) and ordered after the
read-only work at their depth. A reset that shows another state than expected re-anchors
there and starts the browser's next reset in a fresh session (a new cookie jar and storage,
a new login where the crawl has one); so does a session that an action whose effect is known
to outlive a reload touched, so that what it changed poisons none of the rest of the crawl.
An unsafe request alone (a server callback that only computes) costs no fresh session.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any
from urllib.parse import urldefrag

from ..browser.network import SAFE_METHODS
from .policy import Leaving

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..executor import Slot
    from ..scope import Scope
    from ..state import Action
    from ..stats import Stats
    from .memory import Memory

HISTORY = 64  # transitions of a session kept to find the cause of a drift

Edge = tuple[str, str, str]  # (source, target, action key)


def mutation(
    exchanges: Iterable[Any], scope: Scope, writes: Iterable[tuple[str, str]] = ()
) -> str | None:
    """Why an action's requests (``exchanges``: :class:`~statecrawl.browser.network.Exchange`
    objects; ``writes``: the method and URL of its unsafe ones, known as they were sent)
    changed server-side state, or ``None``: an unsafe method, or a cookie set to a value its
    request did not send, on a URL in ``scope``."""
    for method, url in writes:
        if urldefrag(url).url in scope:
            return f"{method} {urldefrag(url).url}"
    for exchange in exchanges:
        url = urldefrag(exchange.url).url
        if url not in scope or exchange.failed is not None:
            continue
        method = exchange.method.upper()
        if method not in SAFE_METHODS:
            return f"{method} {url}"
        if sets_cookie(exchange.request_header("cookie"), exchange.response_headers):
            return f"{method} {url} set a cookie"
    return None


def sets_cookie(sent: str | None, headers: Iterable[tuple[str, str]]) -> bool:
    """Whether response ``headers`` set a cookie to another value than the request's
    ``Cookie`` header (``sent``) held: a session kept alive by the same cookie is no change.

    >>> sets_cookie("sid=1; theme=dark", [("Set-Cookie", "sid=1; Path=/")])
    False
    >>> sets_cookie("sid=1", [("set-cookie", "a=b\\ntheme=light; Path=/")])
    True
    """
    kept = {pair.strip() for pair in (sent or "").split(";")}
    return any(
        line.split(";", 1)[0].strip() not in kept
        for name, value in headers
        if name.lower() == "set-cookie"
        for line in value.split("\n")
        if line.strip()
    )


class Sessions:
    """Which browsers' sessions lasting changes touched, the transitions each browser made
    in its session, and the actions learned to mutate (by family, see
    :meth:`.policy.Leaving.family`); the stats count fresh sessions and re-anchors."""

    def __init__(self, memory: Memory, stats: Stats) -> None:
        self.memory = memory
        self.stats = stats
        self.touched: set[Slot] = set()  # browsers whose session a lasting change touched
        self.history: dict[Slot, deque[Edge]] = {}  # the transitions made in each session
        self.lasting: set[tuple[str, str]] = set()  # families whose effect outlived a reload

    def learn(self, action: Action, why: str, lasting: bool = False) -> None:
        """``action`` changed server-side state, for ``why``; ``lasting``: its effect
        outlived a reload."""
        family = Leaving.family(action)
        self.memory.mutating.setdefault(family, why)
        if lasting:
            self.lasting.add(family)

    def _lasts(self, action: Action) -> bool:
        return not action.is_link and Leaving.family(action) in self.lasting

    def replayed(self, slot: Slot, steps: Iterable[Action]) -> None:
        """``slot``'s browser replayed ``steps`` in its session."""
        if any(self._lasts(step) for step in steps):
            self.touched.add(slot)

    def fired(self, slot: Slot, action: Action, edge: Edge) -> None:
        """``slot``'s browser made the transition ``edge`` (source, target, action key) by
        ``action`` in its session."""
        self.history.setdefault(slot, deque(maxlen=HISTORY)).append(edge)
        if self._lasts(action):
            self.touched.add(slot)

    def fresh(self, slot: Slot) -> bool:
        """Whether ``slot``'s next reset starts a fresh session (its session was touched);
        counted, and the session is clean from then on."""
        if slot not in self.touched:
            return False
        self.restarted(slot)
        self.stats.fresh_sessions += 1
        return True

    def clean(self, slot: Slot) -> bool:
        """Whether ``slot``'s browser made no transition yet in its session (a fresh one, a
        new browser's): a drift it meets is not its session's doing."""
        return not self.history.get(slot)

    def drifted(self, slot: Slot, found: str | None) -> Edge | None:
        """A reset of ``slot``'s browser showed state ``found`` (``None``: a state not kept)
        instead of the one it was to reach: re-anchored, and its next reset starts a fresh
        session. The last transition of that session that led to ``found`` is the cause,
        when there is one: its effect persisted across a reload."""
        self.stats.reanchors += 1
        self.touched.add(slot)
        resolve = self.memory.resolve
        edges = [(resolve(s), resolve(t), k) for s, t, k in self.history.get(slot, ())]
        return next((e for e in reversed(edges) if e[1] == found), None)

    def restarted(self, slot: Slot) -> None:
        """``slot``'s browser is in a new session (a fresh one, or a new browser)."""
        self.touched.discard(slot)
        self.history.pop(slot, None)
