"""Actions, snapshots and keys."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from statecrawl.state import Action, Snapshot, digest

HEX16 = re.compile(r"[0-9a-f]{16}")


def action(**fields: Any) -> Action:
    base: dict[str, Any] = {
        "name": '#search button "Search"',
        "status": "visible enabled",
        "event": "click",
        "action": "listener:abc",
    }
    return Action(**{**base, **fields})


def candidate(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "locator": "#search button",
        "label": "Search",
        "status": "visible enabled",
        "event": "submit",
        "action": "form:q=laser",
        "kind": "submit",
    }
    return {**base, **fields}


# ---- digest -----------------------------------------------------------------------------------


def test_digest_is_stable_across_runs() -> None:
    assert digest("statecrawl", 1, ["a", None], {"k": "é"}) == "d9b62cd610cf2870"
    assert digest("external", "http://127.0.0.1/") == "2fc356fc751d0e91"


def test_digest_is_16_hex() -> None:
    assert HEX16.fullmatch(digest())
    assert HEX16.fullmatch(digest("x" * 10_000))


def test_digest_parts_are_not_concatenated() -> None:
    assert digest("ab", "c") != digest("a", "bc")
    assert digest("a b") != digest("a", "b")
    assert digest(["a", "b"]) != digest("a", "b")


def test_digest_depends_on_order_and_type() -> None:
    assert digest("a", "b") != digest("b", "a")
    assert digest(1) != digest("1")


# ---- Action -----------------------------------------------------------------------------------


def test_action_key_is_16_hex_digest_of_its_tuple() -> None:
    a = action()
    assert HEX16.fullmatch(a.key)
    assert a.key == digest(*a.as_tuple())
    assert a.as_tuple() == (a.name, a.status, a.event, a.action)
    assert a.key == "bf5e403ff7a5eab3"  # xxh64 of the compact JSON array


def test_action_key_ignores_how_it_is_fired() -> None:
    plain = action()
    fancy = action(
        kind="link",
        locator="main > form button",
        label="Go!",
        hover="#menu",
        values=(("q", "laser"),),
        submitter="button[type=submit]",
    )
    assert plain.key == fancy.key
    assert plain == fancy
    assert hash(plain) == hash(fancy)
    assert len({plain, fancy}) == 1


@pytest.mark.parametrize("field", ["name", "status", "event", "action"])
def test_action_key_differs_when_any_tuple_field_differs(field: str) -> None:
    a = action()
    b = action(**{field: getattr(a, field) + "x"})
    assert a.key != b.key
    assert a != b


def test_action_key_fields_do_not_run_together() -> None:
    assert action(name="ab", status="c").key != action(name="a", status="bc").key


def test_action_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        action().name = "other"  # type: ignore[misc]


def test_action_is_link_only_for_links() -> None:
    assert action(kind="link").is_link
    assert not action().is_link
    assert not action(kind="submit").is_link


def test_from_candidate_builds_name_from_locator_and_json_label() -> None:
    a = Action.from_candidate(candidate(label='Say "hi" to Böhm'))
    assert a.name == '#search button "Say \\"hi\\" to Böhm"'
    assert a.locator == "#search button"
    assert a.label == 'Say "hi" to Böhm'
    assert (a.status, a.event, a.action, a.kind) == (
        "visible enabled",
        "submit",
        "form:q=laser",
        "submit",
    )


def test_from_candidate_empty_label_still_quoted() -> None:
    assert Action.from_candidate(candidate(label="")).name == '#search button ""'


def test_from_candidate_optional_fields() -> None:
    a = Action.from_candidate(candidate())
    assert a.hover is None
    assert a.values == ()
    assert a.submitter is None
    b = Action.from_candidate(
        candidate(hover="#menu", values=[["q", "laser"], ["y", "2020"]], submitter="#go")
    )
    assert b.hover == "#menu"
    assert b.values == (("q", "laser"), ("y", "2020"))
    assert b.submitter == "#go"
    assert a.key == b.key


def test_from_candidate_label_is_part_of_identity() -> None:
    assert Action.from_candidate(candidate(label="A")).key != Action.from_candidate(
        candidate(label="B")
    ).key


def test_spec_holds_what_the_agent_needs() -> None:
    a = Action.from_candidate(candidate(values=[["q", "laser"]], submitter="#go"))
    assert a.spec() == {
        "locator": "#search button",
        "label": "Search",
        "event": "submit",
        "action": "form:q=laser",
        "values": [["q", "laser"]],
        "submitter": "#go",
    }


# ---- Snapshot ---------------------------------------------------------------------------------


def test_snapshot_from_agent_defaults() -> None:
    s = Snapshot.from_agent({"url": "http://127.0.0.1/"})
    assert s.url == "http://127.0.0.1/"
    assert (s.title, s.html) == ("", "")
    assert s.form == [] and s.candidates == [] and s.volatile == []
    assert s.frames is None
    assert s.timed_out is False
    assert s.settle_ms == 0
    assert s.actions() == []


def test_snapshot_from_agent_reads_camel_case_fields() -> None:
    s = Snapshot.from_agent(
        {
            "url": "http://127.0.0.1/",
            "title": "T",
            "html": "<p>x</p>",
            "form": [["p", "q", "v"]],
            "candidates": [candidate(), candidate(label="Reset", event="click")],
            "volatile": ["#clock|content"],
            "frames": [{"t": 1}],
            "timedOut": True,
            "settleMs": 42.0,
        }
    )
    assert s.timed_out is True
    assert s.settle_ms == 42
    assert s.form == [["p", "q", "v"]]
    assert s.frames == [{"t": 1, "ops": []}]
    assert [a.label for a in s.actions()] == ["Search", "Reset"]
    assert [a.event for a in s.actions()] == ["submit", "click"]


def test_an_action_undoes_the_same_control_whose_status_it_changed() -> None:
    def header(status: str, action: str = "handler:click:1") -> Action:
        return Action(name='#q1 "Question 1"', status=status, event="click", action=action,
                      locator="#q1", label="Question 1")

    opened = header("visible,enabled,expanded=false")
    assert header("visible,enabled,expanded=true").undoes(opened)
    assert not header("visible,enabled,expanded=false").undoes(opened)  # "next page" again
    assert not header("visible,enabled,expanded=true", "handler:click:2").undoes(opened)
    other = Action(name='#q2 "Question 2"', status="visible,enabled,expanded=true",
                   event="click", action="handler:click:1", locator="#q2", label="Question 2")
    assert not other.undoes(opened)
