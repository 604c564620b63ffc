"""The demo's documents: a one-page PDF of each patent and a CSV export of a query's results,
generated on request, byte for byte the same every time (no dates, no random ids)."""

from __future__ import annotations

import csv
import io
import textwrap

from .data import Patent

LINE_WIDTH = 86  # characters of 10-point Helvetica on a US Letter page with 1-inch margins


def _escape(text: str) -> str:
    """``text`` as the body of a PDF literal string, in its Latin-1 subset."""
    text = text.encode("latin-1", "replace").decode("latin-1")
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def patent_pdf(patent: Patent) -> bytes:
    """A valid single-page PDF 1.4 of ``patent``: number, title, year, abstract, first claim."""
    lines = [(16, f"{patent['number']}  ({patent['year']})")]
    lines += [(13, line) for line in textwrap.wrap(patent["title"], 66)]
    lines.append((10, ""))
    lines += [(10, line) for line in textwrap.wrap(patent["abstract"], LINE_WIDTH)]
    if patent["claims"]:
        lines.append((10, ""))
        lines += [(10, line) for line in textwrap.wrap(f"1. {patent['claims'][0]}", LINE_WIDTH)]
    text = ["BT", "72 720 Td"]
    for size, line in lines[:48]:
        text += [f"/F1 {size} Tf", f"0 -{size + 4} Td", f"({_escape(line)}) Tj"]
    text.append("ET")
    stream = "\n".join(text).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream),
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.writelines(b"%010d 00000 n \n" % offset for offset in offsets)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\n" % (len(objects) + 1))
    out.write(b"startxref\n%d\n%%%%EOF\n" % xref)
    return out.getvalue()


def results_csv(hits: list[Patent]) -> bytes:
    """The CSV export of a query's results: a header row, then one row per patent."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["number", "title", "year", "fields", "pdf"])
    for patent in hits:
        pdf = f"/files/{patent['number']}.pdf"
        writer.writerow([patent["number"], patent["title"], patent["year"],
                         "; ".join(patent["fields"]), pdf])  # fmt: skip
    return out.getvalue().encode("utf-8")
