"""A scratch repository and an in-process review server, for the review page's tests."""

from __future__ import annotations

import http.client
import json
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from cardkit.review.repository import Repository
from cardkit.review.server import Review, serve
from tests.conftest import ROOT

HOSTILE = "<img src=x onerror=window.pwned=1>"
HOSTILE_THREAT = "<script>window.pwned=2</script>&amp;"
SAMPLE = "scans/samples/marvel-united/mu-crossbones-mp01-phone.jpg"
SCAN = "scans/marvel-united/spring-promos/mu-crossbones-mp01-phone.jpg"  # as the draft names it


def make_repo(root: Path) -> Path:
    """cards/ with Klaw (12 doubted placements, a doubted player count), a villain with
    hostile names, and a real OCR draft naming its scan (a phone photo), copied in place."""
    box = root / "cards" / "marvel-united" / "test-box"
    box.mkdir(parents=True)
    klaw = (ROOT / "tests" / "data" / "klaw.yaml").read_text()
    count = "  player_count: {heroes: {'2': 5, '3': 6, '4': 7}}\n"
    assert count in klaw
    klaw = klaw.replace(count, count + "  unconfirmed: [player_count]\n")
    (box / "klaw.yaml").write_text(klaw)
    hostile = klaw.replace("id: klaw", "id: hostile").replace("name: Klaw", f"name: '{HOSTILE}'")
    hostile = hostile.replace("name: Solid Sound Body", f"name: '{HOSTILE_THREAT}'")
    hostile = hostile.replace("copies: 6\n", "copies: 6\n      unconfirmed: [copies]\n", 1)
    (box / "hostile.yaml").write_text(hostile)
    (root / SCAN).parent.mkdir(parents=True)
    shutil.copy(ROOT / SAMPLE, root / SCAN)
    draft = ROOT / "tests" / "data" / "review" / "mu-crossbones-mp01-phone.yaml"
    shutil.copy(draft, box / "drafted.yaml")
    return root


class Client:
    """Requests to a running review server, as a browser tab or an attacker would send them."""

    def __init__(self, review: Review) -> None:
        self.review = review

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        token: str | None = "",
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        origin = f"http://127.0.0.1:{self.review.port}"
        sent = {"Host": f"127.0.0.1:{self.review.port}"}
        if method == "POST":
            sent.update({"Origin": origin, "Content-Type": "application/json"})
        if token is not None:
            sent["X-Cardkit-Token"] = token or self.review.token
        sent.update(headers or {})
        sent = {k: v for k, v in sent.items() if v}
        data = json.dumps(body).encode() if body is not None else None
        connection = http.client.HTTPConnection("127.0.0.1", self.review.port, timeout=30)
        try:
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            for name, value in sent.items():
                connection.putheader(name, value)
            if data is not None:
                connection.putheader("Content-Length", str(len(data)))
            connection.endheaders(data)
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def json(self, method: str, path: str, body: Any = None, **options: Any) -> tuple[int, Any]:
        status, _, raw = self.request(method, path, body, **options)
        return status, json.loads(raw)

    def cards(self) -> dict[str, Any]:
        status, data = self.json("GET", "/api/cards")
        assert status == 200, data
        return {card["id"]: card for card in data["cards"]}


@contextmanager
def running(root: Path, by: str = "", cards: Path | None = None) -> Iterator[Review]:
    """A review server over root/cards (or `cards`), on a free loopback port, in this process."""
    review = Review(Repository([cards or root / "cards"], root), by=by)
    server = serve(review, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield review
    finally:
        server.shutdown()
        server.server_close()
