"""Query harvesting: the queries a crawl types into a search form by itself, each chosen from
the words of the results and details seen so far (after the adaptive policy of Ntoulas, Zerfos
and Cho, 2005), until a budget is spent or queries stop bringing new records. No browser: the
engine hands it the DOMs of new states and fires the actions it proposes."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin

import lxml.html
from lxml import etree

from ..directory.layout import HARVEST, read_json, write_json
from ..models.dom import visible_text
from ..state import Action, digest
from .pagination import Walks
from .records import extract

HARVEST_PAGES = 100  # result pages followed per query when harvesting without inputs.max_pages
SATURATION = 5  # queries in a row that bring almost nothing new end a form's harvest
SATURATED_SHARE = 0.01  # ... "almost nothing": fewer new records than this share of the known
REISSUED = 0.5  # what a term's score keeps for each time it was issued already
RECENT = 3  # the queries of each select value whose yield is what it brings next
SEED_SHARE = 0.01  # what a form's own word adds to its score once records are known
TEXT_TYPES = frozenset({"", "text", "search", "email", "url", "tel"})
STOP_WORDS = frozenset(
    """a about above after again against all also an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having here how if in into is it its itself just more most no nor not
    now of off on once only or other our out over own same she should so some such than that
    the their them then there these they this those through to too under until up very was we
    were what when where which while who whom why will with would you your yours one two page
    pages next prev previous search results result show more less none""".split()  # noqa: SIM905
)
_TERM = re.compile(r"[^\W\d_][\w-]*[^\W_]|[^\W\d_]")
_SPACE = re.compile(r"\s+")
_CSS_PLAIN = re.compile(r"-?[A-Za-z_\u0080-\uffff][\w\u0080-\uffff-]*")
# a search box's name, id, placeholder or aria-label: q, s, query, keywords... or a search word
_SEARCH_NAME = re.compile(r"^(q|s|query|keywords?|terms?)$|search|find|query", re.IGNORECASE)
_NAME_END = re.compile(r"[:*]\s*$")  # what the page agent takes off the end of a field's name


def terms(text: str) -> list[str]:
    """The query terms of a text, in order: lower-case words of three letters or more that
    start with a letter, stop words left out.

    >>> terms("The Lithium-ion battery of 2024, and a pack")
    ['lithium-ion', 'battery', 'pack']
    """
    found = (w.lower() for w in _TERM.findall(text))
    return [w for w in found if len(w) >= 3 and w not in STOP_WORDS]


def _collapse(text: str, limit: int) -> str:
    return _SPACE.sub(" ", text).strip()[:limit]


@dataclass(frozen=True)
class Field:
    """A field of a search form: a text box queries are typed into, or a select."""

    locator: str
    name: str
    options: tuple[str, ...] = ()  # a select's option values, the selected one first
    search: bool = False  # a text box recognised as a search box (:func:`is_search`)

    @property
    def is_text(self) -> bool:
        return not self.options


@dataclass(frozen=True)
class Form:
    """A search form as its DOM shows it: where to type, what to choose, what it offers."""

    locator: str
    label: str
    prefix: str  # the action text before the values: "GET <target>" (a template's, if known)
    submitter: str | None
    fields: tuple[Field, ...]
    # terms of its suggestions, placeholders and labels, option texts and page, in that order
    vocabulary: tuple[str, ...]
    event: str = "submit"  # how it is sent ("click": a button beside a loose search box)

    @property
    def text(self) -> Field:
        return next(f for f in self.fields if f.is_text)

    def variants(self, max_options: int) -> list[tuple[tuple[str, str], ...]]:
        """The select values to issue a query with: the current ones, then each select's other
        options (its first ``max_options``) one at a time, as the agent varies a form."""
        selects = [f for f in self.fields if not f.is_text]
        base = tuple((f.locator, f.options[0]) for f in selects)
        out = [base]
        for i, f in enumerate(selects):
            for value in f.options[1:max_options]:
                out.append((*base[:i], (f.locator, value), *base[i + 1 :]))
        return out

    def action(
        self, term: str, variant: tuple[tuple[str, str], ...], status: str = "visible"
    ) -> Action:
        """The submit of ``term`` with the select values ``variant``."""
        pairs = ((self.text.locator, term), *variant)
        names = {f.locator: f.name for f in self.fields}
        query = "&".join(f"{_encode(names[loc])}={_encode(value)}" for loc, value in pairs)
        return Action(
            name=f"{self.locator} {json.dumps(self.label, ensure_ascii=False)}",
            status=status,
            event=self.event,
            action=f"{self.prefix} {query}",
            kind="submit",
            locator=self.locator,
            label=self.label,
            values=pairs,
            submitter=self.submitter,
        )

    @property
    def signature(self) -> str:
        """What tells one form from another across the states that show it."""
        return digest(self.locator, self.label, [f.locator for f in self.fields])


def _encode(text: str) -> str:
    """As JavaScript's ``encodeURIComponent`` (the agent's action texts)."""
    return quote(text, safe="-_.!~*'()")


def _css_escape(name: str) -> str:
    if _CSS_PLAIN.fullmatch(name):
        return name
    return "".join(c if c.isalnum() or c in "-_" else "\\" + c for c in name)


def _locator(el: etree._Element, ids: Counter[str]) -> str:
    """The page agent's locator of an element: its id (or a unique ancestor's) and
    ``tag:nth-of-type(i)`` steps below."""
    parts = []
    node: Any = el
    while node is not None and isinstance(node.tag, str):
        if node.get("id") and ids[node.get("id")] == 1:
            parts.append("#" + _css_escape(node.get("id")))
            break
        if node.getparent() is None:
            parts.append("html")
            break
        index = 1 + sum(1 for s in node.itersiblings(preceding=True) if s.tag == node.tag)
        parts.append(f"{node.tag}:nth-of-type({index})")
        node = node.getparent()
    return " > ".join(reversed(parts))


def _hidden(el: etree._Element) -> bool:
    return any(
        a.get("hidden") is not None or "display:none" in (a.get("style") or "").replace(" ", "")
        for a in (el, *el.iterancestors())
    )


def is_search(el: etree._Element) -> bool:
    """Whether a text box is a search box: ``type=search``, inside ``role=search``, or named,
    labelled or placeholdered as one (q, query, search, find...)."""
    if (el.get("type") or "").lower() == "search":
        return True
    if any(a.get("role") == "search" for a in (el, *el.iterancestors())):
        return True
    names = (el.get(k) or "" for k in ("name", "id", "placeholder", "aria-label"))
    return any(_SEARCH_NAME.search(n.strip()) for n in names)


def field_label(el: etree._Element, root: etree._Element) -> str:
    """The page agent's label of a text field: what it asks for (the first of its labels'
    text, aria-label, placeholder, name and id), lower case, without a trailing ``:`` or
    ``*``; the tag when it has none.

    >>> root = lxml.html.fromstring('<p><label for="q">Find  a Book:</label><input id="q">')
    >>> field_label(root.find(".//input"), root)
    'find a book'
    """
    own = el.get("id")
    labels = [
        "".join(label.itertext()) for label in root.iter("label")
        if (own and label.get("for") == own)
        or (label.get("for") is None and next(_labelable(label), None) is el)
    ]
    names = [*labels, *(el.get(k) for k in ("aria-label", "placeholder", "name", "id"))]
    found = [_NAME_END.sub("", _collapse(n, 200)).lower() for n in names if n]
    return _collapse(found[0], 80) if found else str(el.tag)


def _labelable(label: etree._Element) -> Iterator[etree._Element]:
    """The fields a ``label`` without ``for`` may name: those inside it, in order."""
    return (el for el in label.iterdescendants("input", "select", "textarea")
            if el.tag != "input" or (el.get("type") or "").lower() != "hidden")


def _submits(el: etree._Element) -> bool:
    """Whether a button or input submits its form."""
    kind = (el.get("type") or ("submit" if el.tag == "button" else "text")).lower()
    return kind in ("submit", "image")


def _label(form: lxml.html.HtmlElement) -> str:
    """The agent's label of a form: its aria-label, name or id, else its submit button's."""
    button = next((b for b in form.iter("button", "input") if _submits(b)), None)
    own = form.get("aria-label") or form.get("name") or form.get("id")
    text = button is not None and (_collapse(button.text_content(), 80) or button.get("value"))
    return _collapse(own or text or "form", 80)


def _beside(el: etree._Element) -> etree._Element | None:
    """The button beside a text box outside any form, as the page agent finds it: in its
    parent if that holds a button, else in its grandparent."""
    parent = el.getparent()
    if parent is not None and next(parent.iter("button"), None) is None:
        parent = parent.getparent()
    if parent is None:
        return None
    return next((b for b in parent.iter("button", "input")
                 if b.tag == "button" or (b.get("type") or "").lower() == "button"), None)


def forms(
    html: str, url: str, actions: Iterable[Action] = (), *, loose: bool = False
) -> list[Form]:
    """The search forms of a DOM: visible forms with a text field. A submit the agent offered
    for the form (in ``actions``) gives its label, submitter and action text. ``loose``: also
    each search box outside any form, a form of one field sent by the click the agent
    offered on the button beside it, or else by Enter in the box itself (a live search, an
    autocomplete: typing runs it, as the page agent types a value given for a field)."""
    try:
        root = lxml.html.document_fromstring(html)
    except (etree.ParserError, ValueError):
        return []
    ids = Counter(
        el.get("id", "") for el in root.iter() if isinstance(el.tag, str) and el.get("id")
    )
    lists = {
        el.get("id"): [o.get("value") or o.text_content() for o in el.iter("option")]
        for el in root.iter("datalist")
    }
    templates = {a.locator: a for a in actions if a.event == "submit" and a.kind == "submit"}
    page = terms(visible_text(html))
    out = []
    for form in root.iter("form"):
        if _hidden(form):
            continue
        fields: list[Field] = []
        hints: list[str] = []  # suggestions, placeholders and labels: the likeliest queries
        words: list[str] = []  # option texts
        for el in form.iter("input", "select", "textarea"):
            if el.get("disabled") is not None or _hidden(el):
                continue
            name = el.get("name") or el.get("id") or ""
            if el.tag == "select":
                options = [o for o in el.iter("option") if o.get("disabled") is None]
                values = [o.get("value", o.text_content().strip()) for o in options]
                chosen = next((v for o, v in zip(options, values, strict=True)
                               if o.get("selected") is not None), values[0] if values else None)
                if chosen is None:
                    continue
                values = [chosen, *(v for v in values if v != chosen)]
                fields.append(Field(_locator(el, ids), name, tuple(dict.fromkeys(values))))
                words += [o.text_content() for o in options]
            elif el.tag == "textarea" or (el.get("type") or "").lower() in TEXT_TYPES:
                fields.append(Field(_locator(el, ids), name, search=is_search(el)))
                hints += lists.get(el.get("list"), [])
                hints += [el.get("placeholder") or "", el.get("aria-label") or ""]
        if not any(f.is_text for f in fields):
            continue
        loc = _locator(form, ids)
        template = templates.get(loc)
        if template is not None:
            label, submitter = template.label, template.submitter
            prefix = " ".join(template.action.split(" ", 2)[:2])
        else:
            button = next((b for b in form.iter("button", "input") if _submits(b)), None)
            label, submitter = _label(form), _locator(button, ids) if button is not None else None
            method = (form.get("method") or "GET").upper()
            prefix = f"{method} {urljoin(url, form.get('action') or url)}"
        vocabulary = dict.fromkeys(terms(" ".join(hints)) + terms(" ".join(words)) + page)
        out.append(Form(loc, label, prefix, submitter, tuple(fields), tuple(vocabulary)))
    if loose:
        clicks = {a.locator: a for a in actions if a.event == "click" and a.kind == "script"}
        for el in root.iter("input", "textarea"):
            if (el.get("form") or any(a.tag == "form" for a in el.iterancestors())
                    or el.get("disabled") is not None or _hidden(el) or not is_search(el)
                    or (el.tag == "input" and (el.get("type") or "").lower() not in TEXT_TYPES)):
                continue
            beside = _beside(el)
            click = clicks.get(_locator(beside, ids)) if beside is not None else None
            loc = _locator(el, ids)
            hints = terms(" ".join([el.get("placeholder") or "", el.get("aria-label") or ""]))
            box = Field(loc, el.get("name") or el.get("id") or loc, search=True)
            known = tuple(dict.fromkeys(hints + page))
            if click is not None:
                out.append(Form(click.locator, click.label, f"CLICK {click.locator}", None,
                                (box,), known, event="click"))
            else:  # a live search or an autocomplete: typed into, then Enter
                out.append(Form(loc, field_label(el, root), f"ENTER {loc}", None, (box,),
                                known, event="keydown:Enter"))
    return out


@dataclass
class Query:
    """One query issued: its term, its select values, what it brought."""

    term: str
    variant: int
    values: dict[str, str]
    new: int = 0  # records first seen in the states it led to
    records: int = 0  # records known when the next query was issued (or the crawl ended)

    def to_data(self) -> dict[str, Any]:
        return {"term": self.term, "values": self.values, "new": self.new,
                "records": self.records}


@dataclass
class Corpus:
    """What was seen: the terms of each document (a record, or a state without records),
    their document frequencies, and each return of a record by a query's result list (a
    record two queries returned discounts its terms twice: queries that overlap look alike)."""

    docs: dict[str, frozenset[str]] = field(default_factory=dict)
    df: Counter[str] = field(default_factory=Counter)
    returns: set[tuple[str, str]] = field(default_factory=set)  # (record, query)
    returned_df: Counter[str] = field(default_factory=Counter)
    records: dict[str, int] = field(default_factory=dict)  # record -> how many were known before

    def add(self, key: str, text: str, *, record: bool, returned_by: str | None = None) -> bool:
        """Take in a document's text (a record seen again adds its new words), listed by the
        query ``returned_by`` if any; whether the record was new."""
        new = record and key not in self.records
        if new:
            self.records[key] = len(self.records)
        old = self.docs.get(key, frozenset())
        words = old | frozenset(terms(text))
        self.docs[key] = words
        self.df.update(words - old)
        if returned_by is not None and (key, returned_by) not in self.returns:
            self.returns.add((key, returned_by))
            self.returned_df.update(words)
        return new

    def expected(self, term: str) -> float:
        """How many new records a query of ``term`` may bring: how often it was seen, shrunk
        by how often queries' results listed it (``df / (1 + returns / df)``): a term seen
        only in details counts whole, one whose records each came twice a third."""
        df = self.df[term]
        return df * df / (df + self.returned_df[term]) if df else 0.0


class Policy:
    """Which query next for one form: the unissued (term, select values) pair with the most
    expected new records: a term's from the :class:`Corpus`, times the recent yield of its
    select values (see :meth:`_yield`). Ties go by a hash of the seed and the term, so a
    given seed gives the same queries for the same pages."""

    def __init__(
        self,
        form: Form,
        corpus: Corpus,
        *,
        budget: int,
        max_options: int,
        seed: int,
        given: Iterable[str] = (),
        saturation: int = SATURATION,
    ) -> None:
        self.form = form
        self.corpus = corpus
        self.budget = budget
        self.seed = seed
        self.saturation = saturation
        self.variants = form.variants(max_options)
        self.given = frozenset(g.lower() for g in given)
        self.queries: list[Query] = []
        self.issued: set[tuple[str, int]] = set()
        self.stopped: str | None = None

    def _yield(self, variant: int) -> float:
        """What a query with these select values brings: the mean new records of their last
        ``RECENT`` queries; half the mean of all queries for values never tried, so that they
        are tried once those tried bring less."""
        used = [q.new for q in self.queries if q.variant == variant][-RECENT:]
        if used:
            return (sum(used) + 1) / (len(used) + 1)
        done = [q.new for q in self.queries]
        return (sum(done) + 1) / (len(done) + 1) / 2

    def saturated(self) -> bool:
        """The last ``saturation`` queries (twice the select values tried, if more) each
        brought almost nothing new, once any did."""
        window = max(self.saturation, 2 * len(self.variants))
        last = self.queries[-window:]
        floor = max(1.0, SATURATED_SHARE * len(self.corpus.records))
        return len(last) == window and bool(self.corpus.records) and all(
            q.new < floor for q in last
        )

    def candidates(self) -> list[str]:
        """The terms that may be issued: the form's vocabulary and every term seen."""
        return [*self.form.vocabulary, *self.corpus.df]

    def next(self) -> Query | None:
        """The next query, or ``None`` (and :attr:`stopped` says why) when the form is done."""
        if self.stopped is not None:
            return None
        if len(self.queries) >= self.budget:
            self.stopped = "budget"
        elif self.saturated():
            self.stopped = "saturated"
        if self.stopped is not None:
            return None
        vocabulary = {term: i for i, term in enumerate(self.form.vocabulary)}
        yields = [self._yield(v) for v in range(len(self.variants))]
        seen = bool(self.corpus.records)
        issued = Counter(term for term, _ in self.issued)
        best: tuple[float, int, str, str] | None = None
        for term in dict.fromkeys(self.candidates()):
            if term in self.given:
                continue
            # Until a query brings records, the form's own words in their order (what seen
            # text says of a term means nothing yet); then the expected new records, the
            # form's words first among equals.
            score = max(self.corpus.expected(term), 0.0) if seen else 0.0
            if term in vocabulary:
                score += (SEED_SHARE if seen else 1.0) / (1 + vocabulary[term])
            score *= REISSUED ** issued[term]  # with other select values: likelier known
            tie = digest(self.seed, term)
            for variant, bring in enumerate(yields):
                if (term, variant) not in self.issued:
                    rank = (-score * bring, variant, tie, term)
                    best = rank if best is None else min(best, rank)
        if best is None:
            self.stopped = "vocabulary"
            return None
        _, variant, _, term = best
        self.issued.add((term, variant))
        names = {f.locator: f.name for f in self.form.fields}
        values = {names[loc]: value for loc, value in self.variants[variant]}
        query = Query(term, variant, {names[self.form.text.locator]: term, **values})
        self.queries.append(query)
        return query

    def action(self, query: Query, status: str = "visible") -> Action:
        return self.form.action(query.term, self.variants[query.variant], status)


