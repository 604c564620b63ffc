"""The recorder: the one writer of what a crawl knows. States, transitions, documents,
out-of-scope pages and failures go through it into the memory, the graph, the store, the
state files and the plugins' hooks, so that every record is made the same way."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..browser.download import document_id
from ..harvest import words
from ..plugins.hooks import StateEvent
from ..scope import origin
from ..state import Action, State, digest
from .policy import Leaving

if TYPE_CHECKING:
    from ..browser import BrowserLike
    from ..browser.network import Exchange
    from ..config import Config, Timing
    from ..directory.crawl import CrawlDirectory
    from ..harvest.queries import Harvest
    from ..models import StateModel
    from ..plugins.hooks import Hooks
    from ..state import Snapshot
    from ..stats import Stats
    from ..store import Store
    from ..strategies import Work
    from .memory import Memory
    from .policy import Danger, Requests
    from .recrawl import Recrawl
    from .scheduler import Scheduler
    from .sessions import Edge

# Ways to a state that fail before it counts as unreachable: from where the browser is and
# from a start URL, twice each (a replay may fail once for reasons that pass, such as a page
# slowed down by a loaded machine).
REACH_ATTEMPTS = 4
MAX_DRIFTS = 10  # drifts listed on a state's node (``drift``)

log = logging.getLogger(__name__)

# Told of every fired transition, before its edge is added: (source, action, target,
# snapshot, came_from, requests). Inference and equivalence learn from it.
Learner = Callable[[str, Action, str, "Snapshot", "str | None", "Requests"], None]


class Recorder:
    """Writes what the crawl found. ``score`` gives a new state's score for a scored
    strategy (``None``: the strategy orders by none); ``learners`` are told of every fired
    transition (see :data:`Learner`), ``distrusters`` of every script action the guard
    kept in (what shortcuts inferred for it must be fired: the guard may keep it in there)."""

    def __init__(
        self,
        *,
        config: Config,
        memory: Memory,
        scheduler: Scheduler,
        model: StateModel,
        stats: Stats,
        out: CrawlDirectory,
        store: Store,
        hooks: Hooks,
        danger: Danger,
        harvest: Harvest | None,
        score: Callable[[Snapshot], int] | None,
    ) -> None:
        self.config = config
        self.memory = memory
        self.scheduler = scheduler
        self.model = model
        self.stats = stats
        self.out = out
        self.store = store
        self.hooks = hooks
        self.danger = danger
        self.harvest = harvest
        self.score = score
        self.recrawl: Recrawl | None = None  # set once the engine has one
        self.learners: list[Learner] = []
        self.distrusters: list[Callable[[Action], None]] = []
        self.covered = 0  # functions the outcome being read ran first (a state's coverage score)
        self.started = time.monotonic()  # what a state's ``found_at`` counts from

    # ---- states -----------------------------------------------------------------------------
    def observe(
        self,
        snapshot: Snapshot,
        browser: BrowserLike | None,
        depth: int,
        exchanges: list[Exchange],
        parent: str | None = None,
        action: Action | None = None,
    ) -> str | None:
        """The state ``snapshot`` shows: a known one, or a new one if limits allow."""
        for css in snapshot.waits_missed:
            self.stats.waits_timed_out += 1
            log.warning("waited in vain for %s at %s: the state is taken as it is",
                        css, snapshot.url)
        key = self.model.key(snapshot, self.memory.volatile)
        state_id = self.memory.index.get(key)
        if state_id is not None:
            self.improve(state_id, depth)
        else:
            state_id = self._add_state(key, snapshot, browser, depth, parent, action)
        if exchanges:
            self.hooks.defer("on_exchanges", state_id, exchanges)
        return state_id

    def carry_state(
        self, key: str, snapshot: Snapshot, source: State, action: Action
    ) -> str | None:
        """A state of the baseline taken over without a visit (see :mod:`.recrawl`)."""
        depth = source.depth + 1
        return self._add_state(key, snapshot, None, depth, source.id, action, carried=True)

    def _add_state(
        self,
        key: str,
        snapshot: Snapshot,
        browser: BrowserLike | None,
        depth: int,
        parent: str | None,
        action: Action | None,
        carried: bool = False,
    ) -> str | None:
        """A new state; ``carried``: taken over from the baseline without being visited."""
        limits = self.config.limits
        site = origin(snapshot.url)
        if limits.max_states is not None and self.memory.per_site[site] >= limits.max_states:
            return None
        per_url = limits.max_states_per_url
        if per_url is not None and self.memory.per_url[snapshot.url] >= per_url:
            self.stats.capped += 1
            return None
        self.memory.per_url[snapshot.url] += 1
        if self.config.inputs.harvest is None:  # (a harvest types its own queries)
            snapshot.candidates += words.candidates(snapshot, self.config.seed)
        state = State(
            id=key,
            key=key,
            url=snapshot.url,
            title=snapshot.title,
            depth=depth,
            found_at=round(time.monotonic() - self.started, 3),
            # the DOM is on disk and the candidates in the store: memory stays flat
            snapshot=replace(
                snapshot, html="", frames=None, screenshot=None, thumbnail=None, candidates=[]
            ),
            actions=self.actions_of(snapshot),
        )
        if self.score is not None:
            state.score = self.score(snapshot)
        self.memory.add(state)
        if self.memory.per_site[site] == limits.max_states:  # the site is done
            self.scheduler.close(site)
        self.store.add_snapshot(state.id, snapshot.meta())
        self.stats.states = len(self.memory.states)
        self.stats.ruled_out += snapshot.ruled_out
        self.stats.max_depth = max(self.stats.max_depth, depth)
        log.debug("state %s at depth %d: %s", state.id, depth, snapshot.url)
        warn_unsettled(state, snapshot, self.config.timing)
        self._write_state(state, snapshot, carried)
        for candidate in snapshot.candidates:
            if candidate.get("guarded"):
                self.guarded(state.id, Action.from_candidate(candidate), [candidate["guarded"]])
        self.hooks.defer("on_state", StateEvent(state, snapshot, browser, parent, action))
        if not carried:
            self._explore(state, snapshot, parent, action)
        return state.id

    def _write_state(self, state: State, snapshot: Snapshot, carried: bool) -> None:
        """A new state's node and DOM file (the DOM as a hard link to the baseline's when an
        incremental crawl found it unchanged)."""
        earlier = self.recrawl.earlier_dom(state.key) if self.recrawl is not None else None
        self.memory.graph.add_state(
            state.id,
            url=state.url,
            title=state.title,
            depth=state.depth,
            snapshot=self.out.write_state(state.id, snapshot.html, earlier),
            screenshot=None,
            found_at=state.found_at,
            status=snapshot.status,
            settle_timed_out=snapshot.timed_out,
        )
        node = self.memory.graph.node(state.id)
        if snapshot.truncated:
            node["truncated"] = True
        if earlier is not None:
            node["unchanged"] = True
        if carried:
            node["carried"] = True

    def _explore(
        self, state: State, snapshot: Snapshot, parent: str | None, action: Action | None
    ) -> None:
        """Give a new state its work, unless the harvest keeps it for its records only or
        a dangerous action led to it."""
        explore = self.harvest is None or self.harvest.saw(
            state.id, snapshot.url, snapshot.html, state.actions, parent, action
        )
        if self.harvest is not None:
            self.stats.records = len(self.harvest.corpus.records)
        if action is not None and self.danger(action):
            # What follows a logout or a delete runs without the session or the data the rest
            # of the crawl has: the state is kept, but not explored further.
            state.final = True
            self.memory.graph.node(state.id)["after_dangerous"] = True
        elif explore:
            if self.recrawl is not None and state.depth < self.config.limits.max_depth:
                self.recrawl.place(state, parent, action)
            if action is not None:
                self.memory.arrivals[state.id] = action.to_data()
            self.scheduler.give_work(state)

    def actions_of(self, snapshot: Snapshot) -> list[Action]:
        """The actions worth firing in a state, dangerous ones last or left out, and none
        the guard keeps (links whose URL deletes, resets…)."""
        return self.danger.order([a for a in snapshot.actions() if a.guarded is None])

    def guarded(self, state_id: str, action: Action, whys: list[str]) -> None:
        """The guard kept ``action`` of a state from doing what ``whys`` say (a link not
        followed, requests kept in): listed on the state's node, counted once per state."""
        node = self.memory.graph.node(state_id)
        kept = node.setdefault("guarded", [])
        if any(entry["name"] == action.name for entry in kept):
            return
        why = "; ".join(dict.fromkeys(whys))
        kept.append({"name": action.name, "label": action.label, "why": why})
        self.stats.guarded += 1
        log.info("state %s: the guard kept %r: %s", state_id, action.label, why)
        if not action.is_link:
            for distrust in self.distrusters:
                distrust(action)

    def improve(self, state_id: str, depth: int) -> None:
        """A shorter way to a known state: give it the smaller depth and its due work, and
        the states its known transitions lead to theirs (one found at the depth limit
        through a long way gets the work it was denied)."""
        todo = [(state_id, depth)]
        while todo:
            state_id, depth = todo.pop()
            state = self.memory.states[state_id]
            if depth >= state.depth:
                continue
            state.depth = depth
            self.memory.graph.node(state_id)["depth"] = depth
            self.scheduler.discard(state_id)
            if not (state.unreachable or state.final):
                self.scheduler.give_work(state)
            todo += [(t, depth + 1) for _, t in self.memory.graph.graph.out_edges(state_id)
                     if t in self.memory.states]

    def merge(self, old: str, keeper: str) -> None:
        """State ``old`` is ``keeper`` under the volatility learned since it was found."""
        depth = self.memory.states[old].depth
        self.scheduler.discard(old)
        self.memory.retarget({old: keeper})
        (self.out.path / self.out.snapshot_path(old)).unlink(missing_ok=True)
        self.improve(keeper, depth)
        self.stats.states = len(self.memory.states)

    # ---- transitions ------------------------------------------------------------------------
    def connect(
        self,
        source: str,
        action: Action,
        target: str,
        snapshot: Snapshot | None,
        inferred: bool = False,
        came_from: str | None = None,
        requests: Requests = (),
        repeats: str | None = None,
        mutates: str | None = None,
    ) -> None:
        """Record the transition ``source -> target`` by ``action`` (``inferred``: not fired;
        ``came_from``: the state before ``source``; ``requests``: what it asked for;
        ``repeats``: the fragment a repetition adds once more, see :meth:`repeated`;
        ``mutates``: why its firing changed server-side state, when its requests say so)."""
        self.memory.edge_actions[(source, action.key)] = action
        if not inferred:
            states = self.memory.states
            self.memory.leaving.record(action, states[source].url, states[target].url)
            if snapshot is not None and not action.is_link:
                for learn in self.learners:
                    learn(source, action, target, snapshot, came_from, requests)
            if self.recrawl is not None:
                self.recrawl.verified(source, action, target)
        attrs: dict[str, Any] = {
            "name": action.name,
            "status": action.status,
            "event": action.event,
            "action": action.action,
            "kind": action.kind,
        }
        if action.hover:
            attrs["hover"] = action.hover
        if mutates is not None:  # (what this firing did: its family's may differ)
            attrs["mutates"] = True
            attrs["mutates_why"] = mutates
            self.stats.mutating += 1
        if inferred:
            attrs["inferred"] = True
        if repeats is not None:
            attrs["repeats"] = repeats
        if snapshot is not None:
            attrs["settle_ms"] = snapshot.settle_ms
            if snapshot.timed_out:
                attrs["settle_timed_out"] = True
            if snapshot.dialogs:
                attrs["dialogs"] = snapshot.dialogs
            if snapshot.popups:
                attrs["popups"] = snapshot.popups
            if snapshot.navigated:
                attrs["navigated"] = snapshot.navigated
            if snapshot.blocked:
                attrs["blocked"] = snapshot.blocked
                self.stats.out_of_scope += len(snapshot.blocked)
        self.memory.graph.add_transition(source, target, action.key, **attrs)
        if not inferred:
            self.stats.transitions += 1
        self.hooks.defer("on_transition", source, action, target, snapshot)

    def repeated(self, source: str, action: Action, fragment: str) -> None:
        """``action`` in ``source`` adds one more copy of a ``fragment`` the state holds
        ``limits.repetitions`` times already (:mod:`statecrawl.models.growth`): recorded once,
        as a self-loop noting it; the state it led to is not created."""
        log.info("state %s: %s adds %s once more: a repetition, not followed",
                 source, action.name, fragment)  # fmt: skip
        self.stats.repetitions += 1
        self.connect(source, action, source, None, repeats=fragment)

    def drifted(self, expected: str, url: str, found: str | None, cause: Edge | None) -> None:
        """Loading ``url``, known to show state ``expected``, showed ``found`` (``None``: a
        state not kept): noted (``drift``) on the transition ``cause`` that led there in the
        browser's session (its action was learned to mutate), else on the expected state's
        node."""
        what = f"loading {url} showed {found or 'a state not kept'} instead of {expected}"
        log.info("%s: re-anchored there, the next reset in a fresh session", what)
        graph = self.memory.graph
        if cause is not None and graph.graph.has_edge(*cause):
            attrs = graph.edge(*cause)
            attrs["drift"] = what
            action = self.memory.edge_actions[(cause[0], cause[2])]
            if not attrs.get("mutates") and self.memory.mutates(action):
                attrs.update(mutates=True, mutates_why=self.memory.mutating[Leaving.family(action)])
                self.stats.mutating += 1
            return
        drift = graph.node(expected).setdefault("drift", [])
        if what not in drift and len(drift) < MAX_DRIFTS:
            drift.append(what)

    def documents(
        self, source: str, action: Action, documents: list[dict[str, Any]], inferred: bool = False
    ) -> None:
        """The files ``action`` saved in state ``source``: a document node each, reached by a
        ``download`` edge (``inferred``: the link was not loaded again); never states."""
        for document in documents:
            node = document_id(document["url"], document["digest"])
            self.memory.graph.add_document(
                node, **{name: value for name, value in document.items() if value is not None}
            )
            self.memory.graph.add_transition(
                source, node, action.key, name=action.name, status=action.status,
                event=action.event, action=action.action, kind=action.kind, download=True,
                **({"inferred": True} if inferred else {}),
            )
            self.stats.documents += not inferred
            self.stats.downloads += 1

    def external(self, source: str, action: Action, url: str) -> None:
        """An out-of-scope page ``action`` leads to from ``source``: a node, never loaded."""
        node = "x" + digest("external", url)[1:]
        self.memory.graph.add_external(url, node)
        self.memory.graph.add_transition(
            source, node, action.key, name=action.name, status=action.status,
            event=action.event, action=action.action, kind=action.kind, out_of_scope=True,
        )
        self.stats.out_of_scope += 1

    # ---- failures ---------------------------------------------------------------------------
    def retry_or_fail(self, work: Work, reason: str) -> None:
        """The browser died or hung during ``work``: try it once more in a new browser (the
        cause may lie elsewhere), and record it as a failure the second time."""
        if not self.scheduler.retry(work):
            self.failure(work, reason)

    def failure(self, work: Work, reason: str, outage: bool = False) -> None:
        """Record that ``work`` failed (``outage``: a server failed it, and a ``--resume``
        does it again)."""
        state = self.memory.resolve(work.state)  # the state may have merged into another meanwhile
        log.info("failed in state %s: %s: %s", state, work.action.name, reason)
        self.stats.failures += 1
        if state not in self.memory.states:
            return
        node = self.memory.graph.node(state)
        failure: dict[str, str | bool] = {
            "key": work.action.key, "name": work.action.name, "event": work.action.event,
            "action": work.action.action, "error": reason,
        }
        if outage:
            failure["outage"] = True
        node.setdefault("failures", []).append(failure)

    def start_failed(self, url: str, error: str, **flags: bool) -> None:
        """A start URL that gave no state: a failure of the crawl, in the graph's own."""
        self.stats.failures += 1
        self.memory.graph.graph.graph.setdefault("failures", []).append(
            {"url": url, "error": error, **flags}
        )

    def failed_starts(self) -> dict[str, str]:
        """The start URLs that gave no state, each with one line that names it and why."""
        failures = self.memory.graph.graph.graph.get("failures", [])
        return {
            url: error if url in error else f"start URL {url}: {error}"
            for url, error in ((f["url"], f["error"]) for f in failures)
        }

    def missed(self, work: Work, why: str) -> None:
        """No way to ``work``'s state worked this time: try again later, or at the
        ``REACH_ATTEMPTS``-th failure, mark the state unreachable."""
        state = self.memory.states[self.memory.resolve(work.state)]
        self.memory.tries[state.id] += 1
        if self.memory.tries[state.id] < REACH_ATTEMPTS:
            log.info("state %s not reached (%s): trying again later", state.id, why)
            self.scheduler.requeue(work)
            return
        log.warning("state %s is unreachable: %s", state.id, why)
        state.unreachable = True
        self.stats.unreachable += 1
        self.scheduler.discard(state.id)
        node = self.memory.graph.node(state.id)
        node["unreachable"] = True
        node["unreachable_reason"] = why

    def forget_outages(self) -> None:
        """A resumed crawl does again the work servers failed: those failures are forgotten
        (the work was left unfired)."""
        for state_id in self.memory.states:
            failures = self.memory.graph.graph.nodes[state_id].get("failures", [])
            kept = [f for f in failures if not f.get("outage")]
            if len(kept) < len(failures):
                self.stats.failures -= len(failures) - len(kept)
                self.memory.graph.node(state_id)["failures"] = kept


def warn_unsettled(state: State, snapshot: Snapshot, timing: Timing) -> None:
    """Warn when new ``state`` was taken before its page settled: it may differ at each visit."""
    if not snapshot.timed_out:
        return
    log.warning(
        "state %s (%s) was taken before its page settled: it may be another at each visit "
        "(timing.settle_timeout_ms %d, growth_timeout_ms %d)",
        state.id, state.url, timing.settle_timeout_ms, timing.growth_timeout_ms,
    )
