"""Growth that repeats: a DOM that is another one plus more copies of what it holds.

A page can grow without end (a hover that appends one more paragraph, a button that appends
two more buttons): every firing gives a new DOM, one copy longer. :func:`repetition` tells
such a step from other growth.

Two subtrees are the **same fragment** when their token streams (:func:`.dom.tokens`: tags,
attributes, text; scripts, styles and comments left out; learned volatile parts masked) are
equal once generated values are masked: in text the values :data:`.dom.GENERATED_VALUE`
matches (uuids, dates, times, runs of four digits or more, random tokens), in attribute
names and values also every run of digits (the counters in ids such as ``item-7``). Text
that differs otherwise is another fragment: a list that grows by items of other words, or
``Item 3`` after ``Item 2``, is not repetition.

A step from a source DOM to a target DOM is a **repetition** when the target is the source
with one or more subtrees inserted (nothing else changed, nothing removed, everything of the
source in its order), each inserted subtree with its following text the same fragment as a
child the source already has in the same parent.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import xxhash
from lxml import etree

from .dom import GENERATED_VALUE, MASK, _own, _path, _text, opening, parse, subtree

_DIGITS = re.compile(r"\d+")
EXCERPT = 80  # characters of an inserted fragment's HTML a repetition shows


@dataclass(frozen=True)
class Repetition:
    """A repetition step: ``fragment``, the start of the first inserted subtree's HTML;
    ``copies``, how many copies of an inserted fragment the source held already (the fewest
    over the fragments inserted)."""

    fragment: str
    copies: int


def repetition(
    source: str, target: str, volatile: frozenset[str] = frozenset()
) -> Repetition | None:
    """The repetition that takes DOM ``source`` to DOM ``target``, or ``None`` when the
    step is anything else (no insertion, a change, a removal, a new fragment).

    Examples
    --------
    >>> one = '<body><div id="log"><p>More</p></div></body>'
    >>> two = '<body><div id="log"><p>More</p><p>More</p></div></body>'
    >>> repetition(one, two)
    Repetition(fragment='<p>More</p>', copies=1)
    >>> repetition(one, '<body><div id="log"><p>More</p><p>Less</p></div></body>') is None
    True
    """
    root_a, root_b = parse(source), parse(target)
    if root_a is None or root_b is None:
        return None
    return _Comparison(volatile).run(root_a, root_b)


class _Comparison:
    """One comparison of a source and a target tree, walked pair by pair (no recursion:
    a DOM may be nested deeper than Python's stack)."""

    def __init__(self, volatile: frozenset[str]) -> None:
        self.volatile = volatile
        self.digests: dict[etree._Element, str] = {}
        self.inserted: list[tuple[etree._Element, int]] = []

    def run(self, root_a: etree._Element, root_b: etree._Element) -> Repetition | None:
        stack = [(root_a, root_b, "")]
        while stack:
            a, b, parent_path = stack.pop()
            if _raw(a) == _raw(b):
                continue
            path = _path(a, parent_path)  # (``b``'s, but for digits in its id)
            opened = opening(a, path, self.volatile), opening(b, path, self.volatile)
            if _masked(opened[0], attributes=True) != _masked(opened[1], attributes=True):
                return None
            if f"{path}|content" in self.volatile:
                continue
            pairs = self._align(a, b, path)
            if pairs is None:
                return None
            stack.extend((ka, kb, path) for ka, kb in pairs)
        if not self.inserted:
            return None
        first = etree.tostring(
            self.inserted[0][0], encoding="unicode", method="html", with_tail=False
        )
        first = " ".join(first.split())
        excerpt = first if len(first) <= EXCERPT else first[: EXCERPT - 1] + "\u2026"
        return Repetition(excerpt, min(copies for _, copies in self.inserted))

    def _align(
        self, a: etree._Element, b: etree._Element, path: str
    ) -> list[tuple[etree._Element, etree._Element]] | None:
        """The children of ``a`` and ``b`` paired in order, those of ``b`` left over noted
        as inserted; ``None`` when ``b``'s children are not ``a``'s with copies inserted."""
        head_a, kids_a = _own(a)
        head_b, kids_b = _own(b)
        if _masked(head_a) != _masked(head_b) or len(kids_b) < len(kids_a):
            return None
        pairs: list[tuple[etree._Element, etree._Element]] = []
        if len(kids_a) == len(kids_b):
            for (kid_a, text_a), (kid_b, text_b) in zip(kids_a, kids_b, strict=True):
                if kid_a.tag != kid_b.tag or _masked(text_a) != _masked(text_b):
                    return None
                pairs.append((kid_a, kid_b))
            return pairs
        siblings: dict[object, Counter[str]] = {}  # per tag, the source's children's fragments
        i = 0
        for kb, tail_b in kids_b:
            ka: etree._Element | None = kids_a[i][0] if i < len(kids_a) else None
            tail_a = kids_a[i][1] if i < len(kids_a) else ""
            if ka is not None and _raw(ka) == _raw(kb) and tail_a == tail_b:
                i += 1
                continue
            if kb.tag not in siblings:
                siblings[kb.tag] = Counter(
                    self._fragment(kid, tail, path) for kid, tail in kids_a if kid.tag == kb.tag
                )
            fragment = self._fragment(kb, tail_b, path)
            held = siblings[kb.tag][fragment]
            if held:
                if ka is not None and fragment == self._fragment(ka, tail_a, path):
                    i += 1  # the same as the child it stands for: paired, nothing to see
                else:
                    self.inserted.append((kb, held))
                continue
            if ka is None or ka.tag != kb.tag or _masked(tail_a) != _masked(tail_b):
                return None
            pairs.append((ka, kb))
            i += 1
        return pairs if i == len(kids_a) else None

    def _fragment(self, el: etree._Element, tail: str, parent_path: str) -> str:
        """The digest of a child and its following text as a fragment (see the module)."""
        digest = self.digests.get(el)
        if digest is None:
            h = xxhash.xxh64()
            for part in _masked_tokens(el, parent_path, self.volatile):
                h.update(part.encode("utf-8", "surrogatepass"))
                h.update(b"\x01")
            digest = self.digests[el] = h.hexdigest()
        return f"{digest} {_masked(tail)}"


def _masked_tokens(
    el: etree._Element, parent_path: str, volatile: frozenset[str]
) -> Iterator[str]:
    for is_text, token in subtree(el, parent_path, volatile):
        yield _masked(token, attributes=not is_text)


def _masked(token: str, *, attributes: bool = False) -> str:
    """A token with generated values masked; an element's opening token (``attributes``)
    keeps its tag and has every run of digits masked too."""
    if not attributes:
        return GENERATED_VALUE.sub(MASK, _text(token))
    tag, _, rest = token.partition(" ")
    return tag + " " + _DIGITS.sub(MASK, GENERATED_VALUE.sub(MASK, rest))


def _raw(el: etree._Element) -> bytes:
    """An element as serialized, its tail left out: equal bytes, equal subtrees."""
    return etree.tostring(el, with_tail=False)
