"""Turn a state's recorded DOM into a static page: no script runs, no request leaves.

Scripts, ``on*`` handlers, ``javascript:`` URLs, refreshes, ``base`` and resource hints are
removed; frames are sandboxed and keep only their inlined content (``srcdoc``). Every other
reference a page can fetch or follow without a script is an entry of :data:`REFERENCES`: what
the page loads (images, styles, fonts, media) goes through a mapper that gives its local
replacement (a path served from the archive, or a saved file) or ``None``, and then the
reference is dropped; what a click or a submit follows (links, form targets) goes through
another mapper, and without a replacement it is made inert, its URL kept in ``data-<name>``.
A Content-Security-Policy that allows nothing but the page's own origin and inline data
comes first in the head, so even what slips through can neither run nor fetch.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import urldefrag, urljoin

import lxml.html
from lxml import etree

from ..models.dom import parse

Mapper = Callable[[str], str | None]

# What the views allow: their own origin (the replay server, or file: for a static copy)
# and inline data; no script, connection, plugin, worker, form post elsewhere or base.
CSP = (
    "default-src 'self' data: blob:; style-src 'self' data: 'unsafe-inline'; "
    "script-src 'none'; connect-src 'none'; object-src 'none'; worker-src 'none'; "
    "form-action 'self'; base-uri 'none'"
)
REMOVED = ("script", "noscript", "base")
# How a view treats each (element, attribute) a page can fetch or leave by without a script;
# "*" is any element. LOAD: fetched as the page opens, replaced by the mapper's local copy or
# dropped; SRCSET: a list of such URLs; CSS: a style whose url() are such URLs; FOLLOW:
# fetched on a click or a submit, replaced by the follower's local page or made inert; DROP:
# always removed.
LOAD, SRCSET, CSS, FOLLOW, DROP = "load", "srcset", "css", "follow", "drop"
REFERENCES = {
    ("img", "src"): LOAD, ("img", "srcset"): SRCSET,
    ("source", "src"): LOAD, ("source", "srcset"): SRCSET,
    ("video", "src"): LOAD, ("video", "poster"): LOAD,
    ("audio", "src"): LOAD, ("track", "src"): LOAD, ("input", "src"): LOAD,
    ("image", "href"): LOAD, ("image", "xlink:href"): LOAD,
    ("use", "href"): LOAD, ("use", "xlink:href"): LOAD,
    ("feimage", "href"): LOAD, ("feimage", "xlink:href"): LOAD,
    ("*", "background"): LOAD,
    ("*", "style"): CSS, ("*", "fill"): CSS, ("*", "stroke"): CSS, ("*", "filter"): CSS,
    ("*", "mask"): CSS, ("*", "clip-path"): CSS, ("*", "cursor"): CSS,
    ("*", "marker-start"): CSS, ("*", "marker-mid"): CSS, ("*", "marker-end"): CSS,
    ("link", "href"): LOAD, ("link", "imagesrcset"): DROP,  # see LOADED_LINKS
    ("iframe", "src"): DROP, ("frame", "src"): DROP,  # the agent inlines a frame as srcdoc
    ("object", "data"): DROP, ("object", "codebase"): DROP, ("embed", "src"): DROP,
    ("html", "manifest"): DROP, ("*", "ping"): DROP, ("*", "attributionsrc"): DROP,
    ("a", "href"): FOLLOW, ("area", "href"): FOLLOW, ("form", "action"): FOLLOW,
    ("button", "formaction"): FOLLOW, ("input", "formaction"): FOLLOW,
    ("*", "href"): FOLLOW, ("*", "xlink:href"): FOLLOW,
}  # fmt: skip
# A link of these relations loads its href; one of HINTS is removed whole (an offline copy
# needs no hints, and a hint's fetch needs no click); any other is followed like a link.
LOADED_LINKS = frozenset(
    {"stylesheet", "icon", "shortcut", "apple-touch-icon", "apple-touch-icon-precomposed",
     "mask-icon"}
)  # fmt: skip
HINTS = frozenset(
    {"prefetch", "preload", "preconnect", "dns-prefetch", "modulepreload", "prerender",
     "manifest", "serviceworker"}
)  # fmt: skip
_URL = r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)"""
_STRING = r"""(?:"([^"]*)"|'([^']*)')"""
# A CSS reference: url(...) (groups 1-3), @import "..." (4, 5), image-set(...) (6), whose
# strings are URLs too (_IN_IMAGE_SET: url(...) 1-3, strings 4, 5).
_CSS_REFERENCE = re.compile(
    rf"{_URL}|@import(?:\s|/\*.*?\*/)*{_STRING}|image-set\(((?:[^()]|\([^()]*\))*)\)",
    re.I | re.S,
)
_IN_IMAGE_SET = re.compile(rf"{_URL}|{_STRING}", re.I)
# A CSS name written with escapes (u\72l, @\69mport) is decoded to see whether it fetches.
_NAME = re.compile(r"@?(?:[\w-]|\\[0-9a-fA-F]{1,6}\s?|\\[^\n\r\f0-9a-fA-F])+")
_FETCHING_NAMES = frozenset({"url", "image-set", "-webkit-image-set", "@import", "src"})
MAX_FRAME_DEPTH = 8  # frames inlined in frames deeper than this are left empty


