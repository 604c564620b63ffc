"""The error tree: every failure a user can act on is a ``StatecrawlError``.

::

    StatecrawlError
    ├── ConfigError            a setting, file or flag is invalid
    ├── BrowserError           Chromium or ChromeDriver cannot be found, started or driven
    │   └── BrowserCrashed     it died; a new one must be started
    ├── NavigationError        a page could not be loaded or driven
    │   ├── PageTimeout        it did not answer in time (busy script, hung load)
    │   ├── ActionFailed       an action could not be fired
    │   │   └── OptionAbsent   a popup has no such option (no failure: no such action;
    │   │                      in statecrawl.state, beside the Snapshot it carries)
    │   ├── AgentError         the page agent's answer was malformed
    │   └── CrawlFailed        no start URL gave a state (4xx/5xx, never loaded)
    └── ArchiveError           a WARC file or crawl directory cannot be written or read
        └── CrawlLocked        another run is writing the crawl directory

A ``NavigationError`` during a crawl is a recorded failure of one state, action or start URL;
``CrawlFailed``, when every start URL failed, and the others end the crawl with a one-line
message. What is read past without failing (a setting of
another version in a crawl directory) is a ``StatecrawlWarning``.
"""

from __future__ import annotations


class StatecrawlError(Exception):
    """Root of every error statecrawl raises on purpose."""


class ConfigError(StatecrawlError):
    """A configuration value, file or flag is invalid."""


class BrowserError(StatecrawlError):
    """The browser or its driver cannot be found, started or driven."""


class BrowserCrashed(BrowserError):
    """The browser or its driver died; a new one must be started."""


class NavigationError(StatecrawlError):
    """A page could not be loaded (bad URL, unreachable host, timeout)."""


class PageTimeout(NavigationError):
    """The page did not answer in time (a busy script, a hung load)."""


class ActionFailed(NavigationError):
    """An action could not be fired (its element is gone, a handler threw)."""


class AgentError(NavigationError):
    """The page agent's answer was malformed: the page broke or forged it."""


class CrawlFailed(NavigationError):
    """No start URL gave a state: each answered 4xx/5xx, could not be loaded, or the crawl
    stopped before; its directory is left as it was found, for the same command again."""


class ArchiveError(StatecrawlError):
    """A WARC file or crawl directory cannot be written or read."""


class CrawlLocked(ArchiveError):
    """Another run holds the crawl directory's lock: one run writes a directory at a time."""


class StatecrawlWarning(UserWarning):
    """Something of a crawl directory was read past: a setting another version wrote that
    this one does not know or no longer accepts (its default is used instead)."""


def one_line(text: str) -> str:
    """``text`` with every run of whitespace (line breaks included) made one space: for
    messages a user reads on one line, and for WARC header values."""
    return " ".join(text.split())
