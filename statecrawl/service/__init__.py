"""``statecrawl serve``: crawling as a service, an HTTP API and a web page over a durable
job queue (see :mod:`statecrawl.service.app` and :mod:`statecrawl.service.jobs`).

Needs the ``serve`` extra: ``pip install 'statecrawl[serve]'`` (Starlette, uvicorn and wacz).
"""

from __future__ import annotations

import sys

from ..config import ServiceSettings

GRACE = 5  # seconds open connections (live events) get to end when the service stops


def serve(settings: ServiceSettings) -> None:
    """Serve the API and the page on ``settings.host``:``settings.port`` until interrupted;
    the crawls still running then are stopped, and left resumable."""
    import uvicorn

    from .app import create_app

    app = create_app(settings)
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    print(f"statecrawl serve: http://{host}:{settings.port}/ (data in {settings.data})",
          file=sys.stderr)
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning",
                timeout_graceful_shutdown=GRACE)
