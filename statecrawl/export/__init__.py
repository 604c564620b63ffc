"""Exports of a crawl: a WACZ file for web-archive players, and a static HTML copy.

``statecrawl export DIR --wacz FILE`` (see :mod:`statecrawl.export.wacz`) and
``statecrawl export DIR --static OUT`` (see :mod:`statecrawl.export.static`).
"""

from pathlib import Path

from ..config import checked
from ..errors import ConfigError
from .static import export_static
from .wacz import export_wacz

__all__ = ["export", "export_static", "export_wacz"]


@checked
def export(directory: Path, *, wacz: Path | None = None, static: Path | None = None) -> None:
    """``statecrawl export``: write what was asked for and say where."""
    if wacz is None and static is None:
        raise ConfigError("export: give --wacz FILE, --static OUT or both")
    if wacz is not None:
        print(f"wacz: {export_wacz(directory, wacz)}")
    if static is not None:
        print(f"static: {export_static(directory, static)}")
