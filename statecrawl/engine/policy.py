"""The crawl's policies on actions: which ones are dangerous, which ones leave the page, and
which ones need not be fired again because their effect is known. Small classes with no
browser, so the engine's decisions are tested on their own."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urldefrag, urlsplit

from ..state import Action


class Danger:
    """Actions that may end the session or destroy data (a logout, a delete): matched by
    label, and by URL for links, against the configured patterns, or seen to end the login's
    session (:meth:`learn`), whatever their label."""

    def __init__(self, patterns: Iterable[str], policy: str = "last") -> None:
        self.patterns = [re.compile(p) for p in patterns]
        self.policy = policy  # "last": fired after the others; "skip": never fired
        self.learned: set[str] = set()  # keys of the actions seen to end the session

    def learn(self, action: Action) -> None:
        """``action`` ended the login's session: it is dangerous from now on."""
        self.learned.add(action.key)

    def __call__(self, action: Action) -> bool:
        return action.key in self.learned or any(
            p.search(action.label) or (action.is_link and p.search(action.action))
            for p in self.patterns
        )

    def order(self, actions: list[Action]) -> list[Action]:
        """The actions worth firing, dangerous ones last or left out."""
        dangerous = [a for a in actions if self(a)]
        if not dangerous:
            return actions
        safe = [a for a in actions if not self(a)]
        return safe if self.policy == "skip" else safe + dangerous


POSITION = re.compile(r":nth-of-type\(\d+\)")


class Leaving:
    """Actions seen to take the browser to another page (a state at another URL), learned
    per family: the event and the element's locator without its positions among siblings,
    so that one item of a list that opens a page tells about all of them. Links leave by
    nature. The frontier does work that stays on a page first, while the browser is there."""

    def __init__(self) -> None:
        self.families: set[tuple[str, str]] = set()

    @staticmethod
    def family(action: Action) -> tuple[str, str]:
        return action.event, POSITION.sub("", action.locator)

    def record(self, action: Action, url: str, target_url: str) -> None:
        """``action``, fired in a state at ``url``, led to a state at ``target_url``."""
        if url != target_url:
            self.families.add(self.family(action))

    def __call__(self, action: Action) -> bool:
        return action.is_link or self.family(action) in self.families

    def dump(self) -> dict[str, bool]:
        """What a checkpoint keeps: a row per family (``event locator``)."""
        return {f"{event} {locator}": True for event, locator in self.families}

    def load(self, rows: Mapping[str, Any]) -> None:
        """Take back what :meth:`dump` kept."""
        for row in rows:
            event, _, locator = row.partition(" ")
            self.families.add((event, locator))


WORD = re.compile(r"[^\W_]{3,}")
TAG = re.compile(r"<[a-z][^>]{0,200}")  # a start tag, its attributes and their values
# The requests an action's effect may depend on: what a page's scripts ask its server for.
# Images, scripts and styles come and go with caches, and a document's target is known by
# its URL (the network log may also hand over a reset's document late, with the action's).
ASKING = frozenset({"XHR", "Fetch", "EventSource", "WebSocket"})

BODY_KEPT = 4096  # characters of a request body compared, and searched for words
Requests = tuple[tuple[str, str, str], ...]  # sorted (method, URL without fragment, body)
# The sets of an action's evidence that grow with the states it is fired or inferred in (its
# sources, targets, and the states it was inferred in) are kept by checkpoints as rows of their
# own, (action key, role, state), so that a checkpoint writes only those added since the last.
StateRow = tuple[str, str, str]


def words(html: str) -> Counter[str]:
    """The words of a DOM, lower case, of three letters or more (tags, attributes and text),
    each pair of words in a row, and each start tag whole, with how often each occurs: what
    inference compares a state's content by. A pair tells "in abstract" from an "Abstract"
    tab where a word alone would not; a tag tells an element's attributes from the same
    words elsewhere (``<p id="panel" hidden>`` from a script's ``panel.hidden``); the counts
    tell a list of two identical rows from a list of one."""
    lower = html.lower()
    found = WORD.findall(lower)
    counts = Counter(found)
    counts.update(map(" ".join, itertools.pairwise(found)))
    counts.update(TAG.findall(lower))
    return counts


def moved(source: Counter[str], target: Counter[str]) -> dict[str, tuple[int, int]]:
    """The words whose count an action changed, leading from ``source`` to ``target``
    (word counts, :func:`words`): word -> (count before, count after)."""
    return {w: (source[w], target[w]) for w in source.keys() | target.keys()
            if source[w] != target[w]}


def requests_of(exchanges: Iterable[Any]) -> Requests:
    """What an action asked its server for (``exchanges``:
    :class:`~statecrawl.browser.network.Exchange` objects), as a comparable value."""
    made = {
        (x.method, urldefrag(x.url).url, (x.request_body or b"")[:BODY_KEPT].decode("latin-1"))
        for x in exchanges
        if x.resource_type in ASKING
    }
    return tuple(sorted(made))


