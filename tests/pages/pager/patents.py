"""A small, fixed patent register behind the patent-search test app (``index.html``).

``search``, ``patent``, ``claims`` and ``citations`` are what the app's JSON API returns;
``markers`` is the marker text of every screen a crawl can reach through the app's UI, which is
what the crawl test checks for. Everything is deterministic: no clock, no randomness.

The data are chosen so that each of the queries "battery" and "graphene", searched in the title
and in the abstract, finds 7 to 9 patents (3 pages of 3), and four patents are found by three
of those four searches, so the same detail shows up beside the results of different queries.
"""

from __future__ import annotations

from typing import Any

PAGE_SIZE = 3
FIELDS = ("title", "abstract")
SCREENS = ("DETAIL", "ABSTRACT", "CLAIMS", "CITATIONS")  # the markers of a patent's detail

# (number, date, assignee, title, abstract), by number. Found by "battery" in the title: 8;
# in the abstract: 8; "graphene" in the title: 7; in the abstract: 8. Shared: US10034562B2
# (battery title, graphene both), US10139455B2 (battery both, graphene abstract),
# US10305527B2 (battery abstract, graphene both), US10377441B2 (battery both, graphene title).
_PATENTS: tuple[tuple[str, str, str, str, str], ...] = (
    ("US10012001B2", "2018-07-03", "Voltaris Energy",
     "Battery pack with integrated cooling channels",
     "A pack of prismatic lithium-ion cells is held between two aluminium plates through which "
     "coolant flows, keeping the cells within five degrees of one another during fast charging."),
    ("US10034562B2", "2018-07-24", "Kestrel Materials",
     "Graphene-wrapped silicon anode for a lithium battery",
     "Silicon particles are wrapped in few-layer graphene sheets that buffer their swelling "
     "during charging, so the anode keeps its capacity over a thousand cycles."),
    ("US10051178B2", "2018-08-14", "Northfield Optics",
     "Transparent conductive film",
     "A film of single-layer graphene transferred onto glass conducts as well as indium tin oxide "
     "while bending without cracking, for touch screens and solar windows."),
    ("US10077230B2", "2018-09-11", "Halden Automotive",
     "Battery state-of-health estimation from impedance spectra",
     "The impedance of each cell is measured at several frequencies while the vehicle is parked "
     "and compared with a model of ageing to predict the remaining capacity."),
    ("US10098841B2", "2018-10-16", "Kestrel Materials",
     "Method of producing graphene by electrochemical exfoliation",
     "Graphite foil is exfoliated in a sulphate electrolyte under a pulsed voltage, giving flakes "
     "of one to three atomic layers at a fraction of the cost of vapour deposition."),
    ("US10112694B2", "2018-10-30", "Sorrel Devices",
     "Wearable heart monitor",
     "A flexible patch records the electrocardiogram for two weeks on a single coin battery and "
     "uploads the trace when the wearer's phone is near."),
    ("US10139455B2", "2018-11-27", "Voltaris Energy",
     "Solid electrolyte membrane for a lithium-metal battery",
     "A ceramic membrane laced with graphene oxide blocks dendrites and lets a battery with a "
     "lithium-metal anode charge in fifteen minutes."),
    ("US10150327B2", "2018-12-11", "Amberline Tools",
     "Cordless drill with a removable power module",
     "The drill's battery slides into the handle and locks with a single latch; a gauge on the "
     "module shows its charge."),
    ("US10176902B2", "2019-01-08", "Brightwater Labs",
     "Graphene oxide membrane for water desalination",
     "Stacked sheets of oxidised carbon with a controlled interlayer spacing pass water molecules "
     "and reject salt ions, desalinating seawater at low pressure."),
    ("US10181530B2", "2019-01-15", "Corvane Marine",
     "Anti-corrosion primer for ship hulls",
     "A primer loaded with graphene platelets forms a barrier that keeps seawater from the steel "
     "for twice as long as a zinc-rich primer."),
    ("US10193318B2", "2019-01-29", "Halden Automotive",
     "Battery thermal runaway detection",
     "Gas sensors inside the pack detect the vented electrolyte of a failing cell minutes before "
     "it ignites, and the module is disconnected."),
    ("US10210756B2", "2019-02-19", "Sorrel Devices",
     "Hearing aid with wireless charging",
     "An inductive coil in the hearing aid's shell charges its battery overnight in a drying "
     "case."),
    ("US10235148B2", "2019-03-19", "Northfield Optics",
     "Graphene photodetector for infrared imaging",
     "A channel one carbon atom thick on a silicon waveguide converts infrared light into current "
     "at gigahertz speeds."),
    ("US10251663B2", "2019-04-09", "Voltaris Energy",
     "Battery electrode slurry with low solvent content",
     "Active material, binder and conductive carbon are mixed at seventy percent solids, halving "
     "the energy needed to dry the coated electrode."),
    ("US10263390B2", "2019-04-23", "Fenwick Sports",
     "Racket frame with a stiffened throat",
     "Graphene added to the carbon-fibre layup at the throat of the frame stiffens it without "
     "adding weight or changing the balance."),
    ("US10270395B2", "2019-04-30", "Amberline Tools",
     "Portable jump starter",
     "A pocket-sized pack of lithium cells delivers enough current to start a car whose battery "
     "has run flat."),
    ("US10288114B2", "2019-05-14", "Kestrel Materials",
     "Graphene-reinforced concrete",
     "Adding a small fraction of exfoliated carbon flakes to the cement paste doubles the "
     "compressive strength of the cured concrete."),
    ("US10305527B2", "2019-05-28", "Brightwater Labs",
     "Graphene supercapacitor for regenerative braking",
     "Electrodes of crumpled graphene store the energy of braking and return it within seconds, "
     "sparing the vehicle's battery the peak currents."),
    ("US10322870B2", "2019-06-18", "Halden Automotive",
     "Battery swapping station for electric scooters",
     "A kiosk takes a depleted pack, checks its cells and hands out a charged one in under a "
     "minute."),
    ("US10341296B2", "2019-07-02", "Sorrel Devices",
     "Smoke alarm with a ten-year sealed power supply",
     "The alarm's sealed lithium battery lasts ten years, and the unit chirps once a day when it "
     "needs replacing."),
    ("US10359812B2", "2019-07-23", "Kestrel Materials",
     "Conductive ink for printed electronics",
     "Flakes of graphene dispersed in a water-based binder are screen-printed into antennas and "
     "circuits that survive repeated folding."),
    ("US10366075B2", "2019-07-30", "Halden Automotive",
     "Heated seat with a printed heating track",
     "A printed graphene track warms the seat evenly within a minute and draws a third of the "
     "current of a wire element."),
    ("US10377441B2", "2019-08-13", "Northfield Optics",
     "Graphene heat spreader for battery modules",
     "A laminated carbon sheet draws heat from the hottest cells of a battery module to its "
     "cooling plate."),
    ("US10394057B2", "2019-09-03", "Amberline Tools",
     "Torque wrench with a digital readout",
     "A strain gauge in the shaft shows the applied torque and vibrates when the set value is "
     "reached."),
    ("US10412688B2", "2019-09-17", "Brightwater Labs",
     "Ultraviolet water purifier for camping",
     "A ring of ultraviolet diodes in the cap sterilises a bottle of water in ninety seconds."),
    ("US10430921B2", "2019-10-08", "Corvane Marine",
     "Autopilot that follows depth contours",
     "The autopilot steers along a chosen depth contour read from the echo sounder, for trawling "
     "and for survey work."),
)  # fmt: skip

