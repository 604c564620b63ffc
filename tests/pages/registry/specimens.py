"""The plant registry behind the harvesting test app (``index.html``): 48 specimens in two
collections, found by any word of their name, family or region, a few rows at a time ("Load
more"), each with a CSV sheet its row's "Sheet" button saves. Deterministic: no clock, no
randomness."""

from __future__ import annotations

from typing import Any

BATCH = 5  # rows a search answers at once; "Load more" asks for the next ones
COLLECTIONS = ("all", "herbarium", "seedbank")

_NAMES = ("fern", "moss", "sedge", "lichen", "orchid", "thistle", "clover", "rush")
_KINDS = ("alpine", "coastal", "marsh", "woodland", "desert", "meadow")
_FAMILIES = (
    "Polypodiaceae",
    "Bryaceae",
    "Cyperaceae",
    "Parmeliaceae",
    "Orchidaceae",
    "Asteraceae",
    "Fabaceae",
    "Juncaceae",
)
_REGIONS = ("Andes", "Baltic", "Carpathians", "Deccan", "Patagonia", "Sahel")


def _specimen(i: int) -> dict[str, Any]:
    name, kind = _NAMES[i % len(_NAMES)], _KINDS[(i // len(_NAMES)) % len(_KINDS)]
    return {
        "id": f"PR-{1000 + i}",
        "name": f"{kind.capitalize()} {name}",
        "family": _FAMILIES[(i // 3) % len(_FAMILIES)],
        "region": _REGIONS[(i * 5 + i // 6) % len(_REGIONS)],
        "year": 1950 + (i * 7) % 70,
        "collection": COLLECTIONS[1 + i % 2],
    }


SPECIMENS = tuple(_specimen(i) for i in range(len(_NAMES) * len(_KINDS)))


def _words(specimen: dict[str, Any]) -> set[str]:
    text = f"{specimen['name']} {specimen['family']} {specimen['region']}"
    return set(text.lower().split())


def search(terms: str, collection: str = "all", offset: int = 0) -> dict[str, Any]:
    """The specimens with any word of ``terms``, ``BATCH`` of them from ``offset``."""
    wanted = set(terms.lower().split())
    hits = [s for s in SPECIMENS if wanted & _words(s) and collection in ("all", s["collection"])]
    rows = [
        {k: s[k] for k in ("id", "name", "family", "region", "year")}
        for s in hits[offset : offset + BATCH]
    ]
    return {"total": len(hits), "offset": offset, "rows": rows}


def specimen(number: str) -> dict[str, Any] | None:
    return next((s for s in SPECIMENS if s["id"] == number), None)


def sheet(number: str) -> str | None:
    """The CSV sheet of specimen ``number`` (one field a line), what its "Sheet" button saves."""
    found = specimen(number)
    if found is None:
        return None
    return "field,value\n" + "".join(f"{key},{value}\n" for key, value in found.items())
