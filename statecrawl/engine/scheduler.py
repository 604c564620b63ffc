"""The scheduler: what comes next. Start URLs, then the frontier's work in the strategy's
order, site by site as politeness lets each host take a task, within the crawl's limits."""

from __future__ import annotations

import logging
import time
from collections import Counter, deque
from typing import TYPE_CHECKING

from ..browser.download import names_document
from ..scope import Scope, origin
from ..state import digest
from ..strategies import FairSites, Work, get_strategy
from .planning import near
from .politeness import Politeness, host_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..config import Config
    from ..harvest.queries import Harvest
    from ..state import Action, State
    from ..stats import Stats
    from .memory import Memory
    from .recrawl import Recrawl

END_SHARE = 0.1  # of limits.max_time kept for the end of the run: work in flight, the files
LARGE_FRONTIER = 2000  # actions waiting: the crawl says once what that will take

log = logging.getLogger(__name__)


def exploring_time(max_time: float) -> float:
    """How long a crawl of ``limits.max_time`` explores: the rest is the end of the run's
    (work in flight, labels, the graph, the records), so the whole run keeps to the limit."""
    return max_time * (1 - END_SHARE)


class Scheduler:
    """The crawl's frontier and the order it is served in. ``memory`` tells where work
    stands; an incremental crawl's ``recrawl`` (set once it exists) decides which of a new
    state's actions are due; ``harvest`` asks its queries once nothing else is left;
    ``stats`` counts the ``click_once`` actions left out."""

    def __init__(
        self, config: Config, scope: Scope, memory: Memory, harvest: Harvest | None, stats: Stats
    ) -> None:
        self.config = config
        self.scope = scope
        self.memory = memory
        self.harvest = harvest
        self.stats = stats
        self.recrawl: Recrawl | None = None
        self.seeds: deque[str] = deque(config.start_urls)  # start URLs to load
        self.seed_attempts: Counter[str] = Counter()
        self.politeness = Politeness(config.politeness)
        self.strategy = FairSites(
            lambda: get_strategy(config.strategy, seed=config.seed), self.site, self.home
        )
        self.estimated = False  # the estimate of a large frontier was printed

    # ---- what comes next ------------------------------------------------------------------
    def next_seed(self) -> str | None:
        """A start URL whose host may take a task now, taken from the seeds."""
        url = next((u for u in self.seeds if self.politeness.ready(host_of(u))), None)
        if url is not None:
            self.seeds.remove(url)
        return url

    def pop(self, current: str | None) -> Work | None:
        """The next work in the strategy's order among the sites whose host may take a task
        now; ``current``: the state the browser shows, whose neighbours go first when the
        crawl takes shortcuts."""
        nearby = (
            near(self.memory.graph.graph, self.memory.edge_actions, current)
            if self.config.explore.shortcuts
            else []
        )
        return self.strategy.pop(nearby, self.ready)

    @property
    def held(self) -> bool:
        """Whether work is left that waits for its host."""
        return bool(self.seeds or len(self.strategy))

    def limit_reached(self, started: float) -> str | None:
        """The limit the crawl started at ``started`` (monotonic) reached, if any."""
        limits = self.config.limits
        if limits.max_states is not None and all(
            self.memory.per_site[site] >= limits.max_states for site in self.scope.origins
        ):
            return "max-states"
        if (
            limits.max_time is not None
            and time.monotonic() - started >= exploring_time(limits.max_time)
        ):
            return "max-time"
        return None

    def grace(self, reason: str, grace: float) -> float:
        """How long work in flight may go on after a stop for ``reason``: ``grace``, or at the
        time limit at most half the end of the run's share, so that the run keeps to it (once
        it has a state: a start page still loading may give the crawl its first)."""
        limit = self.config.limits.max_time
        if reason != "max-time" or limit is None or not self.memory.states:
            return grace
        return min(grace, (limit - exploring_time(limit)) / 2)

    def next_query(self) -> bool:
        """Put the next harvesting query in the frontier, if there is one (asked once the
        crawl has nothing else to do, so that each query is chosen from all that the ones
        before brought, whatever the number of browsers)."""
        found = self.harvest.next() if self.harvest is not None else None
        if found is None or self.harvest is None:
            return False
        state_id, action = found
        state = self.memory.states.get(self.memory.resolve(state_id))
        if state is None:
            return True  # (merged away: the next query is asked for)
        log.info("harvest query %d: %s", len(self.harvest.order), action.action)
        self.queue(state.id, action, state.depth)
        return True

    def cost(self, source: str, action: Action) -> int:
        """The depth an action adds: one, or none for a step through a query's result pages."""
        return 1 if self.harvest is None else self.harvest.cost(source, action)

    # ---- sites and hosts --------------------------------------------------------------------
    def site(self, work: Work) -> str:
        """The site (an origin) whose frontier holds ``work`` and whose host it loads: its
        state's, or for an in-scope link the target's (a link to another start site is that
        site's work, not its source's)."""
        if work.action.is_link and work.action.action in self.scope:
            return origin(work.action.action)
        state = self.memory.states.get(self.memory.resolve(work.state))
        return origin(state.url) if state is not None else ""

    def home(self, state_id: str) -> str | None:
        """The site of a state (``None``: not a known state)."""
        state = self.memory.states.get(self.memory.resolve(state_id))
        return origin(state.url) if state is not None else None

    def ready(self, site: str) -> bool:
        """Whether politeness lets a task start on ``site``'s host now."""
        return self.politeness.ready(host_of(site))

    # ---- putting work in ------------------------------------------------------------------
    def give_work(self, state: State) -> None:
        """The work due to a state at its depth: its actions below the depth limit (as the
        recrawl decides, in an incremental crawl), its links to documents at it, nothing
        beyond."""
        push: Callable[[State], None] = (self.recrawl or self).push
        if state.depth < self.config.limits.max_depth:
            push(state)
        elif state.depth == self.config.limits.max_depth:
            self.push_documents(state)
        if not self.estimated and len(self) >= LARGE_FRONTIER:
            self.estimated = True
            self.estimate(state.depth)

    def estimate(self, depth: int) -> None:
        """Say once, at warning level, what a large frontier will take, and what bounds it:
        a first crawl of a search form to depth 3 can wait minutes on every select option."""
        rate = self.stats.rate
        took = f", about {len(self) / rate / 60:.0f} min at {rate:.1f} actions/s" if rate else ""
        limits = self.config.limits
        log.warning(
            "%d actions wait to be fired, from states up to depth %d of %d%s, and deeper "
            "states add theirs; inputs.max_options (now %d) bounds the choices tried in each "
            "field, --max-depth, --max-states and --max-time the rest",
            len(self), depth, limits.max_depth, took, self.config.inputs.max_options,
        )

    def push(self, state: State) -> None:
        """Put the state's actions not fired yet in the frontier."""
        for action in state.actions:
            if (state.id, action.key) in self.memory.fired:
                continue
            if self.harvest is None or not self.harvest.walks.beyond(state.id, action):
                self.queue(state.id, action, state.depth)

    def push_documents(self, state: State) -> None:
        """A state at the depth limit: put its links to documents in the frontier (a PDF, a
        CSV, a URL known to download), as a document is no state beyond the limit."""
        for action in state.actions:
            if not action.is_link or (state.id, action.key) in self.memory.fired:
                continue
            url = action.action
            if url in self.memory.documents or names_document(url, self.config.archive):
                self.queue(state.id, action, state.depth)

    def queue(self, state_id: str, action: Action, depth: int) -> None:
        """Put one pair in the frontier, telling the strategy whether its action is known to
        take the browser to another page (a link, or an action that led to another URL), and
        whether it is likely to undo the action that led to its state.

        A ``click_once`` action is the work of the first state it is queued for only: in any
        other it is left out, and counted as done there. This is a rule the user gave, not a
        shortcut: the exhaustive crawl keeps it too."""
        if action.once:
            element = digest(action.locator, action.event, action.action)
            first = self.memory.resolve(self.memory.once.setdefault(element, state_id))
            if first != state_id:
                self.memory.fired.add((state_id, action.key))
                self.stats.once_skipped += 1
                return
        score = self.memory.states[state_id].score
        arrival = self.memory.arrival(state_id)
        returns = arrival is not None and action.undoes(arrival)
        mutates = self.memory.mutates(action)
        self.strategy.push(
            Work(state_id, action, depth, self.memory.leaving(action), score, returns, mutates)
        )

    def requeue(self, work: Work) -> None:
        """Put ``work`` back in the frontier, not fired."""
        state = self.memory.states[self.memory.resolve(work.state)]
        self.memory.fired.discard((state.id, work.action.key))
        self.queue(state.id, work.action, state.depth)

    def retry(self, work: Work) -> bool:
        """Put ``work`` back once after its browser died or hung (the cause may lie
        elsewhere); whether it was (not: it was retried before)."""
        attempt = (work.state, work.action.key)
        if attempt in self.memory.retried:
            return False
        self.memory.retried.add(attempt)
        self.memory.fired.discard(attempt)
        self.strategy.push(work)
        return True

    def discard(self, state_id: str) -> None:
        """Drop the work left for a state (merged, unreachable, or found again nearer)."""
        self.strategy.discard(state_id)

    def close(self, site: str) -> None:
        """``site`` reached its state limit: its work is dropped, and it takes no more."""
        self.strategy.close(site)

    def __len__(self) -> int:
        return len(self.strategy)