_INDEX = {p[0]: i for i, p in enumerate(_PATENTS)}


def _card(index: int) -> dict[str, str]:
    number, date, assignee, title, _ = _PATENTS[index]
    return {"number": number, "date": date, "assignee": assignee, "title": title}


def _matches(q: str, field: str) -> list[int]:
    """The indices of the patents whose ``field`` contains ``q`` (case-insensitive)."""
    needle = q.strip().lower()
    if not needle or field not in FIELDS:
        return []
    column = 3 if field == "title" else 4
    return [i for i, p in enumerate(_PATENTS) if needle in p[column].lower()]


def pages(q: str, field: str) -> int:
    """How many result pages a search has (1 when it finds nothing)."""
    return max(1, -(-len(_matches(q, field)) // PAGE_SIZE))


def search(q: str, field: str = "title", page: int = 1) -> dict[str, Any]:
    """One page of the patents whose ``field`` ("title" or "abstract") contains ``q``."""
    hits = _matches(q, field)
    last = pages(q, field)
    page = min(max(1, page), last)
    chunk = hits[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    return {
        "q": q,
        "field": field,
        "page": page,
        "pages": last,
        "total": len(hits),
        "first": (page - 1) * PAGE_SIZE + 1 if hits else 0,
        "hits": [_card(i) for i in chunk],
    }


def patent(number: str) -> dict[str, str] | None:
    """The bibliographic record and abstract of one patent, or None for an unknown number."""
    index = _INDEX.get(number)
    if index is None:
        return None
    return {**_card(index), "abstract": _PATENTS[index][4]}


def claims(number: str) -> dict[str, Any] | None:
    """The claims of one patent (written from its title: 2 to 4 of them), or None."""
    index = _INDEX.get(number)
    if index is None:
        return None
    subject = _PATENTS[index][3][0].lower() + _PATENTS[index][3][1:]
    wherein = (
        "the arrangement is sealed against moisture",
        "the parts are joined without adhesive",
        "the device is operated at ambient temperature",
    )
    texts = [f"A {subject}, as described and shown."]
    texts += [f"The {subject} of claim 1, wherein {w}." for w in wherein[: 1 + index % 3]]
    return {"number": number, "claims": texts}


def citations(number: str) -> dict[str, Any] | None:
    """The earlier patents one patent cites (0 to 3, by number and title), or None."""
    index = _INDEX.get(number)
    if index is None:
        return None
    cited = sorted({i for i in (index - 1, index - 4, index - 7)[: index % 4] if i >= 0})
    return {
        "number": number,
        "citations": [{"number": _PATENTS[i][0], "title": _PATENTS[i][3]} for i in cited],
    }


def found(q: str, field: str) -> list[str]:
    """The numbers of every patent one search finds, in the order shown."""
    return [_PATENTS[i][0] for i in _matches(q, field)]


def markers(queries: tuple[str, ...], fields: tuple[str, ...] = FIELDS) -> set[str]:
    """The marker text of every screen reachable by searching ``queries`` in ``fields``: each
    results page, and each found patent's detail and its three tabs."""
    out: set[str] = set()
    for q in queries:
        for field in fields:
            out |= {f"PAGE {q}/{field}/{p}" for p in range(1, pages(q, field) + 1)}
            for number in found(q, field):
                out |= {f"{kind} {number}" for kind in SCREENS}
    return out