def asked(requests: Requests) -> frozenset[str]:
    """The words a page put in its requests, where state travels: the values of query
    strings, bodies, and path segments with digits (``/patent/US123/claims``)."""
    found: set[str] = set()
    for _, url, body in requests:
        parts = urlsplit(url)
        numbered = [s for s in parts.path.split("/") if any(map(str.isdigit, s))]
        values = [v for _, v in parse_qsl(parts.query)]
        for text in (*values, body, *numbered):
            found.update(WORD.findall(text.lower()))
    return frozenset(found)


@dataclass(slots=True)
class Evidence:
    """What firing one script action showed: the states it was fired in, the states it led
    to, the requests it made, the words its target shared with every state it was fired in,
    the words whose count it changed alike in all of them, and whether it ever led elsewhere
    than to the state the browser came from."""

    sources: set[str] = field(default_factory=set)
    targets: set[str] = field(default_factory=set)
    requests: set[Requests] = field(default_factory=set)
    common: frozenset[str] | None = None
    overlap: frozenset[str] = frozenset()  # words the target shared with any source
    # word -> (its count in every source, in the target), for the words the action changed
    moved: dict[str, tuple[int, int]] | None = None
    left: bool = False

    def to_data(self) -> dict[str, Any]:
        """The evidence but its per-state sets (kept as rows of their own, see ``StateRow``)."""
        return {
            "requests": sorted([list(map(list, r)) for r in self.requests]),
            "common": None if self.common is None else sorted(self.common),
            "overlap": sorted(self.overlap),
            "moved": None if self.moved is None else sorted([w, *c] for w, c in self.moved.items()),
            "left": self.left,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Evidence:
        """The evidence :meth:`to_data` kept, with its ``sources`` and ``targets`` lists."""
        common, changed = data.get("common"), data.get("moved")
        return cls(
            sources=set(data.get("sources", ())),
            targets=set(data.get("targets", ())),
            requests={tuple(tuple(x) for x in r) for r in data.get("requests", ())},
            common=None if common is None else frozenset(common),
            overlap=frozenset(data.get("overlap", ())),
            moved=None if changed is None else {w: (n, m) for w, n, m in changed},
            left=bool(data.get("left", False)),
        )


class Inference:
    """When a script action need not be fired again because its effect is known.

    An action is taken to lead to its one known target from a new state ``S`` only on
    evidence that its effect does not depend on the state it is fired in:

    - it was fired in ``after`` different states, and always led to the same target;
    - it made the same requests (method, URL, body) every time: a "Next" button whose
      request carries the current query (``q=battery&page=2``) depends on the state;
    - ``S`` holds every word (and start tag, :func:`words`) the target shares with all the
      states it was fired in: a "Next" fired only in the pages of one query leads to a page
      of that query, whose words (the query) a page of another query lacks;
    - ``S`` holds every word the action put in its requests (:func:`asked`): a page that
      never shows its query still sends it;
    - ``S`` shares no word with the target that none of those states shared with it: a
      result row fired beside other patents' details opens its patent on its first tab,
      but fired beside its own patent's details it may do nothing;
    - ``S`` has as many of each word as the states it was fired in had, where the action
      changed that word's count alike in all of them (each had ``n``, the target ``m``;
      fewer than ``n``, but one at least, will do where ``m`` is 0): a "Remove" fired only
      in lists of one row shows the evidence of an action that leads to one state, and in
      a list of two identical rows (the same words, twice) it removes one row, not the
      list; a "Prev" that took a result set's id away in the pages of one query (which never
      show the query) may lead elsewhere from a page that never held that id;
    - it led elsewhere than to the state the browser came from at least once: a "Back"
      button (``history.back()``) follows the browser's history, not the page.

    Inferred transitions are checked: the engine fires a sample of them (``verify``), and
    the first one that leads elsewhere retracts the action (:meth:`retract`): it is never
    inferred again, and what was inferred for it is fired.
    """

    def __init__(self, after: int | None) -> None:
        self.after = after
        self.table: dict[str, Evidence] = {}  # action key -> evidence
        self.changed: set[str] = set()  # action keys changed since the crawl store saved them
        self.inferred: dict[str, set[str]] = {}  # action key -> states it was inferred in
        self.retracted: set[str] = set()  # action keys inference proved wrong for
        # the (action key, role, state) rows of the per-state sets added and dropped since the
        # crawl store saved them (see ``StateRow``)
        self.added: set[StateRow] = set()
        self.dropped: set[StateRow] = set()

    def _add(self, key: str, role: str, state: str) -> None:
        row = (key, role, state)
        self.dropped.discard(row)
        self.added.add(row)

    def _drop(self, key: str, role: str, state: str) -> None:
        row = (key, role, state)
        self.added.discard(row)
        self.dropped.add(row)

    def record(
        self,
        action: Action,
        source: str,
        target: str,
        requests: Requests,
        came_from: str | None,
        contents: Callable[[], tuple[Counter[str], Counter[str]]],
    ) -> None:
        """``action``, fired in state ``source`` that the browser reached from ``came_from``
        (``None``: by a load), made ``requests`` and led to ``target``; ``contents()`` gives
        the words of ``source`` and of ``target`` (:func:`words`; read only while the
        evidence may still serve)."""
        if action.is_link:  # a link's target is known by its URL, never inferred from this
            return
        key = action.key
        evidence = self.table.get(key)
        if evidence is None:
            evidence = self.table[key] = Evidence()
            self.changed.add(key)
        for role, states, state in (
            ("sources", evidence.sources, source), ("targets", evidence.targets, target)
        ):
            if state not in states:
                states.add(state)
                self._add(key, role, state)
        if requests not in evidence.requests:
            evidence.requests.add(requests)
            self.changed.add(key)
        if target != came_from and not evidence.left:
            evidence.left = True
            self.changed.add(key)
        if self.after is not None and len(evidence.targets) == 1 and len(evidence.requests) == 1:
            self.changed.add(key)  # (what the words tell may change)
            before, after = contents()
            words_now = frozenset(before.keys() & after.keys())
            changed = moved(before, after)
            if evidence.common is None:
                evidence.common, evidence.moved = words_now, changed
            else:
                evidence.common &= words_now
                if evidence.moved is not None:  # (None: evidence a crawl saved without it)
                    evidence.moved = {
                        w: c for w, c in evidence.moved.items() if changed.get(w) == c
                    }
            if source != target:  # (a state shares everything with itself)
                evidence.overlap |= words_now

    def known(
        self, action: Action, state: str, content: Callable[[str], Counter[str]]
    ) -> str | None:
        """The state ``action`` is known to lead to when fired in ``state``, if any;
        ``content(s)`` gives the words of state ``s`` (:func:`words`)."""
        evidence = self.table.get(action.key)
        if (
            self.after is None
            or action.is_link
            or evidence is None
            or action.key in self.retracted
            or state in evidence.sources
            or len(evidence.sources) < self.after
            or len(evidence.targets) != 1
            or len(evidence.requests) != 1
            or not evidence.left
            or evidence.common is None
            or evidence.moved is None
        ):
            return None
        target = next(iter(evidence.targets))
        here = content(state)
        if (
            not evidence.common <= here.keys()
            or not asked(next(iter(evidence.requests))) <= here.keys()
            or not here.keys() & content(target).keys() <= evidence.overlap
            or any(
                here[w] != n and not (m == 0 and 0 < here[w] < n)
                for w, (n, m) in evidence.moved.items()
            )
        ):
            return None
        return target

    def infer(self, action: Action, state: str) -> None:
        """``action`` was recorded in ``state`` without being fired."""
        states = self.inferred.setdefault(action.key, set())
        if state not in states:
            states.add(state)
            self._add(action.key, "inferred", state)

    def retract(self, action: Action) -> set[str]:
        """A fired check of ``action`` led elsewhere than inferred: it is never inferred again;
        return the states it was inferred in (to be fired now)."""
        self.retracted.add(action.key)
        self.changed.add(action.key)
        states = self.inferred.pop(action.key, set())
        for state in states:
            self._drop(action.key, "inferred", state)
        return states

    def retarget(self, names: Mapping[str, str]) -> None:
        """States got other ids (``old -> new``: merged, or named by their final key)."""
        for key, evidence in self.table.items():
            evidence.sources = self._rename(key, "sources", evidence.sources, names)
            evidence.targets = self._rename(key, "targets", evidence.targets, names)
        for key, states in self.inferred.items():
            self.inferred[key] = self._rename(key, "inferred", states, names)

    def _rename(self, key: str, role: str, states: set[str], names: Mapping[str, str]) -> set[str]:
        """``states`` with ``names`` applied, its rows' changes noted."""
        if not names.keys() & states:
            return states
        renamed = {names.get(s, s) for s in states}
        for state in states - renamed:
            self._drop(key, role, state)
        for state in renamed - states:
            self._add(key, role, state)
        return renamed

    def dump(self, keys: Iterable[str]) -> list[tuple[str, dict[str, Any]]]:
        """The rows of ``keys`` as JSON-ready data, but their per-state sets (for
        checkpoints, which write :attr:`added` and delete :attr:`dropped`)."""
        rows = []
        for key in keys:
            data = self.table[key].to_data()
            data["retracted"] = key in self.retracted
            rows.append((key, data))
        return rows

    def states(self) -> list[StateRow]:
        """Every row of the per-state sets (for a whole checkpoint)."""
        sets = [(k, "sources", e.sources) for k, e in self.table.items()]
        sets += [(k, "targets", e.targets) for k, e in self.table.items()]
        sets += [(k, "inferred", states) for k, states in self.inferred.items()]
        return [(key, role, state) for key, role, states in sets for state in states]

    def load(self, rows: Mapping[str, Mapping[str, Any]]) -> None:
        """Replace the table with ``rows`` from :meth:`dump`, each with its per-state sets."""
        self.table = {k: Evidence.from_data(data) for k, data in rows.items()}
        self.retracted = {k for k, data in rows.items() if data.get("retracted")}
        self.inferred = {k: set(d["inferred"]) for k, d in rows.items() if d.get("inferred")}
        self.changed = set(self.table)
        self.added, self.dropped = set(), set()
