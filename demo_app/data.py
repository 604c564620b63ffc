"""Deterministic synthetic patent corpus and the pure search functions the demo app serves.

Everything here is derived from a fixed seed, so tests can compute exactly what the app shows.
The corpus has revisions (``REVISIONS``): revision 0 is the generated corpus, and revision 1
edits it as a site changes between two crawls; :func:`changes` says what differs.
"""

from __future__ import annotations

import copy
import functools
import math
import random
import re
from typing import TypedDict

SEED = 20240611
COUNT = 300
PAGE_SIZE = 10
CITATIONS_PAGE = 5
FIELDS = ("title", "abstract", "claims")
YEARS = (2005, 2010, 2015, 2020, 2024)
FIRST_YEAR, LAST_YEAR = 2005, 2024
# Suggested searches: each matches 11-30 titles, i.e. two or three result pages.
DEMO_QUERIES = ("battery", "drone", "model")
REVISIONS = (0, 1)
REVISED_SHARE = 0.05  # of the patents whose abstract revision 1 rewrites

_WORD = re.compile(r"[a-z0-9]+")


class Patent(TypedDict):
    """One synthetic patent record."""

    number: str
    title: str
    abstract: str
    claims: list[str]
    description: list[str]
    year: int
    fields: list[str]
    citations: list[str]


class _Topic(TypedDict):
    name: str
    keywords: tuple[str, ...]
    subjects: tuple[str, ...]
    components: tuple[str, ...]
    purposes: tuple[str, ...]
    techniques: tuple[str, ...]


