"""Plugins: they see a narrow view of the crawl, run outside its lock, and one that raises is
recorded without ending the crawl."""

from __future__ import annotations

import threading
from typing import Any

import statecrawl
from statecrawl.plugin import CrawlView
from tests.conftest import Site


class Observer(statecrawl.Plugin):
    """Notes, at each hook, whether another thread could take the crawl's lock."""

    def __init__(self) -> None:
        self.lock_free: list[bool] = []
        self.states: list[str] = []

    def _lock_is_free(self, crawl: CrawlView) -> bool:
        taken: list[bool] = []

        def probe() -> None:
            got = crawl._lock.acquire(blocking=False)
            taken.append(got)
            if got:
                crawl._lock.release()

        thread = threading.Thread(target=probe)
        thread.start()
        thread.join()
        return taken[0]

    def on_state(self, crawl: CrawlView, state: Any, *args: Any) -> None:
        self.lock_free.append(self._lock_is_free(crawl))
        self.states.append(state.id)
        crawl.annotate(state.id, observed=True)

    def on_transition(self, crawl: CrawlView, *args: Any) -> None:
        self.lock_free.append(self._lock_is_free(crawl))


class Broken(statecrawl.Plugin):
    """Raises in every hook it has."""

    def on_state(self, crawl: CrawlView, *args: Any) -> None:
        raise RuntimeError("broken on_state")

    def on_transition(self, crawl: CrawlView, *args: Any) -> None:
        raise ValueError("broken on_transition")


def run(site: Site, *plugins: statecrawl.Plugin) -> statecrawl.Crawl:
    config = statecrawl.Config.from_mapping(
        {"start_urls": [site.url("/")], "limits": {"max_depth": 1}, "archive": {"enabled": False}}
    )
    return statecrawl.crawl(config=config, plugins=plugins)


def test_hooks_run_outside_the_lock_and_annotate_states(site: Site) -> None:
    site.page("/", "tabs.html")
    observer = Observer()
    result = run(site, observer)
    assert len(observer.states) == len(result) == 4
    assert observer.lock_free and all(observer.lock_free)
    assert all(s.get("observed") for s in result.states())


def test_a_failing_plugin_is_recorded_and_the_crawl_goes_on(site: Site) -> None:
    site.page("/", "tabs.html")
    result = run(site, Broken())
    assert len(result) == 4
    failures = result.graph.graph["plugin_failures"]
    transitions = len(list(result.transitions()))
    assert result.stats["plugin_failures"] == len(result) + transitions  # each hook raised
    assert "Broken.on_state: RuntimeError: broken on_state" in failures
    assert "Broken.on_transition: ValueError: broken on_transition" in failures
