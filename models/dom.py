"""DOM-based state models and volatility detection.

The default model hashes a normalised DOM: no scripts, styles, comments or insignificant
whitespace, form values included, and the parts observed to be volatile masked. A volatile
part is named ``"<path>|content"`` (the element's text and children), ``"<path>|text"`` (the
text of an element that also holds elements, as a footer's "Queries took 15.4ms" beside its
links: its children are kept) or ``"<path>|@<attribute>"``, where ``<path>`` is the
element's nearest id-bearing ancestor and the tag.class chain below it (the page agent
computes the same names while it watches the page). An attribute whose very name is made up
per page view (a counter such as ``pc23``, a kit's per-instance style scope) is named
``"<path>|@pc#"``: every attribute there named ``pc`` and digits, keyed without its digits.

What passes with time or follows the browser's focus is not a state either, and needs no
learning: time told relative to now ("Published 7 minutes ago", which the page says again a
minute later with another number) is masked where it stands; the marks a UI kit puts where
the focus is (``Mui-focused``, ``focus-visible``, ``data-focus-visible``) are left out; and
so is a ripple's empty element (``MuiTouchRipple-root``, ``v-ripple__container``), which a
kit makes the first time a control is pressed and keeps.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Collection, Iterable, Iterator

import lxml.html
import xxhash
from lxml import etree

from ..state import Snapshot

SKIPPED = frozenset({"script", "style", "noscript", "template"})
INLINE = frozenset(
    {"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "i", "kbd", "label",
     "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var"}
)  # fmt: skip
HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
MASK = "\x00~"
# An attribute value longer than this counts by its length and digest (a 10 MB data URL or
# blob costs no more than a short value), and text longer than this is never taken for a
# value generated per action (the pattern below would take quadratic time on it).
MAX_VALUE = 4096
KEYS_KEPT = 4096  # DOM keys a model remembers
# An id made up per page view (a uuid, a long hex run, a millisecond timestamp, a random base-36
# string, a component's name and a short random hex, as a chart toolbar's ``modebar-4e3729``,
# ``modebar-929528`` or ``modebar-beecbc``: one load in 360 draws six hex letters) names
# nothing stable, so no path is anchored on it; the page agent has the same rule. (An id that
# ends in a word of the letters a-f, ``-facade``, anchors no path either.)
GENERATED_ID = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,}|\d{13,}"
    r"|(?=[a-z]*\d)(?=\d*[a-z])[a-z\d]{10,}|-[0-9a-f]{6,8}$",
    re.IGNORECASE,
)
# Time told relative to now, as date libraries (Moment, Day.js, date-fns, timeago) write it
# in English, German, French, Spanish and Portuguese: "a few seconds ago", "in 3 days", "5m
# ago", "just now", "vor 2 Stunden", "il y a 3 jours", "hace un mes", "há 2 anos".
_UNIT = r"(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)"
RELATIVE_TIME = re.compile(
    rf"\b(?:(?:\d+|an?|a few|few|several)\s+{_UNIT}\s+ago|in\s+(?:\d+|an?|a few)\s+{_UNIT}"
    r"|\d+\s?[smhdwy]\s+ago|just now|moments? ago)\b"
    r"|\bvor\s+(?:\d+|einer?|ein paar|wenigen)\s+"
    r"(?:Sekunden?|Minuten?|Stunden?|Tag(?:en)?|Wochen?|Monat(?:en)?|Jahr(?:en)?)\b"
    r"|\bil y a\s+(?:\d+|une?|quelques)\s+"
    r"(?:secondes?|minutes?|heures?|jours?|semaines?|mois|ans?)\b"
    r"|\bhace\s+(?:\d+|unos pocos|unos?|una?)\s+"
    r"(?:segundos?|minutos?|horas?|d[ií]as?|semanas?|mes(?:es)?|años?)\b"
    r"|\bh[aá]\s+(?:\d+|um|uma|alguns|algumas)\s+"
    r"(?:segundos?|minutos?|horas?|dias?|semanas?|m[eê]s(?:es)?|anos?)\b",
    re.IGNORECASE,
)
# Words one of which each of those holds (a cheaper test first)
_TIME_WORDS = ("ago", "Ago", "AGO", "in ", "In ", "now", "vor ", "Vor ", "y a ", "ace ", "á ")
# A class that marks where the focus is: ``Mui-focused``, ``Mui-focusVisible``,
# ``focus-visible``, ``is-focused``, ``v-field--focused``, ``p-focus`` (not ``focus-mode``).
FOCUS_CLASS = re.compile(r"(?:^|[-_])(?:is-|has-)?focus(?:ed|-?visible|-within)?$", re.IGNORECASE)
# An attribute that does: ``data-focus``, ``data-focused``, ``data-focus-visible(-added)``,
# ``data-headlessui-focus-visible``.
FOCUS_ATTRIBUTE = re.compile(r"data-(?:[\w-]+-)?focus(?:ed|-visible(?:-added)?|-within)?")
# A class of a ripple's element: ``MuiTouchRipple-root``, ``v-ripple__container``,
# ``mat-ripple``, ``mdc-button__ripple``, ``q-ripple``.
RIPPLE_CLASS = re.compile(r"(?:^|[-_])ripple(?:$|[-_])|TouchRipple", re.IGNORECASE)
_TOKEN = re.compile(r"[\w-]{6,}")
_COUNTER = re.compile(r"\d+$")  # the digits that end an attribute name made up per page view
_SPACE = re.compile(r"\s+")
# Values generated per action: uuids, dates and times, runs of digits, random alphanumerics.
GENERATED_VALUE = re.compile(
    r"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}"
    r"|\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?"
    r"|\b\d\d?:\d\d(?::\d\d)?\b|\d{4,}|(?=[a-z]*\d)(?=\d*[a-z])[a-z\d]{6,}",
    re.IGNORECASE,
)


def _tag(el: etree._Element) -> str:
    """The tag of the root or of an element ``_kept``: a string (a comment's or a processing
    instruction's is not, and those are never kept)."""
    assert isinstance(el.tag, str), f"not an element: {el!r}"
    return el.tag


@functools.lru_cache(maxsize=KEYS_KEPT * 16)
def _classes(value: str) -> tuple[str, ...]:
    """A class attribute's classes, sorted and once each, the marks of focus left out (a
    page repeats its class attributes: remembered)."""
    classes = set(value.split())
    if "ocus" in value:
        classes = {c for c in classes if not FOCUS_CLASS.search(c)}
    return tuple(sorted(classes))


def _step(el: etree._Element) -> str:
    classes = _classes(el.get("class") or "")
    return _tag(el) + ("." + ".".join(classes) if classes else "")


def _path(el: etree._Element, parent_path: str) -> str:
    ident = el.get("id")
    if ident and not GENERATED_ID.search(ident):
        return "#" + ident
    return f"{parent_path}/{_step(el)}" if parent_path else _step(el)


def _attributes(el: etree._Element) -> dict[str, str]:
    """Attributes as they matter: classes as a sorted set, an empty class or style dropped
    (``classList.remove`` of the last class leaves ``class=""`` behind), the marks of focus
    left out, values longer than ``MAX_VALUE`` as their head, length and digest."""
    attrs = dict(el.attrib)
    if not attrs:
        return attrs
    if "class" in attrs:
        attrs["class"] = " ".join(_classes(attrs["class"]))
    for name in [n for n in attrs if "focus" in n and FOCUS_ATTRIBUTE.fullmatch(n)]:
        del attrs[name]
    for name in ("class", "style"):
        if name in attrs and not attrs[name].strip():
            del attrs[name]
    for name, value in attrs.items():
        if len(value) > MAX_VALUE:
            digest = xxhash.xxh64_hexdigest(value.encode("utf-8", "surrogatepass"))
            attrs[name] = f"{value[:64]}\u2026 {len(value)} characters, xxh64 {digest}"
    return attrs


def _stem(name: str) -> str:
    """An attribute name without the digits that end it, ``#`` in their place (``pc23`` is
    ``pc#``): the name of every counter-named attribute of that stem."""
    return _COUNTER.sub("#", name)


def _keyed(name: str, value: str, path: str, volatile: frozenset[str]) -> tuple[str, str]:
    """An attribute as a key sees it: its value masked when volatile, and its name's digits
    too when names of its stem are. A masked ``style`` still tells whether it hides the
    element: an animation's opacity varies, a panel an action shows or hides is a state."""
    if f"{path}|@{name}" in volatile:
        if name == "style" and HIDDEN_STYLE.search(value):
            return name, MASK + "hidden"
        return name, MASK
    if name[-1:].isdigit() and f"{path}|@{_stem(name)}" in volatile:
        return _stem(name), MASK
    return name, value


def _text(value: str | None) -> str:
    """Text as a key sees it: whitespace collapsed, time told relative to now masked."""
    return _timeless(" ".join(value.split())) if value else ""


@functools.lru_cache(maxsize=KEYS_KEPT * 16)
def _timeless(text: str) -> str:
    """``text`` with time told relative to now masked (a crawl keys the same texts again and
    again: remembered)."""
    if any(word in text for word in _TIME_WORDS):
        return RELATIVE_TIME.sub(MASK, text)
    return text


_parsers = threading.local()


def parse(html: str) -> lxml.html.HtmlElement | None:
    """Parse a serialized DOM; ``None`` when there is nothing to parse.

    The parser lifts libxml2's default limits (``huge_tree``), which would otherwise cut the
    document silently at a text or attribute over 10 MB or at elements nested 256 deep; a
    parser serves one thread at a time.
    """
    if not html.strip():
        return None
    parser = getattr(_parsers, "html", None)
    if parser is None:
        parser = _parsers.html = lxml.html.HTMLParser(huge_tree=True)
    try:
        return lxml.html.document_fromstring(html, parser=parser)
    except (etree.ParserError, ValueError):
        return None


def drop_masked(root: etree._Element, volatile: Collection[str]) -> None:
    """Remove from a parsed DOM, in place, the parts named ``volatile`` (a crawl's masks, see
    the module's docstring): the content of a masked element (its text and children; the
    text after it is its parent's), the text of one whose text is masked (its children
    stay) and each masked attribute. Names are matched exactly as
    the state key masks them, so what is left is what the key saw; the archived DOM keeps all.

    Examples
    --------
    >>> root = parse('<body><p id="clock">Server time: <b>10:01</b></p>'
    ...              '<main data-n="x1">Hi <i>there</i></main> bye</body>')
    >>> drop_masked(root, {"#clock|content", "html/body/main|@data-n"})
    >>> lxml.html.tostring(root.find("body"), encoding="unicode")
    '<body><p id="clock"></p><main>Hi <i>there</i></main> bye</body>'
    """
    if not volatile:
        return
    names = frozenset(volatile)
    stack: list[tuple[etree._Element, str]] = [(root, "")]
    while stack:
        el, parent_path = stack.pop()
        path = _path(el, parent_path)
        for name, value in list(el.attrib.items()):
            if _keyed(name, value, path, names)[1] == MASK:
                del el.attrib[name]
        if f"{path}|content" in names:
            el.text = None
            for child in list(el):
                el.remove(child)  # (its tail goes with it: text inside the masked element)
            continue
        if f"{path}|text" in names:
            el.text = None
            for child in el:
                child.tail = None
        stack.extend((child, path) for child in _elements(el))


def visible_text(html: str, *, lines: bool = False, volatile: Collection[str] = ()) -> str:
    """The text a person sees in a serialized DOM: scripts, styles, the head and elements
    hidden by the ``hidden`` attribute or an inline ``display: none`` left out, whitespace
    collapsed.

    Parameters
    ----------
    html : str
        A serialized DOM (a ``states/<id>.html`` file).
    lines : bool, default False
        Whether each block element's text (a paragraph, a list item, a heading) ends its line,
        as a text diff wants it; else the text is one line.
    volatile : collection of str, default none
        The names of the parts the crawl masked (``graph.json``'s ``volatile``): their text is
        left out (see :func:`drop_masked`), as the clock a state's key ignores.

    Returns
    -------
    str

    Examples
    --------
    >>> visible_text('<title>T</title><p>Hello <b>world</b></p><p hidden>secret</p>'
    ...              '<script>var x = 1;</script>')
    'Hello world'
    >>> print(visible_text('<h1>Fruit</h1><ul><li>Apples and <i>pears</i></li><li>Plums</li></ul>',
    ...                    lines=True))
    Fruit
    Apples and pears
    Plums
    >>> visible_text('<p>Hits: 3</p><p id="clock">12:04:51</p>', volatile=["#clock|content"])
    'Hits: 3'
    """
    root = parse(html)
    if root is None:
        return ""
    drop_masked(root, volatile)
    gone = [
        el
        for el in root.iter()
        if isinstance(el.tag, str)
        and (
            (el.tag in SKIPPED and "shadowrootmode" not in el.attrib)
            or el.tag == "head"
            or "hidden" in el.attrib
            or HIDDEN_STYLE.search(el.get("style", ""))
        )
    ]
    for el in gone:
        if el.getparent() is not None:
            el.drop_tree()
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        # Line breaks in the source are spaces; a block's edges end a line.
        el.text, el.tail = _SPACE.sub(" ", el.text or ""), _SPACE.sub(" ", el.tail or "")
        if el.tag not in INLINE:
            el.text, el.tail = "\n" + el.text, "\n" + el.tail
    found = [" ".join(line.split()) for line in root.text_content().split("\n")]
    return ("\n" if lines else " ").join(line for line in found if line)


def _kept(node: etree._Element) -> bool:
    """Whether a node counts: an element that is not a script, style or template, or a
    template that holds a shadow root (declarative shadow DOM: the content a user sees), and
    not a ripple's element with no text."""
    if not isinstance(node.tag, str):
        return False
    if node.tag in SKIPPED:
        return node.tag == "template" and "shadowrootmode" in node.attrib
    classes = node.get("class")
    return not (
        classes
        and "ipple" in classes
        and any(RIPPLE_CLASS.search(c) for c in classes.split())
        and not "".join(node.itertext()).strip()
    )


def _elements(el: etree._Element) -> Iterator[etree._Element]:
    for child in el:
        if _kept(child):
            yield child


def _own(el: etree._Element) -> tuple[str, list[tuple[etree._Element, str]]]:
    """The element's leading text and its kept children, each with the text that follows it.

    Comments, scripts and other skipped nodes vanish but the text after them is kept, joined
    to the text around them.
    """
    head = el.text or ""
    kids: list[tuple[etree._Element, str]] = []
    for child in el:
        if _kept(child):
            kids.append((child, child.tail or ""))
        elif kids:
            kept, tail = kids[-1]
            kids[-1] = (kept, tail + (child.tail or ""))
        else:
            head += child.tail or ""
    return _text(head), [(child, _text(tail)) for child, tail in kids]


def tokens(html: str, volatile: frozenset[str] = frozenset()) -> Iterator[str]:
    """The normalised DOM as a token stream, volatile parts masked."""
    return (token for _, token in _walk(html, volatile))


def _walk(html: str, volatile: frozenset[str]) -> Iterator[tuple[bool, str]]:
    """``tokens`` with each token marked ``True`` when it is text (or masked text)."""
    root = parse(html)
    if root is not None:
        yield from subtree(root, "", volatile)


def subtree(
    top: etree._Element, parent_path: str, volatile: frozenset[str]
) -> Iterator[tuple[bool, str]]:
    """The tokens of ``_walk`` for the element ``top`` and what it holds (its tail left
    out), ``parent_path`` the path of its parent (``""`` for the root)."""
    stack: list[tuple[etree._Element, str] | tuple[bool, str]] = [(top, parent_path)]
    while stack:
        item = stack.pop()
        if isinstance(item[0], bool):
            yield item
            continue
        el, parent_path = item
        path = _path(el, parent_path)
        yield False, opening(el, path, volatile)
        if f"{path}|content" in volatile:
            yield True, MASK
            yield False, "</>"
            continue
        text, kids = _own(el)
        hidden = f"{path}|text" in volatile
        if text:
            yield True, MASK if hidden else text
        stack.append((False, "</>"))
        for child, tail in reversed(kids):
            if tail:
                stack.append((True, MASK if hidden else tail))
            stack.append((child, path))


# Attributes that can show or hide the text under their element: a mask on one of them hides
# that text's coming and going, as a mask on the element's content hides the text itself (a
# masked ``style`` keeps whether it hides its element: see ``_keyed``).
SHOWING = frozenset({"class", "hidden"})


def text_shares(html: str, names: Iterable[str]) -> dict[str, float]:
    """The share of a page's text each volatile name covers: the text under the elements it
    names (their content, or an attribute that can show or hide it; their own text alone for
    ``|text``) over all the page's text.
    A name of content whose element is not in the page is left out (it cannot be judged
    there); a name of another attribute covers no text.

    A mask that covers much of a page is suspect: what changes there may be what actions do.

    Examples
    --------
    >>> html = '<html><body><p id="t">10:01</p><main>Many characters of text</main></body></html>'
    >>> names = ["#t|content", "html/body/main|@class", "#t|@data-n", "#gone|content"]
    >>> sorted((name, round(share, 2)) for name, share in text_shares(html, names).items())
    [('#t|@data-n', 0.0), ('#t|content', 0.18), ('html/body/main|@class', 0.82)]
    """
    wanted: dict[str, set[str]] = {}
    shares: dict[str, float] = {}
    for name in names:
        path, _, part = name.rpartition("|")
        if part in ("content", "text") or part.removeprefix("@") in SHOWING:
            wanted.setdefault(path, set()).add(name)
        else:
            shares[name] = 0.0
    root = parse(html)
    if root is None or not wanted:
        return shares
    covered: dict[str, int] = {}
    stack: list[tuple[etree._Element, str]] = [(root, "")]
    while stack:
        el, parent_path = stack.pop()
        path = _path(el, parent_path)
        for name in wanted.get(path, ()):
            covered[name] = covered.get(name, 0) + _text_length(el, own=name.endswith("|text"))
        stack.extend((child, path) for child in _elements(el))
    total = _text_length(root)
    for name, length in covered.items():
        shares[name] = length / total if total else 0.0
    return shares


def _text_length(el: etree._Element, own: bool = False) -> int:
    """The length of the normalised text under ``el``, as a key sees it; ``own``: of its own
    text alone (not its children's)."""
    length = 0
    stack = [el]
    while stack:
        node = stack.pop()
        text, kids = _own(node)
        length += len(text) + sum(len(tail) for _, tail in kids)
        if not own:
            stack.extend(child for child, _ in kids)
    return length


def opening(el: etree._Element, path: str, volatile: frozenset[str]) -> str:
    """The token that opens element ``el`` at ``path``: its tag and attributes, volatile
    ones masked."""
    attrs = sorted(_keyed(n, v, path, volatile) for n, v in _attributes(el).items())
    return f"<{_tag(el)} {attrs!r}>"


def _hash(parts: Iterator[str]) -> str:
    h = xxhash.xxh64()
    for part in parts:
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\x01")
    return h.hexdigest()


def _form(snapshot: Snapshot) -> Iterator[str]:
    for path, name, value in sorted(snapshot.form):
        yield f"form {path} {name}={value}"


class DomModel:
    """The default: a normalised DOM, form values included, volatile parts masked.

    Keys are remembered by the digest of the DOM and form values: a crawl keys the same DOM
    again and again (every transition back to a known state, every replay), and a big DOM
    takes about a second to normalise.
    """

    name = "dom"

    def __init__(self) -> None:
        self._keys: dict[tuple[str, frozenset[str]], str] = {}

    def key(self, snapshot: Snapshot, volatile: frozenset[str]) -> str:
        """Hash the normalised DOM and the form values."""
        content = xxhash.xxh3_128_hexdigest(
            "\x01".join([snapshot.html, *_form(snapshot)]).encode("utf-8", "surrogatepass")
        )
        key = self._keys.get((content, volatile))
        if key is None:
            key = _hash(_chain(tokens(snapshot.html, volatile), _form(snapshot)))
            if len(self._keys) >= KEYS_KEPT:
                self._keys.clear()
            self._keys[(content, volatile)] = key
        return key


class ExactModel:
    """The serialized DOM as it is: every byte counts."""

    name = "exact"

    def key(self, snapshot: Snapshot, volatile: frozenset[str]) -> str:
        """Hash the raw serialization."""
        return _hash(iter((snapshot.html,)))


class StructureModel:
    """Tags, ids and classes only: pages of one template are one state."""

    name = "structure"

    def key(self, snapshot: Snapshot, volatile: frozenset[str]) -> str:
        """Hash the element tree without text and attribute values."""
        return structure_digest(snapshot.html)


def structure_digest(html: str) -> str:
    """The hash of a DOM's element tree (tags, ids, classes) without text or other
    attributes: pages of one template share it (the structure model's key, the report's groups)."""
    root = parse(html)
    return _hash(_shape(root) if root is not None else iter(()))


class TextModel:
    """The visible text only: markup changes that show nothing new are one state."""

    name = "text"

    def key(self, snapshot: Snapshot, volatile: frozenset[str]) -> str:
        """Hash the text of the normalised, masked DOM."""
        return _hash(t for is_text, t in _walk(snapshot.html, volatile) if is_text)


def _shape(root: etree._Element) -> Iterator[str]:
    """Each element's depth, tag, id and classes in document order (no recursion: a DOM may
    be nested deeper than Python's stack)."""
    stack = [(root, 0)]
    while stack:
        el, depth = stack.pop()
        classes = ".".join(sorted((el.get("class") or "").split()))
        yield f"{depth} {_tag(el)}#{el.get('id', '')}.{classes}"
        stack.extend((child, depth + 1) for child in reversed(list(_elements(el))))


def _chain(*streams: Iterator[str]) -> Iterator[str]:
    for stream in streams:
        yield from stream


def volatile_between(html_a: str, html_b: str) -> set[str] | None:
    """Volatile parts told apart by two loads of one URL with no user action between them.

    Returns the names of the text and attributes that differ, and the content of each
    element whose children differ (a tip drawn at random, each tip its own markup) when those
    cover at most ``STRUCTURE_SHARE`` of the page's text in either load; ``None`` when more
    of the structure differs (the loads are not comparable: a content area that one load
    caught before it was drawn must not be masked).

    Examples
    --------
    >>> a = '<html><body><p id="t">10:01</p><main data-n="x1">Hi</main></body></html>'
    >>> b = '<html><body><p id="t">10:02</p><main data-n="y2">Hi</main></body></html>'
    >>> sorted(volatile_between(a, b))
    ['#t|content', 'html/body/main|@data-n']
    >>> text = '<main>' + '<p>Release notes and the manual, chapter by chapter.</p>' * 4 + '</main>'
    >>> a = f'<html><body>{text}<aside id="tip">Press <kbd>?</kbd> for help</aside></body></html>'
    >>> b = a.replace('Press <kbd>?</kbd> for help', '<b>Drag</b> a node to <i>move</i> it')
    >>> sorted(volatile_between(a, b))
    ['#tip|content']
    >>> volatile_between(a, a.replace(text, '<main></main>')) is None
    True
    """
    return _differences(html_a, html_b, lambda _a, _b: True, regroup=True)


# How much of a page's text the content of elements whose children differ between two loads
# may hold, to be masked (as much as a change the page agent sees, ``SMALL_SHARE`` in
# ``statecrawl.engine.volatility``).
STRUCTURE_SHARE = 0.2


def generated_between(html_a: str, html_b: str) -> set[str] | None:
    """Parts that differ between two DOMs only by values generated per action.

    A replayed path that brings back a state with new ids, uuids or timestamps in it has
    reached that state: these names are volatile. Returns ``None`` when the DOMs differ in
    anything else (structure, or text such as a count), and an empty set when they are equal.

    Examples
    --------
    >>> a = '<html><body><li data-id="4f1c2a9e-77b0-4c1e-9d2b-0a6f3e5d8c71">milk</li></body></html>'
    >>> b = '<html><body><li data-id="0b9d7e6c-2f4a-4b3e-8c1d-9e8f7a6b5c4d">milk</li></body></html>'
    >>> sorted(generated_between(a, b))
    ['html/body/li|@data-id']
    >>> generated_between('<p id="n">1 left</p>', '<p id="n">2 left</p>') is None
    True
    """
    return _differences(html_a, html_b, _only_generated)


def _only_generated(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ only in generated values: equal once those are masked,
    or two random tokens of one length (a random token need not hold a digit)."""
    if len(a) > MAX_VALUE or len(b) > MAX_VALUE:
        return False
    if GENERATED_VALUE.sub(MASK, a) == GENERATED_VALUE.sub(MASK, b):
        return True
    return (
        len(a) == len(b)
        and all(_TOKEN.fullmatch(v) for v in (a, b))
        and any(GENERATED_VALUE.fullmatch(v) for v in (a, b))
    )


def _differences(
    html_a: str,
    html_b: str,
    allowed: Callable[[str, str], bool],
    regroup: bool = False,
) -> set[str] | None:
    """The names of the texts and attributes that differ between two DOMs of one structure,
    or ``None`` when the structure differs or a difference is not ``allowed``. ``regroup``:
    an element whose children differ is named whole (``|content``) instead, unless such
    elements cover more than ``STRUCTURE_SHARE`` of either page's text."""
    root_a = parse(html_a)
    if html_a == html_b:  # (a page loaded twice is most often the same, and may be big)
        return None if root_a is None else set()
    root_b = parse(html_b)
    if root_a is None or root_b is None:
        return None
    found: set[str] = set()
    whole: set[str] = set()  # (regroup) the elements whose children differ
    stack: list[tuple[etree._Element, etree._Element, str]] = [(root_a, root_b, "")]
    while stack:
        a, b, parent_path = stack.pop()
        attrs_a, attrs_b = _attributes(a), _attributes(b)
        if a.tag != b.tag:
            return None
        path = _path(a, parent_path)
        if path != _path(b, parent_path):
            return None
        if set(attrs_a) != set(attrs_b):
            counted = _counted_names(attrs_a, attrs_b, allowed)
            if counted is None:
                return None
            found |= {f"{path}|@{stem}" for stem in counted}
            attrs_a = {n: v for n, v in attrs_a.items() if n in attrs_b}
        for name, value in attrs_a.items():
            if attrs_b[name] != value:
                if not allowed(value, attrs_b[name]):
                    return None
                found.add(f"{path}|@{name}")
        head_a, runs_a = _own(a)
        head_b, runs_b = _own(b)
        kids_a, kids_b = [k for k, _ in runs_a], [k for k, _ in runs_b]
        if regroup and not _alike(kids_a, kids_b, path):
            whole.add(f"{path}|content")
            continue
        if len(runs_a) != len(runs_b):
            return None
        own_a = [head_a, *(t for _, t in runs_a)]
        own_b = [head_b, *(t for _, t in runs_b)]
        if own_a != own_b:
            if not allowed(" ".join(own_a), " ".join(own_b)):
                return None
            found.add(f"{path}|text" if kids_a else f"{path}|content")
        stack.extend((ka, kb, path) for ka, kb in zip(kids_a, kids_b, strict=True))
    if whole and any(  # (no page parsed again when nothing was regrouped)
        share > STRUCTURE_SHARE
        for html in (html_a, html_b)
        for share in text_shares(html, whole).values()
    ):
        return None
    return found | whole


def _alike(kids_a: list[etree._Element], kids_b: list[etree._Element], path: str) -> bool:
    """Whether two elements' children are of one structure: as many, each of one tag and
    path."""
    return len(kids_a) == len(kids_b) and all(
        a.tag == b.tag and _path(a, path) == _path(b, path)
        for a, b in zip(kids_a, kids_b, strict=True)
    )


def _counted_names(
    attrs_a: dict[str, str], attrs_b: dict[str, str], allowed: Callable[[str, str], bool]
) -> set[str] | None:
    """The stems of the attribute names two elements differ in, when those differ only in
    the digits that end them (``pc23`` and ``pc26``: a counter of component instances), as
    many of each stem on both sides, their values ``allowed``; else ``None``."""
    stems: dict[str, tuple[list[str], list[str]]] = {}
    for attrs, other, side in ((attrs_a, attrs_b, 0), (attrs_b, attrs_a, 1)):
        for name, value in attrs.items():
            if name in other:
                continue
            if not name[-1:].isdigit():
                return None
            stems.setdefault(_stem(name), ([], []))[side].append(value)
    for values_a, values_b in stems.values():
        if len(values_a) != len(values_b):
            return None
        for va, vb in zip(sorted(values_a), sorted(values_b), strict=True):
            if va != vb and not allowed(va, vb):
                return None
    return set(stems)