_TOPICS: tuple[_Topic, ...] = (
    {
        "name": "electrochemical energy storage",
        "keywords": ("battery", "electrochemistry", "energy storage", "charging", "electrode"),
        "subjects": (
            "lithium-ion battery",
            "battery module",
            "solid-state battery",
            "electrode assembly",
            "supercapacitor",
            "battery management system",
        ),
        "components": (
            "cathode layer",
            "anode current collector",
            "separator membrane",
            "electrolyte reservoir",
            "thermal interface pad",
            "cell balancing circuit",
            "charge controller",
        ),
        "purposes": (
            "estimating the state of charge",
            "balancing cell voltages",
            "suppressing dendrite growth",
            "fast charging",
            "detecting thermal runaway",
            "extending cycle life",
        ),
        "techniques": (
            "impedance spectroscopy",
            "pulsed charging",
            "a silicon-carbon composite",
            "a ceramic electrolyte",
        ),
    },
    {
        "name": "wireless communication",
        "keywords": ("wireless", "antenna", "radio", "5G", "signal processing"),
        "subjects": (
            "antenna array",
            "wireless transceiver",
            "base station",
            "user equipment",
            "phased array antenna",
            "radio front end",
        ),
        "components": (
            "beamforming controller",
            "power amplifier",
            "low-noise amplifier",
            "baseband processor",
            "duplexer",
            "phase shifter",
        ),
        "purposes": (
            "beam management",
            "reducing interference",
            "channel estimation",
            "handover between cells",
            "allocating spectrum",
            "synchronizing timing",
        ),
        "techniques": (
            "millimeter-wave signals",
            "orthogonal frequency division multiplexing",
            "reinforcement learning",
            "a reconfigurable intelligent surface",
        ),
    },
    {
        "name": "machine learning",
        "keywords": ("machine learning", "neural network", "inference", "training", "AI"),
        "subjects": (
            "neural network accelerator",
            "machine learning model",
            "recommendation engine",
            "speech recognition system",
            "image classifier",
            "language model",
        ),
        "components": (
            "embedding layer",
            "attention module",
            "training pipeline",
            "inference engine",
            "feature extractor",
            "quantization unit",
        ),
        "purposes": (
            "training a neural network",
            "compressing model weights",
            "detecting anomalies",
            "ranking search results",
            "generating synthetic training data",
            "explaining predictions",
        ),
        "techniques": (
            "federated learning",
            "knowledge distillation",
            "sparse attention",
            "contrastive learning",
        ),
    },
    {
        "name": "medical devices",
        "keywords": ("medical device", "implant", "diagnostics", "drug delivery", "monitoring"),
        "subjects": (
            "catheter",
            "implantable stimulator",
            "insulin pump",
            "glucose monitor",
            "surgical stapler",
            "stent",
        ),
        "components": (
            "biocompatible housing",
            "pressure sensor",
            "drug reservoir",
            "guidewire",
            "electrode lead",
            "wireless telemetry module",
        ),
        "purposes": (
            "monitoring blood glucose",
            "delivering a therapeutic agent",
            "reducing restenosis",
            "navigating a blood vessel",
            "detecting arrhythmia",
        ),
        "techniques": (
            "ultrasound imaging",
            "a shape-memory alloy",
            "closed-loop control",
            "photoplethysmography",
        ),
    },
    {
        "name": "autonomous vehicles",
        "keywords": ("autonomous driving", "drone", "lidar", "navigation", "robotics"),
        "subjects": (
            "autonomous vehicle",
            "unmanned aerial vehicle",
            "delivery drone",
            "lidar sensor",
            "driver assistance system",
            "vehicle controller",
        ),
        "components": (
            "perception module",
            "path planner",
            "inertial measurement unit",
            "radar unit",
            "steering actuator",
            "obstacle detector",
        ),
        "purposes": (
            "avoiding collisions",
            "localizing a vehicle",
            "planning a trajectory",
            "fusing sensor data",
            "detecting pedestrians",
            "landing a drone",
        ),
        "techniques": (
            "occupancy grids",
            "simultaneous localization and mapping",
            "model predictive control",
            "point cloud segmentation",
        ),
    },
    {
        "name": "advanced materials",
        "keywords": ("materials", "polymer", "coating", "composite", "manufacturing"),
        "subjects": (
            "polymer composite",
            "hydrogel",
            "anti-corrosion coating",
            "carbon fiber laminate",
            "biodegradable packaging film",
            "high-entropy alloy",
        ),
        "components": (
            "crosslinking agent",
            "nanoparticle filler",
            "barrier layer",
            "adhesion promoter",
            "reinforcing fiber",
            "plasticizer",
        ),
        "purposes": (
            "improving tensile strength",
            "resisting corrosion",
            "controlling drug release",
            "reducing weight",
            "self-healing cracks",
        ),
        "techniques": (
            "electrospinning",
            "atomic layer deposition",
            "additive manufacturing",
            "sol-gel processing",
        ),
    },
    {
        "name": "semiconductor devices",
        "keywords": ("semiconductor", "transistor", "lithography", "memory", "packaging"),
        "subjects": (
            "semiconductor device",
            "memory cell",
            "transistor",
            "image sensor",
            "photonic integrated circuit",
            "power module",
        ),
        "components": (
            "gate electrode",
            "dielectric layer",
            "through-silicon via",
            "interconnect",
            "photodiode",
            "heat spreader",
        ),
        "purposes": (
            "reducing leakage current",
            "patterning sub-10 nm features",
            "stacking memory dies",
            "dissipating heat",
            "improving yield",
        ),
        "techniques": (
            "extreme ultraviolet lithography",
            "atomic layer etching",
            "hybrid bonding",
            "gallium nitride epitaxy",
        ),
    },
    {
        "name": "renewable energy",
        "keywords": ("solar", "wind", "hydrogen", "power grid", "clean energy"),
        "subjects": (
            "solar cell",
            "wind turbine",
            "electrolyzer",
            "heat pump",
            "smart grid controller",
            "hydrogen fuel cell",
        ),
        "components": (
            "perovskite absorber",
            "rotor blade",
            "inverter",
            "proton exchange membrane",
            "heat exchanger",
            "grid interface",
        ),
        "purposes": (
            "maximizing power output",
            "producing green hydrogen",
            "forecasting demand",
            "storing thermal energy",
            "reducing blade fatigue",
        ),
        "techniques": (
            "maximum power point tracking",
            "tandem junctions",
            "machine learning forecasts",
            "anion exchange membranes",
        ),
    },
)

