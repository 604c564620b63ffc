"""A small, fixed library catalogue behind the book-search test app (``index.html``).

``find`` and ``book`` are what the app's JSON API returns; ``expected`` is what a full crawl of
one query must reach. Everything is deterministic: no clock, no randomness.
"""

from __future__ import annotations

from typing import Any

PAGE_SIZE = 5

# (title, author, year): 60 books. "winter" is in 7 titles; Ingrid Lindqvist wrote 13 books;
# no Lindqvist title has "winter" in it, so the two test queries share no book.
_BOOKS: tuple[tuple[str, str, int], ...] = (
    ("The Winter Orchard", "Marguerite Okafor", 1987),
    ("Salt and Iron", "Ingrid Lindqvist", 1994),
    ("A Map of Small Harbours", "Tobias Wren", 2003),
    ("Winter Light over Kiel", "Hanne Vogt", 1979),
    ("The Glassblower's Daughter", "Ingrid Lindqvist", 1998),
    ("Notes on Moss", "Peter Abernathy", 2011),
    ("The Cartographer's Error", "Luisa Ferrante", 1990),
    ("Harvest of Lanterns", "Ingrid Lindqvist", 2001),
    ("Seven Bridges East", "Daniel Osei", 2015),
    ("Winterreise: A Walking Journal", "Clemens Auer", 2008),
    ("The Quiet Mechanic", "Ruth Halloran", 1985),
    ("Of Ferns and Fathers", "Ingrid Lindqvist", 2004),
    ("Copper Sky", "Amaru Quispe", 2019),
    ("The Last Lighthouse Keeper", "Tobias Wren", 1996),
    ("Midwinter Accounts", "Sabine Roux", 2013),
    ("The Patient Tide", "Ingrid Lindqvist", 2006),
    ("Letters to a Beekeeper", "Oona Farrell", 1982),
    ("An Atlas of Rain", "Daniel Osei", 2020),
    ("The Stone Choir", "Ingrid Lindqvist", 2009),
    ("Cold Frames", "Peter Abernathy", 1999),
    ("The Bookbinder of Ghent", "Luisa Ferrante", 2002),
    ("Winter Wheat", "Marguerite Okafor", 1993),
    ("The Owl Census", "Ingrid Lindqvist", 2012),
    ("Ashes in the Orchard", "Ruth Halloran", 1977),
    ("The Ninth Ferry", "Clemens Auer", 2016),
    ("A Grammar of Birds", "Oona Farrell", 1988),
    ("Lamps Along the Canal", "Ingrid Lindqvist", 2014),
    ("The Weaver's Almanac", "Sabine Roux", 2000),
    ("Iron Pastures", "Amaru Quispe", 2021),
    ("The Distance to Tuesday", "Hanne Vogt", 1991),
    ("Snowline", "Ingrid Lindqvist", 2017),
    ("The Clockmaker's Garden", "Tobias Wren", 2005),
    ("Winter Counts", "Daniel Osei", 2018),
    ("Paper Boats", "Peter Abernathy", 1984),
    ("The Fourth Apprentice", "Ingrid Lindqvist", 2019),
    ("Hollow Reeds", "Luisa Ferrante", 1997),
    ("The Dry Season", "Amaru Quispe", 2010),
    ("Orchard Songs", "Marguerite Okafor", 2007),
    ("The Keeper of Maps", "Ingrid Lindqvist", 2021),
    ("Tin Roofs", "Ruth Halloran", 1995),
    ("A Season of Kites", "Oona Farrell", 2003),
    ("The Heron Road", "Clemens Auer", 1989),
    ("Brass and Vellum", "Ingrid Lindqvist", 2022),
    ("The Salt Marsh Diaries", "Sabine Roux", 1981),
    ("When the Winter Comes Late", "Hanne Vogt", 2014),
    ("The Lantern Thief", "Tobias Wren", 2012),
    ("Field Notes from Nowhere", "Peter Abernathy", 2016),
    ("Riverstone", "Ingrid Lindqvist", 2023),
    ("The Borrowed Coat", "Luisa Ferrante", 2006),
    ("Maps for the Blind", "Daniel Osei", 2009),
    ("A Thousand Small Fires", "Amaru Quispe", 2013),
    ("The Sleeping Quarry", "Ruth Halloran", 2001),
    ("Dust on the Piano", "Oona Farrell", 1992),
    ("The Ferryman's Ledger", "Clemens Auer", 1998),
    ("Smoke over Aldgate", "Sabine Roux", 2018),
    ("The Thaw", "Marguerite Okafor", 2020),
    ("Birch Country", "Hanne Vogt", 1986),
    ("The Slow Horses of Tarn", "Tobias Wren", 2022),
    ("Kitchen Latin", "Peter Abernathy", 2005),
    ("The Orchard at Night", "Luisa Ferrante", 2015),
)

