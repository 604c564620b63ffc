"""Crawl rules' selectors, checked before a crawl starts (see :class:`statecrawl.config.Rules`):
a rule written as one string (``xpath://a[@id='x']``, the command line's form), and the form of
a CSS selector and of an XPath, so that a typo is a one-line ``ConfigError`` rather than a rule
that silently selects nothing in every page."""

from __future__ import annotations

import re

from lxml import etree

from .errors import ConfigError

# A rule's one-string form: ``KIND:SELECTOR``, the kind naming a field of ``Rule``; CSS without one.
KINDS = {"css": "css", "xpath": "xpath", "text": "text", "regex": "text_regex", "attr": "attribute"}
_KIND = re.compile(r"(css|xpath|text|regex|attr):")

# The pieces of a CSS compound selector: a type or universal selector (with a namespace), an id,
# a class, a pseudo-class or pseudo-element (its argument read by _closing), the nesting `&`.
_CHAR = r"(?:[\w-]|[^\x00-\x7f]|\\.)"
_IDENT = rf"(?:--|-?(?:[A-Za-z_]|[^\x00-\x7f]|\\.)){_CHAR}*"
_PIECE = re.compile(
    rf"(?:(?:{_IDENT}|\*)?\|)?(?:{_IDENT}|\*)|#{_CHAR}+|\.{_IDENT}|::?{_IDENT}|&"
)
_STRING = r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'"
_ATTRIBUTE = re.compile(
    rf"\s*(?:(?:{_IDENT}|\*)?\|)?{_IDENT}\s*"
    rf"(?:[~|^$*]?=\s*(?:{_IDENT}|{_STRING})\s*(?:[iIsS]\s*)?)?"
)
_ATTRIBUTE_NAME = re.compile(r"[^\s\"'>/=]+")  # as HTML allows it


def parse(spec: str) -> dict[str, str]:
    """The table of a rule written as one string: ``css:``, ``xpath:``, ``text:`` (the exact
    text), ``regex:`` (a pattern of the text) or ``attr:`` (``name=value`` or ``name``) and the
    selector; a string with none of these prefixes is a CSS selector."""
    match = _KIND.match(spec)
    if match is None:
        return {"css": spec}
    return {KINDS[match.group(1)]: spec[match.end() :]}


def check_css(selector: str) -> None:
    """Raise ``ConfigError`` unless ``selector`` has the form of a CSS selector list: compound
    selectors joined by combinators and commas, brackets and quotes closed. Pseudo-classes are
    not looked up, so any the browser knows passes (``:has()``, ``:nth-child(2 of .x)``)."""
    problem = _css_problem(selector)
    if problem is not None:
        raise ConfigError(f"rule css {selector!r} is no CSS selector: {problem}")


def _css_problem(selector: str) -> str | None:
    """What is wrong with ``selector`` as a CSS selector list (``None``: nothing)."""
    expecting = "a selector"  # what must come next: a compound selector, after this
    at = 0
    while at < len(selector):
        char = selector[at]
        if char.isspace():
            at += 1
        elif char in ">+~,":
            if expecting:
                return f"{char!r} at {at} follows no selector"
            expecting = "a selector after " + repr(char)
            at += 1
        else:
            end = _piece_end(selector, at)
            if end is None:
                return f"unexpected {char!r} at {at}"
            expecting = ""
            at = end
    return f"{expecting} is missing at the end" if expecting else None


def _piece_end(selector: str, at: int) -> int | None:
    """Where the piece of a compound selector starting at ``at`` ends (``None``: none starts)."""
    if selector[at] == "[":
        end = _closing(selector, at, "[", "]")
        inside = selector[at + 1 : end - 1] if end is not None else ""
        return end if end is not None and _ATTRIBUTE.fullmatch(inside) else None
    match = _PIECE.match(selector, at)
    if match is None:
        return None
    end = match.end()
    if match.group().startswith(":") and selector.startswith("(", end):
        return _closing(selector, end, "(", ")")
    return end


def _closing(text: str, at: int, opening: str, closing: str) -> int | None:
    """The index after the ``closing`` bracket that closes the one at ``at``, across nested
    brackets and quoted strings (``None``: it is never closed)."""
    depth = 0
    quote = ""
    index = at
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == opening:
            depth += 1
        elif char == closing:
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return None


def check_xpath(xpath: str) -> None:
    """Raise ``ConfigError`` unless ``xpath`` compiles as an XPath 1.0 expression, as the
    browser's ``document.evaluate`` reads it."""
    try:
        etree.XPath(xpath)
    except etree.XPathError as exc:
        raise ConfigError(f"rule xpath {xpath!r} is no XPath: {exc}") from None


def check_attribute(attribute: str) -> None:
    """Raise ``ConfigError`` unless ``attribute`` is ``name=value`` or ``name``."""
    name = attribute.partition("=")[0]
    if not _ATTRIBUTE_NAME.fullmatch(name):
        raise ConfigError(
            f"rule attribute {attribute!r}: expected name=value or name, such as "
            "'data-action=delete'"
        )
