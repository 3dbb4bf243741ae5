"""`cardkit review`: the page over the repository's open gaps, and one confirmation, timed.

A copy of the repository's cards/ is served by the review server in this process, on a
free loopback port, and asked what the page asks for, over real HTTP:

- page load: `/`, the script, the style sheet, `/api/cards` (every open gap, grouped by
  card, with its controls) and the first card's picture. Measured on a server that has
  read the files once (as `cardkit review` does before it prints its address), picture
  cache empty; and cold (a new server reading every file, as the first look after
  start). With Chromium and chromium-driver installed, also the page in a real browser:
  from navigation to the first card drawn with its picture loaded.
- a confirmation: a POST to `/api/confirm` of a master plan placement, answered when
  the file is written (confirm's transaction: lock, change check, validation, atomic
  write). The peer in the same run: `cardkit confirm FILE ADDRESS --by --evidence` in
  process (Typer's CliRunner), on a twin copy of the same files, other cards each time.

Medians over --rounds. Goals (issue 24): page <= 1 s, confirmation <= 150 ms.

    python benchmarks/review.py [--rounds 20]
"""

from __future__ import annotations

import argparse
import http.client
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardkit.review import picture  # noqa: E402
from cardkit.review.repository import Repository  # noqa: E402
from cardkit.review.server import Review, address, serve  # noqa: E402


def get(review: Review, path: str, body: Any = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", review.port, timeout=60)
    headers = {"X-Cardkit-Token": review.token}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers |= {
            "Origin": f"http://127.0.0.1:{review.port}",
            "Content-Type": "application/json",
        }
    try:
        connection.request("POST" if body is not None else "GET", path, data, headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def start(folder: Path) -> tuple[Review, Any]:
    review = Review(Repository([folder / "cards"], folder))
    server = serve(review, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return review, server


def page_load(review: Review) -> tuple[float, dict[str, Any]]:
    begin = time.perf_counter()
    for path in ("/", "/review.js", "/review.css"):
        assert get(review, path)[0] == 200
    status, raw = get(review, "/api/cards")
    assert status == 200
    data = json.loads(raw)
    first = next(c for c in data["cards"] if c["open"] and c["picture"])
    assert get(review, "/api/card.png?card=" + quote(first["id"]))[0] == 200
    return time.perf_counter() - begin, data


def in_browser(review: Review, rounds: int) -> float | None:
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver_path is None:
        return None
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    ready = (
        "var i = document.getElementById('proxy-img');"
        "return document.querySelector('#gaps .gap') !== null &&"
        " (document.getElementById('proxy').hidden || (i.complete && i.naturalWidth > 0))"
    )
    samples = []
    try:
        for _ in range(rounds):
            picture._pictures.items.clear()
            driver.get("about:blank")  # a new page each time, not a jump within this one
            begin = time.perf_counter()
            driver.get(address(review) + "#field=place")  # a master plan card, with its picture
            end = begin + 30
            while not driver.execute_script(ready):
                if time.perf_counter() > end:
                    raise SystemExit("the page did not show its first card in 30 s")
                time.sleep(0.01)
            samples.append(time.perf_counter() - begin)
    finally:
        driver.quit()
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    from typer.testing import CliRunner

    from cardkit.cli import app

    with tempfile.TemporaryDirectory() as scratch:
        page_copy, cli_copy = Path(scratch) / "page", Path(scratch) / "cli"
        for folder in (page_copy, cli_copy):
            shutil.copytree(ROOT / "cards", folder / "cards")
        review, server = start(page_copy)
        cold_begin = time.perf_counter()
        cold, data = page_load(review)  # the first look reads every file
        cold = time.perf_counter() - cold_begin
        warm = []
        for _ in range(args.rounds):
            picture._pictures.items.clear()
            warm.append(page_load(review)[0])
        gaps = sum(c["open"] for c in data["cards"])
        browser = in_browser(review, max(3, args.rounds // 4))

        placements = [
            (card, gap)
            for card in data["cards"]
            for gap in card["gaps"]
            if gap["editor"]["type"] == "counts" and gap["status"] == "open"
        ]
        by_file: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = {}
        for card, gap in placements:
            by_file.setdefault(card["path"], []).append((card, gap))
        chosen = [pair for pairs in by_file.values() for pair in pairs][: 2 * args.rounds]
        page_times: list[float] = []
        cli_times: list[float] = []
        page_cpu: list[float] = []  # this process's CPU: the server's thread and the client's
        cli_cpu: list[float] = []
        runner = CliRunner()
        for index, (card, gap) in enumerate(chosen):
            if index % 2 == 0:  # the page: a POST, answered once the file is written
                fresh = json.loads(get(review, "/api/cards")[1])  # as the page has it
                now = next(c for c in fresh["cards"] if c["id"] == card["id"])
                shown = next(g for g in now["gaps"] if g["address"] == gap["address"])
                body = {
                    "card": card["id"],
                    "address": gap["address"],
                    "by": "bench",
                    "evidence": "benchmark",
                    "seen": {"etag": now["etag"], "value": shown["value"], "marked": True},
                }
                begin, cpu = time.perf_counter(), time.process_time()
                status, raw = get(review, "/api/confirm", body)
                page_times.append(time.perf_counter() - begin)
                page_cpu.append(time.process_time() - cpu)
                assert status == 200, raw
            else:  # the command line, in process, on the twin copy
                target = cli_copy / Path(card["path"]).relative_to(page_copy)
                argv = ["confirm", str(target), gap["address"], "--by", "bench"]
                begin, cpu = time.perf_counter(), time.process_time()
                result = runner.invoke(app, [*argv, "--evidence", "benchmark"])
                cli_times.append(time.perf_counter() - begin)
                cli_cpu.append(time.process_time() - cpu)
                assert result.exit_code == 0, result.output
        server.shutdown()
        server.server_close()

    page_ms = statistics.median(page_times) * 1000
    cli_ms = statistics.median(cli_times) * 1000
    print(f"open gaps: {gaps} on {sum(1 for c in data['cards'] if c['open'])} cards")
    print(f"page load (files read once, pictures not cached): {statistics.median(warm):.3f} s")
    print(f"server start, reading every file (before the address is printed): {cold:.3f} s")
    if browser is not None:
        print(f"page in Chromium, to the first card drawn: {browser:.3f} s")
    print(f"confirmation from the page (POST, written): {page_ms:.1f} ms (n={len(page_times)})")
    print(f"cardkit confirm FILE ADDRESS in process: {cli_ms:.1f} ms (n={len(cli_times)})")
    print(f"ratio page / command line: {page_ms / cli_ms:.2f}")
    page_cpu_ms = statistics.median(page_cpu) * 1000
    cli_cpu_ms = statistics.median(cli_cpu) * 1000
    print(
        f"CPU time: page {page_cpu_ms:.1f} ms, command line {cli_cpu_ms:.1f} ms, "
        f"ratio {page_cpu_ms / cli_cpu_ms:.2f}"
    )


if __name__ == "__main__":
    main()
