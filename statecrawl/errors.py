"""The error tree: every failure a user can act on is a ``StatecrawlError``."""


class StatecrawlError(Exception):
    """Root of every error statecrawl raises on purpose."""


class ConfigError(StatecrawlError):
    """A configuration value, file or flag is invalid."""


class BrowserError(StatecrawlError):
    """The browser or its driver cannot be found, started or driven."""


class NavigationError(StatecrawlError):
    """A page could not be loaded (bad URL, unreachable host, timeout)."""


class AgentError(NavigationError):
    """The page agent's answer was malformed: the page broke or forged it."""


class ArchiveError(StatecrawlError):
    """A WARC file or crawl directory cannot be written or read."""


def one_line(text: str) -> str:
    """``text`` with every run of whitespace (line breaks included) made one space: for
    messages a user reads on one line, and for WARC header values."""
    return " ".join(text.split())
