"""The page in a real headless Chromium: whole games by clicking, undo, the replay slider and
the screenshot the README shows.

Needs Chromium and its driver from the system (Debian: ``apt-get install chromium
chromium-driver``) and selenium (the [test] extra). Without them the test is skipped with
that message, except under CI (the CI variable set), where it fails instead.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

import eurosearch as es
from eurosearch.play import Session
from eurosearch.play.web import start_server

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOT = ROOT / "docs" / "play_oh_my_goods.png"
INSTALL = "install Chromium and its driver (apt-get install chromium chromium-driver) and selenium (pip install '.[test]')"


def _browser_paths() -> tuple[str, str] | None:
    chrome = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver")
    return (chrome, driver) if chrome and driver else None


@pytest.fixture(scope="module")
def browser():
    paths = _browser_paths()
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        paths = None
    if paths is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser test: {INSTALL}")
        pytest.skip(f"no headless browser: {INSTALL}")
    os.environ.setdefault("SE_OFFLINE", "true")     # never let selenium try to download a driver
    opts = webdriver.ChromeOptions()
    opts.binary_location = paths[0]
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1400,1100"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(options=opts, service=Service(executable_path=paths[1]))
    yield driver
    driver.quit()


def body(driver, key: str) -> str:
    return driver.execute_script(f"return document.body.dataset.{key};")


def wait_for(driver, cond, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out; page status {body(driver, 'status')}, steps {body(driver, 'steps')}")
        time.sleep(0.02)


def click_first_move(driver) -> bool:
    """Click the first move button; False if the page re-rendered under the click."""
    from selenium.common.exceptions import StaleElementReferenceException, ElementClickInterceptedException
    from selenium.webdriver.common.by import By
    buttons = driver.find_elements(By.CSS_SELECTOR, "#moves button.move")
    if not buttons:
        return False
    try:
        buttons[0].click()
        return True
    except (StaleElementReferenceException, ElementClickInterceptedException):
        return False


def play_to_the_end(driver, on_turn=None) -> int:
    clicks = 0
    while True:
        wait_for(driver, lambda: body(driver, "status") in ("your-turn", "over"))
        if body(driver, "status") == "over":
            return clicks
        if on_turn:
            on_turn(clicks)
        steps = body(driver, "steps")
        if click_first_move(driver):
            clicks += 1
            wait_for(driver, lambda: body(driver, "steps") != steps or body(driver, "status") == "over")


@pytest.mark.parametrize("name,players", [("oh_my_goods", 2), ("vienna", 3), ("coal_baron", 2)])
def test_a_whole_game_by_clicking_with_undo_and_replay(browser, name: str, players: int, tmp_path) -> None:
    from selenium.webdriver.common.by import By
    session = Session(es.game(name, players=players), ["human"] + ["mcts:iterations=50"] * (players - 1), seed=11)
    server, web = start_server(session, port=0, save_dir=tmp_path)
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/")
        undone = []

        def on_turn(clicks: int) -> None:
            if clicks == 6:                        # undo once, mid-game
                before = int(body(browser, "steps"))
                browser.find_element(By.ID, "undo").click()
                wait_for(browser, lambda: int(body(browser, "steps")) < before)
                undone.append(before - int(body(browser, "steps")))
            if name == "oh_my_goods" and clicks == 60:
                browser.find_element(By.ID, "hint").click()      # the analysis panel fills
                wait_for(browser, lambda: "Hint for you" in browser.find_element(By.ID, "analysis").text)
                shot = tmp_path / "play.png"
                browser.save_screenshot(str(shot))
                if os.environ.get("EUROSEARCH_UPDATE_SCREENSHOT"):
                    shutil.copy(shot, SCREENSHOT)

        clicks = play_to_the_end(browser, on_turn)
        assert clicks > 5 and undone and undone[0] >= 1
        assert web.session.state.is_terminal()
        assert "Game over" in browser.find_element(By.ID, "status").text
        # the replay slider shows an earlier position and Live comes back to the end
        total = int(body(browser, "steps"))
        browser.execute_script(
            "const s = document.getElementById('slider'); s.value = arguments[0]; s.dispatchEvent(new Event('input'));",
            total // 2)
        wait_for(browser, lambda: body(browser, "status") == "replay" and int(body(browser, "at")) == total // 2)
        assert browser.find_elements(By.CSS_SELECTOR, "#board .card, #board .space, #seats .card")
        browser.find_element(By.ID, "live").click()
        wait_for(browser, lambda: body(browser, "status") == "over")
    finally:
        server.shutdown()
