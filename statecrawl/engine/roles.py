"""Crawls by role: the application crawled once per ``[[login]]`` entry, each role's crawl a
whole crawl directory of its own in ``OUT/roles/<role>/``, and ``OUT/roles.json`` saying what
each role reaches that another does not (the :func:`statecrawl.incremental.comparison.diff` of each
pair: its states at the same place are the same page seen by both)."""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..config import Config
from ..directory.crawl import Crawl
from ..directory.layout import ROLES, ROLES_FILE, STORE, atomic_write
from ..incremental.comparison import diff


def configs(config: Config) -> dict[str, Config]:
    """The crawl of each role of ``config``: its login, its own folder under ``OUT/roles``;
    resumed where it began (``--resume``), else started."""
    assert config.out is not None  # (checked by Config: roles need --out)
    found = {}
    for role in config.roles:
        assert role.role is not None  # (checked by Config)
        out = config.out / ROLES / role.role
        resume = config.resume and (out / STORE).is_file()
        found[role.role] = dataclasses.replace(
            config, login=role, roles=(), out=out, resume=resume
        )
    return found


def crawl(config: Config, run: Callable[[Config], Crawl]) -> dict[str, Crawl]:
    """Crawl every role of ``config`` with ``run``, one after the other, then write what
    each reaches that another does not; a run that stops early (a signal) ends the series,
    and the roles crawled so far are still compared."""
    crawls: dict[str, Crawl] = {}
    for name, role_config in configs(config).items():
        crawls[name] = run(role_config)
        if crawls[name].stats.get("stop_reason") == "interrupted":
            break
    assert config.out is not None
    atomic_write(config.out / ROLES_FILE, json.dumps(compare(crawls), indent=1))
    return crawls


def compare(crawls: Mapping[str, Crawl]) -> dict[str, Any]:
    """Each role's crawl folder and state count, and for each pair of roles the states only
    one of them reaches (as :func:`diff` lists them) and the count of those both reach, alike
    (the same id) or not (the same place, other content: ``changed``)."""
    pairs = []
    for first, second in itertools.combinations(crawls, 2):
        found = diff(crawls[first], crawls[second])
        pairs.append({
            "roles": [first, second],
            "only": {first: found["deleted"], second: found["new"]},
            "same": len(found["unchanged"]),
            "changed": len(found["changed"]),
        })  # fmt: skip
    return {
        "roles": {
            name: {"path": f"{ROLES}/{name}", "states": len(list(result.states()))}
            for name, result in crawls.items()
        },
        "pairs": pairs,
    }


def read(directory: Path) -> dict[str, Any] | None:
    """The role comparison a crawl directory holds (``None``: it is not a crawl by role)."""
    path = Path(directory) / ROLES_FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
