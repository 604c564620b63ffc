"""What an incremental crawl (``crawl --since OLD``) adds to the engine.

The engine asks a :class:`Recrawl` what to fire in each state it finds. A state at a place
the baseline knows (the same key, or reached by the same action from such a place) fires
what is new in it and what leads into a part of the app that changed
(:class:`statecrawl.incremental.baseline.Baseline`), and only a sample of the rest. The others are
carried over from the baseline once the frontier is empty, unless a sampled action showed a
change. At the end the states are classified against
the baseline and each state's change history is brought up to date.
"""

from __future__ import annotations

import heapq
import itertools
import json
import logging
import math
import random
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..directory import chain
from ..directory.crawl import Crawl, load
from ..directory.layout import CHANGES, atomic_write
from ..incremental.baseline import Baseline
from ..incremental.comparison import diff
from ..state import Action, State

if TYPE_CHECKING:
    from ..config import Config
    from ..directory.crawl import CrawlDirectory
    from ..state import Snapshot
    from .memory import Memory

log = logging.getLogger(__name__)


class Frontier(Protocol):
    """Where a recrawl puts the work it decides is due."""

    def push(self, state: State) -> None:
        """Put the state's actions not fired yet in the frontier."""

    def queue(self, state_id: str, action: Action, depth: int) -> None:
        """Put one (state, action) pair in the frontier."""


class Record(Protocol):
    """How a recrawl records what it carries over from the baseline."""

    def improve(self, state_id: str, depth: int) -> None:
        """A shorter way to a known state was found."""

    def connect(
        self, source: str, action: Action, target: str, snapshot: Snapshot | None,
        inferred: bool = False,
    ) -> None:
        """Record a transition (``inferred``: not fired)."""

    def carry_state(
        self, key: str, snapshot: Snapshot, source: State, action: Action
    ) -> str | None:
        """Add a state of the baseline without a visit; its id, or ``None`` past a limit."""


