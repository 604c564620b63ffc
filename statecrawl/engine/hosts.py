"""How hosts answered a task: a host that asked to slow down (a 429 or 503) or failed the
crawl's own requests (:mod:`statecrawl.outage`) has its work done again once it has rested, a
bounded number of times, then recorded as a failure."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from ..outage import Outages, asked, served, unreached
from ..scope import origin
from .politeness import throttled

if TYPE_CHECKING:
    from ..config import Config
    from ..executor import Outcome, Task
    from ..scope import Scope
    from ..stats import Stats
    from ..strategies import Work
    from .memory import Memory
    from .recorder import Recorder
    from .scheduler import Scheduler
    from .tasks import Assignment

log = logging.getLogger(__name__)


class HostAnswers:
    """Reads how a task's hosts answered, before what the task did is read (see
    :class:`.outcomes.OutcomeReader`); ``outages``: the periods the servers failed."""

    def __init__(
        self,
        *,
        config: Config,
        scope: Scope,
        memory: Memory,
        scheduler: Scheduler,
        recorder: Recorder,
        stats: Stats,
    ) -> None:
        self.config = config
        self.scope = scope
        self.memory = memory
        self.scheduler = scheduler
        self.recorder = recorder
        self.stats = stats
        self.outages = Outages()

    def answered(self, assignment: Assignment, outcome: Outcome) -> bool:
        """Tell politeness how the assignment's host answered; whether the outcome is
        dropped. When the host asked to slow down (a 429 or 503), the work is done again once
        the host has rested, ``politeness.retries`` times at most (then what it got is
        kept). When one of the crawl's own requests failed (:mod:`.outage`), the browser
        shows the page's view of the failure, never a state: the work is done again once the
        host has rested, ``politeness.outage_retries`` times at most, then recorded as a
        failure. The browser's page is unknown after either."""
        politeness = self.scheduler.politeness
        task, work, host = assignment.task, assignment.work, assignment.host
        waits = throttled(outcome, host, time.time())
        failed = self._failed(task, work, outcome)
        pause = politeness.answered(host, [*waits, None] if failed else waits)
        attempt = task.url if work is None else (work.state, work.action.key)
        if failed:
            if politeness.retry(attempt, self.config.politeness.outage_retries):
                log.info("%s: its work is done again in %.1f s", failed[0], pause)
                self._again(task, work)
            else:
                self._unserved(task, work, failed[0])
            return True
        if not waits or not politeness.retry(attempt):
            return False
        log.info("%s asked to slow down: its work is done again in %.1f s", host, pause)
        self._again(task, work)
        return True

    def _failed(self, task: Task, work: Work | None, outcome: Outcome) -> list[str]:
        """The crawl's own requests that failed in ``outcome`` (:meth:`Outages.failed`), and
        a load that could not reach a server that answered before; when none did, the
        servers that answered are up again."""
        now = time.time()
        # A request that could not be answered, made before the task began, is an earlier
        # task's, logged late (the POST of a form whose navigation the server dropped): that
        # task saw its failure. Were the server down, this task's own requests would fail too.
        exchanges = [e for e in [*outcome.way, *outcome.exchanges]
                     if not (unreached(e.failed) and e.started < outcome.started)]
        failure = outcome.failure
        where = None  # the server of a load or navigation that could not reach it
        dropped = False  # ... which drops that navigation each time
        if failure is not None and unreached(failure.message):
            if work is None:
                assert task.url is not None
                where, identity, what = origin(task.url), task.url, task.url
            else:
                where = origin(self.scheduler.site(work))
                identity, what = work.action.key, f"{work.action.name} ({failure.message})"
            # The navigation's own request, when the task's log holds it, is what failed: known
            # by its method and URL, the same from any state's form (see Outages.failed).
            navigation = next((e for e in reversed(exchanges) if unreached(e.failed)
                               and e.resource_type == "Document"), None)
            if navigation is not None:
                exchanges = [e for e in exchanges if e is not navigation]
                identity = asked(navigation)
            dropped = self.outages.dropped_by_server(identity, where, what, now, exchanges)
            if dropped:  # its request's failure (with a form token of its own) is no outage
                exchanges = [e for e in exchanges if not unreached(e.failed)]
        failed = self.outages.failed(exchanges, self.scope.__contains__, now)
        if failure is not None and where in self.outages.answering and not dropped:
            self.outages.fail(where, now)
            failed.append(failure.message)
        if failed:
            self.stats.outages = len(self.outages.seen())
        else:
            snapshots = [*outcome.loads, *outcome.steps, *filter(None, [outcome.fired])]
            answered = [e.url for e in exchanges if served(e)]
            answered += [s.url for s in snapshots if s.status is not None and 0 < s.status < 500]
            for period in self.outages.answered(answered):
                log.warning("%s; the work it failed is done again", period.describe())
        return failed

    def _again(self, task: Task, work: Work | None) -> None:
        """Do a task again later."""
        if work is None:
            assert task.url is not None
            self.scheduler.seeds.append(task.url)
        else:
            self.scheduler.requeue(work)

    def _unserved(self, task: Task, work: Work | None, why: str) -> None:
        """Work a server failed as often as it may: a failure, not fired, so that a
        ``--resume`` does it again."""
        reason = f"the server failed: {why}"
        if work is None:
            assert task.url is not None
            log.warning("start page %s: %s", task.url, reason)
            self.recorder.start_failed(task.url, reason, outage=True)
            return
        self.recorder.failure(work, reason, outage=True)
        self.memory.fired.discard((self.memory.resolve(work.state), work.action.key))
