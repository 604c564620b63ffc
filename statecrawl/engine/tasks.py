"""The task maker: how a browser does a piece of work. Firing an action needs the browser
in the action's state (where it is, through the state's own URL, or by the cheapest known
way, :mod:`.planning`); a link is loaded once per URL. Each browser's assignment (its task,
the work and the way) is kept here until its outcome is read."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..executor import Task
from .planning import Plan, cost, near, plan, shape
from .politeness import host_of

if TYPE_CHECKING:
    from collections import Counter
    from collections.abc import Callable

    from ..config import Config
    from ..executor import Slot
    from ..scope import Scope
    from ..state import State
    from ..strategies import Work
    from .memory import Memory
    from .policy import Danger
    from .recorder import Recorder
    from .scheduler import Scheduler
    from .sessions import Sessions

OWN_LOAD_FAILURES = 2  # loads of own URLs that must fail before URLs of that kind are not tried


@dataclass(frozen=True, slots=True)
class Position:
    """Where a browser stands: the state it shows (``None``: unknown), and the state before
    it when an action led from there."""

    state: str | None = None
    came_from: str | None = None


@dataclass(frozen=True, slots=True)
class Assignment:
    """A browser's task, the work it does (``None`` for a start URL), the way to the work's
    state when it needs one, and the host it works on (politeness counts by it)."""

    task: Task
    work: Work | None
    way: Plan | None
    host: str


class TaskMaker:
    """Makes the tasks that do the frontier's work. ``pictures``: a task takes the
    pictures of the state it reaches (a remote browser's hooks cannot); ``sessions`` says
    which browsers start their next reset in a fresh session; ``words`` gives a state's
    words, for inference (see :meth:`_way_out`)."""

    def __init__(
        self,
        *,
        config: Config,
        scope: Scope,
        memory: Memory,
        scheduler: Scheduler,
        recorder: Recorder,
        danger: Danger,
        sessions: Sessions,
        pictures: bool,
        words: Callable[[str], Counter[str]],
    ) -> None:
        self.config = config
        self.scope = scope
        self.memory = memory
        self.scheduler = scheduler
        self.recorder = recorder
        self.danger = danger
        self.sessions = sessions
        self.pictures = pictures
        self.words = words
        self.assignments: dict[Slot, Assignment] = {}

    def seed(self, slot: Slot, url: str) -> Task:
        """Load start URL ``url`` twice (its state, and what changes with no action)."""
        return self._assign(slot, None, Task("seed", url=url), None)

    def make(self, slot: Slot, work: Work, state: State, position: Position) -> Task | None:
        """The task that does ``work`` in ``state`` with ``slot``'s browser at ``position``,
        or ``None`` when it was done without a browser."""
        volatile = tuple(sorted(self.memory.volatile))
        if work.action.is_link:
            return self._link_task(slot, work, state, volatile, position)
        if position.state == state.id and self.config.explore.shortcuts:
            task = Task("fire", action=work.action, volatile=volatile)
            return self._assign(slot, work, task, None)
        way = self._way(position, state)
        if way is None:
            self.recorder.missed(work, "no known path to it")
            return None
        task = Task(
            "fire",
            url=way.url,
            start=self.memory.states[way.start].key,
            steps=tuple((action, self.memory.states[target].key) for action, target in way.steps),
            action=work.action,
            volatile=volatile,
        )
        return self._assign(slot, work, task, way)

    def release(self, slot: Slot) -> Assignment | None:
        """``slot``'s assignment, now done: its host is free again."""
        assignment = self.assignments.pop(slot, None)
        if assignment is not None:
            self.scheduler.politeness.end(assignment.host)
        slot.busy = False
        return assignment

    def in_flight(self) -> list[tuple[str, str]]:
        """The (state, action key) pairs browsers are doing now: not fired yet."""
        return [
            (a.work.state, a.work.action.key) for a in self.assignments.values() if a.work
        ]

    def _assign(self, slot: Slot, work: Work | None, task: Task, way: Plan | None) -> Task:
        if self.pictures:
            task = replace(task, screenshot=True)
        if work is not None and work.action.key in self.danger.learned:
            task = replace(task, ends_session=True)
        if task.url is not None and self.sessions.fresh(slot):
            task = replace(task, fresh_session=True, keep=False)
        if work is None:
            assert task.url is not None
            host = host_of(task.url)
        else:
            host = host_of(self.scheduler.site(work))
        slot.busy = True
        self.assignments[slot] = Assignment(task, work, way, host)
        self.scheduler.politeness.start(host)
        return task

    def _way(self, position: Position, state: State) -> Plan | None:
        """How a browser at ``position`` gets to ``state``: by loading its own URL once, to
        learn whether that shows it; then by the cheapest known way from where the browser
        is or, every other time, from a start URL (in case the browser's state is not what
        the engine believes). The exhaustive crawl always loads a start URL and replays the
        cheapest way from it."""
        shortcuts = self.config.explore.shortcuts
        if (
            shortcuts
            and state.url not in self.memory.loads
            and state.url in self.scope
            and self._worth_loading(state)
        ):
            return Plan(state.url, state.id, ())
        # A state that several URLs load is started from its own URL: another one may load
        # a page that looks the same but is not (an empty list under a filter in its hash).
        starts: dict[str, str] = {}
        for url, sid in self.memory.loads.items():
            if sid is not None and (sid not in starts or url == self.memory.states[sid].url):
                starts[sid] = url
        roots_only = not shortcuts or self.memory.tries[state.id] % 2 == 1
        if roots_only:
            roots = {self.memory.loads.get(u) for u in self.config.start_urls}
            starts = {sid: url for sid, url in starts.items() if sid in roots}
        current = None if roots_only else position.state
        graph, actions = self.memory.graph.graph, self.memory.edge_actions
        way = plan(graph, actions, state.id, current=current, starts=starts)
        if current is None or (way is not None and way.url is None):
            return way
        out = self._way_out(current, state)
        return out if out is not None and (way is None or cost(out) < cost(way)) else way

    def _way_out(self, current: str, state: State) -> Plan | None:
        """A way to ``state`` from ``current`` that starts with an action never fired there
        but known by inference to lead to a state near ``state`` (a "New search" or
        the logo, in a state at the depth limit, where nothing was fired), or ``None``. It
        records nothing: the step is checked as every step of a way is, and the way
        diverges, to be tried again from a start URL, when it leads elsewhere."""
        here = self.memory.states.get(current)
        if here is None:
            return None
        graph, actions = self.memory.graph.graph, self.memory.edge_actions
        best: Plan | None = None
        for action in here.actions:
            if action.is_link or self.memory.mutates(action) or self.danger(action):
                continue
            target = self.memory.inference.known(action, current, self.words)
            if target is None or target == current or target not in self.memory.states:
                continue
            if state.id not in near(graph, actions, target):
                continue
            rest = plan(graph, actions, state.id, current=target, starts={})
            if rest is None:
                continue
            way = Plan(None, current, ((action, target), *rest.steps))
            if best is None or cost(way) < cost(best):
                best = way
        return best

    def _worth_loading(self, state: State) -> bool:
        """Whether loading a state's own URL may show it: not once the URLs of its kind
        (:func:`.planning.shape`) failed twice and never showed their state (a detail page
        that, loaded directly, lacks what the way there put in it)."""
        hits, misses = self.memory.own_loads.get(shape(state.url), (0, 0))
        return hits > 0 or misses < OWN_LOAD_FAILURES

    def _link_task(
        self, slot: Slot, work: Work, source: State, volatile: tuple[str, ...], position: Position
    ) -> Task | None:
        """A link: its target depends on its URL only, so each URL is loaded once (in every
        state by the exhaustive crawl), and a URL that failed to load, or whose page left the
        scope by itself as it loaded (a form submitted or a refresh to another host), is not
        loaded again. A URL of a shape whose links all saved documents is loaded where the
        browser stands, which it then still shows: the next work goes on from there, with
        no reset (see :meth:`.outcomes.OutcomeReader.read`)."""
        action = work.action
        url = action.action
        record = self.recorder
        if url not in self.scope:
            record.external(source.id, action, url)
            return None
        if url in self.memory.departures:
            for target_url in self.memory.departures[url]:
                record.external(source.id, action, target_url)
            return None
        if url in self.memory.link_failures:
            record.failure(work, self.memory.link_failures[url])
            return None
        shortcuts = self.config.explore.shortcuts
        if shortcuts and url in self.memory.documents:
            record.documents(source.id, action, self.memory.documents[url], inferred=True)
            return None
        known = self.memory.links.get(url) or self.memory.loads.get(url)
        if source.depth >= self.config.limits.max_depth and known is not None:
            return None  # a link at the limit, for a document, to a page: no state
        if shortcuts and known is not None and known in self.memory.states:
            record.connect(source.id, action, known, None, inferred=True)
            record.improve(known, source.depth + 1)
            return None
        keep = shortcuts and position.state is not None and self.memory.saves.get(shape(url), False)
        return self._assign(slot, work, Task("load", url=url, volatile=volatile, keep=keep), None)