_TITLE_TEMPLATES = (
    "{S} having an improved {C}",
    "Method for {P} in {aS}",
    "System and method for {P} using {T}",
    "{S} and method of manufacturing the same",
    "Apparatus for {P}",
    "{A} {S}",
    "{S} comprising {aC} and {aC2}",
    "Techniques for {P}",
)
_ADJECTIVES = ("Compact", "Modular", "Low-power", "High-efficiency", "Flexible", "Adaptive")
_ACTIONS = (
    "regulate",
    "monitor",
    "calibrate",
    "isolate",
    "synchronize",
    "adjust",
)
_SIGNALS = (
    "a temperature measurement",
    "a feedback signal",
    "a stored calibration profile",
    "a sensed load",
    "an operating mode selected by a user",
)
_BENEFITS = (
    "reduces manufacturing cost",
    "improves reliability over the service life",
    "lowers power consumption",
    "simplifies assembly",
    "increases throughput without additional hardware",
)
_WHEREINS = (
    "is formed on a flexible substrate",
    "comprises at least two stacked layers",
    "is controlled by a processor executing instructions stored in a memory",
    "has a thickness between {a} and {b} micrometers",
    "operates at a temperature between {a} and {b} degrees Celsius",
    "is detachably coupled to the housing",
    "is configured to enter a low-power mode when idle",
    "is calibrated at least once every {a} operating cycles",
)


def _article(noun: str) -> str:
    """Return the indefinite article for ``noun``."""
    return "an" if noun[0].lower() in "aeiou" else "a"


def _capitalize(text: str) -> str:
    """Upper-case the first character only, keeping acronyms intact."""
    return text[:1].upper() + text[1:]


def _title(rng: random.Random, topic: _Topic, subject: str, purpose: str, technique: str) -> str:
    """Build a title from the patent's subject, purpose and technique."""
    first, second = rng.sample(topic["components"], 2)
    text = rng.choice(_TITLE_TEMPLATES).format(
        S=subject,
        aS=f"{_article(subject)} {subject}",
        C=first,
        aC=f"{_article(first)} {first}",
        aC2=f"{_article(second)} {second}",
        P=purpose,
        T=technique,
        A=rng.choice(_ADJECTIVES),
    )
    return _capitalize(text)


def _abstract(
    rng: random.Random, subject: str, parts: list[str], purpose: str, technique: str
) -> str:
    """Build a four-sentence abstract mentioning the subject and its components."""
    first, second, third = parts
    return (
        f"{_capitalize(_article(subject))} {subject} includes {_article(first)} {first}, "
        f"{_article(second)} {second}, and {_article(third)} {third}. "
        f"The {first} is coupled to the {second} and is configured to "
        f"{rng.choice(_ACTIONS)} the {third} based on {rng.choice(_SIGNALS)}. "
        f"The arrangement enables {purpose} using {technique}. "
        f"Compared with conventional designs, the {subject} {rng.choice(_BENEFITS)}."
    )


def _claims(rng: random.Random, topic: _Topic, subject: str, parts: list[str]) -> list[str]:
    """Build one independent apparatus claim, dependent claims and a method claim."""
    first, second, third = parts
    claims = [
        f"{_capitalize(_article(subject))} {subject} comprising: {_article(first)} {first}; "
        f"{_article(second)} {second} coupled to the {first}; and {_article(third)} {third} "
        f"configured to {rng.choice(_ACTIONS)} the {second} based on {rng.choice(_SIGNALS)}."
    ]
    for _ in range(rng.randint(2, 7)):
        wherein = rng.choice(_WHEREINS).format(a=rng.randint(2, 40), b=rng.randint(50, 400))
        claims.append(f"The {subject} of claim 1, wherein the {rng.choice(parts)} {wherein}.")
    purpose = rng.choice(topic["purposes"])
    claims.append(
        f"A method of {purpose}, the method comprising: providing {_article(subject)} {subject} "
        f"having {_article(first)} {first}; operating the {second}; and using "
        f"{rng.choice(topic['techniques'])} to {rng.choice(_ACTIONS)} the {third}."
    )
    return claims