_PUBLISHERS = ("Harrow & Finch", "Blue Quarry Press", "Northgate", "Little Owl Books")
_FORMATS = ("Hardcover", "Paperback", "Large print", "Audiobook")
_READERS = ("amelie", "j.hart", "bookworm77", "K. Mensah", "tomasz", "reads_at_night")
_VERDICTS = (
    "Could not put it down.",
    "Slow start, lovely ending.",
    "Beautifully written but too long.",
    "A little dry for my taste.",
    "My favourite of the year.",
)


def _id(index: int) -> str:
    return f"b{index + 1:02d}"


def _card(index: int) -> dict[str, Any]:
    title, author, year = _BOOKS[index]
    return {"id": _id(index), "title": title, "author": author, "year": year}


def _matches(q: str) -> list[int]:
    needle = q.strip().lower()
    if not needle:
        return []
    return [i for i, (t, a, _) in enumerate(_BOOKS) if needle in t.lower() or needle in a.lower()]


def find(q: str, page: int = 1) -> dict[str, Any]:
    """One page of the books whose title or author contains ``q`` (case-insensitive)."""
    hits = _matches(q)
    pages = max(1, -(-len(hits) // PAGE_SIZE))
    page = min(max(1, page), pages)
    chunk = hits[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    return {
        "q": q,
        "page": page,
        "pages": pages,
        "total": len(hits),
        "first": (page - 1) * PAGE_SIZE + 1 if hits else 0,
        "hits": [_card(i) for i in chunk],
    }


def book(book_id: str) -> dict[str, Any] | None:
    """The full record of one book, or None for an unknown id."""
    if not (book_id.startswith("b") and book_id[1:].isdigit()):
        return None
    index = int(book_id[1:]) - 1
    if not 0 <= index < len(_BOOKS):
        return None
    title, author, year = _BOOKS[index]
    editions = [
        {
            "year": year + 3 * n,
            "publisher": _PUBLISHERS[(index + n) % len(_PUBLISHERS)],
            "format": _FORMATS[(index * 3 + n) % len(_FORMATS)],
            "pages": 180 + (index * 37 + n * 11) % 300,
        }
        for n in range(1 + index % 3)
    ]
    reviews = [
        {
            "reader": _READERS[(index + n) % len(_READERS)],
            "stars": 1 + (index * 7 + n * 3) % 5,
            "text": _VERDICTS[(index + 2 * n) % len(_VERDICTS)],
        }
        for n in range(index % 4)
    ]
    return {
        **_card(index),
        "summary": (
            f"{title} is a {'novel' if index % 2 else 'memoir'} by {author}, first published in "
            f"{year}. Shelf mark {800 + index}.{index % 9}."
        ),
        "editions": editions,
        "reviews": reviews,
    }


def expected(q: str) -> tuple[int, list[str]]:
    """How many result pages ``q`` has and the ids of every book it finds, in order."""
    hits = _matches(q)
    return max(1, -(-len(hits) // PAGE_SIZE)), [_id(i) for i in hits]
