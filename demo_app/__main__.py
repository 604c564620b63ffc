"""Command line: ``python -m statecrawl.demo_app [--port N] [--no-latency] [--revision N]``
serves until Ctrl-C."""

from __future__ import annotations

import argparse
import threading

from .data import REVISIONS
from .server import DemoApp


def main(argv: list[str] | None = None) -> None:
    """Parse arguments, serve the demo app on 127.0.0.1 and block until interrupted."""
    parser = argparse.ArgumentParser(
        prog="python -m statecrawl.demo_app", description="Serve the patent-search demo app."
    )
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (0 = any free)")
    parser.add_argument(
        "--no-latency", action="store_true", help="answer API requests without simulated delay"
    )
    parser.add_argument(
        "--revision",
        type=int,
        choices=REVISIONS,
        default=0,
        help="revision of the patent data to serve (0; see demo_app.data.changes)",
    )
    args = parser.parse_args(argv)
    app = DemoApp(port=args.port, latency=not args.no_latency, revision=args.revision)
    try:
        app.start()
    except OSError as error:
        parser.error(f"cannot listen on 127.0.0.1:{args.port}: {error.strerror or error}")
    print(
        f"Patent search demo (revision {app.revision}) serving at {app.url} (Ctrl-C to stop)",
        flush=True,
    )
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        print("Stopping.", flush=True)
    finally:
        app.stop()


if __name__ == "__main__":
    main()