def _description(
    rng: random.Random, topic: _Topic, subject: str, parts: list[str], purpose: str, technique: str
) -> list[str]:
    """Build numbered description paragraphs in the usual patent order."""
    first, second, third = parts
    paragraphs = [
        f"TECHNICAL FIELD. The present disclosure relates generally to {topic['name']}, and "
        f"more particularly to {purpose} in {_article(subject)} {subject}.",
        f"BACKGROUND. Existing {subject} designs rely on a fixed {first} whose behaviour cannot "
        f"be adapted in the field. As a result, {purpose} remains difficult and known "
        f"approaches based on {rng.choice(topic['techniques'])} add cost and complexity.",
        f"SUMMARY. In one aspect, {_article(subject)} {subject} includes {_article(first)} "
        f"{first} and {_article(second)} {second}. Using {technique}, the {third} can "
        f"{rng.choice(_ACTIONS)} the {second} based on {rng.choice(_SIGNALS)}, which "
        f"{rng.choice(_BENEFITS)}.",
    ]
    for embodiment in range(1, rng.randint(2, 4) + 1):
        part = rng.choice(parts)
        paragraphs.append(
            f"DETAILED DESCRIPTION. In embodiment {embodiment}, the {part} "
            f"{rng.choice(_WHEREINS).format(a=rng.randint(2, 40), b=rng.randint(50, 400))}. "
            f"A controller may {rng.choice(_ACTIONS)} the {part} based on "
            f"{rng.choice(_SIGNALS)}. This configuration {rng.choice(_BENEFITS)}."
        )
    return [f"[{index:04d}] {text}" for index, text in enumerate(paragraphs, start=1)]


def _record(rng: random.Random, serial: int, year: int) -> Patent:
    """One patent of a random topic, without citations."""
    topic = rng.choice(_TOPICS)
    subject = rng.choice(topic["subjects"])
    purpose = rng.choice(topic["purposes"])
    technique = rng.choice(topic["techniques"])
    parts = rng.sample(topic["components"], 3)
    return {
        "number": f"US{serial}{rng.choice(('B1', 'B2', 'B2'))}",
        "title": _title(rng, topic, subject, purpose, technique),
        "abstract": _abstract(rng, subject, parts, purpose, technique),
        "claims": _claims(rng, topic, subject, parts),
        "description": _description(rng, topic, subject, parts, purpose, technique),
        "year": year,
        "fields": rng.sample(topic["keywords"], rng.randint(2, 4)),
        "citations": [],
    }


def generate(seed: int = SEED, count: int = COUNT) -> list[Patent]:
    """Generate ``count`` patents from ``seed``; the same arguments always give equal output."""
    rng = random.Random(seed)
    years = sorted(rng.randint(FIRST_YEAR, LAST_YEAR) for _ in range(count))
    taken: set[int] = set()
    records: list[Patent] = []
    for year in years:
        base = 7_000_000 + (year - FIRST_YEAR) * 250_000
        serial = rng.randrange(base, base + 250_000)
        while serial in taken:
            serial = rng.randrange(base, base + 250_000)
        taken.add(serial)
        records.append(_record(rng, serial, year))
    for index, record in enumerate(records):
        wanted = rng.randint(5, 25)
        prior = records[:index] if index >= wanted else records[:index] + records[index + 1 :]
        cited = rng.sample(prior, wanted)
        record["citations"] = [c["number"] for c in sorted(cited, key=_newest_first)]
    return records


def _newest_first(patent: Patent) -> tuple[int, int]:
    """Sort key: newest year first, then ascending patent serial."""
    return (-patent["year"], int(patent["number"][2:-2]))


