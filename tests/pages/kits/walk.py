"""Hand-written walks of the kit zoo: for each app, everything a user can do, done with real
pointer clicks and keys in a Selenium Chrome, checking that every marker becomes visible.

These walks prove each marker reachable and are the reference a crawl's coverage is compared
with. ``walk(driver, url, app)`` loads the app at ``url``, runs its walk and returns the markers
it saw shown, in order; a step that does not show what it should raises ``WalkError``.
``covered_walk`` does the same with V8's precise coverage on (``statecrawl.coverage``) and
also returns the totals a crawl's ``coverage.json`` would give.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from selenium.common.exceptions import (
    ElementClickInterceptedException,
    ElementNotInteractableException,
    MoveTargetOutOfBoundsException,
    NoSuchElementException,
    StaleElementReferenceException,
)
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

import statecrawl
from statecrawl import coverage
from statecrawl.config import Config
from statecrawl.engine import Explorer
from statecrawl.scope import Scope

# The marker texts of each app: each shown only after a complete use of a control.
MARKERS: dict[str, tuple[str, ...]] = {
    "bootstrap": ("Notifications on", "Dark theme on", "Plan: Pro chosen", "Digest: weekly",
                  "Settings saved", "API key: kit-4242"),
    "mui": ("Notifications on", "Digest: weekly", "Plan: Pro chosen", "Ships to Norway",
            "Workspace archived", "API key: kit-4242"),
    "vue": ("Notifications on", "Digest: weekly", "Plan: Pro chosen", "Workspace archived",
            "API key: kit-4242"),
    "headless": ("Notifications on", "Digest: weekly", "Plan: Pro chosen", "Workspace archived",
                 "API key: kit-4242"),
    "shoelace": ("Notifications on", "Digest: weekly", "Plan: Pro chosen", "Workspace archived",
                 "API key: kit-4242"),
    "todo": ("buy milk", "1 item left", "Clear completed", "0 items left", "Nothing left to do"),
}
# The crawl's inputs.values: the one text field of the apps that have one.
INPUTS: dict[str, dict[str, list[str]]] = {
    "mui": {"Country": ["Norway"]},
    "todo": {"New todo": ["buy milk"]},
}
WAIT = 5.0

# The markers among arguments[0] whose text is in a visible element, open shadow roots
# included: checked on the text node's own parent, which is the element that lays it out.
SHOWN = """
const markers = arguments[0], found = [];
function visit(root) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === 1) { if (node.shadowRoot) visit(node.shadowRoot); continue; }
    const el = node.parentElement;
    for (const marker of markers) {
      if (found.includes(marker) || !node.data.includes(marker) || !el) continue;
      const box = el.getBoundingClientRect();
      if (el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })
          && box.width > 0 && box.height > 0) found.push(marker);
    }
  }
}
visit(document);
return found;
"""


# The element for find(): arguments[0] a CSS selector, or arguments[1] an XPath; null while
# there is none with a box, or while a finite animation or transition of it or of one of its
# ancestors still runs (a ripple inside a button does not move the button).
FIND = """
const [css, path] = arguments;
const found = path
  ? document.evaluate(path, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null)
  : document.querySelectorAll(css);
const all = path
  ? Array.from({ length: found.snapshotLength }, (_, i) => found.snapshotItem(i))
  : [...found];
const el = all.find((e) => {
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
});
const holds = (box, node) => {  // box is node or one of its ancestors, across shadow roots
  for (let n = node; n; n = n.parentNode || n.host) if (n === box) return true;
  return false;
};
const moving = el && document.getAnimations().some((a) => a.playState === 'running'
  && a.effect && a.effect.target && holds(a.effect.target, el)
  && a.effect.getComputedTiming().iterations !== Infinity);
if (!el || moving) return null;
el.scrollIntoView({ block: 'center' });
return el;
"""


class WalkError(AssertionError):
    """A step of a walk did not do what a user sees it do."""


def shown(driver: WebDriver, markers: tuple[str, ...]) -> set[str]:
    """The markers visible in the driver's page now."""
    return set(driver.execute_script(SHOWN, list(markers)))


