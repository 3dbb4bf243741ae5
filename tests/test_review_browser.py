"""`cardkit review` in a real browser: Debian's chromium driven by chromium-driver (selenium).

The server runs in this process on a free loopback port; the page is used as a person
uses it, with the keyboard. Set CARDKIT_REVIEW_SCREENSHOTS=docs/review to write the
screenshots of docs/ (one per card kind) instead of into a scratch folder.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from cardkit import yamlio
from cardkit.review.server import Review, address
from tests.conftest import ROOT
from tests.review_helpers import HOSTILE, HOSTILE_THREAT, make_repo, running

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
KLAW = "cards/marvel-united/test-box/klaw.yaml"
Driver = Any


@pytest.fixture(scope="module")
def browser() -> Iterator[Driver]:
    if CHROMIUM is None or DRIVER is None:
        if os.environ.get("CI"):
            pytest.fail("chromium and chromium-driver are missing in CI: `make test-deps`")
        pytest.skip("needs Debian's chromium and chromium-driver (make test-deps)")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--window-size=1400,1000",
        "--host-resolver-rules=MAP rebound.example 127.0.0.1",  # a DNS name rebound to us
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo")


def wait(what: Callable[[], Any], seconds: float = 15) -> Any:
    end = time.monotonic() + seconds
    while True:
        found = what()
        if found or time.monotonic() > end:
            assert found, "the page did not get there in time"
            return found
        time.sleep(0.05)


def open_page(driver: Driver, review: Review, fragment: str = "", poll: int = 60_000) -> None:
    """The printed address (polling the disk every `poll` ms), filtered by `fragment`."""
    driver.get(f"{address(review)}&poll={poll}#{fragment}")
    wait(lambda: "open gaps" in text(driver, "#summary"))
    wait(lambda: driver.execute_script("return document.querySelector('#gaps .gap') !== null"))


def press(driver: Driver, *keys: str) -> None:
    """Keys typed into whatever has the focus, one key press each."""
    from selenium.webdriver.common.action_chains import ActionChains

    for key in keys:
        ActionChains(driver).send_keys(key).perform()


def text(driver: Driver, selector: str) -> str:
    """What the page shows in the first element matching selector (read in one step: the
    page may redraw the card between finding an element and reading it)."""
    found = driver.execute_script(
        "var e = document.querySelector(arguments[0]); return e ? e.innerText : ''", selector
    )
    return str(found)


def message(driver: Driver) -> str:
    return text(driver, "#message")


def evidence(driver: Driver, text: str = "the card in hand") -> None:
    """Typed once: the page offers it again (and sends the focus back to the card)."""
    box = driver.find_element("id", "evidence")
    box.clear()
    box.send_keys(text)
    press(driver, "\n")


def place(repo: Path, n: int) -> Any:
    data = yamlio.load_text((repo / KLAW).read_text())
    return next(card for card in data["masterplan"]["cards"] if card["n"] == n)


def test_a_placement_is_corrected_in_two_key_presses_and_undone(
    browser: Driver, repo: Path
) -> None:
    before = (repo / KLAW).read_text()
    with running(repo, by="ana") as review:
        open_page(browser, review, "q=Klaw%203")
        assert browser.find_element("id", "proxy-img").get_attribute("alt") == "Klaw 3"
        evidence(browser)
        focused = browser.switch_to.active_element
        token, slot = focused.get_attribute("aria-label").split()
        was = place(repo, 3)["place"]
        assert was[slot][token] != 4
        press(browser, "4", "\n")  # the count, then Enter: two key presses
        wait(lambda: message(browser).startswith("corrected masterplan/cards/3/place"))
        card = place(repo, 3)
        assert card["place"][slot][token] == 4 and "unconfirmed" not in card
        assert card["confirmations"][0]["by"] == "ana"
        assert card["confirmations"][0]["evidence"] == "the card in hand"
        assert card["confirmations"][0]["previous"] == was
        press(browser, "u")
        wait(lambda: message(browser).startswith("undid masterplan/cards/3/place"))
    assert yamlio.load_text((repo / KLAW).read_text()) == yamlio.load_text(before)
    assert (repo / KLAW).read_text().startswith("# yaml-language-server")


def test_the_page_loads_with_nothing_refused_or_failing(browser: Driver, repo: Path) -> None:
    """No script error and no resource the policy blocks: the page needs nothing else."""
    with running(repo) as review:
        # an earlier test's page may still be fetching from its server, now shut down (its
        # next card's picture, prefetched): leave it first, so its resets are not logged here
        browser.get("about:blank")
        browser.get_log("browser")  # what earlier pages left
        open_page(browser, review, "q=drafted")
        wait(
            lambda: browser.execute_script(
                "var i = document.getElementById('scan-img'); return i.complete && i.naturalWidth > 0"
            )
        )
        severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        # a network error names its URL: only this server's count (a script error always does)
        here = f"127.0.0.1:{review.port}/"
        assert [e for e in severe if e["source"] != "network" or here in e["message"]] == []


def test_confirming_as_it_is_takes_one_key_and_moves_on(browser: Driver, repo: Path) -> None:
    with running(repo, by="ana") as review:
        open_page(browser, review, "q=Klaw%201")  # Klaw 1, 10, 11 and 12
        evidence(browser)
        first = browser.find_element("id", "proxy-img").get_attribute("alt")
        press(browser, "\n")
        wait(lambda: message(browser).startswith("confirmed masterplan/cards/"))
        wait(lambda: browser.find_element("id", "proxy-img").get_attribute("alt") != first)
    confirmed = [
        c["n"]
        for c in yamlio.load_text((repo / KLAW).read_text())["masterplan"]["cards"]
        if "confirmations" in c
    ]
    assert len(confirmed) == 1 and f"Klaw {confirmed[0]}" == first


def test_a_villain_s_placements_are_worked_through_from_the_page_alone(
    browser: Driver, repo: Path, tmp_path: Path
) -> None:
    """Every open placement of Klaw, one Enter each; the file ends as the same confirms
    made on the command line leave it: only the marks, the records, every comment kept."""
    twin = tmp_path / "twin.yaml"
    twin.write_bytes((repo / KLAW).read_bytes())
    doubted = [c["n"] for c in place_cards(repo) if "place" in c.get("unconfirmed", [])]
    assert len(doubted) >= 10
    with running(repo, by="ana") as review:
        open_page(browser, review, "villain=klaw&field=place")
        # Marvel United's word for its group labels the filter; the old address still filters
        assert text(browser, "label:has(#f-group)").startswith("villain")
        assert browser.execute_script("return document.getElementById('f-group').value") == "klaw"
        evidence(browser)
        for done in range(1, len(doubted) + 1):
            shown = browser.find_element("id", "proxy-img").get_attribute("alt")
            press(browser, "\n")
            wait(lambda done=done: sum("confirmations" in c for c in place_cards(repo)) == done)
            if done < len(doubted):
                wait(
                    lambda shown=shown: (
                        browser.find_element("id", "proxy-img").get_attribute("alt") != shown
                    )
                )
        wait(
            lambda: (
                "0 open gaps" in text(browser, "#summary") or "open" in text(browser, "#summary")
            )
        )
    from cardkit.confirm import edit as confirm

    day = place_cards(repo)[0]["confirmations"][0]["date"]
    requests = [
        confirm.Request(f"masterplan/cards/{n}/place", "ana", "the card in hand", day)
        for n in doubted
    ]
    confirm.confirm_file(twin, requests)
    assert (repo / KLAW).read_text() == twin.read_text()


def place_cards(repo: Path) -> list[Any]:
    return list(yamlio.load_text((repo / KLAW).read_text())["masterplan"]["cards"])


def test_two_tabs_racing_on_one_file_lose_nothing(browser: Driver, repo: Path) -> None:
    with running(repo, by="ana") as review:
        tabs = []
        for n in (5, 6):
            if tabs:
                browser.switch_to.new_window("tab")
            open_page(browser, review, f"q=Klaw%20{n}")
            evidence(browser, f"tab {n}")
            tabs.append(browser.current_window_handle)
        for tab in tabs:  # each confirms its card while the other still shows the old file
            browser.switch_to.window(tab)
            press(browser, "\n")
            wait(lambda: message(browser).startswith("confirmed"))
        said = message(browser)
        assert "changed on disk meanwhile" in said and "nothing lost" in said
        browser.close()
        browser.switch_to.window(tabs[0])
    records = {n: place(repo, n).get("confirmations", []) for n in (5, 6)}
    assert [r["evidence"] for n in (5, 6) for r in records[n]] == ["tab 5", "tab 6"]


def test_a_stale_tab_is_refused_and_shows_the_card_again(browser: Driver, repo: Path) -> None:
    with running(repo, by="ana") as review:
        open_page(browser, review, "q=Klaw%207")
        evidence(browser)
        from cardkit import confirm

        confirm.confirm_file(
            repo / KLAW, [confirm.Request("masterplan/cards/7/place", "bo", "terminal")]
        )
        press(browser, "\n")  # the page still shows the field open
        wait(lambda: "changed on disk since the page showed it" in message(browser))
        wait(lambda: "resolved" in text(browser, "#gaps .gap h3"))
    records = place(repo, 7)["confirmations"]
    assert [(r["by"], r["evidence"]) for r in records] == [("bo", "terminal")]


def test_a_hand_edit_during_a_correction_is_kept_and_said(browser: Driver, repo: Path) -> None:
    with running(repo, by="ana") as review:
        open_page(browser, review, "q=Klaw%208", poll=300)
        evidence(browser)
        press(browser, "5")  # mid-correction, when an editor saves the file
        saved = (repo / KLAW).read_text()
        start = saved.index("- n: 8")
        end = saved.index("- n: 9")
        card = saved[start:end]
        edited = card.replace("place: {left: {thug: 1}", "place: {left: {thug: 3}", 1)
        assert edited != card
        (repo / KLAW).write_text(saved[:start] + edited + saved[end:])
        wait(lambda: "changed on disk" in message(browser))
        assert text(browser, "#gaps .gap .now").startswith("now: left: 3 thug · right: 1 thug")
        assert not browser.find_elements("css selector", ".stepper.changed")  # shown afresh
    assert (repo / KLAW).read_text() == saved[:start] + edited + saved[end:]


def test_requests_without_the_token_or_from_elsewhere_are_refused(
    browser: Driver, repo: Path
) -> None:
    before = (repo / KLAW).read_bytes()
    with running(repo) as review:
        browser.get(f"http://127.0.0.1:{review.port}/")
        assert "missing or wrong token" in browser.find_element("tag name", "body").text
        browser.get(address(review).replace("127.0.0.1", "rebound.example"))
        assert "wrong Host" in browser.find_element("tag name", "body").text
        page = (
            "<!doctype html><script>"
            f"var to = 'http://127.0.0.1:{review.port}/api/confirm?token={review.token}';"
            "var body = JSON.stringify({card: 'x', address: 'masterplan/cards/1/place', by: 'm',"
            " evidence: 'm', seen: {etag: '', value: null, marked: true}});"
            "fetch(to, {method: 'POST', mode: 'no-cors', body: body,"
            " headers: {'Content-Type': 'text/plain'}}).then(function () {"
            f" return fetch('http://127.0.0.1:{review.port}/api/cards?token={review.token}'); }})"
            ".then(function () { document.title = 'read'; },"
            " function (e) { document.title = 'blocked ' + e.name; });"
            "</script>"
        ).encode()

        class Attacker(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        evil = ThreadingHTTPServer(("127.0.0.1", 0), Attacker)
        threading.Thread(target=evil.serve_forever, daemon=True).start()
        try:
            browser.get(f"http://127.0.0.1:{evil.server_address[1]}/")
            wait(lambda: browser.title.startswith("blocked"))
        finally:
            evil.shutdown()
            evil.server_close()
    assert (repo / KLAW).read_bytes() == before


def test_hostile_names_are_shown_as_text(browser: Driver, repo: Path) -> None:
    with running(repo) as review:
        open_page(browser, review, "q=pwned")
        titles = [
            b.text.splitlines()[0] for b in browser.find_elements("css selector", "#list button")
        ]
        assert f"{HOSTILE} 1" in titles and HOSTILE_THREAT in titles
        assert browser.execute_script("return window.pwned === undefined")
        assert not browser.find_elements("css selector", "#list img, #list script, #gaps img")
        assert HOSTILE in browser.find_element("id", "where").text


def _shoot(browser: Driver, folder: Path, name: str) -> Path:
    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)
    wait(
        lambda: browser.execute_script(
            "var i = document.getElementById('proxy-img'); return i.complete && i.naturalWidth > 0"
            " || document.getElementById('proxy').hidden"
        )
    )
    wait(
        lambda: browser.execute_script(
            "var s = document.getElementById('scan'); var i = document.getElementById('scan-img');"
            " return s.hidden || (i.complete && i.naturalWidth > 0)"
        )
    )
    shot = folder / f"{name}.png"
    browser.save_screenshot(str(shot))
    image = Image.open(shot).convert("RGB").resize((140, 100))
    assert len({image.getpixel((x, y)) for x in range(140) for y in range(100)}) > 30
    return shot


def test_a_screenshot_per_card_kind(
    browser: Driver, repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = Path(os.environ.get("CARDKIT_REVIEW_SCREENSHOTS") or tmp_path / "shots")
    folder = folder if folder.is_absolute() else ROOT / folder
    whole = tmp_path / "whole"
    shutil.copytree(ROOT / "cards", whole / "cards")
    monkeypatch.chdir(whole)  # paths shown as a user sees them: cards/...
    with running(whole, by="ana", cards=Path("cards")) as review:
        open_page(browser, review)
        cards = browser.execute_script(
            "return Array.from(document.querySelectorAll('#list button')).map(b => b.dataset.id)"
        )
        from tests.review_helpers import Client

        kinds: dict[str, str] = {}
        for card in Client(review).cards().values():
            kind = card["kind"] if card["picture"] else "document"
            kinds.setdefault(kind, card["id"])
        assert {"masterplan", "threat", "dashboard", "document"} <= set(kinds)
        for kind, ident in sorted(kinds.items()):
            index = cards.index(ident)
            browser.execute_script(
                "arguments[0].click()", browser.find_elements("css selector", "#list button")[index]
            )
            path = ident.split("#")[0]
            wait(lambda path=path: path in text(browser, "#where"))
            if kind != "document":
                outlined = browser.find_elements("css selector", "#outlines .outline")
                assert outlined, kind
            _shoot(browser, folder, kind)
    monkeypatch.chdir(repo)
    with running(repo, by="ana", cards=Path("cards")) as review:
        open_page(browser, review, "q=drafted")
        assert browser.find_element("id", "scan").is_displayed()
        _shoot(browser, folder, "masterplan-card-with-scan")