def _demo_matches(patent: Patent) -> set[str]:
    """The demo queries whose words are all in the patent's title."""
    title = set(query_words(patent["title"]))
    return {q for q in DEMO_QUERIES if set(query_words(q)) <= title}


def _serial(patent: Patent) -> int:
    return int(patent["number"][2:-2])


def _added(
    rng: random.Random, records: list[Patent], year: int, low: int, high: int, queries: set[str]
) -> Patent:
    """A new patent of ``year`` with a serial in ``[low, high)``, matching exactly the demo
    ``queries`` (any of them when empty), citing earlier patents."""
    taken = {_serial(p) for p in records}
    serial = rng.randrange(low, high)
    while serial in taken:
        serial = rng.randrange(low, high)
    patent = _record(rng, serial, year)
    while not (_demo_matches(patent) == queries if queries else _demo_matches(patent)):
        patent = _record(rng, serial, year)
    prior = [p for p in records if p["year"] <= year]
    cited = rng.sample(prior, min(len(prior), rng.randint(5, 25)))
    patent["citations"] = [c["number"] for c in sorted(cited, key=_newest_first)]
    return patent


def _revise(records: list[Patent]) -> list[Patent]:
    """Revision 1 of the corpus from revision 0 (every choice seeded).

    - The abstracts of ``REVISED_SHARE`` of the patents, in the same share of those that match
      the demo queries and of the others, end with another benefit.
    - One patent that matches the demo queries cites one more earlier patent.
    - The one patent matching the demo queries that no patent cites is removed, and a new one
      matching the same queries takes its place in their results (same year, a serial just
      below): no other result moves.
    - A new patent of the first year, with the highest serial of that year, matches at least
      one demo query: it comes last in their results.
    """
    rng = random.Random(SEED + 1)
    records = copy.deepcopy(records)
    by_number = {p["number"]: p for p in records}
    cited_anywhere = {c for p in records for c in p["citations"]}
    matching = [p for p in records if _demo_matches(p)]
    removed = rng.choice([p for p in matching if p["number"] not in cited_anywhere])
    citing = rng.choice([p for p in matching if p is not removed])
    earlier = [
        p
        for p in records
        if p["year"] <= citing["year"]
        and p["number"] not in (citing["number"], removed["number"], *citing["citations"])
    ]
    citing["citations"] = sorted(
        [*citing["citations"], rng.choice(earlier)["number"]],
        key=lambda n: _newest_first(by_number[n]),
    )
    pools = [
        [p for p in records if p not in (removed, citing) and bool(_demo_matches(p)) is match]
        for match in (True, False)
    ]
    share = round(REVISED_SHARE * len(matching))
    for patent in [
        *rng.sample(pools[0], share),
        *rng.sample(pools[1], round(REVISED_SHARE * len(records)) - share),
    ]:
        ending = next(b for b in _BENEFITS if patent["abstract"].endswith(f" {b}."))
        other = rng.choice([b for b in _BENEFITS if b != ending])
        patent["abstract"] = patent["abstract"][: -len(ending) - 1] + other + "."
    year = removed["year"]
    below = [_serial(p) for p in records if p["year"] == year and _serial(p) < _serial(removed)]
    low = max(below, default=7_000_000 + (year - FIRST_YEAR) * 250_000 - 1) + 1
    replacement = _added(rng, records, year, low, _serial(removed), _demo_matches(removed))
    records[records.index(removed)] = replacement
    first = [p for p in records if p["year"] == FIRST_YEAR]
    last = _added(rng, records, FIRST_YEAR, max(map(_serial, first)) + 1, 7_250_000, set())
    records.insert(records.index(first[-1]) + 1, last)
    return records


@functools.cache
def _corpus(revision: int = 0) -> tuple[Patent, ...]:
    """The corpus at ``revision``, generated once."""
    if revision not in REVISIONS:
        raise ValueError(f"unknown revision {revision!r}; expected one of {REVISIONS}")
    records = generate()
    return tuple(_revise(records) if revision == 1 else records)


