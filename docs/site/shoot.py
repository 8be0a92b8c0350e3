"""Screenshots of a league site for docs/site/: `python docs/site/shoot.py SITE OUTDIR`
takes index.html, a game page and a player page at desktop (1280 px) and phone (420 px)
width in headless Chromium (the system's chromium and chromedriver)."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def main(site: Path, out: Path, game: str = "r4-t1", player: str = "player-1") -> None:
    profile = tempfile.mkdtemp(prefix="referee-shoot-")
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    try:
        for width, height, label in ((1280, 900, "desktop"), (420, 860, "phone")):
            driver.set_window_size(width, height)
            for page, name in (("index", "index"), (game, "game"), (f"{game}-replay", "replay"), (player, "player")):
                driver.get((site / f"{page}.html").resolve().as_uri())
                driver.save_screenshot(str(out / f"{name}-{label}.png"))
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), *sys.argv[3:])
