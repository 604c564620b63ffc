#!/usr/bin/env python3
"""Drive every build of the Errands zoo in headless Chromium, through real keys and clicks.

Usage: check.py [DIST] [--stack NAME ...] [--dom] [--shots DIR] [--trace]

Serves DIST (default: dist/ beside this file) on 127.0.0.1 from a thread, then for each stack
opens a fresh Chromium and walks the app: add, toggle, filters, edit (Enter, Escape, blur),
hover-revealed Remove, Clear done, reload from localStorage, console errors, outside requests,
and the DOM's shape against the canonical one. Prints one line per stack: PASS, or FAIL and
what failed. Exit status 1 when any stack fails.

Light-DOM builds are reached with ordinary locators, the open shadow root (lit) through
``element.shadow_root``. A closed shadow root (shadow-closed) is out of WebDriver's reach,
so its nodes are found through the DevTools protocol (DOM.getDocument with pierce) only to
learn where they are on screen; every action on them is still a real mouse or key event.

--dom prints each stack's normalised DOM; --shots DIR saves a screenshot per stack.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import re
import shutil
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement

STACKS = [
    "vanilla",
    "jquery",
    "backbone",
    "react",
    "preact",
    "vue",
    "svelte",
    "lit",
    "shadow-closed",
]
SHADOW = {"lit": "open", "shadow-closed": "closed"}
FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=900,700",
]
WAIT = 3.0


def canonical(rows: list[tuple[str, bool, bool]], selected: str = "All") -> str:
    """The app's DOM with these (text, done, editing) rows and filter `selected`.

    Element tags, attributes sorted by name, data-id values replaced by ID, and text; comments
    and empty text nodes that frameworks leave as markers are not part of it."""
    lis = "".join(
        f'<li class="errand{" done" if done else ""}" data-id="ID">'
        '<input aria-label="Done" class="toggle" type="checkbox">'
        + ('<input class="edit">' if editing else f'<span class="text">{text}</span>')
        + '<button aria-label="Remove" class="remove">\u00d7</button></li>'
        for text, done, editing in rows
    )
    footer = ""
    if rows:
        left = sum(1 for _, done, _ in rows if not done)
        mark = ' class="selected"'
        links = " ".join(
            f'<a{mark if label == selected else ""} href="{href}">{label}</a>'
            for href, label in [("#/", "All"), ("#/open", "Open"), ("#/done", "Done")]
        )
        clear = '<button class="clear">Clear done</button>' if left < len(rows) else ""
        footer = (
            f'<footer class="bar"><span class="count">{left} errand{"" if left == 1 else "s"} '
            f"left</span>{links}{clear}</footer>"
        )
    return (
        '<main class="app" id="app"><h1>Errands</h1>'
        '<input aria-label="New errand" class="new-errand" name="errand" placeholder="New errand">'
        f'<ul class="errands">{lis}</ul>{footer}</main>'
    )


# What a framework does to the DOM on its own: (regular expression, replacement, description),
# mapped back to the canonical shape before comparing, and reported.
KNOWN_DIFFERENCES: dict[str, list[tuple[str, str, str]]] = {
    "vue": [
        (
            '<main class="app" data-v-app id="app">',
            '<main class="app" id="app">',
            "data-v-app on the mount container",
        ),
        (
            '<input aria-label="Done" checked class="toggle"',
            '<input aria-label="Done" class="toggle"',
            "checked attribute on ticked boxes",
        ),
        ("<a class href=", "<a href=", 'class="" on unselected filter links'),
        (
            r'<input class="edit" value="[^"]*">',
            '<input class="edit">',
            "value attribute on the edit field",
        ),
    ],
    "react": [
        (
            '<input aria-label="Done" checked class="toggle"',
            '<input aria-label="Done" class="toggle"',
            "checked attribute on boxes that were ticked when React created them",
        ),
    ],
}

# Serialises an element as above; `this` is the element. Also counts what normalising dropped.
SERIALISE = r"""
function () {
  const dropped = {comments: 0, emptyText: 0};
  function walk(node) {
    if (node.nodeType === 8) { dropped.comments++; return ''; }
    if (node.nodeType === 3) {
      if (node.data === '') { dropped.emptyText++; return ''; }
      return node.data.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    }
    if (node.nodeType !== 1) return '';
    const names = node.getAttributeNames().sort();
    let out = '<' + node.localName;
    for (const name of names) {
      const value = name === 'data-id' ? 'ID' : node.getAttribute(name);
      out += value === '' ? ' ' + name : ' ' + name + '="' + value.replace(/"/g, '&quot;') + '"';
    }
    out += '>';
    if (['input', 'br', 'img'].includes(node.localName)) return out;
    for (const child of node.childNodes) out += walk(child);
    return out + '</' + node.localName + '>';
  }
  return {dom: walk(this), comments: dropped.comments, emptyText: dropped.emptyText};
}
"""


class Failure(Exception):
    pass


def retry(read: Callable[[], Any]) -> Any:
    """read(), again if the nodes it held were replaced by a re-render meanwhile."""
    for attempt in range(5):
        try:
            return read()
        except (StaleElementReferenceException, Failure):
            if attempt == 4:
                raise
            time.sleep(0.1)


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def new_driver(profile: str) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(
        service=webdriver.ChromeService(executable_path="/usr/bin/chromedriver"), options=options
    )


# ---------------------------------------------------------------- two ways to reach the nodes


class Node:
    """One element of the app, with real-input actions."""

    def __init__(self, driver: webdriver.Chrome) -> None:
        self.driver = driver

    def js(self, body: str) -> Any:
        """Evaluate `function () { body }` with `this` bound to the element."""
        raise NotImplementedError

    def center(self) -> tuple[int, int]:
        r = self.js(
            "const r = this.getBoundingClientRect();"
            "return [r.left + r.width / 2, r.top + r.height / 2];"
        )
        return round(r[0]), round(r[1])

    @property
    def text(self) -> str:
        return self.js("return this.textContent;")

    @property
    def cls(self) -> str:
        return self.js("return this.getAttribute('class') || '';")

    @property
    def value(self) -> str:
        return self.js("return this.value;")

    @property
    def checked(self) -> bool:
        return self.js("return this.checked;")

    @property
    def visibility(self) -> str:
        return self.js("return getComputedStyle(this).visibility;")

    @property
    def focused(self) -> bool:
        return self.js("return this.getRootNode().activeElement === this;")

    def _pointer(self, act: Callable[[Any], None]) -> None:
        x, y = self.center()
        builder = ActionBuilder(self.driver, duration=0)
        builder.pointer_action.move_to_location(x, y)
        act(builder.pointer_action)
        builder.perform()

    def click(self) -> None:
        self._pointer(lambda p: p.click())

    def dblclick(self) -> None:
        self._pointer(lambda p: p.double_click())

    def hover(self) -> None:
        self._pointer(lambda p: None)


class WebNode(Node):
    """An element WebDriver can reference: light DOM, or inside an open shadow root."""

    def __init__(self, driver: webdriver.Chrome, element: WebElement) -> None:
        super().__init__(driver)
        self.element = element

    def js(self, body: str) -> Any:
        return self.driver.execute_script(
            f"return (function () {{ {body} }}).call(arguments[0]);", self.element
        )

    def serialise(self) -> dict[str, Any]:
        return self.driver.execute_script(f"return ({SERIALISE}).call(arguments[0]);", self.element)


class CdpNode(Node):
    """An element inside a closed shadow root, held as a DevTools remote object."""

    def __init__(self, driver: webdriver.Chrome, object_id: str) -> None:
        super().__init__(driver)
        self.object_id = object_id

    def call(self, function: str) -> Any:
        reply = self.driver.execute_cdp_cmd(
            "Runtime.callFunctionOn",
            {"objectId": self.object_id, "functionDeclaration": function, "returnByValue": True},
        )
        if "exceptionDetails" in reply:
            raise Failure(f"script error: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def js(self, body: str) -> Any:
        return self.call(f"function () {{ {body} }}")

    def serialise(self) -> dict[str, Any]:
        return self.call(SERIALISE)


class Ui:
    """Finds the app's nodes; the light-DOM and open-shadow flavour."""

    def __init__(self, driver: webdriver.Chrome, shadow: str | None) -> None:
        self.driver = driver
        self.shadow = shadow

    def all(self, css: str) -> list[Node]:
        scope: Any = self.driver
        if self.shadow == "open":
            hosts = self.driver.find_elements(By.CSS_SELECTOR, "errands-app")
            if not hosts:
                return []
            scope = hosts[0].shadow_root
        return [WebNode(self.driver, e) for e in scope.find_elements(By.CSS_SELECTOR, css)]

    def one(self, css: str) -> Node:
        found = self.all(css)
        if len(found) != 1:
            raise Failure(f"expected one {css}, found {len(found)}")
        return found[0]

    def keys(self, *keys: str) -> None:
        """Type into whatever has focus."""
        ActionChains(self.driver, duration=0).send_keys(*keys).perform()

    def select_all(self) -> None:
        ActionChains(self.driver, duration=0).key_down(Keys.CONTROL).send_keys("a").key_up(
            Keys.CONTROL
        ).perform()


class ClosedUi(Ui):
    """Nodes of a closed shadow root, located through DOM.getDocument(pierce=True)."""

    def all(self, css: str) -> list[Node]:
        doc = self.driver.execute_cdp_cmd("DOM.getDocument", {"depth": -1, "pierce": True})
        root_id = None
        stack = [doc["root"]]
        while stack and root_id is None:
            node = stack.pop()
            if node.get("localName") == "errands-app" and node.get("shadowRoots"):
                root_id = node["shadowRoots"][0]["nodeId"]
            stack.extend(node.get("children", []))
            stack.extend(node.get("shadowRoots", []))
        if root_id is None:
            return []
        ids = self.driver.execute_cdp_cmd(
            "DOM.querySelectorAll", {"nodeId": root_id, "selector": css}
        )["nodeIds"]
        nodes: list[Node] = []
        for node_id in ids:
            obj = self.driver.execute_cdp_cmd("DOM.resolveNode", {"nodeId": node_id})["object"][
                "objectId"
            ]
            nodes.append(CdpNode(self.driver, obj))
        return nodes


# ---------------------------------------------------------------- the walk through the app


class Walk:
    def __init__(
        self, driver: webdriver.Chrome, base: str, stack: str, shots: Path | None, dom: bool
    ) -> None:
        self.driver = driver
        self.url = f"{base}/{stack}/"
        self.origin = base
        self.stack = stack
        self.shots = shots
        self.show_dom = dom
        self.shadow = SHADOW.get(stack)
        self.ui = ClosedUi(driver, "closed") if self.shadow == "closed" else Ui(driver, self.shadow)
        self.failures: list[str] = []
        self.notes: list[str] = []

    # helpers ---------------------------------------------------------------------------

    def check(self, ok: bool, what: str) -> None:
        if not ok:
            self.failures.append(what)

    def wait(self, probe: Callable[[], Any], what: str | Callable[[], str]) -> bool:
        """Poll probe() until truthy; after WAIT seconds record `what` (or what()) as failed."""
        deadline = time.monotonic() + WAIT
        last: Any = None
        while True:
            try:
                last = probe()
                if last:
                    return True
            except Exception as exc:  # stale nodes while a framework re-renders, etc.
                last = exc
            if time.monotonic() > deadline:
                self.failures.append(retry(what) if callable(what) else what)
                return False
            time.sleep(0.05)

    def rows(self) -> list[str]:
        return retry(lambda: [n.text for n in self.ui.all("li.errand .text, li.errand .edit")])

    def count(self) -> str | None:
        def read() -> str | None:
            found = self.ui.all("footer.bar .count")
            return found[0].text if found else None

        return retry(read)

    def footer_shown(self) -> bool:
        def read() -> bool:
            bars = self.ui.all("footer.bar")
            return bool(bars) and bars[0].js(
                "return !this.hidden && this.getClientRects().length > 0;"
            )

        return retry(read)

    def row(self, text: str) -> Node:
        return retry(lambda: self._row(text))

    def _row(self, text: str) -> Node:
        for li in self.ui.all("li.errand"):
            if self._row_text(li) == text:
                return li
        raise Failure(f"no row {text!r}")

    def in_row(self, text: str, css: str) -> Node:
        """The `css` node inside the row showing `text`."""

        def find() -> Node:
            index = next(
                (i for i, li in enumerate(self.ui.all("li.errand")) if self._row_text(li) == text),
                None,
            )
            found = (
                self.ui.all(f"li.errand:nth-child({index + 1}) {css}") if index is not None else []
            )
            if not found:
                raise Failure(f"no {css} in row {text!r}")
            return found[0]

        return retry(find)

    @staticmethod
    def _row_text(li: Node) -> str | None:
        return li.js("const t = this.querySelector('.text'); return t ? t.textContent : null;")

    def link(self, label: str) -> Node:
        return retry(lambda: self._link(label))

    def _link(self, label: str) -> Node:
        for a in self.ui.all("footer.bar a"):
            if a.text == label:
                return a
        raise Failure(f"no link {label!r}")

    def add(self, text: str) -> None:
        self.ui.one("input.new-errand").click()
        self.ui.keys(text, Keys.ENTER)

    def stored(self) -> Any:
        raw = self.driver.execute_script(
            "return localStorage.getItem(arguments[0]);", f"errands-{self.stack}"
        )
        return json.loads(raw) if raw else None

    def outside_requests(self) -> list[str]:
        names = self.driver.execute_script(
            "return performance.getEntriesByType('resource').map(e => e.name)"
            ".concat(performance.getEntriesByType('navigation').map(e => e.name));"
        )
        return [n for n in names if not n.startswith(self.origin + "/")]

    def console(self) -> None:
        for entry in self.driver.get_log("browser"):
            if entry.get("level") == "SEVERE":
                self.failures.append(f"console error: {entry.get('message')}")
            elif entry.get("level") == "WARNING":
                self.notes.append(f"console warning: {entry.get('message')}")

    def load(self, fresh: bool = False) -> None:
        if fresh:
            self.driver.get(self.url)
        else:
            self.driver.refresh()
        self.wait(lambda: self.ui.all("input.new-errand"), "app did not render its input")
        outside = self.outside_requests()
        self.check(not outside, f"requests outside the page's origin: {outside}")

    # the walk -----------------------------------------------------------------------------

    def run(self) -> None:
        self.load(fresh=True)
        self.check(
            self.ui.all("h1") and self.ui.all("h1")[0].text == "Errands", "no <h1>Errands</h1>"
        )
        self.check(self.rows() == [], "list not empty at start")
        self.check(not self.footer_shown(), "footer shown while the list is empty")

        # add, trimmed, empty ignored, field cleared
        self.add("buy milk")
        self.wait(
            lambda: self.rows() == ["buy milk"],
            lambda: f"typing 'buy milk'+Enter did not add the row (rows {self.rows()})",
        )
        self.wait(
            lambda: self.count() == "1 errand left",
            lambda: f"count not '1 errand left' but {self.count()!r}",
        )
        self.check(self.ui.one("input.new-errand").value == "", "field not cleared after adding")
        self.check(not self.ui.all("footer.bar button.clear"), "Clear done shown with nothing done")
        self.ui.keys("   ", Keys.ENTER)
        time.sleep(0.2)
        self.check(self.rows() == ["buy milk"], f"a blank errand was added (rows {self.rows()})")

        # toggle
        self.in_row("buy milk", ".toggle").click()
        self.wait(
            lambda: self.count() == "0 errands left",
            lambda: f"ticking did not give '0 errands left' but {self.count()!r}",
        )
        self.wait(lambda: "done" in self.row("buy milk").cls.split(), "ticked row lacks class done")
        self.wait(
            lambda: [b.text for b in self.ui.all("footer.bar button.clear")] == ["Clear done"],
            "no Clear done button after ticking",
        )
        self.in_row("buy milk", ".toggle").click()
        self.wait(
            lambda: self.count() == "1 errand left", "unticking did not give back '1 errand left'"
        )
        self.wait(
            lambda: not self.ui.all("footer.bar button.clear"),
            "Clear done still shown after unticking",
        )
        self.in_row("buy milk", ".toggle").click()
        self.wait(lambda: self.count() == "0 errands left", "ticking again failed")

        self.add("  walk dog  ")
        self.wait(
            lambda: self.rows() == ["buy milk", "walk dog"],
            lambda: f"second add failed or untrimmed (rows {self.rows()})",
        )
        self.wait(
            lambda: self.count() == "1 errand left",
            lambda: f"count with one open of two is {self.count()!r}",
        )
        self.ui.one("h1").hover()
        self.dom_shape([("buy milk", True, False), ("walk dog", False, False)], "after adding")
        if self.shots:
            self.in_row("walk dog", ".text").hover()
            self.driver.save_screenshot(str(self.shots / f"{self.stack}.png"))

        # filters
        for label, hash_, expect in [
            ("Open", "#/open", ["walk dog"]),
            ("Done", "#/done", ["buy milk"]),
            ("All", "#/", ["buy milk", "walk dog"]),
        ]:
            self.link(label).click()
            self.wait(
                lambda expect=expect: self.rows() == expect,
                lambda label=label, expect=expect: (
                    f"filter {label} shows {self.rows()} not {expect}"
                ),
            )
            self.check(
                self.driver.execute_script("return location.hash") == hash_,
                f"filter {label} did not set {hash_}",
            )
            self.wait(
                lambda label=label: (
                    [a.text for a in self.ui.all("footer.bar a.selected")] == [label]
                ),
                f"filter {label} not the one marked selected",
            )

        # edit: Enter commits, Escape cancels, blur commits, empty deletes
        self.in_row("walk dog", ".text").dblclick()
        if self.wait(
            lambda: len(self.ui.all("li.errand .edit")) == 1,
            "double-click did not open the edit field",
        ):
            edit = self.ui.one("li.errand .edit")
            self.check(edit.value == "walk dog", f"edit field holds {edit.value!r}")
            self.wait(lambda: self.ui.one("li.errand .edit").focused, "edit field not focused")
            self.dom_shape([("buy milk", True, False), ("walk dog", False, True)], "while editing")
            self.ui.select_all()
            self.ui.keys("walk the dog", Keys.ENTER)
            self.wait(
                lambda: self.rows() == ["buy milk", "walk the dog"] and not self.ui.all(".edit"),
                lambda: f"Enter did not commit the edit (rows {self.rows()})",
            )
        self.in_row("walk the dog", ".text").dblclick()
        if self.wait(
            lambda: self.ui.all("li.errand .edit") and self.ui.one("li.errand .edit").focused,
            "second edit did not open",
        ):
            self.ui.select_all()
            self.ui.keys("zzz", Keys.ESCAPE)
            self.wait(
                lambda: self.rows() == ["buy milk", "walk the dog"] and not self.ui.all(".edit"),
                lambda: f"Escape did not cancel (rows {self.rows()})",
            )
        time.sleep(0.2)
        self.check(
            self.rows() == ["buy milk", "walk the dog"],
            f"Escape was followed by a commit (rows {self.rows()})",
        )
        self.in_row("walk the dog", ".text").dblclick()
        if self.wait(
            lambda: self.ui.all("li.errand .edit") and self.ui.one("li.errand .edit").focused,
            "third edit did not open",
        ):
            self.ui.select_all()
            self.ui.keys("walk the cat")
            self.ui.one("h1").click()
            self.wait(
                lambda: self.rows() == ["buy milk", "walk the cat"] and not self.ui.all(".edit"),
                lambda: f"blur did not commit (rows {self.rows()})",
            )

        # hover reveals Remove
        self.ui.one("h1").hover()
        self.wait(
            lambda: self.in_row("buy milk", ".remove").visibility == "hidden",
            "Remove visible without hover",
        )
        self.in_row("buy milk", ".text").hover()
        self.wait(
            lambda: self.in_row("buy milk", ".remove").visibility == "visible",
            "hovering the row did not reveal Remove",
        )
        self.check(
            self.in_row("walk the cat", ".remove").visibility == "hidden",
            "hover revealed another row's Remove",
        )

        # persistence
        ids = [li.js("return this.getAttribute('data-id');") for li in self.ui.all("li.errand")]
        self.check(all(ids) and len(set(ids)) == 2, f"data-id missing or repeated: {ids}")
        self.wait(
            lambda: (
                [(e.get("text"), e.get("done")) for e in self.stored() or []]
                == [("buy milk", True), ("walk the cat", False)]
            ),
            lambda: f"localStorage errands-{self.stack} holds {self.stored()!r}",
        )
        self.console()
        self.load()
        self.wait(
            lambda: self.rows() == ["buy milk", "walk the cat"],
            lambda: f"reload lost the items (rows {self.rows()})",
        )
        self.wait(
            lambda: self.count() == "1 errand left",
            lambda: f"after reload count is {self.count()!r}",
        )
        self.check(
            self.in_row("buy milk", ".toggle").checked, "after reload 'buy milk' is not ticked"
        )
        self.check(
            "done" in self.row("buy milk").cls.split(), "after reload 'buy milk' lacks class done"
        )
        self.check(
            not self.in_row("walk the cat", ".toggle").checked,
            "after reload 'walk the cat' is ticked",
        )
        self.dom_shape([("buy milk", True, False), ("walk the cat", False, False)], "after reload")
        again = [li.js("return this.getAttribute('data-id');") for li in self.ui.all("li.errand")]
        self.check(again == ids, f"data-id changed over reload: {ids} -> {again}")

        # Clear done, then Remove the last one
        self.ui.one("footer.bar button.clear").click()
        self.wait(lambda: self.rows() == ["walk the cat"], lambda: f"Clear done left {self.rows()}")
        self.wait(
            lambda: not self.ui.all("footer.bar button.clear"),
            "Clear done still shown with nothing done",
        )
        self.in_row("walk the cat", ".text").hover()
        self.in_row("walk the cat", ".remove").click()
        self.wait(lambda: self.rows() == [], lambda: f"Remove left {self.rows()}")
        self.wait(lambda: not self.footer_shown(), "footer still shown with an empty list")
        self.wait(
            lambda: self.stored() == [],
            lambda: f"localStorage after removing all: {self.stored()!r}",
        )
        self.console()
        self.load()
        self.check(
            self.rows() == [] and not self.footer_shown(), "reload after removing all is not empty"
        )

        # an empty commit deletes
        self.add("temp")
        self.wait(lambda: self.rows() == ["temp"], "could not add 'temp'")
        self.in_row("temp", ".text").dblclick()
        if self.wait(
            lambda: self.ui.all("li.errand .edit") and self.ui.one("li.errand .edit").focused,
            "edit of 'temp' did not open",
        ):
            self.ui.select_all()
            self.ui.keys(Keys.BACKSPACE, Keys.ENTER)
            self.wait(
                lambda: self.rows() == [], lambda: f"empty edit did not delete (rows {self.rows()})"
            )
        outside = self.outside_requests()
        self.check(not outside, f"requests outside the page's origin: {outside}")
        self.console()

    def dom_shape(self, rows: list[tuple[str, bool, bool]], when: str) -> None:
        mains = self.ui.all("main.app")
        if len(mains) != 1:
            self.failures.append("no single main.app")
            return
        shape = mains[0].serialise()  # type: ignore[attr-defined]
        dom = shape["dom"]
        for count, what in [(shape["comments"], "comment"), (shape["emptyText"], "empty text")]:
            if count and f"{what} nodes as markers" not in self.notes:
                self.notes.append(f"{what} nodes as markers")
        if self.show_dom:
            dropped = f"{shape['comments']} comments, {shape['emptyText']} empty text nodes dropped"
            print(f"--- {self.stack} {when}: {dropped}")
            print(dom)
        for framework, plain, what in KNOWN_DIFFERENCES.get(self.stack, []):
            if re.search(framework, dom):
                dom = re.sub(framework, plain, dom)
                if what not in self.notes:
                    self.notes.append(what)
        want = canonical(rows)
        if dom != want:
            self.failures.append(
                f"DOM {when} differs from the canonical shape: {first_difference(dom, want)}"
            )


def first_difference(got: str, want: str) -> str:
    i = next(
        (i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b),
        min(len(got), len(want)),
    )
    return (
        f"at {i}: got …{got[max(0, i - 40) : i + 40]!r}… want …{want[max(0, i - 40) : i + 40]!r}…"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dist", nargs="?", default=str(Path(__file__).parent / "dist"))
    parser.add_argument(
        "--stack", action="append", choices=STACKS, help="only this stack (repeatable)"
    )
    parser.add_argument("--dom", action="store_true", help="print each stack's normalised DOM")
    parser.add_argument("--shots", help="save a screenshot per stack into this folder")
    parser.add_argument(
        "--trace", action="store_true", help="print the traceback of a stack that stopped"
    )
    args = parser.parse_args()

    dist = Path(args.dist).resolve()
    shots = Path(args.shots).resolve() if args.shots else None
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    server, base = serve(dist)
    failed = 0
    try:
        for stack in args.stack or STACKS:
            if not (dist / stack / "index.html").exists():
                print(f"FAIL {stack}: no {stack}/index.html in {dist}")
                failed += 1
                continue
            profile = tempfile.mkdtemp(prefix="zoo-chrome-")
            driver = new_driver(profile)
            walk = Walk(driver, base, stack, shots, args.dom)
            try:
                walk.run()
            except Exception as exc:  # a step that could not go on at all
                if args.trace:
                    traceback.print_exc()
                walk.failures.append(
                    f"stopped: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
                )
            finally:
                driver.quit()
                shutil.rmtree(profile, ignore_errors=True)
            if walk.failures:
                failed += 1
                print(f"FAIL {stack}: " + "; ".join(walk.failures), flush=True)
            else:
                extra = f" ({'; '.join(walk.notes)})" if walk.notes else ""
                print(f"PASS {stack}{extra}", flush=True)
    finally:
        server.shutdown()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