def static_html(
    html: str, url: str, mapper: Mapper, follow: Mapper | None = None
) -> lxml.html.HtmlElement | None:
    """The recorded DOM ``html`` of a page at ``url`` as a static document tree (None when
    there is nothing to parse); serialize it with :func:`serialize`. ``mapper`` gives the
    local copy of what the page loads, ``follow`` the local page of what a click or a submit
    follows (absolute URLs in, ``None`` for none: the reference is dropped or made inert)."""
    return _static(html, url, mapper, follow, 0)


def _static(
    html: str, url: str, mapper: Mapper, follow: Mapper | None, depth: int
) -> lxml.html.HtmlElement | None:
    root = parse(html)
    if root is None:
        return None
    base = _base(root, url)
    _strip(root)
    _rewrite(root, base, mapper, follow, depth)
    head = root.find("head")
    if head is None:
        head = lxml.html.Element("head")
        root.insert(0, head)
    policy = lxml.html.Element("meta", {"http-equiv": "Content-Security-Policy", "content": CSP})
    charset = next((i for i, e in enumerate(head) if e.tag == "meta" and e.get("charset")), -1)
    head.insert(charset + 1, policy)
    return root


def serialize(root: lxml.html.HtmlElement) -> str:
    """An HTML document of ``root``, with its doctype."""
    return lxml.html.tostring(root, doctype="<!DOCTYPE html>", encoding="unicode", method="html")


def rewrite_css(css: str, url: str, mapper: Mapper) -> str:
    """A stylesheet at ``url`` with every ``url(...)``, ``@import`` and ``image-set()`` URL
    mapped (dropped ones become empty), and those names written with escapes made void."""

    def replace(match: re.Match[str]) -> str:
        if match.re is _CSS_REFERENCE and match.group(6) is not None:
            inner = _IN_IMAGE_SET.sub(replace, match.group(6))
            return match.group(0)[: -len(match.group(6)) - 1] + inner + ")"
        reference = next((g for g in match.groups() if g is not None), "")
        if _inline(reference):
            return match.group(0)
        quoted = '"' + (_resolve(reference, url, mapper) or "").replace('"', "%22") + '"'
        if match.group(0).startswith("@"):
            return f"@import {quoted}"
        return f"url({quoted})" if match.group(0).lower().startswith("url") else quoted

    return _CSS_REFERENCE.sub(replace, _NAME.sub(_void_escaped_name, css))


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
            try:
                return urljoin(url, href.strip())
            except ValueError:  # no URL at all (an unclosed IPv6 host)
                return url
    return url


