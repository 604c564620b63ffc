"""The near-duplicate similarity of states (simhash of visible text and structure): no browser."""

from __future__ import annotations

import doctest

from statecrawl.models import similarity as module
from statecrawl.models.similarity import BITS, fingerprint, similarity

ARTICLE = """\
The harbour town of Kessel lies at the mouth of a slow brown river, and for three centuries its
fortunes followed the tides of the grain trade. Barges came down from the plains in late summer,
heavy with wheat and barley, and the warehouses along the quay filled until their floors groaned.
Merchants from the southern ports arrived in autumn to bid for the harvest, and the town's single
inn doubled its prices for the season. When the railway reached the plains, the barges grew
fewer each year, and the warehouses were turned into workshops, schools and, later, apartments
for people who worked in the city two hours away. Today the quay is a promenade lined with
cafes, and the only barge left is a museum that children visit on rainy afternoons. Older
residents still speak of the grain fleet with a fondness that surprises visitors, who see only
a quiet place with good fish and a long beach. The town council has debated for years whether
to dredge the river mouth again so that pleasure boats can reach the old basin, but the cost
has always been too high and the plan returns to a drawer after every election.
"""
PAGE = """<!doctype html><html><head><title>Kessel</title><style>p {{ margin: 0 }}</style></head>
<body><nav id="menu"><a href="/">Home</a> <a href="/history">History</a></nav>
<main id="content"><h1>A short history of Kessel</h1>{paragraphs}</main>
<footer>Written by the town archive</footer><script>var views = 1;</script></body></html>"""
UNRELATED = """<!doctype html><html><head><title>Prices</title></head><body>
<table class="prices"><thead><tr><th>Item</th><th>Price</th></tr></thead><tbody>
<tr><td>Espresso</td><td>2.10</td></tr><tr><td>Cappuccino</td><td>3.20</td></tr>
<tr><td>Croissant</td><td>1.80</td></tr><tr><td>Orange juice</td><td>3.50</td></tr>
</tbody></table><form><input name="q" placeholder="Search the menu"><button>Go</button></form>
</body></html>"""


def page(text: str = ARTICLE) -> str:
    return PAGE.format(paragraphs="".join(f"<p>{p}</p>" for p in text.split(". ")))


def test_doctests_run() -> None:
    result = doctest.testmod(module)
    assert result.attempted >= 5 and result.failed == 0


def test_identical_pages_are_1() -> None:
    assert similarity(page(), page()) == 1.0
    # what a person does not see does not count: scripts, styles, whitespace, comments
    noisy = page().replace("var views = 1;", "var views = 2;").replace("<h1>", "<!-- x --><h1>")
    assert similarity(page(), noisy.replace("margin: 0", "margin: 1em")) == 1.0


def test_a_one_word_change_in_a_long_page_is_at_least_0_9() -> None:
    changed = page(ARTICLE.replace("three centuries", "four centuries"))
    assert changed != page()
    assert 0.9 <= similarity(page(), changed) < 1.0


def test_an_unrelated_page_is_at_most_0_6() -> None:
    assert similarity(page(), UNRELATED) <= 0.6
    assert similarity(page(), "") <= 0.6


def test_structure_counts_as_well_as_text() -> None:
    short = "<ul><li>milk</li><li>bread</li></ul>"
    assert similarity(short, "<ol><li>milk</li><li>bread</li></ol>") < 1.0
    assert similarity(short, "<ul><li>milk</li><li>bread</li></ul>") == 1.0


def test_fingerprints_are_deterministic_64_bit_integers() -> None:
    first = fingerprint(page())
    assert first == fingerprint(page()) and 0 < first < 2**BITS
    assert fingerprint("") == fingerprint("   ") == 0
    assert similarity(page(), UNRELATED) == similarity(UNRELATED, page())
