"""The document a browser shows, through the page agent: its settled snapshot, and actions
fired in it, with the real mouse where hovering matters."""

from __future__ import annotations

import contextlib
import logging
import re
import time
from typing import Any

from selenium.common.exceptions import WebDriverException

from .. import answers
from ..config import Config
from ..errors import ActionFailed, NavigationError, PageTimeout
from ..redaction import strip_userinfo
from ..state import Action, OptionAbsent, Snapshot
from .agent import Agent
from .chromium import Chromium
from .traffic import Traffic

log = logging.getLogger(__name__)
ERROR_CODE = re.compile(r'HTTP ERROR \d+|"errorCode":"(?:NET::)?(ERR_[A-Z_]+)"')


def error_shown(snapshot: Snapshot) -> str | None:
    """Why the browser shows a page that is no web page (its own error page: the network
    error's code, such as ``ERR_EMPTY_RESPONSE``), or ``None`` for a web page."""
    if snapshot.url.startswith(("http:", "https:")):
        return None
    code = ERROR_CODE.search(snapshot.html)
    return (code.group(1) or code.group(0)) if code else f"the browser showed {snapshot.url}"


class Page:
    """The page shown in one browser: snapshots and actions, each one page-agent call."""

    def __init__(self, config: Config, chromium: Chromium, agent: Agent, traffic: Traffic) -> None:
        self.config = config
        self.chromium = chromium
        self.agent = agent
        self.traffic = traffic
        self.volatile: list[str] = []  # names the agent masks in every snapshot
        self.storage_used = False  # a page stored something since storage was last cleared

    def url(self) -> str:
        """The current document's URL, from the browser's navigation history (WebDriver's
        ``current_url`` runs a script in the page, which a page can break), less userinfo."""
        history = self.chromium.web.execute_cdp_cmd("Page.getNavigationHistory", {})
        return strip_userinfo(str(history["entries"][history["currentIndex"]]["url"]))

    def document(self) -> tuple[str, str]:
        """The loader id and URL of the current document (CDP: no script in the page)."""
        frame = self.chromium.web.execute_cdp_cmd("Page.getFrameTree", {})["frameTree"]["frame"]
        return str(frame["loaderId"]), str(frame.get("unreachableUrl") or frame["url"])

    def settled(
        self, light: bool = False, navigating: bool = False, loading: bool = False
    ) -> Snapshot:
        """The current document's snapshot once loaded and settled, riding out navigations
        within the load timeout (one that turns into a download leaves the document where it
        is); ``navigating``: an action started one, and a call may wait
        in the document being left until the next one commits; ``loading``: a load started
        the document, whose page may keep the agent from answering until the load timeout
        (a thousand frames loading in the agent's own thread)."""
        deadline = time.monotonic() + self.config.timing.load_timeout
        stayed = False
        while True:
            limit = deadline - time.monotonic() if loading else None
            arg = {"volatile": self.volatile, "light": light}
            result = self.agent.call("snapshot", arg, limit)
            left = result.get("leaving") or result.get("missing")
            if result.get("leaving") and not stayed and self.traffic.downloading():
                stayed = True  # the navigation turned into a download: no new document comes
                self.agent.call("stay", {})
                continue
            if (left or navigating) and time.monotonic() > deadline:
                raise PageTimeout("a navigation did not complete in time")
            if not left:
                snapshot = self.snapshot(result)
                why = error_shown(snapshot) if navigating else None
                if why:  # the browser's error page is no state of the application
                    raise NavigationError(f"the navigation failed: {why}")
                return snapshot
            if result.get("missing"):
                url = self.url()
                if not url.startswith(("http:", "https:")):
                    raise NavigationError(f"the page went to {url}, which cannot be crawled")

    def snapshot(self, result: dict[str, Any], own_url: bool = True) -> Snapshot:
        """The snapshot an answer holds; its URL is the browser's own (``own_url``), never
        the page's word, for a state to be recorded."""
        snapshot = Snapshot.from_agent(result)
        for c in snapshot.covered:
            log.debug("left out %s %s: %s lies over it", c["event"], c["locator"], c["covered_by"])
        self.storage_used = self.storage_used or result.get("storage") is True
        if own_url and snapshot.url.startswith(("http:", "https:")):
            # (a page that is no web page, such as Chromium's error page, is not recorded)
            snapshot.url = self.url()
        return snapshot

    def fire(self, action: Action, light: bool = False) -> Snapshot:
        """Fire ``action`` in the current page and return the settled state that follows;
        a ``light`` snapshot has no candidate actions (for replays). An action revealed by
        hovering is fired with the mouse over its ancestor, which is then moved off the page
        before the state is taken: a state's candidates never depend on where the pointer
        was left (a row re-rendered under it would show its hover-revealed buttons)."""
        spec = {**action.spec(), "volatile": self.volatile, "light": light}
        again = None  # the snapshot taken again once the mouse was parked
        moved = False  # ... in another document: the mouse's leaving navigated
        if not action.hover:
            result = self.agent.call("fire", spec)
        else:
            document = self.document()[0]
            self.hover(action.hover)
            try:
                result = self.agent.call("fire", {**spec, "light": True})
            finally:
                self.park()
            ended = ("error", "missing", "navigating", "leaving")
            if not (light or any(result.get(k) for k in ended)):
                again = self.agent.call("snapshot", {"volatile": self.volatile, "light": False})
                if again.get("leaving") or again.get("missing"):
                    # the mouse's leaving started a navigation: followed as the fire's own
                    result, again = {**result, "leaving": True}, None
                else:
                    moved = self.document()[0] != document
        _failed(result)
        if result.get("missing"):
            raise ActionFailed("the page agent is missing from this page")
        saved = None  # the URL of a navigation that turned into a download
        if result.get("navigating") or result.get("leaving"):
            where, blocked, dialogs = answers.departure(result)
            snapshot = self.settled(light, navigating=True)
            snapshot.navigated = where or snapshot.url
            snapshot.blocked = [*blocked, *snapshot.blocked]
            snapshot.dialogs = [*dialogs, *snapshot.dialogs]
            if self.traffic.downloading():
                saved = where
        elif again is not None:
            snapshot = _unhovered(Snapshot.from_agent(result), self.snapshot(again))
            if moved:
                snapshot.navigated = snapshot.url
        else:
            snapshot = self.snapshot(result)
        snapshot.downloads = self.traffic.downloaded(saved, snapshot.saving)
        if result.get("absent") is not None:
            raise OptionAbsent(int(answers.number(result["absent"], "the options shown")), snapshot)
        return snapshot

    def replay(self, actions: list[Action]) -> list[Snapshot]:
        """Fire ``actions`` one after the other in one round trip; light snapshots of each
        state on the way. Stops early when one fails or leaves the page (that one's snapshot
        is the last, after the navigation settled)."""
        if any(a.hover or a.is_link for a in actions):
            return [self.fire(actions[0], light=True)]
        specs = [{**a.spec(), "volatile": self.volatile, "light": True} for a in actions]
        result = self.agent.call("replay", specs)
        if result.get("missing") or result.get("leaving"):
            raise ActionFailed("the page went away during a replay")
        snapshots = []
        for step in answers.items(result.get("steps"), "the replay's steps", len(actions)):
            step = answers.reply(step)
            _failed(step)
            if step.get("navigating"):
                snapshot = self.settled(light=True, navigating=True)
                snapshot.navigated = answers.departure(step)[0] or snapshot.url
                snapshots.append(snapshot)
                break
            snapshots.append(self.snapshot(step, own_url=False))
        if not snapshots:
            raise ActionFailed("the replay answered no step")
        return snapshots

    def hover(self, locator: str) -> None:
        """Move the real mouse over an element, so CSS :hover rules apply."""
        point = self.agent.call("point", locator)
        if not (point.get("x") is not None and point.get("y") is not None):
            raise ActionFailed(f"nothing to hover at {locator}")
        self.chromium.web.execute_cdp_cmd(
            "Input.dispatchMouseEvent", {"type": "mouseMoved", "x": point["x"], "y": point["y"]}
        )

    def park(self) -> None:
        """Move the real mouse off the page (where a fresh load has it: over nothing), so
        that no :hover rule applies to the states that follow."""
        with contextlib.suppress(WebDriverException):
            self.chromium.web.execute_cdp_cmd(
                "Input.dispatchMouseEvent", {"type": "mouseMoved", "x": -1, "y": -1}
            )


