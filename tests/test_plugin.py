"""Plugins: they see a narrow view of the crawl, run outside its lock, and one that raises is
recorded without ending the crawl; ``on_state`` gets one ``StateEvent``, and a plugin of the
old six-argument form still gets its arguments, with a deprecation warning."""

from __future__ import annotations

import threading
import warnings
from pathlib import Path
from typing import Any

import pytest

import statecrawl
from statecrawl.browser import Browser
from statecrawl.plugins.hooks import CrawlView, Hooks
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

    def on_state(self, crawl: CrawlView, event: statecrawl.StateEvent) -> None:
        self.lock_free.append(self._lock_is_free(crawl))
        self.states.append(event.state.id)
        crawl.annotate(event.state.id, observed=True)

    def on_transition(self, crawl: CrawlView, *args: Any) -> None:
        self.lock_free.append(self._lock_is_free(crawl))


class Events(statecrawl.Plugin):
    """Keeps every event ``on_state`` is given."""

    def __init__(self) -> None:
        self.events: list[statecrawl.StateEvent] = []

    def on_state(self, crawl: CrawlView, event: statecrawl.StateEvent) -> None:
        self.events.append(event)


class OldStyle(statecrawl.Plugin):
    """An ``on_state`` of the form before ``StateEvent``: keeps the arguments it is given."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def on_state(  # type: ignore[override]
        self,
        crawl: CrawlView,
        state: statecrawl.State,
        snapshot: Any,
        browser: Browser | None,
        parent: str | None,
        action: statecrawl.Action | None,
    ) -> None:
        self.calls.append((state, snapshot, browser, parent, action))


class Broken(statecrawl.Plugin):
    """Raises in every hook it has."""

    def on_state(self, crawl: CrawlView, event: statecrawl.StateEvent) -> None:
        raise RuntimeError("broken on_state")

    def on_transition(self, crawl: CrawlView, *args: Any) -> None:
        raise ValueError("broken on_transition")


def run(site: Site, out: Path, *plugins: statecrawl.Plugin) -> statecrawl.Crawl:
    config = statecrawl.Config.from_mapping({
        "start_urls": [site.url("/")], "out": str(out), "limits": {"max_depth": 1},
        "archive": {"enabled": False},
    })  # fmt: skip
    return statecrawl.crawl(config=config, plugins=plugins)


def test_hooks_run_outside_the_lock_and_annotate_states(site: Site, tmp_path: Path) -> None:
    site.page("/", "tabs.html")
    observer = Observer()
    result = run(site, tmp_path, observer)
    assert len(observer.states) == len(result) == 4
    assert observer.lock_free and all(observer.lock_free)
    assert all(s.get("observed") for s in result.states())


def test_a_failing_plugin_is_recorded_and_the_crawl_goes_on(site: Site, tmp_path: Path) -> None:
    site.page("/", "tabs.html")
    result = run(site, tmp_path, Broken())
    assert len(result) == 4
    failures = result.graph.graph["plugin_failures"]
    transitions = len(list(result.transitions()))
    assert result.stats["plugin_failures"] == len(result) + transitions  # each hook raised
    assert "Broken.on_state: RuntimeError: broken on_state" in failures
    assert "Broken.on_transition: ValueError: broken on_transition" in failures


def test_on_state_gets_one_event_of_the_new_state(site: Site, tmp_path: Path) -> None:
    site.page("/", "tabs.html")
    plugin = Events()
    result = run(site, tmp_path, plugin)
    assert all(isinstance(e, statecrawl.StateEvent) for e in plugin.events)
    assert sorted(e.state.id for e in plugin.events) == sorted(s["id"] for s in result.states())
    for event in plugin.events:
        assert isinstance(event.browser, Browser)
        assert event.snapshot.url == event.state.url
        assert (event.parent is None) == (event.action is None)
        if event.parent is not None:
            assert event.state.id in result.graph.successors(event.parent)
    assert sum(e.parent is None for e in plugin.events) == 1  # the start state


def test_an_old_style_plugin_gets_its_six_arguments_and_one_warning_a_class(
    site: Site, tmp_path: Path
) -> None:
    """Two old-style plugins of one class and a new-style one in the same crawl: each is
    called its own way, and the class is warned of once."""
    site.page("/", "tabs.html")
    first, second, new = OldStyle(), OldStyle(), Events()
    with pytest.warns(DeprecationWarning) as warned:
        result = run(site, tmp_path, first, new, second)
    deprecations = [w for w in warned if w.category is DeprecationWarning]
    assert len(deprecations) == 1
    assert "OldStyle.on_state(crawl, state, snapshot" in str(deprecations[0].message)
    assert deprecations[0].filename == __file__  # it points at the plugin's hook
    assert "plugin_failures" not in result.graph.graph
    expected = [(e.state, e.snapshot, e.browser, e.parent, e.action) for e in new.events]
    assert first.calls == second.calls == expected
    assert len(first.calls) == len(result) == 4


@pytest.mark.parametrize(
    ("hook", "old"),
    [
        (lambda crawl, event: None, False),
        (lambda crawl, event, extra=None: None, False),
        (lambda crawl, state, snapshot, browser, parent, action: None, True),
        (lambda crawl, state, snapshot, browser=None, parent=None, action=None: None, True),
        (lambda crawl, *args: None, True),
    ],
)
def test_the_old_form_is_told_by_the_signature(hook: Any, old: bool) -> None:
    """A hook that takes the six old arguments is called with them and warned of; any other
    gets the event."""
    plugin = statecrawl.Plugin()
    plugin.on_state = hook  # type: ignore[method-assign]
    failures: list[str] = []
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        hooks = Hooks([plugin], view=None, failed=failures.append)  # type: ignore[arg-type]
    assert [w.category for w in warned] == [DeprecationWarning] * old
    event = statecrawl.StateEvent(None, None, None, None, None)  # type: ignore[arg-type]
    hooks.broadcast("on_state", event)
    assert failures == []
