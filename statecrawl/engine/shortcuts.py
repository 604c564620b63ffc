"""The shortcuts: transitions recorded without firing, and their checks. An action whose
effect inference (:class:`.policy.Inference`) or an equivalent control
(:class:`.equivalence.Equivalence`) tells is recorded as inferred, unless it is drawn to be
fired as a check; a firing that contradicts what was inferred retracts it, and what it
stood for is fired."""

from __future__ import annotations

import logging
import random
from collections import Counter
from typing import TYPE_CHECKING

from ..strategies import Work
from .policy import words

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from ..config import Config
    from ..state import Action, Snapshot
    from ..stats import Stats
    from .memory import Memory
    from .policy import Requests
    from .recorder import Recorder
    from .scheduler import Scheduler
    from .volatility import Volatility

WORDS_KEPT = 256  # states whose words inference keeps at hand (each read from its DOM file)

log = logging.getLogger(__name__)


class Shortcuts:
    """Decides which work needs no browser, and learns from what browsers did."""

    def __init__(
        self,
        *,
        config: Config,
        memory: Memory,
        scheduler: Scheduler,
        recorder: Recorder,
        volatility: Volatility,
        stats: Stats,
    ) -> None:
        self.config = config
        self.memory = memory
        self.scheduler = scheduler
        self.recorder = recorder
        self.volatility = volatility
        self.stats = stats
        self.sampler = random.Random(config.seed)  # which inferred transitions are checked
        self._words: dict[str, Counter[str]] = {}  # state -> its words (WORDS_KEPT at most)
        recorder.learners.append(self.learn)
        recorder.distrusters.append(self.distrust)
        memory.followers.append(self._forget)

    def infer(self, work: Work) -> bool:
        """Record without firing a script action whose effect is known, unless it is drawn
        to be fired as a check; whether it was."""
        action = work.action
        popups = self.memory.popups
        if popups.beyond(action) and self.sampler.random() >= self.config.explore.verify:
            popups.leave_out(work.state, action)
            return True  # its popup lacks that option: nothing to record, as when fired
        target = self.memory.inference.known(action, work.state, self.words)
        paired = target is None and not action.is_link
        if paired:
            target = self.memory.equivalence.known(action.key, work.state, self._fired_to)
        if target is None or target not in self.memory.states:
            return False
        if self.sampler.random() < self.config.explore.verify:
            self.memory.checking[(work.state, action.key)] = target
            return False  # fired: its outcome checks the inference
        if paired:
            self.memory.equivalence.infer(action.key, work.state)
        else:
            self.memory.inference.infer(action, work.state)
        self.recorder.connect(work.state, action, target, None, inferred=True)
        self.recorder.improve(target, work.depth + 1)
        self.stats.inferred += 1
        return True

    def learn(
        self,
        source: str,
        action: Action,
        target: str,
        snapshot: Snapshot,
        came_from: str | None,
        requests: Requests,
    ) -> None:
        """A script action fired from ``source`` to ``target``: evidence for inference and
        equivalence, and a check of what was inferred for it."""
        html = snapshot.html
        self.memory.inference.record(
            action, source, target, requests, came_from,
            lambda: (self.words(source), words(html)),
        )
        self._pair(source, action, target, requests)
        self._check(source, action, target)

    def _check(self, source: str, action: Action, target: str) -> None:
        """A fired action that inference had an answer for: it confirms it, or retracts the
        action (never inferred again; what was inferred for it is fired)."""
        expected = self.memory.checking.pop((source, action.key), None)
        if expected is None:
            return
        if self.memory.resolve(expected) == target:
            self.stats.verified += 1
            return
        log.info(
            "%s on %s led to %s, not %s as inferred: its inferred transitions are fired",
            action.event, action.name, target, expected,
        )
        self.distrust(action)

    def distrust(self, action: Action) -> None:
        """``action`` is never inferred again (it led elsewhere than inferred, or the guard
        kept its requests in somewhere): what was inferred for it is fired."""
        self._refire(action.key, self.memory.inference.retract(action), action)
        for key, paired in self.memory.equivalence.retract(action.key).items():
            self._refire(key, paired)

    def _refire(self, key: str, states: Iterable[str], known: Action | None = None) -> None:
        """The inferred transitions of action ``key`` (``known``, if given) in ``states``
        lost their evidence: they are removed, and the action is fired there."""
        for state_id in map(self.memory.resolve, states):
            state = self.memory.states.get(state_id)
            action = self.memory.edge_actions.pop((state_id, key), None) or known
            if state is None or action is None:
                continue
            self.stats.retracted += len(
                self.memory.graph.remove_transitions(state_id, key, inferred=True)
            )
            self.scheduler.requeue(
                Work(state_id, action, state.depth, self.memory.leaving(action), state.score)
            )

    def _fired_to(self, state: str, key: str) -> str | None:
        """Where action ``key`` led when it was fired (not inferred) in ``state``."""
        for _, target, k, inferred in self.memory.graph.graph.out_edges(
            state, keys=True, data="inferred"
        ):
            if k == key and not inferred:
                return target
        return None

    def _pair(self, source: str, action: Action, target: str, requests: Requests) -> None:
        """A script action fired: what it tells of equivalent actions (see
        :mod:`.equivalence`); those whose evidence broke are fired where they were inferred."""
        if self.memory.equivalence.after is None:
            return
        fired = {
            k: t
            for _, t, k, d in self.memory.graph.graph.out_edges(source, keys=True, data=True)
            if not d.get("inferred") and d.get("kind") != "link"
        }
        table = self.memory.inference.table

        def together(a: str, b: str) -> set[str]:
            if a not in table or b not in table:
                return set()
            return set(map(self.memory.resolve, table[a].sources & table[b].sources))

        lost = self.memory.equivalence.record(
            source, action.key, target, requests, fired, together, self._fired_to
        )
        for key, states in lost.items():
            self._refire(key, states)

    def words(self, state_id: str) -> Counter[str]:
        """The words of a state's DOM (:func:`.policy.words`), for inference."""
        found = self._words.get(state_id)
        if found is None:
            state = self.memory.states.get(self.memory.resolve(state_id))
            if state is None:  # (merged away: no inference leads there)
                return Counter()
            if len(self._words) >= WORDS_KEPT:
                self._words.pop(next(iter(self._words)))
            found = self._words[state_id] = words(self.volatility.full(state).html)
        return found

    def _forget(self, names: Mapping[str, str]) -> None:
        """States got other ids: their words are read again under the new ones."""
        for state_id in names.keys() & self._words.keys():
            del self._words[state_id]
