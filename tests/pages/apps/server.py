"""The app zoo's server: the built apps under ``/<app>/`` and their JSON APIs, with
deterministic data, as one werkzeug handler (``handle``) for ``tests/conftest.py``'s ``Site``,
or as a WSGI server of its own on loopback (``serve``, for the benchmark).

APIs: ``/api/ops/<id>`` (the API explorer's "Try it out"), ``/facets/api/search`` (and its
``.json`` / ``.csv`` format variants), ``/facets/api/patent/<number>``,
``/dashboard/api/callback`` (POST, the dashboard's server callbacks) and ``/petstore/api/``
(every operation of the pet store's document, for its "Try it out" and "Execute").
"""

from __future__ import annotations

import csv
import io
import json
import mimetypes
import threading
from pathlib import Path
from typing import Any

from werkzeug import Request, Response
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

DIST = Path(__file__).parent / "dist"
PAGE_SIZE = 10

# ---- the patent database (facets) ----------------------------------------------------------
SECTIONS = {"A": "Human necessities", "B": "Operations", "G": "Physics", "H": "Electricity"}
ASSIGNEES = ("Arvik Labs", "Brightwater GmbH", "Caldera Systems", "Nordlys Optics", "Tessel Inc")
SUBJECTS = (
    ("battery electrode", "H"),
    ("water filter", "A"),
    ("conveyor drive", "B"),
    ("lidar scanner", "G"),
    ("solar inverter", "H"),
    ("hearing aid", "A"),
    ("drill bit", "B"),
    ("optical sensor", "G"),
    ("wind turbine blade", "B"),
    ("insulin pump", "A"),
    ("motor controller", "H"),
    ("spectrometer", "G"),
)
MATERIALS = ("steel", "polymer", "glass")
FORMS = ("Adaptive", "Compact", "Modular", "Quiet", "Sealed")
# The one patent whose detail and claims hold the facets markers: found by the query "lidar"
MARKED = 27