class Walker:
    """One walk: real clicks and keys, waits for what they show, the markers seen."""

    def __init__(self, driver: WebDriver, app: str) -> None:
        self.driver = driver
        self.markers = MARKERS[app]
        self.seen: list[str] = []

    def find(self, css: str = "", *, text: str = "", within: str = "*") -> WebElement:
        """The first element with a box matching css, or the innermost ``within`` element
        whose whole text is ``text``, scrolled into view once no animation runs (a menu
        growing, a modal sliding in), waiting for both."""
        whole = f"normalize-space()='{text}'"
        path = f"//{within}[{whole} and not(.//{within}[{whole}])]" if text else ""
        return self._until(lambda: self.driver.execute_script(FIND, css, path),
                           f"no element {css or text!r}")

    def click(self, css: str = "", *, text: str = "", within: str = "*") -> None:
        """A real pointer click at the element's centre, retried while something covers it."""
        def attempt() -> bool:
            try:
                element = self.find(css, text=text, within=within)
                ActionChains(self.driver).move_to_element(element).click().perform()
            except (ElementClickInterceptedException, ElementNotInteractableException,
                    MoveTargetOutOfBoundsException, StaleElementReferenceException):
                return False
            return True
        self._until(attempt, f"could not click {css or text!r}")

    def keys(self, *keys: str) -> None:
        """Keys typed into whatever has the focus."""
        ActionChains(self.driver).send_keys(*keys).perform()

    def expect(self, marker: str) -> None:
        """Wait until the marker is shown; it is one of this app's."""
        if marker not in self.markers:
            raise WalkError(f"{marker!r} is not a marker of this app")
        self._until(lambda: marker in shown(self.driver, (marker,)), f"{marker!r} never shown")
        if marker not in self.seen:
            self.seen.append(marker)

    def gone(self, css: str) -> None:
        """Wait until no element matching css is displayed (a dialog or menu closed)."""
        self._until(lambda: not any(el.is_displayed() for el in
                                    self.driver.find_elements(By.CSS_SELECTOR, css)),
                    f"{css!r} still shown")

    def _until(self, check: Callable[[], object], why: str) -> object:
        deadline = time.monotonic() + WAIT
        while True:
            try:
                result = check()
            except (NoSuchElementException, StaleElementReferenceException):
                result = None
            if result:
                return result
            if time.monotonic() > deadline:
                raise WalkError(why)
            time.sleep(0.05)


def bootstrap(w: Walker) -> None:
    w.click("#notifications")
    w.expect("Notifications on")
    w.click("label[for=theme-dark]")
    w.expect("Dark theme on")
    w.click("label[for=theme-light]")
    w.click("#plan-button")
    w.click("[data-plan=Free]")
    w.click("#plan-button")
    w.click("[data-plan=Pro]")
    w.expect("Plan: Pro chosen")
    w.click("[data-bs-target='#preferences']")
    w.click("#digest")
    w.expect("Digest: weekly")
    w.click("#preferences .btn-close")
    w.gone(".offcanvas-backdrop")
    w.click("[data-bs-target='#save']")
    w.click("#save .btn-secondary")
    w.gone(".modal-backdrop")
    w.click("[data-bs-target='#save']")
    w.click("#confirm")
    w.expect("Settings saved")
    w.gone(".modal-backdrop")
    w.click("#billing-tab")
    w.click("[data-bs-target='#tax']")
    w.click("[data-bs-target='#advanced']")
    w.expect("API key: kit-4242")
    w.click("#general-tab")


