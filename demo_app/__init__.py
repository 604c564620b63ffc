"""A patent-search single-page application with its own small server, for demonstrating statecrawl.

Run it with ``python -m statecrawl.demo_app`` or embed it: ``with DemoApp() as app: app.url``.
"""

from .server import DemoApp

__all__ = ["DemoApp"]
