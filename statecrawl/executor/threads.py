"""The threads executor: one browser per thread in this process, as many as
``browser.count``."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..ledger import Ledger, phase, task_done
from ..models import get_model
from .work import Outcome, Slot, TaskSource, perform

if TYPE_CHECKING:
    from ..browser import BrowserLike
    from ..browser.network import Exchange
    from ..config import Config

log = logging.getLogger(__name__)


class Threads:
    """Runs tasks in ``config.browser.count`` browsers, a thread each. A browser that hangs
    or dies during a task is restarted before its next one."""

    remote = False

    def __init__(
        self, config: Config, browser_factory: Callable[[Config, bool], BrowserLike], network: bool
    ) -> None:
        self.config = config
        self.model = get_model(config.model)
        self.ledger = Ledger()
        self.slots = [
            Slot(f"b{i}", browser_factory(config, network)) for i in range(config.browser.count)
        ]

    def run(self, engine: TaskSource) -> None:
        errors: list[BaseException] = []
        first, *others = self.slots
        with self.ledger.joined():
            self._main(engine, first, others, errors)
        if errors:
            raise errors[0]

    def _main(
        self, engine: TaskSource, first: Slot, others: list[Slot], errors: list[BaseException]
    ) -> None:
        """The calling thread's part: start the other threads, work in the first slot."""
        self._start(engine, first)
        threads = [
            threading.Thread(target=self._thread, args=(engine, slot, errors), daemon=True)
            for slot in others
        ]
        for thread in threads:
            thread.start()
        try:
            self._work(engine, first)
        except BaseException:
            engine.halt()
            raise
        finally:
            with phase("idle"):  # no more work for this browser
                for thread in threads:
                    thread.join()

    def _thread(self, engine: TaskSource, slot: Slot, errors: list[BaseException]) -> None:
        """A thread's body: its error stops the crawl and is raised by :meth:`run`."""
        try:
            with self.ledger.joined():
                self._start(engine, slot)
                self._work(engine, slot)
        except BaseException as exc:
            errors.append(exc)
            engine.halt()

    def _start(self, engine: TaskSource, slot: Slot) -> None:
        assert slot.browser is not None
        if not engine.stop_requested:
            with phase("start"):
                slot.browser.start()  # (each task sets the volatile names it is keyed with)

    def _work(self, engine: TaskSource, slot: Slot) -> None:
        """Take tasks and do them until there is none left or the crawl stops."""
        browser = slot.browser
        assert browser is not None
        if browser.driver is None:  # never started: the crawl stopped first
            return
        while (task := engine.next_task(slot)) is not None:
            browser.volatile = list(task.volatile)
            outcome: Outcome | None = None
            try:
                outcome = perform(browser, task, self.model)
            finally:
                engine.apply(slot, outcome)
                task_done()
            failure = outcome.failure
            if failure is not None and failure.kind in ("timeout", "crash") and not engine.stopping:
                self._restart(engine, slot, failure.message)

    def _restart(self, engine: TaskSource, slot: Slot, why: str) -> None:
        assert slot.browser is not None
        log.warning("restarting browser %s: %s", slot.name, why)
        try:
            with phase("start"):
                slot.browser.restart()
        except Exception:
            engine.halt("browser-failed")
            raise
        engine.restarted(slot)

    def abandon(self) -> None:
        for slot in self.slots:
            if slot.busy and slot.browser is not None:
                slot.browser.kill()

    def leftovers(self) -> list[tuple[Slot, list[Exchange]]]:
        return [(s, s.browser.take_exchanges(final=True)) for s in self.slots if s.browser]

    def close(self) -> None:
        errors = []
        for slot in self.slots:
            try:
                if slot.browser is not None:
                    slot.browser.close()
            except Exception as exc:
                errors.append(exc)
        if errors:
            raise errors[0]

    def restarts(self) -> int:
        return sum(s.browser.restarts for s in self.slots if s.browser is not None)