def mui(w: Walker) -> None:
    w.click(text="Notifications", within="label")
    w.expect("Notifications on")
    w.click("input[type=checkbox]:not([role=switch])")
    w.expect("Digest: weekly")
    w.click("[role=combobox][aria-labelledby~=plan-label]")
    w.click("li[role=option][data-value=Team]")
    w.gone("[role=listbox]")
    w.click("[role=combobox][aria-labelledby~=plan-label]")
    w.click("li[role=option][data-value=Pro]")
    w.expect("Plan: Pro chosen")
    w.gone("[role=listbox]")
    w.click("button[aria-label=Open]")
    w.click(text="Sweden", within="li")
    w.click("button[aria-label=Clear]")
    w.keys("Norway", Keys.ENTER)
    w.expect("Ships to Norway")
    w.keys(Keys.ESCAPE)
    w.click("#more-button")
    w.click(text="Duplicate", within="li")
    w.gone("#more-menu [role=menu]")
    w.click("#more-button")
    w.click(text="Archive", within="li")
    w.click(text="Cancel", within="button")
    w.gone("[role=dialog]")
    w.click("#more-button")
    w.click(text="Archive", within="li")
    w.click(text="Confirm", within="button")
    w.expect("Workspace archived")
    w.gone("[role=dialog]")
    w.click("#tab-billing")
    w.click("#tax-header")
    w.click("#advanced-header")
    w.expect("API key: kit-4242")


def vue(w: Walker) -> None:
    w.click(".p-toggleswitch")
    w.expect("Notifications on")
    w.click(".p-checkbox")
    w.expect("Digest: weekly")
    w.click(".p-select")
    w.click("li[role=option][aria-label=Free]")
    w.gone(".p-select-overlay")
    w.click(".p-select")
    w.click("li[role=option][aria-label=Pro]")
    w.expect("Plan: Pro chosen")
    w.gone(".p-select-overlay")
    w.click(text="More", within="button")
    w.click(text="Duplicate", within="li")
    w.gone(".p-menu")
    w.click(text="More", within="button")
    w.click(text="Archive", within="li")
    w.click(text="Cancel", within="button")
    w.gone(".p-dialog")
    w.click(text="More", within="button")
    w.click(text="Archive", within="li")
    w.click(text="Confirm", within="button")
    w.expect("Workspace archived")
    w.gone(".p-dialog")
    w.click(text="Billing", within="button")
    w.click(text="Tax", within="button")
    w.click(text="Advanced", within="button")
    w.expect("API key: kit-4242")


def headless(w: Walker) -> None:
    w.click("button[role=switch]")
    w.expect("Notifications on")
    w.click("[role=checkbox]")
    w.expect("Digest: weekly")
    w.click(text="Choose a plan", within="button")
    w.click(text="Team", within="*[@role='option']")
    w.gone("[role=listbox]")
    w.click(text="Team", within="button")
    w.click(text="Pro", within="*[@role='option']")
    w.expect("Plan: Pro chosen")
    w.gone("[role=listbox]")
    w.click(text="More", within="button")
    w.click(text="Duplicate", within="button")
    w.gone("[role=menu]")
    w.click(text="More", within="button")
    w.click(text="Archive", within="button")
    w.click(text="Cancel", within="button")
    w.gone("[role=dialog]")
    w.click(text="More", within="button")
    w.click(text="Archive", within="button")
    w.click(text="Confirm", within="button")
    w.expect("Workspace archived")
    w.gone("[role=dialog]")
    w.click(text="Billing", within="button")
    w.click(text="Tax", within="button")
    w.click(text="Advanced", within="button")
    w.expect("API key: kit-4242")


def shoelace(w: Walker) -> None:
    w.click("#notifications")
    w.expect("Notifications on")
    w.click("#digest")
    w.expect("Digest: weekly")
    w.click("#plan")
    w.click("sl-option[value=Team]")
    w.click("#plan")
    w.click("sl-option[value=Pro]")
    w.expect("Plan: Pro chosen")
    w.click("#archive")
    w.click("#cancel")
    w.gone("sl-dialog[open]")
    w.click("#archive")
    w.click("#confirm")
    w.expect("Workspace archived")
    w.gone("sl-dialog[open]")
    w.click("sl-tab[panel=billing]")
    w.click("sl-details[summary=Tax]")
    w.click("sl-details[summary=Advanced]")
    w.expect("API key: kit-4242")


