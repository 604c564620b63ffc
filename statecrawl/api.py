"""The face of statecrawl: :func:`crawl` and :func:`crawl_by_role`, with every setting a
documented keyword, so that an IDE and ``help()`` show them."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from .config import Config, argument, checked, merge
from .directory.crawl import Crawl
from .engine import Explorer, roles
from .errors import ConfigError
from .plugins.hooks import Plugin
from .stats import Stats

Table = Mapping[str, Any]


@checked
def crawl(
    url: str | Iterable[str] | None = None,
    *,
    out: str | Path | None = None,
    max_depth: int | None = None,
    max_states: int | None = None,
    max_time: float | None = None,
    model: str | None = None,
    strategy: str | None = None,
    seed: int | None = None,
    overwrite: bool | None = None,
    resume: bool | None = None,
    limits: Table | None = None,
    explore: Table | None = None,
    timing: Table | None = None,
    scope: Table | None = None,
    inputs: Table | None = None,
    rules: Table | None = None,
    guard: Table | None = None,
    browser: Table | None = None,
    archive: Table | None = None,
    incremental: Table | None = None,
    politeness: Table | None = None,
    login: Table | Sequence[Table] | None = None,
    dangerous: Sequence[str] | None = None,
    dangerous_policy: str | None = None,
    executor: str | None = None,
    cluster: str | None = None,
    config: Config | Table | None = None,
    plugins: Iterable[Plugin] = (),
    progress: Callable[[Stats], None] | None = None,
) -> Crawl:
    """Crawl the application at ``url`` (or several start URLs) and return the result.

    Parameters
    ----------
    url
        The start URL, or several (``None``: those of ``config``).
    out
        The crawl directory (a new temporary one when ``None``).
    max_depth, max_states, max_time
        The common limits: actions from a start state, states per site, seconds.
    model, strategy, seed
        The state model (``dom``, ``exact``, ``structure``, ``text``), the frontier order
        (``breadth-first``, ``depth-first``, ``random``, ``novelty``, ``coverage``) and the
        seed of every random choice.
    overwrite, resume
        Replace a crawl already in ``out``, or continue it from its last checkpoint.
    limits, explore, timing, scope, inputs, browser, archive, incremental, politeness, login
        The sections of :class:`statecrawl.Config` as tables (``browser={"count": 2}``);
        ``login`` may be a list of tables with a ``role`` each (see :func:`crawl_by_role`).
    rules
        Which elements are fired (:class:`statecrawl.config.Rules`): ``dont_click``,
        ``click`` (an allow-list) and ``click_once``, each a list of rules, a rule a table
        (``{"xpath": "//nav//a", "url": "/admin"}``) or a string as the command line takes
        it (``"#logout"``, ``"text:Sign out"``, ``"attr:data-action=delete"``).
    guard
        What the guard keeps the crawl from firing (:class:`statecrawl.config.Guard`):
        ``{"enabled": False}`` turns it off, ``{"allow": ["/api/session"]}`` lets URLs and
        labels through.
    dangerous, dangerous_policy, executor, cluster
        Label patterns of dangerous actions and what to do with them (``last``, ``skip``),
        what runs the browsers (``threads``, ``dask``) and a Dask scheduler's address.
    config
        A whole :class:`statecrawl.Config` (then no other setting may be given), or a table
        of settings the keywords above override.
    plugins
        Plugins whose hooks see the crawl (see :class:`statecrawl.Plugin`).
    progress
        Called with the running figures after each transition.

    Returns
    -------
    Crawl
        The crawl directory, loaded.

    Examples
    --------
    >>> import statecrawl
    >>> statecrawl.crawl("http://127.0.0.1:8000/", out="out", max_depth=2)  # doctest: +SKIP
    """
    settings = {k: v for k, v in locals().items() if k in _SETTINGS}
    built = _config(url, settings, config)
    return Explorer(built, plugins=plugins, progress=progress).run()


_SETTINGS = [
    p.name for p in inspect.signature(crawl).parameters.values()
    if p.kind is p.KEYWORD_ONLY and p.name not in ("config", "plugins", "progress")
]


def crawl_by_role(url: str | Iterable[str] | None = None, **settings: Any) -> dict[str, Crawl]:
    """Crawl the application at ``url`` once per role, ``login`` a list of ``[login]``
    tables each with its ``role`` name, into ``out/roles/<role>/``: each role's crawl by
    name. ``out/roles.json`` says what each role reaches that another does not (see
    :mod:`statecrawl.engine.roles`). The settings are :func:`crawl`'s."""
    unknown = sorted(settings.keys() - {*_SETTINGS, "config"})
    if unknown:
        raise ConfigError(f"crawl_by_role: unknown setting {unknown[0]!r}")
    config = _config(url, {k: v for k, v in settings.items() if k != "config"},
                     settings.get("config"))
    return roles.crawl(config, lambda role: Explorer(role).run())


# help() and IDEs show crawl's keywords (functions take a __signature__; typeshed omits it)
crawl_by_role.__signature__ = inspect.signature(crawl).replace(  # type: ignore[attr-defined]
    parameters=[
        p for p in inspect.signature(crawl).parameters.values()
        if p.name not in ("plugins", "progress")
    ],
    return_annotation="dict[str, Crawl]",
)


def _config(
    url: str | Iterable[str] | None, settings: Mapping[str, Any], config: Config | Table | None
) -> Config:
    """The config of :func:`crawl`'s arguments: the flat limits go into ``limits``, and the
    keywords override a ``config`` table."""
    urls: tuple[str, ...] | None = None
    if url is not None:
        urls = (url,) if isinstance(url, str) else tuple(argument("url", url, Iterable[str]))
    given = {k: v for k, v in settings.items() if v is not None}
    if isinstance(config, Config):
        if given:
            raise ConfigError(
                f"crawl: give either a Config or settings, not both ({sorted(given)[0]} too)"
            )
        return config if urls is None else replace(config, start_urls=urls)
    flat = {k: given.pop(k) for k in ("max_depth", "max_states", "max_time") if k in given}
    if flat:
        limits = given.get("limits", {})
        if not isinstance(limits, Mapping):
            raise ConfigError(f"limits: expected a table, got {type(limits).__name__}")
        given["limits"] = {**limits, **flat}
    table = merge(argument("config", config, Mapping | None) or {}, given)
    if urls is not None:
        table["start_urls"] = urls
    elif "start_urls" not in table:
        raise ConfigError("crawl: no start URL (give url, or start_urls in config)")
    return Config.from_mapping(table)
