"""Turn a state's recorded DOM into a static page: no script runs, no request leaves.

Scripts, ``on*`` handlers, ``javascript:`` URLs and refreshes are removed; frames are
sandboxed; every URL a page loads (images, styles, fonts, frames) goes through a mapper that
gives its replacement (a path served from the archive, or a saved file) or ``None``, and then
the reference is dropped. A Content-Security-Policy that forbids scripts and connections comes
first in the head, so even what slips through can neither run nor fetch. Links to other pages
are left to the caller (:func:`link_actions` turns a state's actions into links).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import urldefrag, urljoin

import lxml.html
from lxml import etree

from ..models.dom import parse

Mapper = Callable[[str], str | None]

CSP = "script-src 'none'; connect-src 'none'; object-src 'none'; worker-src 'none'"
REMOVED = ("script", "noscript", "base")
# Attributes holding one URL a page loads, by element.
URL_ATTRIBUTES = {
    "img": ("src",),
    "image": ("href", "{http://www.w3.org/1999/xlink}href"),
    "use": ("href", "{http://www.w3.org/1999/xlink}href"),
    "source": ("src",),
    "video": ("src", "poster"),
    "audio": ("src",),
    "track": ("src",),
    "input": ("src",),
    "embed": ("src",),
    "object": ("data",),
    "iframe": ("src",),
    "frame": ("src",),
}
LOADED_LINKS = ("stylesheet", "icon", "shortcut", "apple-touch-icon", "preload", "manifest")
_CSS_URL = re.compile(
    r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')""",
    re.I,
)


def static_html(html: str, url: str, mapper: Mapper) -> lxml.html.HtmlElement | None:
    """The recorded DOM ``html`` of a page at ``url`` as a static document tree (None when
    there is nothing to parse); serialize it with :func:`serialize`."""
    root = parse(html)
    if root is None:
        return None
    base = _base(root, url)
    _strip(root)
    _rewrite(root, base, mapper)
    head = root.find("head")
    if head is None:
        head = etree.Element("head")
        root.insert(0, head)
    policy = etree.Element("meta", {"http-equiv": "Content-Security-Policy", "content": CSP})
    charset = next((i for i, e in enumerate(head) if e.tag == "meta" and e.get("charset")), -1)
    head.insert(charset + 1, policy)
    return root


def serialize(root: lxml.html.HtmlElement) -> str:
    """An HTML document of ``root``, with its doctype."""
    return lxml.html.tostring(root, doctype="<!DOCTYPE html>", encoding="unicode", method="html")


def rewrite_css(css: str, url: str, mapper: Mapper) -> str:
    """A stylesheet at ``url`` with every ``url(...)`` and ``@import`` mapped (dropped ones
    become ``url()``)."""

    def replace(match: re.Match[str]) -> str:
        reference = next((g for g in match.groups() if g is not None), "").strip()
        if not reference or reference.startswith(("#", "data:")):
            return match.group(0)
        target = mapper(urldefrag(urljoin(url, reference)).url)
        quoted = '"' + (target or "").replace('"', "%22") + '"'
        return f"@import {quoted}" if match.group(0).startswith("@") else f"url({quoted})"

    return _CSS_URL.sub(replace, css)


def find(root: lxml.html.HtmlElement, locator: str) -> lxml.html.HtmlElement | None:
    """The element a page-agent locator names (``#id``, ``tag:nth-of-type(n)`` and ``html``
    steps joined by `` > ``); None for one inside a shadow root or a frame, or gone."""
    if " >>> " in locator or " |> " in locator or not locator:
        return None
    node: lxml.html.HtmlElement | None = None
    for step in locator.split(" > "):
        node = _step(root, node, step.strip())
        if node is None:
            return None
    return node


def link_actions(
    root: lxml.html.HtmlElement, actions: list[tuple[str, str, str]], heading: str
) -> None:
    """Make a page's actions links: ``(locator, href, text)`` each. An element with one
    action becomes (or gets inside it) a link; the others are listed in a bar at the end of
    the body under ``heading``, so every way on can be clicked."""
    grouped: dict[str, list[tuple[str, str]]] = {}
    for locator, href, text in actions:
        grouped.setdefault(locator, []).append((href, text))
    rest: list[tuple[str, str]] = []
    for locator, items in grouped.items():
        element = find(root, locator) if len({h for h, _ in items}) == 1 else None
        if element is None or not _make_link(element, items[0][0]):
            rest.extend(item for item in items if item not in rest)
    if not rest:
        return
    body = root.find("body")
    if body is None:
        body = etree.SubElement(root, "body")
    bar = etree.SubElement(body, "nav", {"class": "statecrawl-actions"})
    bar.set(
        "style",
        "margin:1em;padding:.5em 1em;border:1px solid #888;font:14px sans-serif;background:#fff",
    )
    etree.SubElement(bar, "strong").text = heading
    listing = etree.SubElement(bar, "ul")
    for href, text in rest:
        link = etree.SubElement(etree.SubElement(listing, "li"), "a", {"href": href})
        link.text = text


