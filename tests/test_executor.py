"""Tasks performed in a browser (here a FakeBrowser): what an executor hands the engine."""

from __future__ import annotations

import pickle

import pytest

from statecrawl.config import Config
from statecrawl.errors import PageTimeout
from statecrawl.executor import Task, perform
from statecrawl.models import DomModel
from statecrawl.state import Action
from statecrawl.testing import FakeApp, FakeBrowser

MODEL = DomModel()


@pytest.fixture
def app() -> FakeApp:
    app = FakeApp()
    for name in ("home", "menu", "item", "other"):
        app.state(name, "/")
    app.action("home", "Menu", "menu")
    app.action("menu", "Item", "item")
    app.action("menu", "Broken", None, fails=True)
    app.action("menu", "Busy", None, hangs=True)
    return app


def browser(app: FakeApp) -> FakeBrowser:
    return app.browser(Config(start_urls=(app.url("/"),))).start()


def key(app: FakeApp, name: str) -> str:
    """The key of scripted state ``name``, as a fresh browser sees it."""
    b = browser(app)
    path = {"home": [], "menu": ["Menu"], "item": ["Menu", "Item"]}[name]
    b.load(app.url("/"))
    snapshot = b.settled()
    for label in path:
        snapshot = b.fire(action(snapshot, label))
    return MODEL.key(snapshot, frozenset())


def action(snapshot: object, label: str) -> Action:
    return next(a for a in snapshot.actions() if a.label == label)  # type: ignore[attr-defined]


def test_a_way_and_an_action(app: FakeApp) -> None:
    b = browser(app)
    home = b.load(app.url("/"))
    menu = b.fire(action(home, "Menu"))
    task = Task("fire", url=app.url("/"), start=key(app, "home"),
                steps=((action(home, "Menu"), key(app, "menu")),), action=action(menu, "Item"))
    outcome = perform(browser(app), task, MODEL)
    assert (len(outcome.loads), len(outcome.steps), outcome.diverged) == (1, 1, False)
    assert outcome.failure is None
    assert outcome.fired is not None and MODEL.key(outcome.fired, frozenset()) == key(app, "item")
    assert pickle.loads(pickle.dumps(task)) == task  # tasks travel to other processes


def test_a_way_that_leads_elsewhere_stops_there(app: FakeApp) -> None:
    home = browser(app).load(app.url("/"))
    task = Task("fire", url=app.url("/"), start=key(app, "home"),
                steps=((action(home, "Menu"), key(app, "item")),), action=action(home, "Menu"))
    outcome = perform(browser(app), task, MODEL)
    assert outcome.diverged and outcome.fired is None and outcome.failure is None
    assert len(outcome.steps) == 1


def test_a_load_that_shows_another_state_stops_at_once(app: FakeApp) -> None:
    home = browser(app).load(app.url("/"))
    task = Task("fire", url=app.url("/"), start=key(app, "menu"), action=action(home, "Menu"))
    outcome = perform(browser(app), task, MODEL)
    assert outcome.diverged and len(outcome.loads) == 1 and not outcome.steps


def test_failures_say_what_and_where(app: FakeApp) -> None:
    b = browser(app)
    menu = b.fire(action(b.load(app.url("/")), "Menu"))
    broken = perform(b, Task("fire", action=action(menu, "Broken")), MODEL).failure
    assert broken is not None and (broken.kind, broken.stage) == ("action", "work")
    gone = Task("fire", url=app.url("/"), start=key(app, "home"),
                steps=((action(menu, "Item"), key(app, "item")),), action=action(menu, "Item"))
    failure = perform(browser(app), gone, MODEL).failure
    assert failure is not None and (failure.kind, failure.stage) == ("action", "reach")
    hung = perform(b, Task("fire", action=action(menu, "Busy")), MODEL).failure
    assert hung is not None and hung.kind == "timeout"


def test_seed_and_link_loads(app: FakeApp) -> None:
    b = browser(app)
    seed = perform(b, Task("seed", url=app.url("/")), MODEL)
    assert len(seed.loads) == 2 and seed.failure is None
    app.fail("/gone", PageTimeout("loading took too long"))
    link = perform(b, Task("load", url=app.url("/gone")), MODEL)
    assert link.failure is not None and (link.failure.kind, link.failure.stage) == (
        "timeout", "work"
    )
