"""The screenshots of the docs: real pages of a real run, taken with headless Chromium.

After the first run of the tutorial (docs/tutorials/first-run.md):

    .venv/bin/python docs/scripts/screenshots.py [--sim SIM] [--config PATH] [--out docs/images]

starts the town's web server (`manage.py runserver`, on a free loopback port, with the same
config as the run), opens the demo page, the list of runs, the run page, its calls and one call
in Chromium (Debian's `chromium` and `chromedriver`, installed by `bash .ci/setup --tests`), and
writes them as PNG files over the old ones. SIM defaults to the newest simulation that is not a
base and has a compressed copy for the demo.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

FRONTEND = ROOT / "environment" / "frontend_server"
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
WIDTH, HEIGHT = 1280, 900
BACKGROUND = (0x1d, 0x1d, 0x1d)  # the game's backgroundColor in world.js
DEMO_STEPS = 120  # 20 game minutes at 10 s a step: the residents are up and about
# The whole map in the camera (bounded by the page's own zoom limits), centred.
ZOOM_OUT = """
const world = window.reverie.world, cam = world.scene.cameras.main, map = world.map;
world.focus = null;
cam.removeBounds();
cam.setZoom(Math.max(0.25, Math.min(cam.width / map.widthInPixels, cam.height / map.heightInPixels)));
cam.centerOn(map.widthInPixels / 2, map.heightInPixels / 2);
"""


def newest_run(settings) -> str:
    """The newest simulation with a compressed copy that is not a base."""
    from reverie.simulation.storage import SimStorage, is_base

    folder = settings.paths.compressed_storage
    found = [p for p in (folder.iterdir() if folder.is_dir() else ())
             if p.is_dir() and (settings.paths.storage / p.name).is_dir()
             and not is_base(SimStorage(settings.paths.storage, p.name))]
    if not found:
        raise SystemExit(f"no compressed run in {settings.paths.compressed_storage}: run the first run "
                         "(docs/tutorials/first-run.md) first")
    return max(found, key=lambda p: p.stat().st_mtime).name


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(config: Path, log: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = dict(os.environ, REVERIE_CONFIG=str(config), PYTHONUNBUFFERED="1")
    server = subprocess.Popen([sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
                              cwd=FRONTEND, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            urllib.request.urlopen(url + "/runs/", timeout=5)
            return server, url
        except OSError:
            if server.poll() is not None:
                break
            time.sleep(0.5)
    server.kill()
    raise SystemExit(f"the web server did not start; its log: {log}")


def browser(profile: Path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                 f"--window-size={WIDTH},{HEIGHT}", f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(60)
    return driver


def map_only(png: bytes):
    """The canvas cut to the map (the page's dark background around it left out)."""
    import io

    from PIL import Image, ImageChops

    image = Image.open(io.BytesIO(png)).convert("RGB")
    background = Image.new("RGB", image.size, BACKGROUND)
    box = ImageChops.difference(image, background).convert("L").point(lambda v: 255 if v > 8 else 0).getbbox()
    return image.crop(box) if box else image


def shoot(driver, url: str, out: Path, *, full_height: int | None = None) -> None:
    driver.get(url)
    time.sleep(1)
    if full_height:
        height = min(full_height, driver.execute_script("return document.documentElement.scrollHeight"))
        driver.set_window_size(WIDTH, max(HEIGHT, height))
    driver.save_screenshot(str(out))
    driver.set_window_size(WIDTH, HEIGHT)
    print(out)


def take(settings, config: Path, sim: str, out: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server, url = start_server(config, Path(tmp) / "server.log")
        driver = browser(Path(tmp) / "profile")
        try:
            # The demo, played fast from the run's first step until 20 game minutes in, then seen
            # whole (zoomed out as the wheel does): the page, and its map alone for the README.
            from reverie.console.compress import first_step

            first = first_step(settings.paths.storage / sim)
            driver.get(f"{url}/demo/{sim}/{first}/6/")
            WebDriverWait(driver, 90).until(
                lambda d: d.execute_script("return !!(window.reverie && window.reverie.world.ready)"))
            WebDriverWait(driver, 300).until(lambda d: d.execute_script("return window.reverie.step") >= first + DEMO_STEPS)
            driver.execute_script(ZOOM_OUT)
            time.sleep(1)
            driver.save_screenshot(str(out / "demo.png"))
            print(out / "demo.png")
            canvas = driver.find_element(By.CSS_SELECTOR, "#game-container canvas").screenshot_as_png
            map_only(canvas).save(out / "town.png")
            print(out / "town.png")
            shoot(driver, f"{url}/runs/", out / "runs.png")
            shoot(driver, f"{url}/runs/{sim}/", out / "run-page.png", full_height=2400)
            shoot(driver, f"{url}/runs/{sim}/calls/", out / "calls.png")
            # One call: a repaired one when the run has one (it shows a correction), else the first.
            for outcome in ("repaired", ""):
                driver.get(f"{url}/runs/{sim}/calls/?outcome={outcome}")
                links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "a[href*='/calls/']")
                         if a.get_attribute("href").rstrip("/").rsplit("/", 1)[-1].isdigit()]
                if links:
                    shoot(driver, links[0], out / "call.png", full_height=2000)
                    break
        finally:
            driver.quit()
            server.terminate()
            server.wait(timeout=30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python docs/scripts/screenshots.py", description=__doc__.splitlines()[0])
    parser.add_argument("--sim", help="the run to show (default: the newest compressed run that is not a base)")
    parser.add_argument("--config", help="config file (default: $REVERIE_CONFIG or ./config.toml)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images", help="folder of the images")
    args = parser.parse_args(argv)
    from reverie.config import config_path, load_settings

    settings = load_settings(args.config, check_files=False)
    take(settings, config_path(args.config).resolve(), args.sim or newest_run(settings), args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
