"""The service's durable job queue: each crawl a job, each job run a process of its own.

Jobs and their states live in ``DATA/service.sqlite``; a job's crawl directory is
``DATA/crawls/<id>`` and its own files (settings, events, log, report, WACZ) are in
``DATA/jobs/<id>``. A job is ``queued``, then ``running`` (a ``statecrawl crawl`` process),
and ends ``done``, ``failed`` or, when stopped, ``stopped``; a job that was running when the
service itself ended is ``interrupted``. Stopped, interrupted and failed jobs resume with
``crawl --resume`` from their store. A crash ends its job only; the crawl's own reaper ends
its browsers however its process ends, and the kernel ends the process with the service.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import json
import os
import re
import secrets
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import typing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import Config, ServiceSettings, merge
from ..directory import chain
from ..directory.layout import GRAPH_JSON, STORE
from ..directory.lock import DirectoryLock
from ..errors import ConfigError, CrawlLocked, StatecrawlError
from ..plugins.events import figures

STATUSES = ("queued", "running", "stopping", "stopped", "done", "failed", "interrupted")
ACTIVE = frozenset({"queued", "running", "stopping"})
RESUMABLE = frozenset({"stopped", "interrupted", "failed"})
ENDED_WITH_GRAPH = frozenset({"done", "stopped", "interrupted"})
# Settings the operator decides, never a crawl's: where it writes, what runs the browsers,
# which programs and files of this machine it uses.
RESERVED = (
    "out", "overwrite", "resume", "executor", "cluster", "incremental.since", "browser.binary",
    "browser.driver", "browser.extra_args", "login.cookies", "login.storage_state",
    "politeness.shared",
)  # fmt: skip
JOB_ID = re.compile(r"[0-9a-f]{12}")
PLACEHOLDER = "http://127.0.0.1/"  # a start URL that lets one other setting be checked alone
POLL = 0.2  # seconds between two looks at the running processes
STOP_WAIT = 15.0  # seconds a closing service waits for its stopped crawls to end
KILL_WAIT = 5.0  # seconds to wait for a killed process to be gone
PR_SET_PDEATHSIG = 1
ERROR_PREFIX = "statecrawl: error: "

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    settings TEXT NOT NULL,
    since TEXT,
    created REAL NOT NULL,
    started REAL,
    finished REAL,
    runs INTEGER NOT NULL DEFAULT 0,
    resume INTEGER NOT NULL DEFAULT 0,
    pid INTEGER,
    returncode INTEGER,
    error TEXT,
    stop_requested INTEGER NOT NULL DEFAULT 0
)
"""


class SettingsError(ConfigError):
    """A crawl's settings are refused; ``fields`` maps each bad setting to its message."""

    def __init__(self, message: str, fields: Mapping[str, str]) -> None:
        super().__init__(message)
        self.fields = dict(fields)


class UnknownJob(StatecrawlError):
    """No job has this id."""


class JobConflict(StatecrawlError):
    """The job is in a state that does not allow what was asked."""


@dataclass(frozen=True, kw_only=True)
class Job:
    """One row of the queue."""

    id: str
    status: str
    settings: dict[str, Any]
    since: str | None
    created: float
    started: float | None
    finished: float | None
    runs: int
    resume: bool
    pid: int | None
    returncode: int | None
    error: str | None
    stop_requested: bool


