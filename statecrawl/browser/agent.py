"""The crawler's end of the page agent (``agent.js``): its script, set up for this crawl, and
the calls that reach it from an isolated world through a channel keyed by a per-browser
secret, so a page can neither see the agent nor forge its answers."""

from __future__ import annotations

import json
import secrets
from importlib.resources import files
from typing import Any

import urllib3
from selenium.common.exceptions import TimeoutException, WebDriverException

from .. import answers
from ..config import Config, Rule, Rules
from ..errors import BrowserCrashed, NavigationError, PageTimeout
from ..scope import Scope, js_pattern
from . import login
from .chromium import Chromium, crashed, reason

WORLD = "statecrawl"  # the isolated world the crawler's calls run in
# Runs in the isolated world, whose globals no page script can touch: hands a request to the
# agent in the page's world and resolves with its JSON answer, or with null when no agent took
# the request. Arguments: channel secret, request id, method, argument.
BRIDGE = """((channel, id, method, arg) => new Promise((resolve) => {
  const answered = (event) => {
    const reply = event.detail;
    if (typeof reply !== 'string' || !reply.startsWith(`{"id":${id},`)) return;
    window.removeEventListener(`${channel}:answer`, answered, true);
    resolve(reply);
  };
  window.addEventListener(`${channel}:answer`, answered, true);
  const request = new CustomEvent(`${channel}:request`, {
    cancelable: true, detail: JSON.stringify({ id, method, arg }),
  });
  window.dispatchEvent(request);
  if (!request.defaultPrevented) {
    window.removeEventListener(`${channel}:answer`, answered, true);
    resolve(null);
  }
}))(%s)"""
NO_CONTEXT = "no such execution context"  # the document went away during a call


def _rules(rules: Rules) -> dict[str, list[dict[str, Any]]]:
    """The crawl rules as the page agent reads them, patterns as JavaScript's."""

    def rule(r: Rule) -> dict[str, Any]:
        def pattern(text: str | None) -> list[str] | None:
            return None if text is None else js_pattern(text)

        return {
            "css": r.css, "xpath": r.xpath, "text": r.text, "textRegex": pattern(r.text_regex),
            "attribute": r.attribute, "url": pattern(r.url),
        }

    return {
        "click": [rule(r) for r in rules.click],
        "dontClick": [rule(r) for r in rules.dont_click],
        "clickOnce": [rule(r) for r in rules.click_once],
    }


class Agent:
    """The page agent of one browser: the script injected into every document, and one
    request and one answer per call."""

    def __init__(self, config: Config, scope: Scope, chromium: Chromium) -> None:
        self.chromium = chromium
        self.channel = secrets.token_hex(16)
        self.requests = 0  # calls made, each request's id
        self.frame_id: str | None = None  # the window's main frame (learned on first use)
        source = files("statecrawl.browser").joinpath("agent.js").read_text(encoding="utf-8")
        agent_config = {
            **scope.for_agent(),
            "quietMs": config.timing.quiet_ms,
            "settleTimeoutMs": config.timing.settle_timeout_ms,
            "growthTimeoutMs": config.timing.growth_timeout_ms,
            "timerMs": config.timing.timer_ms,
            "longTimerMs": config.timing.long_timer_ms,
            "waits": [
                {"url": js_pattern(w.url), "css": w.css, "visible": w.visible,
                 "timeoutMs": w.timeout_ms}
                for w in config.timing.waits
            ],
            "waitMs": config.timing.wait_ms,
            "maxActions": config.limits.max_actions_per_state,
            "dialogs": config.browser.dialogs,
            "briefAnimations": config.browser.animations == "brief",
            "inputs": {name: list(values) for name, values in config.inputs.values.items()},
            "fields": [entry.for_agent() for entry in config.inputs.fields],
            "seed": config.seed,
            "defaultText": config.inputs.default_text,
            "maxOptions": config.inputs.max_options,
            "rules": _rules(config.rules),
            "guard": config.guard.for_agent(),
            "channel": self.channel,
            "session": login.session_check(config.login),
        }
        self.source = f"{source.rstrip()}({json.dumps(agent_config)});\n"

    def call(self, method: str, arg: Any, limit: float | None = None) -> dict[str, Any]:
        """Call a page-agent method: one request through the channel, one answer, within
        ``limit`` seconds (the script timeout by default). A page that has no agent answers
        ``{"missing": True}``, one that went away ``{"leaving": True}``."""
        self.chromium.limit(max(limit or 0.0, self.chromium.script_timeout))
        try:
            answer = self.chromium.web.execute_cdp_cmd(
                "Runtime.evaluate",
                {
                    "expression": self.request(method, arg),
                    "contextId": self.world(),
                    "awaitPromise": True,
                    "returnByValue": True,
                },
            )
        except urllib3.exceptions.ReadTimeoutError:
            raise PageTimeout(f"the page did not answer {method!r} in time") from None
        except WebDriverException as exc:
            if NO_CONTEXT in (exc.msg or ""):
                return {"leaving": True}
            if crashed(exc):
                raise BrowserCrashed(f"the browser died: {reason(exc)}") from None
            if isinstance(exc, TimeoutException):
                raise PageTimeout(f"the page did not answer {method!r} in time") from None
            raise NavigationError(f"page agent failed: {reason(exc)}") from None
        if "exceptionDetails" in answer:
            details = answer["exceptionDetails"]
            why = details.get("exception", {}).get("description") or details.get("text")
            raise NavigationError(f"page agent failed: {str(why).splitlines()[0]}")
        value = answer.get("result", {}).get("value")
        if value is None:
            return {"missing": True}
        return answers.decode(value, self.requests)

    def evaluate(self, expression: str) -> Any:
        """The value of ``expression`` evaluated in the crawler's isolated world of the
        current document, where no page script can see or change it."""
        answer = self.chromium.web.execute_cdp_cmd(
            "Runtime.evaluate",
            {"expression": expression, "contextId": self.world(), "returnByValue": True},
        )
        return answer.get("result", {}).get("value")

    def request(self, method: str, arg: Any) -> str:
        """The expression that calls page-agent method ``method`` from the crawler's isolated
        world (:data:`WORLD`), a promise of the answer's JSON (see :meth:`call`)."""
        self.requests += 1
        return BRIDGE % json.dumps([self.channel, self.requests, method, arg])[1:-1]

    def world(self) -> int:
        """The crawler's isolated world in the current document (made on first use)."""
        web = self.chromium.web
        if self.frame_id is None:
            self.frame_id = web.execute_cdp_cmd("Page.getFrameTree", {})["frameTree"]["frame"]["id"]
        world = web.execute_cdp_cmd(
            "Page.createIsolatedWorld", {"frameId": self.frame_id, "worldName": WORLD}
        )
        context: int = world["executionContextId"]
        return context