@functools.cache
def _by_number(revision: int = 0) -> dict[str, Patent]:
    """Index of the corpus at ``revision`` by patent number."""
    return {p["number"]: p for p in _corpus(revision)}


def _field_text(patent: Patent, field: str) -> str:
    """The searchable text of one field; claims are joined into one string."""
    if field == "claims":
        return " ".join(patent["claims"])
    return patent["abstract"] if field == "abstract" else patent["title"]


@functools.cache
def _words(number: str, field: str, revision: int) -> frozenset[str]:
    """The lower-cased words of one patent field."""
    return frozenset(query_words(_field_text(_by_number(revision)[number], field)))


def query_words(query: str) -> list[str]:
    """Split a query into the lower-cased words that must all match."""
    return _WORD.findall(query.lower())


def patents(revision: int = 0) -> list[Patent]:
    """Return a copy of the whole corpus at ``revision``, oldest first."""
    return copy.deepcopy(list(_corpus(revision)))


def get(number: str, revision: int = 0) -> Patent | None:
    """Return a copy of the patent with this number (case-insensitive), or None."""
    patent = _by_number(revision).get(number.strip().upper())
    return copy.deepcopy(patent) if patent else None


def changes(old: int, new: int) -> dict[str, list[str]]:
    """What differs between two revisions of the corpus, as sorted patent numbers.

    ``changed``: patents in both whose text differs (title, abstract, claims, description,
    year or fields); ``cited``: patents in both whose citations differ; ``added`` and
    ``removed``: patents in one revision only.

    >>> {what: len(numbers) for what, numbers in changes(0, 1).items()}
    {'changed': 15, 'cited': 1, 'added': 2, 'removed': 1}
    """
    before, after = _by_number(old), _by_number(new)
    both = sorted(before.keys() & after.keys())

    def text(patent: Patent) -> Patent:
        return {**patent, "citations": []}

    return {
        "changed": [n for n in both if text(before[n]) != text(after[n])],
        "cited": [n for n in both if before[n]["citations"] != after[n]["citations"]],
        "added": sorted(after.keys() - before.keys()),
        "removed": sorted(before.keys() - after.keys()),
    }


def search(
    query: str,
    field: str = "title",
    year_from: int | None = None,
    year_to: int | None = None,
    revision: int = 0,
) -> list[Patent]:
    """Patents of ``revision`` whose ``field`` contains every word of ``query``, newest first,
    then by serial.

    Matching is case-insensitive and on whole words; a query without words matches nothing.
    """
    if field not in FIELDS:
        raise ValueError(f"unknown search field {field!r}; expected one of {FIELDS}")
    words = set(query_words(query))
    if not words:
        return []
    low = FIRST_YEAR if year_from is None else year_from
    high = LAST_YEAR if year_to is None else year_to
    hits = [
        p
        for p in _corpus(revision)
        if low <= p["year"] <= high and words <= _words(p["number"], field, revision)
    ]
    return copy.deepcopy(sorted(hits, key=_newest_first))


def page_count(total: int) -> int:
    """Number of result pages for ``total`` hits; an empty result is still one page."""
    return max(1, math.ceil(total / PAGE_SIZE))


def snippet(patent: Patent, query: str, field: str = "title", width: int = 180) -> str:
    """A short plain-text excerpt: around the first match in ``field``, else the abstract start."""
    source = _field_text(patent, "claims" if field == "claims" else "abstract")
    start = 0
    if field != "title":
        for word in query_words(query):
            match = re.search(rf"\b{re.escape(word)}\b", source, re.IGNORECASE)
            if match:
                start = max(0, match.start() - width // 3)
                break
    if start:
        start = source.find(" ", start) + 1
    end = start + width
    if end < len(source):
        end = source.rfind(" ", start, end)
    text = source[start:end].strip()
    prefix = "…" if start else ""
    suffix = "…" if end < len(source) else ""
    return f"{prefix}{text}{suffix}"
