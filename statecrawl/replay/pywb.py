"""pywb, the web-archive world's own replayer, serving a crawl's WARCs as Chromium's proxy.

:class:`Pywb` makes a pywb collection in a temporary folder (``wb-manager init``; the crawl's
WARC files linked in, then ``wb-manager reindex``) and runs ``wayback`` on a free loopback
port in proxy mode with content rewriting and the banner off, so pages come back byte for
byte under their own URLs, as they do through :class:`~.server.ReplayServer`. pywb runs as a
process of its own (it patches the standard library with gevent). It has no live collection,
so it never fetches from the network: a request it cannot answer from the index gets a 404,
and each such lookup (a ``resource/postreq`` line answered 404 in its access log) is a
:class:`~.server.Miss`: a 404 in the crawl's scope, a 403 out of it (as our replay server
counts them; Chromium's own requests to its services are of those). The log is read by a
thread of ours, behind pywb: a block's misses are taken once a request of our own, made as
the block ends, has come through the log, so none made in the block is still on its way.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http import HTTPStatus
from pathlib import Path
from types import TracebackType
from urllib.parse import parse_qs

from ..directory.crawl import load
from ..errors import StatecrawlError
from ..scope import Scope
from .index import warc_files
from .server import LOOPBACK, Miss, reachable

COLLECTION = "crawl"
CONFIG = f"""\
proxy:
  coll: {COLLECTION}
  recording: false
  enable_banner: false
  enable_content_rewrite: false
"""
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no proxy of the env
START_TIMEOUT = 60.0  # seconds pywb may take to index and to answer
SYNC_TIMEOUT = 5.0  # seconds to wait for the log to show our own request
SYNC_URL = "http://statecrawl.invalid/sync/"  # our own requests, each with its number
# An index lookup in pywb's access log: '"POST /crawl/resource/postreq?url=…" 404 …'
LOOKUP = re.compile(rf'"\w+ /{COLLECTION}/resource/postreq\?(\S+) HTTP/[\d.]+" (\d{{3}}) ')


class PywbUnavailable(StatecrawlError):
    """pywb is not installed, or would not start: the reason is the message."""


def tool(name: str) -> Path:
    """A pywb command installed beside this Python (the ``qa`` extra), else on ``PATH``."""
    beside = Path(sys.executable).parent / name
    found = beside if beside.exists() else shutil.which(name)
    if not found:
        raise PywbUnavailable(f"pywb's {name} is not installed: pip install 'statecrawl[qa]'")
    return Path(found)


class Pywb:
    """pywb serving the archive of the crawl in ``directory``; a context manager that starts
    and stops it (see the module's text)."""

    def __init__(self, directory: Path | str) -> None:
        self.files = warc_files(Path(directory))
        self.scope = Scope(load(directory).config)
        self.misses: list[Miss] = []
        self.port = 0
        self._lock = threading.Lock()
        self._logged = threading.Condition(self._lock)
        self._asked = 0  # the number of our last request
        self._proxied = DIRECT  # (start makes the opener whose proxy is pywb)
        self._synced = 0  # the number of our last request the log showed
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._process: subprocess.Popen[str] | None = None
        self._reader: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}/"

    def proxy_flags(self) -> list[str]:
        """Chromium flags that send every request, loopback ones included, to pywb."""
        return [f"--proxy-server=http://{LOOPBACK}:{self.port}", "--proxy-bypass-list=<-loopback>"]

    def start(self) -> Pywb:
        manager, wayback = tool("wb-manager"), tool("wayback")
        self._folder = tempfile.TemporaryDirectory(prefix="statecrawl-pywb-")
        root = Path(self._folder.name)
        _run([str(manager), "init", COLLECTION], root)
        archive = root / "collections" / COLLECTION / "archive"
        for number, path in enumerate(self.files):
            os.symlink(path.resolve(), archive / f"{number:05}-{path.name.removesuffix('.open')}")
        _run([str(manager), "reindex", COLLECTION], root)
        (root / "config.yaml").write_text(CONFIG, encoding="utf-8")
        self.port = _free_port()
        self._proxied = urllib.request.build_opener(urllib.request.ProxyHandler({"http": self.url}))
        command = [str(wayback), "--port", str(self.port), "--bind", LOOPBACK]
        self._process = subprocess.Popen(
            command, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self._reader = threading.Thread(target=self._read_log, name="statecrawl-pywb", daemon=True)
        self._reader.start()
        self._await_start()
        return self

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._reader is not None:
            self._reader.join(timeout=5)
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None

    def __enter__(self) -> Pywb:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    @contextmanager
    def preferring(self, states: tuple[str, ...]) -> Iterator[list[Miss]]:
        """Yields the misses of the block (pywb chooses captures by time, not by state)."""
        with self._lock:
            start = len(self.misses)
        seen: list[Miss] = []
        try:
            yield seen
        finally:
            self._sync()
            with self._lock:
                seen.extend(self.misses[start:])

    def _sync(self) -> None:
        """Waits (at most ``SYNC_TIMEOUT``) until the log has shown a request made now, and so
        every lookup made before it."""
        with self._lock:
            self._asked += 1
            number = self._asked
        try:
            with self._proxied.open(f"{SYNC_URL}{number}", timeout=SYNC_TIMEOUT):
                pass
        except OSError:
            pass  # answered 404, as it should be; or pywb is gone and nothing more will come
        with self._logged:
            self._logged.wait_for(lambda: self._synced >= number, SYNC_TIMEOUT)

    def _read_log(self) -> None:
        process = self._process
        if process is None or process.stdout is None:
            return
        for line in process.stdout:
            match = LOOKUP.search(line)
            if match is None or int(match.group(2)) != HTTPStatus.NOT_FOUND:
                continue
            query = parse_qs(match.group(1))
            method = (query.get("method") or ["GET"])[0].upper()
            url = (query.get("url") or [""])[0]
            if url.startswith(SYNC_URL):
                with self._logged:
                    number = url.removeprefix(SYNC_URL)
                    self._synced = max(self._synced, int(number) if number.isdigit() else 0)
                    self._logged.notify_all()
                continue
            status, why = (
                (HTTPStatus.NOT_FOUND, "not in pywb's index")
                if reachable(self.scope, url)
                else (HTTPStatus.FORBIDDEN, "out of the crawl's scope")
            )
            miss = Miss(method, url, status, why, time.time())
            with self._lock:
                self.misses.append(miss)

    def _await_start(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self._process is None or self._process.poll() is not None:
                raise PywbUnavailable("pywb's wayback exited as it started")
            try:
                with DIRECT.open(self.url, timeout=5):
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise PywbUnavailable(f"pywb did not answer at {self.url} in {START_TIMEOUT:.0f} s")
            time.sleep(0.2)


def _run(command: list[str], cwd: Path) -> None:
    done = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=START_TIMEOUT, check=False
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise PywbUnavailable(f"{Path(command[0]).name} {command[1]} failed: {last}")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        return int(sock.getsockname()[1])