class Recrawl:
    """The incremental side of a crawl, against ``baseline``: it reads the crawl's
    ``memory``, puts work in the ``frontier`` and has ``record`` write what it carries."""

    def __init__(
        self,
        frontier: Frontier,
        record: Record,
        memory: Memory,
        config: Config,
        directory: CrawlDirectory,
        baseline: Baseline,
    ) -> None:
        self.frontier = frontier
        self.record = record
        self.memory = memory
        self.directory = directory
        self.max_depth = config.limits.max_depth
        self.baseline = baseline
        self.settings = config.incremental
        self.carried: dict[str, list[Action]] = {}  # state -> actions to carry over at the end
        self.history: dict[str, list[int]] = dict(baseline.history)  # state -> [seen, changed]
        self.places: dict[str, str] = {}  # changed state -> the baseline's state at its place
        self.claimed: set[str] = set()  # changed baseline states an action is fired into
        self.sampler = random.Random(self.settings.seed)
        if chain.reference(directory.path) is None:  # (a resumed recrawl has its reference)
            chain.refer(directory.path, baseline.path, directory.target)

    def unchanged(self, key: str) -> bool:
        """Whether the baseline has a state of this key."""
        return key in self.baseline.states

    def earlier_dom(self, key: str) -> Path | None:
        """The baseline's DOM file of the state of ``key``, if it has one."""
        if not self.unchanged(key):
            return None
        return chain.locate(self.baseline.path, self.directory.snapshot_path(key))

    def place(self, state: State, source: str | None, action: Action | None) -> str | None:
        """The baseline's state at the place of ``state``, found by ``action`` of ``source``
        (neither: by loading its URL): the same state when unchanged, else where the same
        action of the same place (or the same URL) led in the baseline (a results page that
        lists one more item), if anywhere."""
        baseline = self.baseline
        if state.id not in baseline.states and state.id not in self.places:
            if source is None:
                target = baseline.loads.get(state.url)
            else:
                before = self.old(source)
                target = baseline.targets.get((before, action.key)) if before and action else None
            if target is not None:
                self.places[state.id] = target
        return self.old(state.id)

    def old(self, state: str) -> str | None:
        """The baseline's state at the place of ``state`` (see :meth:`place`)."""
        return state if state in self.baseline.states else self.places.get(state)

    def push(self, state: State) -> None:
        """Put ``state``'s work in the frontier: all its actions at a place the baseline does
        not know (see :meth:`place`); else those that are new or lead into a part that
        changed, and a sample of the others to verify the place, ``verify_fraction`` of them
        in expectation (the rest is carried over at the end, see :meth:`verified`)."""
        frontier = self.frontier
        before = self.old(state.id)
        if before is None:
            frontier.push(state)
            return
        known, fire = self.carriable(before, state.actions)
        share = self.verify_fraction(state.id) * len(known)  # a count, in expectation
        count = math.floor(share) + (self.sampler.random() < share - math.floor(share))
        if before != state.id:
            # A place that changed may show its change in what follows (a single-page app's
            # tabs show the data it holds): one action at least checks that it does not.
            count = max(count, min(1, len(known)))
        sample = set(self.sampler.sample(range(len(known)), count))
        fire += [action for i, action in enumerate(known) if i in sample]
        carried = [action for i, action in enumerate(known) if i not in sample]
        if carried:  # (pushed again at a smaller depth: sampled anew)
            self.carried[state.id] = carried
        for action in fire:
            if (state.id, action.key) not in self.memory.fired:
                frontier.queue(state.id, action, state.depth)

    def carriable(self, state: str, actions: list[Action]) -> tuple[list[Action], list[Action]]:
        """``actions`` at the place of the baseline's ``state`` split: those that may be
        carried over (the baseline knows where they lead: to a state under which nothing
        changed, or into a changed part that another action is to see again first), and
        those to fire (new ones, and the first action found into each changed part: the
        "Back to results" of every detail need not all see the changed results page)."""
        targets, dirty = self.baseline.targets, self.baseline.dirty
        carriable: list[Action] = []
        fire: list[Action] = []
        for action in actions:
            target = targets.get((state, action.key))
            if target is not None and target in dirty and target not in self.claimed:
                self.claimed.add(target)
                target = None
            (fire if target is None else carriable).append(action)
        return carriable, fire

    def verify_fraction(self, state_id: str) -> float:
        """``incremental.verify``, scaled by the state's estimated change rate (states that
        never changed are verified less often): (changed + 1) / (seen + 2) over 1/2."""
        seen, changed = self.history.get(state_id, (0, 0))
        rate = (changed + 1) / (seen + 2)
        return min(1.0, self.settings.verify * rate * 2)

    def verified(self, source: str, action: Action, target: str) -> None:
        """``action`` of ``source`` led to ``target``: for a sampled action of an unchanged
        state, where it led before; if not, all the state's actions are fired after all."""
        if source not in self.carried:
            return
        place = self.old(source)
        before = None if place is None else self.baseline.targets.get((place, action.key))
        if before is None or before in self.baseline.dirty:
            return  # not a check: its target was to be seen again anyway
        if before != target:
            log.info("state %s changed below: its actions are all fired", source)
            memory = self.memory
            for carried in self.carried.pop(source):
                if (source, carried.key) not in memory.fired:
                    self.frontier.queue(source, carried, memory.states[source].depth)

    def carry(self) -> None:
        """Take over from the baseline what was not fired again: each carried action's
        transition, and its target state with what lies below it, as they were. Actions
        below that lead into a state that changed are put in the frontier instead. States are
        taken shallowest first, as a breadth-first crawl finds them: a state carried over
        at too great a depth would leave what lies below it unexplored."""
        frontier, record, baseline, memory = self.frontier, self.record, self.baseline, self.memory
        states = memory.states
        order = itertools.count()  # ties in depth: first carried, first taken
        queue = [
            (states[found].depth, next(order), s, actions)
            for s, actions in self.carried.items()
            if (found := memory.resolve(s)) in states
        ]
        heapq.heapify(queue)
        self.carried = {}
        max_depth = self.max_depth
        now = {old: new for new, old in self.places.items() if new in states}  # old -> new
        while queue:
            _, _, source_id, actions = heapq.heappop(queue)
            source = states.get(memory.resolve(source_id))
            if source is None:
                continue
            place = self.old(source_id)
            if place is None:
                continue  # no place of the baseline: none of its transitions to take over
            for action in actions:
                old = baseline.targets.get((place, action.key))
                if old is None:
                    continue
                # A changed part is where it is now, as the action fired into it found.
                target = memory.index.get(old) or (now.get(old) if old in baseline.dirty else None)
                if target is None and old in baseline.dirty:
                    # no state is at its place: this action sees for itself
                    if (source.id, action.key) not in memory.fired:
                        frontier.queue(source.id, action, source.depth)
                    continue
                if target is None:
                    target = record.carry_state(old, baseline.snapshot(old), source, action)
                    if target is None:
                        continue
                    if source.depth + 1 < max_depth:
                        carriable, fire = self.carriable(old, baseline.actions.get(old, []))
                        heapq.heappush(queue, (source.depth + 1, next(order), old, carriable))
                        for action_below in fire:  # what changed below is seen again
                            frontier.queue(target, action_below, source.depth + 1)
                else:
                    record.improve(target, source.depth + 1)
                record.connect(source.id, action, target, None, inferred=True)
                memory.graph.edge(source.id, target, action.key)["carried"] = True

    def compare(self) -> None:
        """Classify the states against the baseline (``changes.json``: unchanged, changed,
        new, deleted), count them in the graph and update each state's change history."""
        graph = self.memory.graph.graph
        now = Crawl(path=self.directory.path, graph=graph)
        changes = diff(load(self.baseline.path), now)
        for state in changes["unchanged"]:
            seen, changed = self.history.get(state, (1, 0))
            self.history[state] = [seen + 1, changed]
        for change in changes["changed"]:
            seen, changed = self.history.get(change["old"], (1, 0))
            self.history[change["id"]] = [seen + 1, changed + 1]
        for state in changes["new"]:
            self.history.setdefault(state["id"], [1, 0])
        atomic_write(self.directory.path / CHANGES, json.dumps(changes, indent=1))
        graph.graph["incremental"] = {
            "since": str(self.baseline.path),
            **{name: len(changes[name]) for name in ("unchanged", "changed", "new", "deleted")},
            "minor": sum(1 for c in changes["changed"] if c.get("minor")),
            "carried": sum(1 for _, c in graph.nodes(data="carried") if c),
            "resources_changed": len(self.baseline.changed),
        }

    def retarget(self, names: Mapping[str, str]) -> None:
        """States of this crawl got other ids (``old -> new``)."""
        self.carried = {names.get(s, s): actions for s, actions in self.carried.items()}
        self.places = {names.get(s, s): old for s, old in self.places.items()}

    def dump(self) -> dict[str, Mapping[str, Any]]:
        """What a checkpoint keeps: the history, and the actions to carry over by key."""
        return {
            "history": dict(self.history),
            "carried": {s: [a.key for a in actions] for s, actions in self.carried.items()},
            "places": dict(self.places),
        }

    def load(self, tables: Mapping[str, Mapping[str, Any]]) -> None:
        """Take back what :meth:`dump` kept."""
        self.history = {k: list(v) for k, v in tables.get("history", {}).items()}
        self.places = dict(tables.get("places", {}))
        states = self.memory.states
        for state, keys in tables.get("carried", {}).items():
            if state in states:
                wanted = set(keys)
                self.carried[state] = [a for a in states[state].actions if a.key in wanted]