# -- internals ---------------------------------------------------------------------------------


def _base(root: lxml.html.HtmlElement, url: str) -> str:
    for base in root.iter("base"):
        href = base.get("href")
        if href:
            return urljoin(url, href.strip())
    return url


def _strip(root: lxml.html.HtmlElement) -> None:
    for element in list(root.iter(*REMOVED)):
        _drop(element)
    for meta in list(root.iter("meta")):
        if (meta.get("http-equiv") or "").lower() in ("refresh", "content-security-policy"):
            _drop(meta)
    for element in root.iter(etree.Element):
        for name in list(element.attrib):
            value = element.get(name) or ""
            if name.lower().startswith("on") or value.strip().lower().startswith("javascript:"):
                del element.attrib[name]
    for frame in root.iter("iframe", "frame"):
        frame.set("sandbox", "")
        srcdoc = frame.get("srcdoc")
        if srcdoc is not None:
            frame.attrib.pop("src", None)


def _drop(element: lxml.html.HtmlElement) -> None:
    """Remove an element but keep the text that followed it."""
    parent = element.getparent()
    if parent is None:
        return
    if element.tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + element.tail
        else:
            parent.text = (parent.text or "") + element.tail
    parent.remove(element)


def _rewrite(root: lxml.html.HtmlElement, base: str, mapper: Mapper) -> None:
    def mapped(value: str) -> str | None:
        value = value.strip()
        if not value or value.startswith(("#", "data:", "about:")):
            return value
        return mapper(urldefrag(urljoin(base, value)).url)

    for element in root.iter(etree.Element):
        tag = element.tag if isinstance(element.tag, str) else ""
        names = URL_ATTRIBUTES.get(tag.split("}")[-1], ())
        if tag == "link":
            rel = (element.get("rel") or "").lower().split()
            names = ("href",) if any(r in LOADED_LINKS for r in rel) else ()
        for name in names:
            value = element.get(name)
            if value is None:
                continue
            target = mapped(value)
            if target is None:
                del element.attrib[name]
            else:
                element.set(name, target)
        for name in ("srcset", "imagesrcset"):
            if element.get(name) is not None:
                element.set(name, _srcset(element.get(name) or "", mapped))
        style = element.get("style")
        if style and "url(" in style.lower():
            element.set("style", rewrite_css(style, base, mapper))
        if tag == "style" and element.text:
            element.text = rewrite_css(element.text, base, mapper)
        if tag in ("iframe", "frame") and element.get("srcdoc") is not None:
            inner = static_html(element.get("srcdoc") or "", base, mapper)
            element.set("srcdoc", serialize(inner) if inner is not None else "")


def _srcset(value: str, mapped: Callable[[str], str | None]) -> str:
    kept = []
    for candidate in value.split(","):
        parts = candidate.split()
        if not parts:
            continue
        target = mapped(parts[0])
        if target:
            kept.append(" ".join([target, *parts[1:]]))
    return ", ".join(kept)


_NTH = re.compile(r"([a-zA-Z][\w-]*):nth-of-type\((\d+)\)")
_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6}) ?|\\(.)")


def _step(
    root: lxml.html.HtmlElement, node: lxml.html.HtmlElement | None, step: str
) -> lxml.html.HtmlElement | None:
    if step.startswith("#"):
        ident = _ESCAPE.sub(_unescape, step[1:])
        scope = root if node is None else node
        return next((e for e in scope.iter(etree.Element) if e.get("id") == ident), None)
    if step == "html":
        return root
    match = _NTH.fullmatch(step)
    if match is None or node is None:
        return None
    tag, index = match.group(1).lower(), int(match.group(2))
    same = [child for child in node if isinstance(child.tag, str) and child.tag == tag]
    return same[index - 1] if 0 < index <= len(same) else None


def _unescape(match: re.Match[str]) -> str:
    return chr(int(match.group(1), 16)) if match.group(1) else match.group(2)


def _make_link(element: lxml.html.HtmlElement, href: str) -> bool:
    """Point ``element`` at ``href``: a link's own href, a form's action; any other element
    with content gets a link around its content. False when it cannot be done."""
    tag = element.tag
    if tag == "a":
        element.set("href", href)
        element.attrib.pop("target", None)
        return True
    if tag in ("input", "select", "textarea", "img", "form", "html", "body", "head"):
        return False
    link = etree.Element("a", {"href": href, "style": "color:inherit;text-decoration:inherit"})
    link.text, element.text = element.text, None
    for child in list(element):
        link.append(child)
    element.append(link)
    if tag == "button":
        element.set("type", "button")
    return True
