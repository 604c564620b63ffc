"""What a crawl knows between two outcomes, as one object.

The engine decides, a :class:`Memory` remembers: the graph and its states, the index of
state keys, the actions fired, the ways learned (URL tables, edges and their actions), the
merges, the learned volatility, the inference and equivalence evidence, the popups' sizes
and the families of actions seen to leave a page. The store saves and restores it
(:mod:`.resume`). :meth:`Memory.retarget` is the only code that changes a state id: merges
(volatility learned) and the naming at the end of a run are built on it, so no table can be
forgotten when ids change.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from ..directory.graph import StateGraph
from ..scope import origin
from ..state import Action, State
from ..store.tracked import TrackedCounter, TrackedDict, TrackedSet
from .equivalence import Equivalence
from .policy import Inference, Leaving
from .popups import Popups

# The tables that grow with the crawl and are saved by the keys that changed (see
# :class:`.resume.Saver`), by name.
TRACKED = (
    "loads", "links", "merged", "per_url", "link_failures", "departures", "coverage", "arrivals",
    "documents", "masks", "once",
)


class Memory:
    """Everything a crawl knows about the application so far.

    ``graph``: the state graph; ``states``: the states by id, ``index``: state key -> id;
    ``volatile``: names learned to change with no user action; ``fired``: (state, action
    key) pairs taken from the frontier; ``retried``: those tried again in a new browser;
    ``edge_actions``: the action of each (source, action key) edge (these two know what
    changed since the last checkpoint, as the tracked tables do); ``checking``: inferred
    targets a firing is to confirm; ``tries``: failed ways to a state since it was reached;
    ``own_loads``: per URL shape, loads of a state's own URL that showed it and that did not;
    ``saves``: per URL shape, whether the links of that shape saved a document each time
    (``False`` once one showed a page; neither is saved by a checkpoint);
    ``per_site``: states per origin; ``inference``, ``equivalence`` (pairs of actions seen to
    do one thing), ``popups`` (how many options each control's popup shows; these two are not
    saved by a checkpoint, a resumed crawl learns them again) and ``leaving``: what actions
    did; ``mutating``: the families of actions seen to change server-side state (see
    :mod:`.sessions`; learned again after a resume). The
    tracked tables (:data:`TRACKED`): ``loads`` (URL -> the state a load shows), ``links``
    (link URL -> its target), ``merged`` (merged state -> the one it is now), ``per_url``
    (states per URL), ``link_failures`` and ``departures`` (link URL -> where it left the
    scope), ``coverage`` (function id -> its JavaScript coverage record, see
    :mod:`.coverage`), ``arrivals`` (state id -> the data of the action that first led to
    it, see :meth:`arrival`), ``documents`` (link URL -> the files its load saved), ``masks``
    (volatile name -> its evidence, see :class:`.volatility.Volatility`) and ``once`` (the
    element of a ``click_once`` action -> the one state it is fired in, see
    :meth:`.scheduler.Scheduler.queue`).
    """

    def __init__(self, inference: Inference) -> None:
        self.graph = StateGraph()
        self.states: dict[str, State] = {}
        self.index: dict[str, str] = {}
        self.volatile: frozenset[str] = frozenset()
        self.fired: TrackedSet[tuple[str, str]] = TrackedSet()
        self.retried: set[tuple[str, str]] = set()
        self.edge_actions: TrackedDict[tuple[str, str], Action] = TrackedDict()
        self.checking: dict[tuple[str, str], str] = {}
        self.tries: Counter[str] = Counter()
        self.own_loads: dict[str, tuple[int, int]] = {}
        self.saves: dict[str, bool] = {}
        self.per_site: Counter[str] = Counter()
        self.inference = inference
        self.equivalence = Equivalence(inference.after)  # (as inference: off when it is)
        self.popups = Popups(inference.after is not None)
        self.leaving = Leaving()
        self.mutating: dict[tuple[str, str], str] = {}  # action family -> why it mutates
        self.loads: TrackedDict[str, str | None] = TrackedDict()
        self.links: TrackedDict[str, str] = TrackedDict()
        self.merged: TrackedDict[str, str] = TrackedDict()
        self.per_url: TrackedCounter[str] = TrackedCounter()
        self.link_failures: TrackedDict[str, str] = TrackedDict()
        self.departures: TrackedDict[str, list[str]] = TrackedDict()
        self.coverage: TrackedDict[str, dict[str, Any]] = TrackedDict()
        self.arrivals: TrackedDict[str, dict[str, Any]] = TrackedDict()
        self.documents: TrackedDict[str, list[dict[str, Any]]] = TrackedDict()
        self.masks: TrackedDict[str, dict[str, Any]] = TrackedDict()
        self.once: TrackedDict[str, str] = TrackedDict()
        # told of every change of ids (old -> new), for what holds ids outside the memory
        self.followers: list[Callable[[Mapping[str, str]], None]] = []

    def tracked(self) -> dict[str, TrackedDict[str, Any] | TrackedCounter[str]]:
        """The tracked tables (:data:`TRACKED`) by name."""
        return {name: getattr(self, name) for name in TRACKED}

    def add(self, state: State) -> None:
        """Remember a new state."""
        self.states[state.id] = state
        self.index[state.key] = state.id
        self.per_site[origin(state.url)] += 1

    def arrival(self, state_id: str) -> Action | None:
        """The action that first led to a state (``None``: a start state, or carried)."""
        data = self.arrivals.get(state_id)
        return None if data is None else Action.from_data(data)

    def mutates(self, action: Action) -> bool:
        """Whether ``action``'s family was seen to change server-side state."""
        return not action.is_link and Leaving.family(action) in self.mutating

    def resolve(self, state_id: str) -> str:
        """The id a state has now: states merge when volatility is learned."""
        return self.merged.get(state_id, state_id)

    def retarget(self, names: Mapping[str, str]) -> None:
        """Give states other ids (``old -> new``). A state whose new id is a known state's is
        merged into it (its edges and failures move over); any other is renamed. Every table
        that holds state ids follows, the old ids stay on the nodes as ``aliases``, and an old
        id resolves to its new one (:meth:`resolve`) in work still referring to it."""
        if not names:
            return
        # (a new id that is itself renamed is free: the names are given all at once)
        renamed = {
            old: new for old, new in names.items() if new not in self.states or new in names
        }
        for old, new in names.items():
            if old in renamed:
                continue
            gone = self.states.pop(old)
            self.per_site[origin(gone.url)] -= 1
            self.graph.merge(old, new)
            node = self.graph.node(new)
            node["aliases"] = sorted({*node.get("aliases", ()), old})
        self.graph.rename(renamed)
        moved = {new: self.states.pop(old) for old, new in renamed.items()}
        for new, state in moved.items():
            state.id = new
        self.states.update(moved)
        self.index = {key: names.get(sid, sid) for key, sid in self.index.items()}
        self._follow(names)
        for follower in self.followers:
            follower(names)

    def _follow(self, names: Mapping[str, str]) -> None:
        """Bring the tables that hold state ids up to date with ``names``."""
        def new(state_id: str) -> str:
            return names.get(state_id, state_id)

        for merged, into in self.merged.items():
            if into in names:
                self.merged[merged] = names[into]
        given = set(names.values())  # (an id a state is given now is no alias)
        for old, now in names.items():
            if old not in given:
                self.merged[old] = now
        self.fired = self.fired.mapped(lambda pair: (new(pair[0]), pair[1]))
        self.retried = {(new(s), k) for s, k in self.retried}
        self.edge_actions = self.edge_actions.rekeyed(lambda pair: (new(pair[0]), pair[1]))
        self.checking = {(new(s), k): new(t) for (s, k), t in self.checking.items()}
        tries: Counter[str] = Counter()
        for state_id, count in self.tries.items():
            tries[new(state_id)] += count
        self.tries = tries
        self.inference.retarget(names)
        arrived = {old: self.arrivals.pop(old) for old in sorted(names.keys() & self.arrivals)}
        for old, data in arrived.items():
            self.arrivals.setdefault(names[old], data)  # (a merge keeps the keeper's)
        for table in (self.loads, self.links, self.once):
            for name, sid in table.items():
                if sid is not None and sid in names:
                    table[name] = names[sid]
