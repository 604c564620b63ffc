"""The page agent's answers are checked: a broken or forged answer is an AgentError, never a
crash, and oversized parts are cut (statecrawl.answers)."""

from __future__ import annotations

from typing import Any

import pytest

from statecrawl import answers
from statecrawl.errors import AgentError, NavigationError
from statecrawl.state import Snapshot


def good(**changes: Any) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "url": "http://127.0.0.1/", "title": "T", "html": "<p>x</p>", "form": [],
        "candidates": [{"locator": "#go", "label": "Go", "event": "click", "kind": "script",
                        "action": "handler:click:1", "status": "visible,enabled",
                        "hover": None}],
        "volatile": [], "dialogs": [{"type": "alert", "message": "hi"}], "popups": [],
        "blocked": [], "timedOut": False, "settleMs": 12, "status": 200,
    }
    answer.update(changes)
    return answer


def test_a_good_answer_is_read() -> None:
    s = Snapshot.from_agent(good())
    assert s.settle_ms == 12 and s.status == 200 and not s.truncated
    assert [a.label for a in s.actions()] == ["Go"]


BAD = {
    "not an object": "<html>",
    "a list": [],
    "html not text": good(html=["<p>"]),
    "candidates not a list": good(candidates={"0": {}}),
    "a candidate not an object": good(candidates=["#go"]),
    "an unknown event": good(candidates=[{**good()["candidates"][0], "event": "explode"}]),
    "an unknown kind": good(candidates=[{**good()["candidates"][0], "kind": "warp"}]),
    "a locator not text": good(candidates=[{**good()["candidates"][0], "locator": 7}]),
    "a link that is no URL": good(candidates=[{**good()["candidates"][0], "kind": "link",
                                               "action": "javascript:alert(1)"}]),
    "a link with CR LF": good(candidates=[{**good()["candidates"][0], "kind": "link",
                                           "action": "http://127.0.0.1/\r\nWARC-Type: x"}]),
    "values not pairs": good(candidates=[{**good()["candidates"][0], "values": [["#q"]]}]),
    "form not triples": good(form=[["a", "b"]]),
    "a dialog of no known type": good(dialogs=[{"type": "print", "message": ""}]),
    "settle time not a number": good(settleMs="soon"),
    "settle time infinite": good(settleMs=float("inf")),
    "a status that is no code": good(status=42),
    "a status that is text": good(status="200"),
    "frames not a list": good(frames={"t": 1}),
    "a frame path with names": good(frames=[{"t": 1, "ops": [{"p": ["x"], "k": "text",
                                                               "v": "y"}]}]),
    "a frame operation of no kind": good(frames=[{"t": 1, "ops": [{"p": [], "k": "eval"}]}]),
    "volatile names not text": good(volatile=[{"all": True}]),
}


@pytest.mark.parametrize("answer", BAD.values(), ids=BAD.keys())
def test_a_malformed_answer_is_an_agent_error(answer: Any) -> None:
    with pytest.raises(AgentError, match="malformed"):
        Snapshot.from_agent(answer)
    assert issubclass(AgentError, NavigationError)  # recorded as a failure of the state


def test_oversized_parts_are_cut() -> None:
    s = Snapshot.from_agent(good(
        html="x" * (answers.MAX_HTML + 10), title="t" * 5000,
        candidates=[good()["candidates"][0]] * (answers.MAX_ITEMS + 5),
    ))
    assert s.truncated and len(s.html) == answers.MAX_HTML
    assert len(s.title) == 1024
    assert len(s.candidates) == answers.MAX_ITEMS


def test_popups_other_than_web_urls_are_left_out() -> None:
    s = Snapshot.from_agent(good(popups=["mailto:a@b.c", "http://127.0.0.1/w", "x\ny"]))
    assert s.popups == ["http://127.0.0.1/w"]


def test_departure_reads_where_the_page_went() -> None:
    where, blocked, dialogs = answers.departure(
        {"navigating": {"url": "http://127.0.0.1/next"}, "blocked": ["http://x/"],
         "dialogs": [{"type": "beforeunload", "message": ""}]})
    assert where == "http://127.0.0.1/next" and blocked == ["http://x/"]
    assert dialogs == [{"type": "beforeunload", "message": ""}]
    with pytest.raises(AgentError):
        answers.departure({"dialogs": "all of them"})
