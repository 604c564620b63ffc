"""The surface of a browser statecrawl uses (``BrowserLike``): Chromium's ``Browser`` and the
engine tests' ``FakeBrowser`` both define every member of it, with signatures a caller of the
protocol can use. No browser is started."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from statecrawl.browser import Browser, BrowserLike
from statecrawl.config import Config
from statecrawl.testing import FakeApp, FakeBrowser

CONFIG = Config(start_urls=("http://127.0.0.1:4/",))
POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def members(protocol: type) -> dict[str, Any]:
    """What ``protocol`` declares: its methods, its properties, its attributes (``None``)."""
    declared: dict[str, Any] = {name: None for name in protocol.__annotations__}
    declared.update({
        name: value for name, value in vars(protocol).items()
        if not name.startswith("_") and (callable(value) or isinstance(value, property))
    })  # fmt: skip
    return declared


def clashes(declared: inspect.Signature, defined: inspect.Signature) -> list[str]:
    """Why a call that ``declared`` allows could fail on ``defined`` (empty: none)."""
    wanted = list(declared.parameters.values())[1:]  # (without self)
    given = list(defined.parameters.values())[1:]
    found = []
    for number, param in enumerate(wanted):
        match = defined.parameters.get(param.name)
        if match is None:
            found.append(f"no parameter {param.name!r}")
        elif param.kind in POSITIONAL and given.index(match) != number:
            found.append(f"{param.name!r} is not parameter {number + 1}")
        elif param.kind != match.kind and match.kind != inspect.Parameter.POSITIONAL_OR_KEYWORD:
            found.append(f"{param.name!r} is {match.kind.description}")
        elif param.default is not param.empty and match.default is param.empty:
            found.append(f"{param.name!r} has no default")
    variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    found += [
        f"extra parameter {param.name!r} has no default"
        for param in given
        if param.name not in declared.parameters
        and param.kind not in variadic
        and param.default is param.empty
    ]
    return found


def problems(instance: object, protocol: type = BrowserLike) -> list[str]:
    """How ``instance`` (and its class) falls short of ``protocol``."""
    cls = type(instance)
    found = []
    for name, member in members(protocol).items():
        if not hasattr(instance, name):
            found.append(f"{cls.__name__}.{name} is missing")
        elif callable(member):
            defined = getattr(cls, name, None)
            if not inspect.isfunction(defined):
                found.append(f"{cls.__name__}.{name} is not a method")
                continue
            clash = clashes(inspect.signature(member), inspect.signature(defined))
            found += [f"{cls.__name__}.{name}: {why}" for why in clash]
        elif callable(getattr(instance, name)):
            found.append(f"{cls.__name__}.{name} is a method, not a value")
    return found


def test_the_protocol_lists_the_surface_statecrawl_uses() -> None:
    assert set(members(BrowserLike)) == {
        "volatile", "login_hook", "session_dir", "driver", "restarts", "relogins", "start",
        "close", "kill", "restart", "reset", "settled", "replay", "fire", "take_exchanges",
        "take_writes", "take_coverage", "can_log_in", "log_in", "new_session", "screenshot",
        "screenshot_later", "thumbnail", "thumbnail_later",
    }


@pytest.mark.parametrize(
    "make", [lambda: Browser(CONFIG), lambda: FakeBrowser(FakeApp(), CONFIG)],
    ids=["Browser", "FakeBrowser"],
)
def test_both_browsers_define_every_member(make: Any) -> None:
    assert problems(make()) == []


def test_a_browser_that_falls_short_is_told() -> None:
    """The check itself: a missing member and incompatible signatures are found."""

    class Short(FakeBrowser):
        thumbnail = None  # type: ignore[assignment]

        def fire(self, light: bool = False) -> Any:  # type: ignore[override]
            raise NotImplementedError

        def reset(self, url: str, light: bool, wait: float) -> Any:  # type: ignore[override]
            raise NotImplementedError

    found = problems(Short(FakeApp(), CONFIG))
    assert "Short.thumbnail is not a method" in found
    assert "Short.fire: no parameter 'action'" in found
    assert "Short.reset: 'light' has no default" in found
    assert "Short.reset: extra parameter 'wait' has no default" in found
