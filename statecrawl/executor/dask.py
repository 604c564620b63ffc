"""The Dask executor: one browser per Dask worker, on a LocalCluster of this machine or on
a cluster (``dask-scheduler`` and a ``dask-worker`` per machine with Chromium).

The engine and the store stay in this process; workers only perform tasks, and their
outcomes (snapshots, exchanges, screenshots) come back here. Each worker's browser starts
with its first task and is restarted by the worker when a page hangs it or it dies.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING

import distributed

from ..browser.screenshot import take
from ..errors import BrowserError
from ..ledger import Ledger, phase, task_done
from ..models import get_model
from .work import Outcome, Slot, Task, TaskSource, perform

if TYPE_CHECKING:
    from ..browser import BrowserLike
    from ..browser.network import Exchange
    from ..config import Config

PLUGIN = "statecrawl-browser"
CONNECT_TIMEOUT = "5s"  # to reach a scheduler given by address

log = logging.getLogger(__name__)


class BrowserPlugin(distributed.WorkerPlugin):
    """Gives a Dask worker its browser."""

    def __init__(
        self, config: Config, factory: Callable[[Config, bool], BrowserLike], network: bool
    ) -> None:
        self.config = config
        self.factory = factory
        self.network = network
        self.browser: BrowserLike | None = None
        self.restarts = 0
        self.shot: set[str] = set()  # keys of the states this worker took screenshots of

    def setup(self, worker: object) -> None:
        self.browser = self.factory(self.config, self.network)
        self.model = get_model(self.config.model)

    def teardown(self, worker: object) -> None:
        if self.browser is not None and self.browser.driver is not None:
            self.browser.close()


def _plugin(worker: distributed.Worker | None = None) -> BrowserPlugin:
    """This worker's plugin: in a task, or given by ``Client.run`` (which fills in an
    argument called ``dask_worker``)."""
    plugin = (worker or distributed.get_worker()).plugins[PLUGIN]
    assert isinstance(plugin, BrowserPlugin) and plugin.browser is not None
    return plugin


def _perform(task: Task) -> Outcome:
    """On a worker: perform ``task`` in its browser, with a screenshot and a thumbnail of the
    state reached when the task asks for them."""
    plugin = _plugin()
    browser = plugin.browser
    assert browser is not None
    if browser.driver is None:
        browser.start()
    browser.volatile = list(task.volatile)
    outcome = perform(browser, task, plugin.model)
    failure = outcome.failure
    if failure is not None and failure.kind in ("timeout", "crash"):
        log.warning("restarting the browser of a Dask worker: %s", failure.message)
        browser.restart()
        plugin.restarts += 1
    elif task.screenshot:
        reached = outcome.fired or (outcome.loads[-1] if task.kind != "fire" else None)
        key = plugin.model.key(reached, frozenset(task.volatile)) if reached else None
        if key is not None and key not in plugin.shot:  # a state is new once at most
            plugin.shot.add(key)
            assert reached is not None
            archive = plugin.config.archive
            images = take(browser, archive, archive.screenshots != "none")
            reached.screenshot, reached.thumbnail = images.screenshot, images.thumbnail
            reached.missing_images = images.missing
    return outcome


def _kill(dask_worker: distributed.Worker) -> None:
    browser = _plugin(dask_worker).browser
    assert browser is not None
    browser.kill()


def _leftovers(dask_worker: distributed.Worker) -> list[Exchange]:
    browser = _plugin(dask_worker).browser
    assert browser is not None
    return browser.take_exchanges(final=True) if browser.driver is not None else []


def _restarts(dask_worker: distributed.Worker) -> int:
    return _plugin(dask_worker).restarts


class Dask:
    """Runs tasks on Dask workers, a browser each: on ``config.cluster`` (a scheduler's
    address), else on a LocalCluster of ``browser.count`` worker processes."""

    remote = True

    def __init__(
        self, config: Config, browser_factory: Callable[[Config, bool], BrowserLike], network: bool
    ) -> None:
        self.config = config
        self.plugin = BrowserPlugin(config, browser_factory, network)
        self.slots: list[Slot] = []
        self.ledger = Ledger()
        self.client: distributed.Client | None = None
        self.cluster: distributed.LocalCluster | None = None

    def _connect(self) -> distributed.Client:
        # distributed leaves the constructors of LocalCluster and Client unannotated
        if self.config.cluster is None:
            self.cluster = distributed.LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=self.config.browser.count, threads_per_worker=1, processes=True,
                dashboard_address=None, silence_logs=logging.WARNING,
            )
            client = distributed.Client(self.cluster)  # type: ignore[no-untyped-call]
        else:
            try:
                client = distributed.Client(  # type: ignore[no-untyped-call]
                    self.config.cluster, timeout=CONNECT_TIMEOUT
                )
            except OSError as exc:
                raise BrowserError(
                    f"cannot reach the Dask scheduler at {self.config.cluster}: {exc}"
                ) from None
        client.register_plugin(self.plugin, name=PLUGIN)
        workers = sorted(client.scheduler_info()["workers"])
        if not workers:
            raise BrowserError(f"the Dask scheduler at {self.config.cluster} has no workers")
        self.slots = [Slot(address) for address in workers]
        log.info("Dask executor: %d workers", len(workers))
        return client

    def run(self, engine: TaskSource) -> None:
        self.client = self._connect()
        errors: list[BaseException] = []
        threads = [
            threading.Thread(target=self._thread, args=(engine, slot, errors), daemon=True)
            for slot in self.slots
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            raise errors[0]

    def _thread(self, engine: TaskSource, slot: Slot, errors: list[BaseException]) -> None:
        """Hand ``slot``'s worker one task at a time: its browser does one thing at once."""
        assert self.client is not None
        try:
            with self.ledger.joined():  # a worker's whole task is charged as firing
                self._tasks(engine, slot)
        except BaseException as exc:
            errors.append(exc)
            engine.halt("browser-failed" if isinstance(exc, BrowserError) else None)

    def _tasks(self, engine: TaskSource, slot: Slot) -> None:
        """Hand ``slot``'s worker tasks until there is none left or the crawl stops."""
        assert self.client is not None
        while (task := engine.next_task(slot)) is not None:
            outcome: Outcome | None = None
            try:
                with phase("fire"):
                    future = self.client.submit(
                        _perform, task, workers=[slot.name], allow_other_workers=False,
                        pure=False, key=f"statecrawl-{uuid.uuid4().hex}",
                    )
                    outcome = future.result()
            finally:
                engine.apply(slot, outcome)
                task_done()
            failure = outcome.failure
            if failure is not None and failure.kind in ("timeout", "crash"):
                engine.restarted(slot)

    def abandon(self) -> None:
        busy = [s.name for s in self.slots if s.busy]
        if self.client is not None and busy:
            with contextlib.suppress(Exception):
                self.client.run(_kill, workers=busy)

    def leftovers(self) -> list[tuple[Slot, list[Exchange]]]:
        if self.client is None:
            return []
        taken = self.client.run(_leftovers)
        return [(s, taken.get(s.name, [])) for s in self.slots]

    def close(self) -> None:
        try:
            if self.client is not None:
                # each worker ends its browser (distributed leaves these two unannotated)
                self.client.unregister_worker_plugin(PLUGIN)  # type: ignore[no-untyped-call]
                self.client.close()  # type: ignore[no-untyped-call]
        finally:
            if self.cluster is not None:
                self.cluster.close()

    def restarts(self) -> int:
        if self.client is None:
            return 0
        with contextlib.suppress(Exception):
            return sum(self.client.run(_restarts).values())
        return 0