def todo(w: Walker) -> None:
    w.click(".new-todo")
    w.keys("buy milk", Keys.ENTER)
    w.expect("buy milk")
    w.click(".todo-list li:nth-child(1) .toggle")
    w.click(".todo-list li:nth-child(2) .toggle")
    w.expect("1 item left")
    w.expect("Clear completed")
    w.click("a[href='#/active']")
    w.click("a[href='#/completed']")
    w.click("a[href='#/']")
    w.click("label[for=toggle-all]")
    w.expect("0 items left")
    w.click("label[for=toggle-all]")
    w.click("label[for=toggle-all]")
    w.click(".clear-completed")
    w.expect("Nothing left to do")


WALKS: dict[str, Callable[[Walker], None]] = {
    "bootstrap": bootstrap, "mui": mui, "vue": vue, "headless": headless, "shoelace": shoelace,
    "todo": todo,
}


def walk(driver: WebDriver, url: str, app: str) -> list[str]:
    """Load the app, check no marker shows yet, do everything; the markers seen, in order."""
    driver.get(url)
    Walker(driver, app).find("body")
    early = shown(driver, MARKERS[app])
    if early:
        raise WalkError(f"{app}: shown before any action: {sorted(early)}")
    walker = Walker(driver, app)
    WALKS[app](walker)
    return walker.seen


def covered_walk(driver: WebDriver, url: str, app: str) -> tuple[list[str], dict[str, int]]:
    """walk() with the app's JavaScript coverage recorded as a crawl records it: the markers
    seen, and the functions and bytes covered and in all (``coverage.report``'s total)."""
    recorder = coverage.Recorder(Scope(Config(start_urls=(url,))))
    recorder.start(driver)
    seen = walk(driver, url, app)
    recorder.take(driver)
    driver.execute_cdp_cmd("Profiler.stopPreciseCoverage", {})
    table: dict[str, coverage.Record] = {}
    coverage.merge(table, recorder.collect())
    return seen, coverage.report(table)["total"]


class Shown(statecrawl.Plugin):
    """Records when each of an app's markers was first shown by a new state, looked at in
    the live browser, and stops the crawl once all of them were."""

    def __init__(self, markers: tuple[str, ...]) -> None:
        self.markers = markers
        self.first: dict[str, float] = {}  # marker -> seconds since the plugin was made
        self.explorer: Explorer | None = None
        self.started = time.monotonic()

    @property
    def seen(self) -> set[str]:
        return set(self.first)

    def on_state(self, crawl: object, event: statecrawl.StateEvent) -> None:
        assert event.browser is not None
        at = round(time.monotonic() - self.started, 1)
        for marker in shown(event.browser.web, self.markers) - self.seen:
            self.first[marker] = at
        if self.explorer is not None and self.seen >= set(self.markers):
            self.explorer.stop("every marker shown")


def crawl_until_shown(
    url: str, app: str, out: object, **limits: object
) -> tuple[Shown, statecrawl.Crawl]:
    """Crawl an app to depth 4 (``limits`` as the config's; ``strategy`` and ``coverage``
    too) until every marker is shown: the plugin that saw them, and the crawl."""
    strategy = limits.pop("strategy", "breadth-first")
    covered = limits.pop("coverage", False)
    plugin = Shown(MARKERS[app])
    config = Config.from_mapping({
        "start_urls": [url], "out": out, "limits": {"max_depth": 4, **limits},
        "inputs": {"values": INPUTS.get(app, {})}, "archive": {"enabled": False},
        "strategy": strategy, "browser": {"coverage": covered},
    })
    plugin.explorer = Explorer(config, plugins=[plugin])
    return plugin, plugin.explorer.run()
