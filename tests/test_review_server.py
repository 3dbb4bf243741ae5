"""`cardkit review`'s server in-process: what it refuses, and that its changes are confirm's."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from cardkit import confirm, yamlio
from tests.review_helpers import HOSTILE, HOSTILE_THREAT, SCAN, Client, make_repo, running

KLAW = "cards/marvel-united/test-box/klaw.yaml"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


def _card(client: Client, path_end: str, address: str) -> tuple[dict[str, Any], dict[str, Any]]:
    for card in client.cards().values():
        if card["path"].endswith(path_end):
            for gap in card["gaps"]:
                if gap["address"] == address:
                    return card, gap
    raise AssertionError(f"no gap {address} in {path_end}")


def _confirm(client: Client, card: dict[str, Any], gap: dict[str, Any], **extra: Any) -> Any:
    body = {
        "card": card["id"],
        "address": gap["address"],
        "by": "ana",
        "evidence": "the card in hand",
        "seen": {"etag": card["etag"], "value": gap["value"], "marked": gap["marked"]},
        **extra,
    }
    return client.json("POST", "/api/confirm", body)


def test_the_page_is_a_face_the_core_never_imports() -> None:
    import ast

    from tests.conftest import ROOT

    package = ROOT / "cardkit"
    found = []
    for path in package.rglob("*.py"):
        if path.relative_to(package).parts[0] in ("cli", "review"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            found += [f"{path.name}:{node.lineno}" for n in names if n.startswith("cardkit.review")]
    assert found == []
    assert not any("http.server" in p.read_text() for p in (package / "confirm").glob("*.py"))


def test_every_request_needs_the_token_host_and_origin(repo: Path) -> None:
    with running(repo) as review:
        client = Client(review)
        assert client.request("GET", "/")[0] == 200
        assert client.request("GET", f"/?token={review.token}", token=None)[0] == 200
        for path in ("/", "/api/cards", "/api/state", "/review.js"):
            status, _, body = client.request("GET", path, token=None)
            assert status == 403 and b"token" in body
        assert client.request("GET", "/api/cards", token="x" * 32)[0] == 403
        rebound = {"Host": f"evil.example:{review.port}"}
        assert client.request("GET", "/api/cards", headers=rebound)[0] == 403
        foreign = {"Origin": "http://evil.example"}
        assert client.request("GET", "/api/cards", headers=foreign)[0] == 403
        cross = {"Sec-Fetch-Site": "cross-site"}
        assert client.request("GET", "/api/cards", headers=cross)[0] == 403


def test_answers_forbid_other_origins_and_caching(repo: Path) -> None:
    with running(repo) as review:
        for path in ("/", "/api/cards", "/review.js", "/nothing"):
            _, headers, _ = Client(review).request("GET", path)
            policy = headers["Content-Security-Policy"]
            assert "default-src 'none'" in policy and "connect-src 'self'" in policy
            assert "http" not in policy  # no other origin named anywhere
            assert headers["Cache-Control"] == "no-store"
            assert headers["X-Content-Type-Options"] == "nosniff"
        page = Client(review).request("GET", "/")[2].decode()
        assert "http" not in page.replace(f"127.0.0.1:{review.port}", "")  # nothing fetched


def test_changes_only_by_a_json_post_from_the_page(repo: Path) -> None:
    before = (repo / KLAW).read_bytes()
    with running(repo) as review:
        client = Client(review)
        card, gap = _card(client, "klaw.yaml", "masterplan/cards/1/place")
        body = {
            "card": card["id"],
            "address": gap["address"],
            "by": "a",
            "evidence": "e",
            "seen": {"etag": card["etag"], "value": gap["value"], "marked": True},
        }
        assert client.request("GET", "/api/confirm")[0] == 404  # reading changes nothing
        for method in ("PUT", "DELETE", "HEAD"):
            assert client.request(method, "/api/confirm", body)[0] == 405
        no_origin = {"Origin": ""}
        assert client.request("POST", "/api/confirm", body, headers=no_origin)[0] == 403
        foreign = {"Origin": f"http://localhost.evil.example:{review.port}"}
        assert client.request("POST", "/api/confirm", body, headers=foreign)[0] == 403
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        assert client.request("POST", "/api/confirm", body, headers=form)[0] == 415
        assert client.request("POST", "/api/confirm", body, token=None)[0] == 403
    assert (repo / KLAW).read_bytes() == before


def test_nothing_is_served_from_a_path_in_the_request(repo: Path, tmp_path: Path) -> None:
    with running(repo) as review:
        client = Client(review)
        for path in (
            "/../../etc/passwd",
            "/static/index.html",
            "/cards/marvel-united/test-box/klaw.yaml",
            "/api/card.png?card=../../etc/passwd",
            "/api/scan.png?card=/etc/passwd",
        ):
            status, _, body = client.request("GET", path)
            assert status == 404, path
            assert b"root:" not in body and b"kind:" not in body


def test_a_scan_outside_the_repository_is_not_served(
    repo: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("elsewhere") / "card.jpg"
    outside.write_bytes((repo / SCAN).read_bytes())
    draft = repo / "cards/marvel-united/test-box/drafted.yaml"
    with running(repo) as review:
        client = Client(review)
        card = next(c for c in client.cards().values() if c["path"].endswith("drafted.yaml"))
        assert card["scan"] is True
        status, _, png = client.request("GET", f"/api/scan.png?card={quote(card['id'])}")
        assert status == 200 and png.startswith(b"\x89PNG")
        draft.write_text(draft.read_text().replace(f"scan: {SCAN}", f"scan: {outside}"))
        card = next(c for c in client.cards().values() if c["path"].endswith("drafted.yaml"))
        assert card["scan"] is False
        assert client.request("GET", f"/api/scan.png?card={quote(card['id'])}")[0] == 404


def test_a_correction_writes_what_the_command_line_writes(repo: Path, tmp_path: Path) -> None:
    twin = tmp_path / "twin.yaml"
    twin.write_bytes((repo / KLAW).read_bytes())
    with running(repo) as review:
        client = Client(review)
        card, gap = _card(client, "klaw.yaml", "masterplan/cards/3/place")
        assert gap["editor"]["type"] == "counts" and gap["marked"] is True
        assert gap["editor"]["slots"][:3] == ["left", "villain", "right"]
        counts = {"left": {"thug": 2, "civilian": 0}, "villain": {}, "right": {"thug": 1}}
        status, result = _confirm(client, card, gap, control={"type": "counts", "counts": counts})
        assert status == 200, result
        assert result["corrected"] == ["masterplan/cards/3/place"]
        assert result["record"]["previous"] == gap["value"]
        assert result["marked"] is False
    request = confirm.Request(
        "masterplan/cards/3/place",
        "ana",
        "the card in hand",
        value={"left": {"thug": 2}, "right": {"thug": 1}},
        replace=True,
    )
    confirm.confirm_file(twin, [request])
    assert (repo / KLAW).read_text() == twin.read_text()
    assert (repo / KLAW).read_text().startswith("# yaml-language-server")  # comments kept


def test_undo_takes_back_the_page_s_confirmation_only(repo: Path) -> None:
    before = yamlio.load_text((repo / KLAW).read_text())
    with running(repo) as review:
        client = Client(review)
        card, gap = _card(client, "klaw.yaml", "masterplan/cards/2/place")
        status, result = _confirm(client, card, gap)
        assert status == 200 and result["confirmed"] == [gap["address"]]
        assert "value" not in result["record"]  # confirmed as it is: no new value
        body = {"card": card["id"], "address": gap["address"], "record": result["record"]}
        status, undone = client.json("POST", "/api/undo", body)
        assert status == 200 and undone["undone"] == [gap["address"]] and undone["marked"]
        assert yamlio.load_text((repo / KLAW).read_text()) == before
        status, again = client.json("POST", "/api/undo", body)  # nothing of the page's is left
        assert status == 409 and again["stale"]
    assert yamlio.load_text((repo / KLAW).read_text()) == before


def test_a_hand_edit_of_the_field_is_never_overwritten(repo: Path) -> None:
    with running(repo) as review:
        client = Client(review)
        card, gap = _card(client, "klaw.yaml", "masterplan/cards/1/place")
        text = (repo / KLAW).read_text()
        edited = text.replace(
            "left: {civilian: 1}\n        right: {civilian: 1}",
            "left: {civilian: 3}\n        right: {civilian: 1}",
            1,
        )
        assert edited != text
        (repo / KLAW).write_text(edited)  # an editor saves while the page shows the card
        status, result = _confirm(
            client,
            card,
            gap,
            control={
                "type": "counts",
                "counts": {"left": {"civilian": 2}, "right": {"civilian": 1}},
            },
        )
        assert status == 409 and result["stale"] and "changed on disk" in result["error"]
        assert (repo / KLAW).read_text() == edited


def test_a_hand_edit_elsewhere_in_the_file_is_kept_and_said(repo: Path) -> None:
    with running(repo) as review:
        client = Client(review)
        card, gap = _card(client, "klaw.yaml", "masterplan/cards/1/place")
        text = (repo / KLAW).read_text()
        (repo / KLAW).write_text(text.replace("name: Klaw\n", "name: Klaw  # checked the name\n"))
        status, result = _confirm(client, card, gap)
        assert status == 200 and result["elsewhere"] is True
    now = (repo / KLAW).read_text()
    assert "# checked the name" in now and "by: ana" in now


def test_two_tabs_and_a_terminal_at_once_lose_nothing(repo: Path) -> None:
    with running(repo) as review:
        client = Client(review)
        shown = [_card(client, "klaw.yaml", f"masterplan/cards/{n}/place") for n in range(1, 7)]
        results: list[int] = []

        def tab(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
            for card, gap in pairs:
                results.append(_confirm(client, card, gap)[0])

        def terminal() -> None:
            for n in (7, 8):
                request = confirm.Request(f"masterplan/cards/{n}/place", "bo", "terminal")
                confirm.confirm_file(repo / KLAW, [request])

        threads = [
            threading.Thread(target=tab, args=(shown[:3],)),
            threading.Thread(target=tab, args=(shown[3:],)),
            threading.Thread(target=terminal),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert results == [200] * 6
        # the same field from a tab that still shows it open: refused, not recorded twice
        status, result = _confirm(client, *shown[0])
        assert status == 409 and result["stale"]
    data = yamlio.load_text((repo / KLAW).read_text())
    records = {c["n"]: c.get("confirmations", []) for c in data["masterplan"]["cards"]}
    assert [len(records[n]) for n in range(1, 9)] == [1] * 8
    assert {records[n][0]["by"] for n in range(1, 9)} == {"ana", "bo"}


def test_who_and_evidence_are_needed_and_remembered(repo: Path) -> None:
    with running(repo, by="cara") as review:
        client = Client(review)
        assert client.json("GET", "/api/cards")[1]["by"] == "cara"
        card, gap = _card(client, "klaw.yaml", "masterplan/cards/1/place")
        status, result = _confirm(client, card, gap, evidence="")
        assert status == 422 and "evidence" in result["error"]
        assert _confirm(client, card, gap)[0] == 200
        data = client.json("GET", "/api/cards")[1]
        assert (data["by"], data["evidence"]) == ("ana", "the card in hand")


def test_a_refused_value_is_one_line_and_changes_nothing(repo: Path) -> None:
    before = (repo / KLAW).read_bytes()
    with running(repo) as review:
        client = Client(review)
        card, gap = _card(client, "klaw.yaml", "masterplan/cards/1/place")
        wrong = {"type": "counts", "counts": {"left": {"thgu": 1}}}
        status, result = _confirm(client, card, gap, control=wrong)
        assert status == 422 and "thug" in result["error"] and "\n" not in result["error"]
        status, result = _confirm(client, card, gap, control={"type": "yaml", "text": "{left: "})
        assert status == 422 and "YAML" in result["error"]
    assert (repo / KLAW).read_bytes() == before


def test_each_value_gets_its_control_and_hostile_names_stay_data(repo: Path) -> None:
    with running(repo) as review:
        cards = Client(review).cards().values()
        hostile = [c for c in cards if c["path"].endswith("hostile.yaml")]
        assert any(c["title"] == HOSTILE_THREAT for c in hostile)
        assert any(HOSTILE in c["deck"] for c in hostile)
        copies = [g for c in hostile for g in c["gaps"] if g["address"].endswith("/copies")]
        assert [(g["editor"]["type"], g["value"]) for g in copies] == [("number", 6)]
        drafted = next(c for c in cards if c["path"].endswith("drafted.yaml"))
        controls = {g["address"]: g["editor"]["type"] for g in drafted["gaps"]}
        assert controls == {"card/place": "counts", "card/bam": "bool"}
        parts = {o["field"]: o["part"] for o in drafted["outlines"]}
        assert parts == {"place": "diagram", "bam": "tags"}
        status, headers, png = Client(review).request(
            "GET", "/api/card.png?card=" + quote(drafted["id"])
        )
        assert status == 200 and headers["Content-Type"] == "image/png"
        from io import BytesIO

        from PIL import Image

        image = Image.open(BytesIO(png)).convert("RGB")
        assert abs(image.width / image.height - drafted["aspect"]) < 0.01


def test_a_table_of_numbers_is_corrected_number_by_number(repo: Path) -> None:
    with running(repo) as review:
        client = Client(review)
        card, gap = _card(client, "klaw.yaml", "dashboard/player_count")
        leaves = gap["editor"]["leaves"]
        assert gap["editor"]["type"] == "numbers"
        assert leaves == [[["heroes", "2"], 5], [["heroes", "3"], 6], [["heroes", "4"], 7]]
        leaves[1][1] = 8
        status, result = _confirm(client, card, gap, control={"type": "numbers", "leaves": leaves})
        assert status == 200 and result["corrected"] == ["dashboard/player_count"]
        bad = {"type": "numbers", "leaves": [[["heroes", "9"], 1]]}
        card, gap = _card(client, "klaw.yaml", "dashboard/player_count")
        assert _confirm(client, card, gap, control=bad)[0] in (400, 409)
    dashboard = yamlio.load_text((repo / KLAW).read_text())["dashboard"]
    assert dashboard["player_count"] == {"heroes": {"2": 5, "3": 8, "4": 7}}
    assert dashboard["confirmations"][0]["previous"] == {"heroes": {"2": 5, "3": 6, "4": 7}}


def test_the_command_prints_its_address_serves_and_stops_on_ctrl_c(repo: Path) -> None:
    import signal
    import subprocess
    import sys
    import urllib.request

    process = subprocess.Popen(
        [sys.executable, "-m", "cardkit", "review", "--no-open", "--by", "ana"],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("cardkit review: http://127.0.0.1:") and "?token=" in line
        url = line.split(": ", 1)[1].strip()
        with urllib.request.urlopen(url.replace("/?", "/api/cards?"), timeout=30) as answer:
            cards = __import__("json").loads(answer.read())
        assert cards["by"] == "ana" and any(c["path"].startswith("cards/") for c in cards["cards"])
    finally:
        process.send_signal(signal.SIGINT)
        _, errors = process.communicate(timeout=30)
    assert process.returncode == 0, errors


def test_a_port_in_use_or_a_missing_path_is_one_line(repo: Path) -> None:
    import socket

    from tests.conftest import run_cli

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        port = taken.getsockname()[1]
        result = run_cli(["review", "--no-open", "--port", str(port)], cwd=repo)
    finally:
        taken.close()
    assert result.returncode == 2
    assert result.stderr.startswith(f"cardkit: cannot listen on 127.0.0.1:{port}: ")
    assert result.stderr.count("\n") == 1
    missing = run_cli(["review", "--no-open", "nowhere"], cwd=repo)
    assert (missing.returncode, missing.stderr) == (2, "cardkit: nowhere: no such file or folder\n")