def check_settings(
    data: Any, caps: ServiceSettings, extra: Mapping[str, Any] | None = None
) -> tuple[dict[str, Any], Config]:
    """The crawl settings ``data`` (plain JSON, the tables of a TOML config) checked by the
    config itself, each setting alone first so that every bad one is named, then whole, and
    held to the operator's ``caps``; ``extra`` are the service's own settings. Returns the
    settings to run with and their config; raises ``SettingsError``."""
    if not isinstance(data, Mapping):
        raise SettingsError("settings: expected a JSON object", {"settings": "expected an object"})
    fields = {name: _reserved(name) for name in RESERVED if _lookup(data, name) is not None}
    for name, alone in _alone(data):
        if name not in fields:
            try:
                Config.from_mapping(alone)
            except ConfigError as exc:
                fields[name] = str(exc)
    caps_filled = {
        "limits": {"max_time": caps.max_time, "max_states": caps.max_states},
        "politeness": {"max_browsers_per_host": caps.max_browsers_per_host},
    }
    settings = merge(merge(caps_filled, data), extra or {})
    if not fields:
        try:
            config = Config.from_mapping(settings)
        except ConfigError as exc:
            fields[_field_of(str(exc))] = str(exc)
        else:
            fields.update(_over_caps(config, caps))
    if fields:
        first = next(iter(fields.values()))
        more = f" (and {len(fields) - 1} more)" if len(fields) > 1 else ""
        raise SettingsError(first + more, fields)
    return settings, config


def _reserved(name: str) -> str:
    return f"{name}: set by the service, not by a crawl's settings"


def _lookup(data: Mapping[str, Any], name: str) -> Any:
    """The value at the dotted setting ``name`` of ``data``, or ``None``."""
    value: Any = data
    for part in name.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


def _sections() -> dict[str, type]:
    """The config's tables: name -> dataclass."""
    hints = typing.get_type_hints(Config)
    return {f.name: hints[f.name] for f in dataclasses.fields(Config)
            if dataclasses.is_dataclass(hints[f.name])}