def _failed(result: dict[str, Any]) -> None:
    """Raise ``ActionFailed`` when the agent says an action could not be fired."""
    if result.get("error"):
        error = answers.text(result["error"], "an error", 200)
        message = answers.text(result.get("message") or "the element is gone", "an error")
        raise ActionFailed(f"{error}: {message}")


def _unhovered(fired: Snapshot, again: Snapshot) -> Snapshot:
    """The snapshot taken ``again`` after a fire (whose own light snapshot is ``fired``)
    once the mouse was parked, with what the fire recorded: its frames, dialogs, popups,
    blocked, guarded and unprompted requests, downloads asked for, and its settle."""
    again.frames = fired.frames
    again.dialogs = [*fired.dialogs, *again.dialogs]
    again.popups = [*fired.popups, *again.popups]
    again.blocked = [*fired.blocked, *again.blocked]
    again.guarded = [*fired.guarded, *again.guarded]
    again.unprompted = [*fired.unprompted, *again.unprompted]
    again.saving = [*fired.saving, *again.saving]
    again.timed_out = fired.timed_out or again.timed_out
    again.waits_missed = [*fired.waits_missed, *again.waits_missed]
    again.settle_ms += fired.settle_ms
    again.snapshot_ms += fired.snapshot_ms
    return again
