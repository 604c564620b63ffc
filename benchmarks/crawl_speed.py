"""Crawl speed: a synthetic tree app and the demo app, default settings against parallel
browsers, Crawljax-style fixed waits and the exhaustive crawl (no shortcut), measured in one
run, with the archive on. The default crawl's graph is checked against the exhaustive one.

    python benchmarks/crawl_speed.py [--demo-queries N] [--skip-demo]

Everything is served on 127.0.0.1. Prints one line per crawl and the ratios at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

import statecrawl
from statecrawl.demo_app import DemoApp
from statecrawl.demo_app.data import DEMO_QUERIES
from statecrawl.testing import difference

TREE = """<!doctype html><html><head><title>tree</title></head><body>
<h1 id="path">root</h1><div id="children"></div>
<script>
let path = [];
function render() {
  document.getElementById('path').textContent = path.length ? path.join('.') : 'root';
  const box = document.getElementById('children');
  box.innerHTML = '';
  if (path.length >= 4) return;
  for (let i = 0; i < 4; i++) {
    const b = document.createElement('button');
    b.textContent = 'child ' + i;
    b.addEventListener('click', () => { path.push(i); render(); });
    box.appendChild(b);
  }
}
render();
</script></body></html>"""

SETTINGS = {
    "default": {},
    "browsers=2": {"browser": {"count": 2}},
    "wait-ms=200": {"timing": {"wait_ms": 200}},
    "exhaustive": {"explore": {"shortcuts": False}},
}


def serve(
    page: Callable[[str], bytes | None], host: str = "127.0.0.1"
) -> http.server.ThreadingHTTPServer:
    """A server on a free port of loopback address ``host`` answering each path with
    ``page(path)`` as HTML (404 for ``None``)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = page(self.path)
            self.send_response(200 if body is not None else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body or b"")))
            self.end_headers()
            with contextlib.suppress(ConnectionError):  # a browser that left the page
                self.wfile.write(body or b"")

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer((host, 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def serve_tree() -> http.server.ThreadingHTTPServer:
    """The tree app (depth 4, branching 4: 341 states) on a free loopback port."""
    body = TREE.encode()
    return serve(lambda path: body if path == "/" else None)


def run(app: str, setting: str, url: str, options: dict, out: Path) -> dict:
    """One crawl; its figures."""
    options = statecrawl.config.merge(options, SETTINGS[setting])
    result = statecrawl.crawl(url, out=out / f"{app}-{setting}", **options)
    s = result.stats
    row = {"app": app, "setting": setting, "crawl": result, **{k: s[k] for k in
           ("states", "transitions", "resets", "replayed", "elapsed", "inferred", "verified",
            "retracted")}}
    row["rate"] = s["transitions"] / s["elapsed"]
    print(f"{app:6} {setting:12} states {row['states']:4}  transitions {row['transitions']:5}  "
          f"inferred {row['inferred']:4} (checked {row['verified']}, retracted "
          f"{row['retracted']})  resets {row['resets']:5}  replayed {row['replayed']:5}  "
          f"{row['rate']:6.2f} tr/s  wall {row['elapsed']:7.1f} s", flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--demo-queries", type=int, default=1,
                        help="how many of the demo's queries to crawl (1)")
    parser.add_argument("--skip-demo", action="store_true")
    parser.add_argument("--skip-tree", action="store_true")
    parser.add_argument("--demo-settings", default=",".join(SETTINGS),
                        help=f"the demo's crawls, of {', '.join(SETTINGS)} (all)")
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp(prefix="statecrawl-bench-"))
    rows: dict[tuple[str, str], dict] = {}
    if not args.skip_tree:
        tree = serve_tree()
        tree_url = f"http://127.0.0.1:{tree.server_port}/"
        for setting in SETTINGS:
            options = {"limits": {"max_depth": 4}}
            rows["tree", setting] = run("tree", setting, tree_url, options, out)
        tree.shutdown()
    if not args.skip_demo:
        queries = list(DEMO_QUERIES[: args.demo_queries])
        demo_options = {
            "limits": {"max_depth": 4},
            "inputs": {"values": {"q": queries}, "max_options": 1},
        }
        with DemoApp() as app:
            for setting in args.demo_settings.split(","):
                rows["demo", setting] = run("demo", setting, app.url, demo_options, out)
    print()
    for app in ("tree", "demo"):
        if (app, "default") not in rows:
            continue
        base = rows[app, "default"]
        edges = base["transitions"] + base["inferred"] - base["retracted"]
        line = [f"{base['inferred'] / max(edges, 1):.0%} of the default's transitions inferred"]
        if (waited := rows.get((app, "wait-ms=200"))) is not None:
            same = "same states" if base["states"] == waited["states"] else "DIFFERENT states"
            line.append(f"default vs --wait-ms 200: {waited['elapsed'] / base['elapsed']:.2f}x "
                        f"faster ({same})")
        if (two := rows.get((app, "browsers=2"))) is not None:
            line.append(f"--browsers 2 vs 1: {base['elapsed'] / two['elapsed']:.2f}x wall time "
                        f"({two['states']} vs {base['states']} states)")
        if (exhaustive := rows.get((app, "exhaustive"))) is not None:
            why = difference(exhaustive["crawl"], base["crawl"])
            line.append(f"--exhaustive vs default: {exhaustive['elapsed'] / base['elapsed']:.2f}x"
                        f" wall time; graph "
                        f"{'the same as the exhaustive one' if why is None else 'DIFFERS: ' + why}")
        print(f"{app}: " + "; ".join(line))
    print(f"crawl directories: {out}")


if __name__ == "__main__":
    main()
