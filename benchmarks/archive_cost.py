"""What the archive costs: the tree app crawled with the archive off, on (the default
screenshots and a thumbnail of every state), on without thumbnails and on with PNG
screenshots, and by default against Crawljax-style fixed waits (``--wait-ms 200``, archive
on); then the time and size of one screenshot in each format (and of a WebP capture, as
screenshots were taken until 7 December), of one thumbnail (also at quality 30 and 160
pixels across) and of a WebDriver round trip, the browser's wait for a screenshot the archive
takes up, and how close the default format is to a PNG of the page, against a capture.

    python benchmarks/archive_cost.py [--runs N] [--shots N] [--demo] [--quick]

Crawls take turns, run after run, so a change in the machine's load falls on every setting
alike; each line gives the median of the runs. ``--demo`` adds two crawls of the demo app with
``statecrawl demo``'s settings, with and without thumbnails, and prints their times and the
size of the archive; ``--quick`` crawls only with the archive off, on, on without thumbnails
and with fixed waits, and times no screenshot. Everything is served
on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import base64
import io
import math
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from crawl_speed import serve_tree
from PIL import Image, ImageChops, ImageStat

import statecrawl
from statecrawl.browser import Browser
from statecrawl.cli import DEMO_DEFAULTS
from statecrawl.config import QUALITY, Archive, merge
from statecrawl.demo_app import DemoApp
from statecrawl.demo_app.data import DEMO_QUERIES, patents
from statecrawl.directory.layout import THUMBNAIL

SETTINGS: dict[str, dict[str, Any]] = {
    "archive off": {"archive": {"enabled": False}},
    "archive on": {},  # the default: see statecrawl.config.Archive
    "no thumbnails": {"archive": {"thumbnails": False}},
    "all shots": {"archive": {"screenshots": "all"}},  # in the default format
    "all shots, png": {"archive": {"screenshots": "all", "screenshot_format": "png"}},
    "wait-ms 200": {"timing": {"wait_ms": 200}},
}
FORMATS = QUALITY


def crawl_tree(url: str, setting: str, out: Path) -> dict[str, float]:
    """One crawl of the tree (depth 4: 341 states); its figures."""
    options = merge({"limits": {"max_depth": 4}}, SETTINGS[setting])
    stats = statecrawl.crawl(url, out=out, **options).stats
    return {"states": stats["states"], "elapsed": stats["elapsed"],
            "rate": stats["transitions"] / stats["elapsed"]}


def median_ms(capture: Callable[[], bytes], shots: int) -> tuple[float, int]:
    """The median milliseconds of ``shots`` captures (after one to warm up), and the size of
    the last one in bytes."""
    image = capture()
    times = []
    for _ in range(shots):
        began = time.perf_counter()
        image = capture()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000, len(image)


def psnr(picture: bytes, reference: bytes) -> float:
    """How close ``picture`` is to ``reference`` (decibels: higher is closer)."""
    with Image.open(io.BytesIO(picture)) as a, Image.open(io.BytesIO(reference)) as b:
        rms = ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).rms
    mse = statistics.mean(r * r for r in rms)
    return 10 * math.log10(255 * 255 / mse) if mse else math.inf


def taken_up_ms(browser: Browser, image_format: str, quality: int, shots: int) -> float:
    """The median milliseconds the browser's thread spends on a screenshot the archive takes
    up (:meth:`Browser.screenshot_later`): until its frame is copied, not until encoded."""
    times = []
    for _ in range(shots + 1):
        began = time.perf_counter()
        later = browser.screenshot_later(image_format, quality)
        browser.pictures.forget()  # (what the next call to the page waits for)
        times.append(time.perf_counter() - began)
        later.result()
    return statistics.median(times[1:]) * 1000


def capture(browser: Browser, image_format: str, quality: int) -> bytes:
    """A ``Page.captureScreenshot`` of the viewport (the screenshots until 7 December)."""
    args = {"format": image_format, "quality": quality, "optimizeForSpeed": True}
    return base64.b64decode(browser.web.execute_cdp_cmd("Page.captureScreenshot", args)["data"])


def screenshot_costs(url: str, page: str, shots: int) -> None:
    """Time and size of a screenshot of ``url`` in each format, and Selenium's own PNG; the
    browser's wait for one taken up; how close a WebP is to the PNG, against a capture's."""
    default = Archive()
    print(f"one screenshot of {page} (1280x900), median of {shots}:")
    with Browser(statecrawl.Config(start_urls=(url,))) as browser:
        browser.load(url)
        captures: dict[str, Callable[[], bytes]] = {
            "png, Selenium": browser.web.get_screenshot_as_png,
            **{
                f"{name}{f' q{quality}' if name != 'png' else ''}, frame": (
                    lambda name=name, quality=quality: browser.screenshot(name, quality)
                )
                for name, quality in FORMATS.items()
            },
            f"webp q{FORMATS['webp']}, capture": lambda: capture(browser, "webp", FORMATS["webp"]),
        }
        captures["thumbnail 320 px, screencast"] = browser.thumbnail
        # what a thumbnail's time depends on: not its quality or size (see the README)
        captures["thumbnail q30"] = lambda: browser.thumbnail(quality=30)
        captures["thumbnail 160 px"] = lambda: browser.thumbnail(width=160)
        captures["round trip"] = lambda: browser.web.execute_script("return ''").encode()
        for label, call in captures.items():
            ms, size = median_ms(call, shots)
            mark = "  (default)" if label.startswith(default.screenshot_format) else ""
            print(f"  {label:28} {ms:6.1f} ms  {size / 1000:6.1f} kB{mark}")
        fmt, quality = default.screenshot_format, default.quality
        waited = taken_up_ms(browser, fmt, quality, shots)
        print(f"  {fmt} taken up, the browser's wait {waited:6.1f} ms")
        png = browser.screenshot("png")
        frame, captured = browser.screenshot(fmt, quality), capture(browser, fmt, quality)
        print(f"  against the PNG: {fmt} frame {psnr(frame, png):.1f} dB in "
              f"{len(frame) / 1000:.1f} kB, capture {psnr(captured, png):.1f} dB in "
              f"{len(captured) / 1000:.1f} kB")


def crawl_demo(out: Path, thumbnails: bool) -> float:
    """One crawl of the demo app as ``statecrawl demo`` runs it, with or without thumbnails;
    print its time and archive size, and return its time."""
    with DemoApp() as app:
        options = merge(DEMO_DEFAULTS, {"inputs": {"values": {"q": list(DEMO_QUERIES)}},
                                        "archive": {"thumbnails": thumbnails}})
        options = {**options, "out": out, "overwrite": False}
        result = statecrawl.crawl(app.url, **options)
    sizes = {part: sum(f.stat().st_size for f in (out / part).iterdir())
             for part in ("archive", "states")}
    images = [f for f in (out / "states").iterdir() if f.suffix != ".html"]
    shots = [f.stat().st_size for f in images if not f.name.endswith(THUMBNAIL)]
    small = [f.stat().st_size for f in images if f.name.endswith(THUMBNAIL)]
    print(f"demo, thumbnails {'on' if thumbnails else 'off'}: {len(result)} states in "
          f"{result.stats['elapsed']:.1f} s; archive/ {sizes['archive'] / 1e6:.1f} MB, "
          f"states/ {sizes['states'] / 1e6:.1f} MB, {len(shots)} screenshots of "
          f"{statistics.mean(shots) / 1000:.1f} kB on average"
          + (f", {len(small)} thumbnails of {statistics.mean(small) / 1000:.1f} kB" if small
             else ""), flush=True)
    return float(result.stats["elapsed"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2, help="crawls of each setting (2)")
    parser.add_argument("--shots", type=int, default=15, help="screenshots per format (15)")
    parser.add_argument("--demo", action="store_true", help="crawl the demo app once too")
    parser.add_argument("--quick", action="store_true",
                        help="archive off, on and --wait-ms 200 only; no screenshot timing")
    args = parser.parse_args()
    settings = [s for s in SETTINGS if not (args.quick and s.startswith("all shots"))]
    out = Path(tempfile.mkdtemp(prefix="statecrawl-archive-cost-"))
    tree = serve_tree()
    url = f"http://127.0.0.1:{tree.server_port}/"
    rows: dict[str, list[dict[str, float]]] = {setting: [] for setting in settings}
    for run in range(args.runs):
        for setting, runs in rows.items():
            runs.append(crawl_tree(url, setting, out / f"{setting.replace(' ', '_')}-{run}"))
            print(f"  run {run + 1}: tree, {setting:16} {runs[-1]['states']:4.0f} states  "
                  f"{runs[-1]['elapsed']:6.1f} s  {runs[-1]['rate']:5.2f} transitions/s",
                  flush=True)
    tree.shutdown()
    medians = {setting: {key: statistics.median(r[key] for r in runs) for key in runs[0]}
               for setting, runs in rows.items()}
    print(f"tree (341 states), medians of {args.runs} runs:")
    for setting, m in medians.items():
        print(f"  {setting:16} {m['elapsed']:6.1f} s  {m['rate']:5.2f} transitions/s")
    off = medians["archive off"]["elapsed"]
    for setting in ("archive on", "no thumbnails", "all shots", "all shots, png"):
        if setting not in medians:
            continue
        on = medians[setting]["elapsed"]
        print(f"{setting} against archive off: +{(on - off) / off:.0%} crawl time "
              f"(the archive's share: {(on - off) / on:.0%})")
    on, plain = medians["archive on"]["elapsed"], medians["no thumbnails"]["elapsed"]
    print(f"thumbnails: +{(on - plain) / plain:.1%} crawl time against the archive without them")
    ratio = medians["archive on"]["rate"] / medians["wait-ms 200"]["rate"]
    print(f"default against --wait-ms 200 (archive on): {ratio:.2f}x transitions/s")
    if not args.quick:
        with DemoApp() as app:
            screenshot_costs(app.url, "the demo app's start page", args.shots)
            patent = patents()[0]["number"]
            screenshot_costs(f"{app.url}patent/{patent}", "a patent's page (text)", args.shots)
    if args.demo:
        with_them = crawl_demo(out / "demo", thumbnails=True)
        without = crawl_demo(out / "demo-no-thumbnails", thumbnails=False)
        print(f"demo thumbnails: {(with_them - without) / without:+.1%} crawl time")
    print(f"crawl directories: {out}")


if __name__ == "__main__":
    main()