def _alone(data: Mapping[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each setting of ``data`` (``limits.max_depth``, ``start_urls``) with a config that holds
    it and nothing else that could be wrong, so its own error is found."""
    sections = _sections()
    yield "start_urls", {"start_urls": data.get("start_urls")} if "start_urls" in data else {}
    for key, value in data.items():
        if key == "start_urls":
            continue
        if key in sections and isinstance(value, Mapping) and value:
            for name, inner in value.items():
                yield f"{key}.{name}", {"start_urls": [PLACEHOLDER], key: {name: inner}}
        else:
            yield str(key), {"start_urls": [PLACEHOLDER], key: value}


def _field_of(message: str) -> str:
    """The setting a config error names at its start (``limits.max_depth must be …``)."""
    match = re.match(r"([a-z_]+(?:\.[a-z_]+)?)\b", message)
    if match is None:
        return "settings"
    name = match.group(1)
    section, _, inner = name.partition(".")
    sections = _sections()
    known = {f.name for f in dataclasses.fields(Config)}
    if section in sections and (
        not inner or inner in {f.name for f in dataclasses.fields(sections[section])}
    ):
        return name
    return section if section in known else "settings"


def _over_caps(config: Config, caps: ServiceSettings) -> dict[str, str]:
    """The settings of ``config`` above the operator's caps, each with its message."""
    over = {}
    for name, value, cap in (
        ("browser.count", config.browser.count, caps.max_browsers),
        ("limits.max_time", config.limits.max_time, caps.max_time),
        ("limits.max_states", config.limits.max_states, caps.max_states),
        ("politeness.max_browsers_per_host", config.politeness.max_browsers_per_host,
         caps.max_browsers_per_host),
    ):
        if cap is not None and value is not None and value > cap:
            over[name] = f"{name} must be at most {cap:,} on this service, got {value!r}"
    return over


def _end_with_service(libc: Any) -> Any:
    """A ``preexec_fn`` making the kernel SIGKILL the job's process when the service's thread
    that started it ends (Linux; elsewhere a no-op), SIGKILL of the service included."""
    parent = os.getpid()

    def arm() -> None:
        if libc is not None:
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the service ended before the request was made
            os._exit(1)

    return arm


def _libc() -> Any:
    """The C library, for ``prctl`` (``None`` where there is none: not Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    with contextlib.suppress(OSError):
        return ctypes.CDLL(None, use_errno=True)
    return None


def _runs_in(pid: int, directory: Path) -> bool:
    """Whether process ``pid`` is a crawl of ``directory`` (its command line names it)."""
    try:
        line = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return os.fsencode(directory) in line.split(b"\0")


def _gone(pid: int, timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for process ``pid`` to end; whether it has."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        time.sleep(0.02)
    return False


def last_error(log: Path) -> str | None:
    """The one-line error a crawl process printed last in its log, if any."""
    try:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    errors = [line.removeprefix(ERROR_PREFIX) for line in lines if line.startswith(ERROR_PREFIX)]
    return errors[-1] if errors else None


def last_figures(events: Path) -> dict[str, Any] | None:
    """The last figures a job's events file holds (a progress or end line), if any."""
    try:
        with events.open("rb") as file:
            file.seek(max(0, file.seek(0, os.SEEK_END) - 8192))
            tail = file.read().splitlines()
    except OSError:
        return None
    for raw in reversed(tail):
        with contextlib.suppress(ValueError):
            line = json.loads(raw)
            if isinstance(line, dict) and line.get("event") in ("progress", "end"):
                return {k: line[k] for k in (*figures({}), "stop_reason") if k in line}
    return None


class Jobs:
    """The queue of the service ``settings`` under ``settings.data``: open it with
    :meth:`open` (it takes the data directory's lock and finds the jobs a killed service
    left running), and :meth:`close` it (running crawls are stopped, and left interrupted)."""

    def __init__(self, settings: ServiceSettings) -> None:
        self.settings = settings
        self.data = settings.data.resolve()
        self.crawls = self.data / "crawls"
        self.jobs = self.data / "jobs"
        self.lock = threading.RLock()
        self.wake = threading.Event()
        self.closing = False
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.libc = _libc()
        self.thread = threading.Thread(target=self._supervise, name="statecrawl-jobs", daemon=True)
        self.dirlock = DirectoryLock(self.data)
        self.db: sqlite3.Connection | None = None

    # ---- life ---------------------------------------------------------------------------------
    def open(self) -> Jobs:
        """Take ``data``, find the jobs a killed service left running, start the supervisor."""
        for folder in (self.data, self.crawls, self.jobs):
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise ConfigError(f"--data: cannot create {folder}: {exc.strerror}") from None
        try:
            self.dirlock.acquire()
        except CrawlLocked:
            raise StatecrawlError(
                f"--data {self.data} is in use by another statecrawl serve: stop it or choose "
                "another --data"
            ) from None
        self.db = sqlite3.connect(
            self.data / "service.sqlite", check_same_thread=False, isolation_level=None
        )
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(SCHEMA)
        self._recover()
        self.thread.start()
        return self

    def close(self) -> None:
        """Stop the supervisor; crawls still running are stopped and left ``interrupted``."""
        with self.lock:
            if self.db is None:
                return
            self.closing = True
        self.wake.set()
        if self.thread.is_alive():
            self.thread.join()
        with self.lock:
            assert self.db is not None
            self.db.close()
            self.db = None
        self.dirlock.release()

    def _recover(self) -> None:
        """Jobs found running belong to a service that ended without stopping them: their
        processes (ended with it by the kernel) are made sure gone, and they are interrupted."""
        for job in self.list():
            if job.status not in ("running", "stopping"):
                continue
            if job.pid is not None and _runs_in(job.pid, self.crawls / job.id):
                with contextlib.suppress(OSError):
                    os.kill(job.pid, signal.SIGKILL)
                _gone(job.pid, KILL_WAIT)
            self._update(job.id, status="interrupted", pid=None, finished=time.time(),
                         error="the service ended while this crawl ran: resume it")

    # ---- the queue ----------------------------------------------------------------------------
    def submit(self, data: Any, since: str | None = None) -> Job:
        """Queue a crawl with the settings ``data`` (see :func:`check_settings`); ``since``: the
        job whose crawl it recrawls incrementally."""
        job_id = secrets.token_hex(6)
        extra: dict[str, Any] = {
            "out": str(self.crawls / job_id),
            "politeness": {"shared": str(self.data / "hosts")},  # one budget across jobs
        }
        if since is not None:
            extra["incremental"] = {"since": str(self.crawls / since)}
        if self.settings.cluster is not None:
            extra.update(executor="dask", cluster=self.settings.cluster)
        settings, config = check_settings(data, self.settings, extra)
        folder = self.jobs / job_id
        folder.mkdir()
        path = folder / "settings.json"
        path.touch(mode=0o600)  # it may hold a login's secrets
        path.write_text(json.dumps(settings, ensure_ascii=False), encoding="utf-8")
        shown = config.to_dict()  # every setting, the login's secrets redacted
        del shown["out"]
        with self.lock:
            self._db().execute(
                "INSERT INTO jobs (id, status, settings, since, created) VALUES (?, ?, ?, ?, ?)",
                (job_id, "queued", json.dumps(shown), since, time.time()),
            )
        self.wake.set()
        return self.get(job_id)

    def get(self, job_id: str) -> Job:
        """The job ``job_id``, or ``UnknownJob``."""
        if not JOB_ID.fullmatch(job_id):
            raise UnknownJob(f"no crawl {job_id!r}")
        with self.lock:
            row = self._db().execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None:
            raise UnknownJob(f"no crawl {job_id!r}")
        return _job(row)

    def list(self, status: str | None = None) -> list[Job]:
        """The jobs (with ``status`` only, if given), oldest first."""
        if status is not None and status not in STATUSES:
            raise ConfigError(f"status: expected one of {', '.join(STATUSES)}, got {status!r}")
        query = "SELECT * FROM jobs" + (" WHERE status = ?" if status else "")
        with self.lock:
            rows = self._db().execute(query + " ORDER BY created, rowid",
                                      (status,) if status else ()).fetchall()
        return [_job(row) for row in rows]

    def stop(self, job_id: str) -> Job:
        """Stop a queued job, or a running one (its crawl ends cleanly, as on Ctrl-C)."""
        with self.lock:
            job = self.get(job_id)
            if job.status == "queued":
                self._update(job_id, status="stopped", finished=time.time())
            elif job.status == "running":
                self._update(job_id, status="stopping", stop_requested=1)
                process = self.processes.get(job_id)
                if process is not None:
                    process.send_signal(signal.SIGTERM)
            elif job.status != "stopping":
                raise JobConflict(f"crawl {job_id} is {job.status}: only a queued or running "
                                  "crawl can be stopped")
        return self.get(job_id)

    def resume(self, job_id: str) -> Job:
        """Queue a stopped, interrupted or failed job again, to go on from its store."""
        with self.lock:
            job = self.get(job_id)
            if job.status not in RESUMABLE:
                raise JobConflict(f"crawl {job_id} is {job.status}: only a stopped, interrupted "
                                  "or failed crawl can be resumed")
            stored = (self.crawls / job_id / STORE).is_file()
            self._update(job_id, status="queued", resume=int(stored), error=None, finished=None)
        self.wake.set()
        return self.get(job_id)

    def recrawl(self, job_id: str) -> Job:
        """Queue an incremental recrawl of a job's crawl (``--since`` it), as a new job."""
        job = self.get(job_id)
        if job.status not in ENDED_WITH_GRAPH or not (self.crawls / job_id / GRAPH_JSON).is_file():
            raise JobConflict(f"crawl {job_id} is {job.status}: only a crawl that has ended "
                              "with a graph can be recrawled")
        settings = json.loads((self.jobs / job_id / "settings.json").read_text(encoding="utf-8"))
        for name in ("out", "executor", "cluster"):
            settings.pop(name, None)
        for section, name in (("incremental", "since"), ("politeness", "shared")):
            settings.get(section, {}).pop(name, None)
        return self.submit(settings, since=job_id)

    def delete(self, job_id: str) -> None:
        """Remove a job that is not running, its crawl directory and its files."""
        with self.lock:
            job = self.get(job_id)
            if job.status in ("running", "stopping"):
                raise JobConflict(f"crawl {job_id} is {job.status}: stop it first")
            if later := chain.referrers(self.crawls / job_id):  # a recrawl reads from it
                raise JobConflict(f"crawl {job_id} is the baseline of {later[0].name}: "
                                  "delete that one first")
            self._db().execute("DELETE FROM jobs WHERE id = ?", (job_id,))
        shutil.rmtree(self.crawls / job_id, ignore_errors=True)
        shutil.rmtree(self.jobs / job_id, ignore_errors=True)

    # ---- where a job's files are --------------------------------------------------------------
    def crawl_dir(self, job_id: str) -> Path:
        return self.crawls / self.get(job_id).id

    def job_dir(self, job_id: str) -> Path:
        return self.jobs / self.get(job_id).id

    def figures(self, job_id: str) -> dict[str, Any] | None:
        """The job's last figures (from its events)."""
        return last_figures(self.job_dir(job_id) / "events.jsonl")

    # ---- the supervisor -----------------------------------------------------------------------
    def _supervise(self) -> None:
        """The one thread that starts and watches the crawl processes (the kernel ends each
        with this thread, so it lives as long as the service)."""
        while not self.closing:
            self.wake.wait(POLL)
            self.wake.clear()
            with self.lock:
                self._reap()
                if not self.closing:
                    self._start_queued()
        self._stop_all()

    def _reap(self) -> None:
        for job_id, process in list(self.processes.items()):
            code = process.poll()
            if code is None:
                continue
            del self.processes[job_id]
            job = self.get(job_id)
            if code == 0:
                status, error = "done", None
            elif job.stop_requested:
                status, error = "stopped", None
            elif self.closing:
                status, error = "interrupted", "the service ended while this crawl ran: resume it"
            else:
                status = "failed"
                error = last_error(self.jobs / job_id / "log") or (
                    f"the crawl process was killed by {signal.Signals(-code).name}"
                    if code < 0 else f"the crawl process ended with status {code}"
                )
            self._update(job_id, status=status, error=error, pid=None, returncode=code,
                         finished=time.time())

    def _start_queued(self) -> None:
        room = self.settings.max_running - len(self.processes)
        if room <= 0:
            return
        queued = self._db().execute(
            "SELECT id FROM jobs WHERE status = 'queued' ORDER BY created, rowid LIMIT ?", (room,)
        ).fetchall()
        for (job_id,) in queued:
            self._spawn(self.get(job_id))

    def _spawn(self, job: Job) -> None:
        folder = self.jobs / job.id
        command = [sys.executable, "-m", "statecrawl.cli", "crawl", "--quiet",
                   "--out", str(self.crawls / job.id), "--events", str(folder / "events.jsonl")]
        command += ["--config", str(folder / "settings.json")]  # (a resume takes its login)
        command += ["--resume"] if job.resume else []
        try:
            with open(folder / "log", "ab") as log:
                process = subprocess.Popen(
                    command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd=folder,
                    start_new_session=True, preexec_fn=_end_with_service(self.libc),
                )
        except OSError as exc:
            self._update(job.id, status="failed", error=f"cannot start the crawl: {exc}")
            return
        self.processes[job.id] = process
        now = time.time()
        self._update(job.id, status="running", pid=process.pid, stop_requested=0,
                     runs=job.runs + 1, started=job.started or now, returncode=None)

    def _stop_all(self) -> None:
        """The service is closing: stop every crawl cleanly, kill what does not end in time."""
        with self.lock:
            for process in self.processes.values():
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_WAIT
        for process in list(self.processes.values()):
            try:
                process.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        with self.lock:
            self._reap()

    # ---- the database -------------------------------------------------------------------------
    def _db(self) -> sqlite3.Connection:
        if self.db is None:
            raise StatecrawlError("the job queue is closed")
        return self.db

    def _update(self, job_id: str, **values: Any) -> None:
        columns = ", ".join(f"{name} = ?" for name in values)
        with self.lock:
            self._db().execute(f"UPDATE jobs SET {columns} WHERE id = ?",
                               (*values.values(), job_id))


def _job(row: sqlite3.Row) -> Job:
    data = dict(row)
    return Job(
        **{**data, "settings": json.loads(data["settings"]), "resume": bool(data["resume"]),
           "stop_requested": bool(data["stop_requested"])}
    )