def _patent(i: int) -> dict[str, Any]:
    """Patent ``i`` of the database: every field derived from ``i`` alone."""
    subject, section = SUBJECTS[i % len(SUBJECTS)]
    form = FORMS[(i // len(SUBJECTS)) % len(FORMS)]
    year = 2010 + (i * 7) % 12
    claims = [
        f"1. A {subject} comprising a housing and a {form.lower()} frame.",
        f"2. The {subject} of claim 1, wherein the frame is {MATERIALS[i % 3]}.",
        f"3. A method of making the {subject} of claim 1 in {3 + i % 5} steps.",
    ]
    patent = {
        "number": f"US{10400000 + i * 7919}",
        "title": f"{form} {subject}",
        "assignee": ASSIGNEES[(i * 3) % len(ASSIGNEES)],
        "year": year,
        "section": section,
        "priority": f"{year - 1}-{1 + i % 12:02d}-{1 + (i * 5) % 28:02d}",
        "abstract": f"A {form.lower()} {subject} for {SECTIONS[section].lower()}, "
        f"described in {2 + i % 4} embodiments.",
        "claims": claims,
    }
    if i == MARKED:
        patent.update(assignee="Nordlys Optics", year=2019, priority="2019-03-14")
        patent["claims"][1] = (
            "2. The lidar scanner of claim 1, comprising a lidar puck cooled by a Peltier stack."
        )
    return patent


PATENTS = [_patent(i) for i in range(60)]
YEARS = sorted({p["year"] for p in PATENTS})
BY_NUMBER = {p["number"]: p for p in PATENTS}
SORTS = {"number", "title", "year"}


def search(args: Any) -> dict[str, Any]:
    """One results page: the patents matching ``q`` and the checked facets, sorted, with
    the facet counts of the query's matches (before the facets narrow them)."""
    q = args.get("q", "").strip().lower()
    sections = [s for s in args.getlist("section") if s in SECTIONS]
    assignees = [a for a in args.getlist("assignee") if a in ASSIGNEES]
    years = [int(y) for y in args.getlist("year") if y.isdigit()]
    sort = args.get("sort", "number") if args.get("sort") in SORTS else "number"
    desc = args.get("order") == "desc"
    page = max(1, int(args.get("page", "1")) if args.get("page", "1").isdigit() else 1)
    matched = [p for p in PATENTS if not q or q in (p["title"] + " " + p["abstract"]).lower()]
    counts = {
        "section": {s: sum(p["section"] == s for p in matched) for s in SECTIONS},
        "assignee": {a: sum(p["assignee"] == a for p in matched) for a in ASSIGNEES},
        "year": {str(y): sum(p["year"] == y for p in matched) for y in YEARS},
    }
    hits = [
        p
        for p in matched
        if (not sections or p["section"] in sections)
        and (not assignees or p["assignee"] in assignees)
        and (not years or p["year"] in years)
    ]
    hits.sort(key=lambda p: (p[sort], p["number"]), reverse=desc)
    rows = [
        {k: p[k] for k in ("number", "title", "assignee", "year", "section")}
        for p in hits[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    ]
    pages = max(1, -(-len(hits) // PAGE_SIZE))
    return {
        "total": len(hits),
        "page": page,
        "pages": pages,
        "rows": rows,
        "counts": counts,
        "sections": SECTIONS,
    }


def as_csv(rows: list[dict[str, Any]]) -> str:
    """Results rows as CSV text with a header line."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=["number", "title", "assignee", "year", "section"])
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


# ---- the API explorer's responses ----------------------------------------------------------
STOCK = {"warehouse": "warehouse-7", "crates": 42, "message": "warehouse-7 holds 42 crates"}


def operation(op: str) -> dict[str, Any]:
    """The JSON answer of one operation's "Try it out"."""
    if op == "getStockLevel":
        return STOCK
    return {
        "operation": op,
        "status": "ok",
        "items": [{"id": n, "name": f"{op}-{n}"} for n in (1, 2)],
    }


# ---- the pet store's API ---------------------------------------------------------------------
# One record of each resource, its fields those of the document's model (src/petstore/spec.mjs)
PETSTORE = {
    "pet": {"id": 10, "name": "doggie", "category": {"id": 1, "name": "Dogs"},
            "photoUrls": ["https://example.org/rex.jpg"], "tags": [{"id": 1, "name": "friendly"}],
            "status": "available"},
    "store": {"id": 10, "petId": 10, "quantity": 7, "shipDate": "2026-01-05T10:00:00Z",
              "status": "approved", "complete": True},
    "user": {"id": 10, "username": "theUser", "firstName": "John", "lastName": "James",
             "email": "john@email.com", "phone": "12345", "userStatus": 1},
    "vet": {"id": 3, "name": "Dr. Linda Ortega", "specialties": ["dentistry", "surgery"]},
    "supplies": {"sku": "FD-0042", "name": "Kibble, 5 kg", "category": "food", "stock": 12},
    "adoption": {"id": 7, "petId": 10, "status": "open", "note": "a garden and two children"},
}  # fmt: skip
INVENTORY = {"available": 41, "pending": 3, "sold": 17}


def petstore(method: str, path: str) -> tuple[Any, int]:
    """The JSON answer of the pet store's operation ``method`` ``path`` (below its
    ``/petstore/api``), and its status: a list for a search or listing, the record for a
    read or a write, a confirmation for a delete, 404 for a path of no operation."""
    parts = path.strip("/").split("/")
    record = PETSTORE.get(parts[0])
    if record is None:
        return {"code": "404", "message": f"no operation at /{path.strip('/')}"}, 404
    if parts[-1] == "inventory":
        return INVENTORY, 200
    if parts[-1] in ("login", "logout"):
        return f"logged {parts[-1].removeprefix('log')} user session 1042", 200
    if method == "DELETE":
        return {"code": 200, "type": "ok", "message": f"deleted /{path.strip('/')}"}, 200
    listing = method == "GET" and (
        len(parts) == 1 or parts[-1] in ("findByStatus", "findByTags", "orders", "visits",
                                         "applications")
    )  # fmt: skip
    return ([record, {**record, "id": 11}] if listing else record), 200


# ---- the dashboard's callbacks -------------------------------------------------------------
DEPOTS = {"North": 4, "East": 5, "South": 6, "West": 7, "Central": 3}
METRICS = {
    "revenue": ("Revenue", "1.2 M€ this quarter"),
    "units": ("Units", "48 310 shipped"),
    "returns": ("Returns", "2.4 % of orders"),
}


def callback(body: dict[str, Any]) -> dict[str, Any] | None:
    """A dashboard callback's answer: a caption and a table, for a region or a metric."""
    value = str(body.get("value", ""))
    if body.get("input") == "region" and value in DEPOTS:
        n = DEPOTS[value]
        rows = [[f"{value} depot {k}", str(100 + 37 * k * n % 400)] for k in range(1, n + 1)]
        return {"caption": f"{value}: {n} depots", "header": ["Depot", "Units"], "rows": rows}
    if body.get("input") == "metric" and value in METRICS:
        name, figure = METRICS[value]
        rows = [
            [month, f"{(len(value) * 13 + k * 7) % 90 + 10}"]
            for k, month in enumerate(("Jan", "Feb", "Mar", "Apr"))
        ]
        return {"caption": f"{name}: {figure}", "header": ["Month", name], "rows": rows}
    return None


# ---- routing ---------------------------------------------------------------------------------
def _json(data: Any, status: int = 200) -> Response:
    return Response(json.dumps(data), status=status, content_type="application/json")


def _static(path: str) -> Response:
    file = (DIST / path.lstrip("/")).resolve()
    if file.is_dir():
        file = file / "index.html"
    if DIST.resolve() not in file.parents or not file.is_file():
        return Response("not found", status=404, content_type="text/plain")
    kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
    if file.suffix == ".md":
        kind = "text/markdown"
    return Response(file.read_bytes(), content_type=kind)


def handle(request: Request) -> Response:
    """Answer one request of any of the four apps."""
    path = request.path
    if path.startswith("/petstore/api/"):
        return _json(*petstore(request.method, path.removeprefix("/petstore/api/")))
    if path.startswith("/api/ops/"):
        return _json(operation(path.removeprefix("/api/ops/")))
    if path == "/facets/api/search":
        return _json(search(request.args))
    if path == "/facets/api/search.json":
        return _json(search(request.args)["rows"])
    if path == "/facets/api/search.csv":
        return Response(as_csv(search(request.args)["rows"]), content_type="text/csv")
    if path.startswith("/facets/api/patent/"):
        patent = BY_NUMBER.get(path.removeprefix("/facets/api/patent/"))
        return _json(patent) if patent else _json({"error": "no such patent"}, 404)
    if path.startswith("/facets/patent/"):
        return _static("/facets/index.html")
    if path == "/dashboard/api/callback" and request.method == "POST":
        answer = callback(request.get_json(silent=True) or {})
        return _json(answer) if answer else _json({"error": "unknown input"}, 400)
    return _static(path)


@Request.application
def application(request: Request) -> Response:
    """``handle`` as a WSGI application."""
    return handle(request)


class Quiet(WSGIRequestHandler):
    """A request handler that logs nothing: a crawl makes thousands of requests."""

    def log_request(self, *args: object) -> None:
        pass


def serve() -> tuple[BaseWSGIServer, str]:
    """The apps on a free loopback port in a thread of their own: the server and its origin."""
    server = make_server("127.0.0.1", 0, application, threaded=True, request_handler=Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"
