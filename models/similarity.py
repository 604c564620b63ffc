"""Near-duplicate similarity of states: a 64-bit simhash of what a page shows and how it is built.

A state's fingerprint is the simhash (Charikar) of two sets of features: the shingles of its
visible text (runs of ``SHINGLE`` words, lower-cased) and its structure (the path of every
element: its nearest id-bearing ancestor and the tag.class chain below it, as volatile parts
are named). Each feature is hashed with xxhash64; a bit of the fingerprint is set when most
features set it. Near-duplicate pages have fingerprints a few bits apart, so a one-word change
in a long page barely moves it, while unrelated pages differ in about half of their bits.
"""

from __future__ import annotations

from collections.abc import Iterator

import xxhash
from lxml import etree

from .dom import _elements, _path, parse, visible_text

BITS = 64
SHINGLE = 3  # words in a text shingle


def _text_features(html: str) -> Iterator[str]:
    words = visible_text(html).lower().split()
    for start in range(max(1, len(words) - SHINGLE + 1)):
        yield "text " + " ".join(words[start : start + SHINGLE])


def _structure_features(root: etree._Element) -> Iterator[str]:
    """The path of every element that counts in a state key, in document order."""
    stack = [(root, "")]
    while stack:
        el, parent_path = stack.pop()
        path = _path(el, parent_path)
        yield "path " + path
        stack.extend((child, path) for child in reversed(list(_elements(el))))


def fingerprint(html: str) -> int:
    """The 64-bit simhash of a serialized DOM's visible text shingles and element paths.

    Parameters
    ----------
    html : str
        A serialized DOM (a ``states/<id>.html`` file).

    Returns
    -------
    int
        From 0 to 2**64 - 1; 0 for an empty document.

    Examples
    --------
    >>> fingerprint("<p>Hello world</p>") == fingerprint("<p>Hello   world</p>")
    True
    >>> fingerprint("")
    0
    """
    root = parse(html)
    if root is None:
        return 0
    features = {*_text_features(html), *_structure_features(root)}
    votes = [0] * BITS
    for feature in features:
        digest = xxhash.xxh64_intdigest(feature.encode("utf-8", "surrogatepass"))
        for bit in range(BITS):
            votes[bit] += 1 if digest >> bit & 1 else -1
    return sum(1 << bit for bit, vote in enumerate(votes) if vote > 0)


def similarity(html_a: str, html_b: str) -> float:
    """How alike two states are: the share of equal bits of their :func:`fingerprint`.

    Parameters
    ----------
    html_a, html_b : str
        Two serialized DOMs.

    Returns
    -------
    float
        From 0 to 1: 1 for equal fingerprints, about 0.5 for unrelated pages.

    Examples
    --------
    >>> page = "<main><h1>News</h1><p>{}</p></main>"
    >>> text = " ".join(f"word{n}" for n in range(200))
    >>> similarity(page.format(text), page.format(text))
    1.0
    >>> similarity(page.format(text), page.format(text.replace("word50", "other"))) >= 0.9
    True
    """
    return 1 - (fingerprint(html_a) ^ fingerprint(html_b)).bit_count() / BITS