class Harvest:
    """The engine's side of harvesting and of pagination to the end: the records of every
    new state, the search forms found, the pages of each query's results
    (:class:`.pagination.Walks`), and the next query to fire."""

    def __init__(
        self,
        *,
        budget: int | None,
        max_options: int,
        max_pages: int | None,
        seed: int,
        given: Mapping[str, Iterable[str]] = {},
    ) -> None:
        self.budget = budget
        self.max_options = max_options
        self.seed = seed
        self.given = [v for values in given.values() for v in values]
        self.corpus = Corpus()
        self.walks = Walks(HARVEST_PAGES if max_pages is None and budget is not None else max_pages)
        self.forms: dict[str, tuple[str, Policy]] = {}  # signature -> (its state, its policy)
        self.order: list[Query] = []  # every query, in the order issued
        self.chrome: frozenset[str] | None = None  # the terms of the first page, on every page
        # result page -> the records known as its walk began, and those it lists
        self.start: dict[str, tuple[int, frozenset[str]]] = {}

    def retarget(self, names: Mapping[str, str]) -> None:
        """States renamed or merged (``Memory.retarget``): every table follows."""
        for old, new in names.items():
            if old in self.walks.pages:
                self.walks.enter(new, self.walks.pages.pop(old))
            if old in self.start:
                self.start.setdefault(new, self.start.pop(old))
        self.forms = {sig: (names.get(state, state), p) for sig, (state, p) in self.forms.items()}

    def cost(self, source: str, action: Action) -> int:
        """The depth an action adds: none for a step through a query's result pages."""
        return 0 if self.walks.step(source, action) is not None else 1

    def saw(
        self, state: str, url: str, html: str, actions: list[Action],
        parent: str | None, action: Action | None,
    ) -> bool:
        """Take in a new state; whether to explore it (not a result page of a walk whose
        records were all known)."""
        # The engine asks for a query once the crawl has nothing else to do: what a new
        # state brings is the last query's doing (a state of its results may be reached from
        # an earlier one's, the form filled in there).
        query = self.order[-1] if self.order else None
        if self.budget is not None:
            for form in forms(html, url, actions):
                if form.signature not in self.forms:
                    policy = Policy(form, self.corpus, budget=self.budget,
                                    max_options=self.max_options, seed=self.seed,
                                    given=self.given)
                    self.forms[form.signature] = (state, policy)
        found = extract(html, url)
        page = self.walks.page(parent, action, bool(found))
        # the query whose results list the records ("" for a list no harvest query made)
        by = None if page is None else (f"{query.term} {query.variant}" if query else "")
        known = len(self.corpus.records)
        new = 0
        for key, values in found:
            new += self.corpus.add(key, " ".join(values.values()), record=True, returned_by=by)
        if not found and parent in self.start:  # a detail: its words but the site's
            words = set(terms(visible_text(html)))
            if self.chrome is None:
                self.chrome = frozenset(words)
            self.corpus.add(state, " ".join(sorted(words - self.chrome)), record=False)
        if query is not None:
            query.new += new
        if page is None:
            return True
        # A walk's first page starts it; a later one ends it when the records it adds (to
        # those of the page before: "Load more" keeps them) were all known before the walk.
        before = self.start.get(parent or "", (known, frozenset()))
        start = known if page == 1 else before[0]
        keys = frozenset(key for key, _ in found)
        self.start[state] = (start, keys)
        self.walks.enter(state, page)
        return page == 1 or any(self.corpus.records[key] >= start for key in keys - before[1])

    def next(self) -> tuple[str, Action] | None:
        """The next query to fire, as (the state of its form, the submit), or ``None``."""
        for state, policy in self.forms.values():
            query = policy.next()
            if query is None:
                continue
            if self.order:
                self.order[-1].records = len(self.corpus.records)
            self.order.append(query)
            return state, policy.action(query)
        return None

    def summary(self) -> dict[str, Any]:
        """The queries and the coverage curve (records after each query), for ``harvest.json``."""
        if self.order:
            self.order[-1].records = len(self.corpus.records)
        return {
            "records": len(self.corpus.records),
            "queries": [q.to_data() for q in self.order],
            "curve": [q.records for q in self.order],
            "forms": [
                {"state": state, "form": p.form.locator, "queries": len(p.queries),
                 "stopped": p.stopped or "crawl ended"}
                for state, p in self.forms.values()
            ],
        }


def write(directory: Path, harvest: Harvest) -> None:
    """Write ``harvest.json`` into the crawl ``directory``."""
    write_json(directory / HARVEST, harvest.summary())


def read(directory: Path) -> dict[str, Any] | None:
    """A crawl directory's ``harvest.json``, or ``None`` when the crawl harvested nothing."""
    harvest: dict[str, Any] | None = read_json(Path(directory) / HARVEST)
    return harvest
