"""Headless Chromium from the system packages, driven by Selenium through /usr/bin/chromedriver
(no download): the `browser` fixture of the replay page's, the site's and the accessibility
tests (tests/conftest.py registers it). Without either package a test that asks for it is
skipped naming the package, and under CI=true a skipped browser test fails (tests/conftest.py)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--window-size=1280,1000",
)


def missing_browser(chromium: Path = CHROMIUM, driver: Path = CHROMEDRIVER) -> str | None:
    """What the browser tests lack, naming each missing package; None when nothing is."""
    lacking = [
        f"{path} (apt-get install {package})"
        for path, package in ((chromium, "chromium"), (driver, "chromium-driver"))
        if not path.exists()
    ]
    return f"no {' and no '.join(lacking)}" if lacking else None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver")
    missing = missing_browser()
    if missing:
        pytest.skip(missing)
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="referee-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
