"""Chromium and ChromeDriver on this machine: named by the config, the environment or found
on PATH; never downloaded."""

from __future__ import annotations

import os
import shutil

from ..config import Config
from ..errors import BrowserError

CHROME_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
DRIVER_NAMES = ("chromedriver",)
INSTALL_HINT = "install it with `apt-get install chromium chromium-driver`"


def find_executables(config: Config) -> tuple[str, str]:
    """Chromium and ChromeDriver: from the config, the environment or PATH; never downloaded."""
    chrome = _find(config.browser.binary, "STATECRAWL_CHROME", CHROME_NAMES, "Chromium")
    driver = _find(config.browser.driver, "STATECRAWL_CHROMEDRIVER", DRIVER_NAMES, "ChromeDriver")
    return chrome, driver


def _find(given: str | None, env: str, names: tuple[str, ...], what: str) -> str:
    candidate = given or os.environ.get(env)
    if candidate:
        path = shutil.which(candidate)
        if not path:
            raise BrowserError(f"{what} not found at {candidate!r} (from config or {env})")
        return path
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    raise BrowserError(f"{what} not found on PATH: {INSTALL_HINT}, or set {env}")