def _strip(root: lxml.html.HtmlElement) -> None:
    removed = list(root.iter(*REMOVED))
    for meta in root.iter("meta"):
        if (meta.get("http-equiv") or "content-type").lower() != "content-type":
            removed.append(meta)  # a refresh, a policy of the page's own, a Link header
    for link in root.iter("link"):
        if HINTS & set((link.get("rel") or "").lower().split()):
            removed.append(link)
    for animation in root.iter("set", "animate"):
        if "href" in (animation.get("attributename") or "").lower():
            removed.append(animation)  # it would set a URL the rewriting never saw
    for element in removed:
        _drop(element)
    for element in root.iter(etree.Element):
        for name in list(element.attrib):
            value = element.get(name) or ""
            if name.lower().startswith("on") or value.strip().lower().startswith("javascript:"):
                del element.attrib[name]
    for frame in root.iter("iframe", "frame"):
        frame.set("sandbox", "")


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


def _rewrite(
    root: lxml.html.HtmlElement, base: str, mapper: Mapper, follow: Mapper | None, depth: int
) -> None:
    for element in root.iter(etree.Element):
        tag = element.tag if isinstance(element.tag, str) else ""
        for name in list(element.attrib):
            kind = _kind(element, tag, name)
            value = element.get(name) or ""
            if kind is None:
                continue
            if kind == SRCSET:
                element.set(name, _srcset(value, base, mapper))
                continue
            if kind == CSS:
                element.set(name, rewrite_css(value, base, mapper))
                continue
            to = mapper if kind == LOAD else follow
            target = None if kind == DROP else _resolve(value, base, to)
            if target is not None:
                element.set(name, target)
                continue
            del element.attrib[name]
            if kind == FOLLOW:
                element.set("data-" + name.replace(":", "-"), value)
        if tag == "style" and element.text:
            element.text = rewrite_css(element.text, base, mapper)
        if tag in ("iframe", "frame") and element.get("srcdoc") is not None:
            inner = None
            if depth < MAX_FRAME_DEPTH:
                inner = _static(element.get("srcdoc") or "", base, mapper, follow, depth + 1)
            element.set("srcdoc", serialize(inner) if inner is not None else "")


def _kind(element: lxml.html.HtmlElement, tag: str, name: str) -> str | None:
    """How :data:`REFERENCES` treats attribute ``name`` of ``element``, if at all."""
    if tag == "link" and name == "href":
        rel = set((element.get("rel") or "").lower().split())
        return LOAD if rel & LOADED_LINKS else FOLLOW
    return REFERENCES.get((tag, name)) or REFERENCES.get(("*", name))


def _inline(value: str) -> bool:
    """Whether a reference stays in the page: none, a fragment, or inline data."""
    value = value.strip()
    return not value or value.startswith(("#", "data:", "about:"))


def _resolve(value: str, base: str, to: Mapper | None) -> str | None:
    """The replacement of a reference ``value`` in a page at ``base``: itself if inline, else
    what ``to`` gives for its absolute URL (None: no replacement)."""
    if _inline(value):
        return value.strip()
    if to is None:
        return None
    try:
        return to(urldefrag(urljoin(base, value.strip())).url)
    except ValueError:  # no URL at all (an unclosed IPv6 host)
        return None


def _srcset(value: str, base: str, mapper: Mapper) -> str:
    kept = []
    for candidate in value.split(","):
        parts = candidate.split()
        target = _resolve(parts[0], base, mapper) if parts else None
        if target:
            kept.append(" ".join([target, *parts[1:]]))
    return ", ".join(kept)


def _void_escaped_name(match: re.Match[str]) -> str:
    """``url``, ``image-set`` or ``@import`` spelled with escapes becomes a name that does
    nothing; any other name stays as written."""
    name = match.group(0)
    if "\\" not in name or _ESCAPE.sub(_unescape, name).lower() not in _FETCHING_NAMES:
        return name
    return "@void" if name.startswith("@") else "void"


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
    link = lxml.html.Element("a", {"href": href, "style": "color:inherit;text-decoration:inherit"})
    link.text, element.text = element.text, None
    for child in list(element):
        link.append(child)
    element.append(link)
    if tag == "button":
        element.set("type", "button")
    return True
