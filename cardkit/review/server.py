"""The review page's server: the standard library's ThreadingHTTPServer, on loopback only.

Every request must carry the random token of the printed address (`?token=` or the
`X-Cardkit-Token` header); its Host must name this server (`127.0.0.1:PORT` or
`localhost:PORT`: a rebound DNS name is refused) and an Origin, when sent, must be this
server's; a change is a POST of JSON with this server's Origin. Nothing is served from
a path in a request: the page's own files come from the package, pictures are drawn from
the cards the repository holds, a scan only when it lies inside the repository. Every
answer forbids other origins' resources (Content-Security-Policy) and caching.
"""

from __future__ import annotations

import hmac
import json
import secrets
import sys
import threading
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from cardkit.confirm import edit as confirm
from cardkit.errors import CardkitError
from cardkit.files import yamlio
from cardkit.review import edits, picture, views
from cardkit.review.repository import Repository, text_etag

HOST = "127.0.0.1"
MAX_BODY = 64 * 1024
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
STATIC = {
    "/review.js": ("review.js", "text/javascript; charset=utf-8"),
    "/controls.js": ("controls.js", "text/javascript; charset=utf-8"),
    "/review.css": ("review.css", "text/css; charset=utf-8"),
}


@dataclass
class Review:
    """What the server holds: the repository, the token, and who and what was said last."""

    repository: Repository
    by: str = ""
    evidence: str = ""
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    port: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def hosts(self) -> set[str]:
        return {f"{HOST}:{self.port}", f"localhost:{self.port}"}

    def origins(self) -> set[str]:
        return {f"http://{host}" for host in self.hosts()}


def _static(name: str) -> bytes:
    return resources.files("cardkit.review").joinpath("static", name).read_bytes()


class Handler(BaseHTTPRequestHandler):
    server_version = "cardkit-review"
    sys_version = ""
    review: Review  # set on the class made for each server

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the terminal shows the address and errors, not every request

    # -- checks every request passes ----------------------------------------------------
    def _refuse(self, status: HTTPStatus, why: str) -> None:
        self._send(status, json.dumps({"error": why}).encode(), "application/json")

    def _allowed(self) -> dict[str, list[str]] | None:
        """The query, if the request may be answered; else it is refused and None."""
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if self.headers.get("Host", "") not in self.review.hosts():
            self._refuse(HTTPStatus.FORBIDDEN, "wrong Host: open the address cardkit printed")
            return None
        origin = self.headers.get("Origin")
        if origin is not None and origin not in self.review.origins():
            self._refuse(HTTPStatus.FORBIDDEN, "requests from another site are refused")
            return None
        if self.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            self._refuse(HTTPStatus.FORBIDDEN, "requests from another site are refused")
            return None
        given = self.headers.get("X-Cardkit-Token") or (query.get("token") or [""])[0]
        if not hmac.compare_digest(given.encode(), self.review.token.encode()):
            self._refuse(HTTPStatus.FORBIDDEN, "missing or wrong token: open the printed address")
            return None
        return query

    def _send(self, status: HTTPStatus, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, value: Any, status: HTTPStatus = HTTPStatus.OK) -> None:
        self._send(status, json.dumps(value).encode(), "application/json")

    # -- reading --------------------------------------------------------------------------
    def do_GET(self) -> None:
        query = self._allowed()
        if query is None:
            return
        route = urlsplit(self.path).path
        try:
            if route == "/":
                page = _static("index.html").replace(b"{token}", self.review.token.encode())
                self._send(HTTPStatus.OK, page, "text/html; charset=utf-8")
            elif route in STATIC:
                name, kind = STATIC[route]
                self._send(HTTPStatus.OK, _static(name), kind)
            elif route == "/favicon.ico":
                self._send(HTTPStatus.NO_CONTENT, b"", "image/png")
            elif route == "/api/state":
                self._json({"version": self.review.repository.snapshot().version})
            elif route == "/api/cards":
                snapshot = self.review.repository.snapshot()
                with self.review.lock:
                    by, evidence = self.review.by, self.review.evidence
                self._json(views.everything(snapshot, by, evidence))
            elif route in ("/api/card.png", "/api/scan.png"):
                self._picture(route, (query.get("card") or [""])[0])
            else:
                self._refuse(HTTPStatus.NOT_FOUND, "no such page")
        except CardkitError as err:
            self._refuse(HTTPStatus.CONFLICT, str(err))

    def _picture(self, route: str, ident: str) -> None:
        card = self.review.repository.snapshot().cards.get(ident)
        if card is None or card.card is None:
            self._refuse(HTTPStatus.NOT_FOUND, "no such card (it may have changed on disk)")
            return
        if route == "/api/card.png":
            self._send(HTTPStatus.OK, picture.png(card.card), "image/png")
            return
        ref = views.scan_of(card)
        if ref is None:
            self._refuse(HTTPStatus.NOT_FOUND, "this card names no scan inside the repository")
            return
        w, h = picture.size(card.card)
        self._send(
            HTTPStatus.OK, picture.scan_png(ref.path, ref.region, ref.rotation, w / h), "image/png"
        )

    def do_HEAD(self) -> None:
        self._refuse(HTTPStatus.METHOD_NOT_ALLOWED, "GET to read, POST to change")

    def do_PUT(self) -> None:
        self.do_HEAD()

    def do_DELETE(self) -> None:
        self.do_HEAD()

    # -- changing -------------------------------------------------------------------------
    def do_POST(self) -> None:
        if self._allowed() is None:
            return
        if self.headers.get("Origin") not in self.review.origins():
            self._refuse(HTTPStatus.FORBIDDEN, "a change must come from the review page itself")
            return
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
            self._refuse(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "a change is sent as JSON")
            return
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            length = -1
        if not 0 < length <= MAX_BODY:
            self._refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "the request is empty or too big")
            return
        try:
            body = json.loads(self.rfile.read(length))
            if not isinstance(body, dict):
                raise ValueError
        except ValueError:
            self._refuse(HTTPStatus.BAD_REQUEST, "the request is not a JSON object")
            return
        route = urlsplit(self.path).path
        try:
            if route == "/api/confirm":
                self._json(self.review_confirm(body))
            elif route == "/api/undo":
                self._json(self.review_undo(body))
            else:
                self._refuse(HTTPStatus.NOT_FOUND, "no such action")
        except edits.Stale as err:
            self._json({"error": str(err), "stale": True}, HTTPStatus.CONFLICT)
        except CardkitError as err:
            self._json({"error": str(err)}, HTTPStatus.UNPROCESSABLE_ENTITY)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as err:
            # a request not shaped as the page sends it: refused, never a dropped connection
            self._refuse(HTTPStatus.BAD_REQUEST, f"the request is incomplete ({err})")

    def _gap(self, body: dict[str, Any]) -> tuple[Path, str]:
        """The file and address a request names, looked up among the cards shown."""
        # The cards as last read will do (the guard checks the field under the file's lock),
        # so a confirmation does not wait for the repository to be read again.
        shown = self.review.repository.latest or self.review.repository.snapshot()
        card = shown.cards.get(str(body["card"])) or self.review.repository.snapshot().cards.get(
            str(body["card"])
        )
        address = str(body["address"])
        if card is None or not any(r.address == address for r in card.rows):
            raise edits.Stale(f"{address}: that gap is no longer on this card; it is shown again")
        return card.entry.path, address

    def review_confirm(self, body: dict[str, Any]) -> dict[str, Any]:
        path, address = self._gap(body)
        by, evidence = str(body.get("by", "")).strip(), str(body.get("evidence", "")).strip()
        if not by or not evidence:
            raise CardkitError("say who checked it and on what evidence (the two boxes above)")
        seen = body["seen"]
        guard = edits.Seen(str(seen["etag"]), seen.get("value"), bool(seen.get("marked")))
        control = body.get("control")
        value = confirm.AS_PRINTED
        if isinstance(control, dict):
            value = edits.value_of(control, guard.value)
        replace = isinstance(control, dict) and control.get("type") == "counts"
        outcome, elsewhere = edits.apply(path, address, guard, by, evidence, value, replace)
        with self.review.lock:
            self.review.by, self.review.evidence = by, evidence
        return self._after(path, address, outcome, elsewhere)

    def review_undo(self, body: dict[str, Any]) -> dict[str, Any]:
        path, address = self._gap(body)
        record = body["record"]
        if not isinstance(record, dict):
            raise ValueError("record")
        outcome = edits.take_back(path, address, record)
        return self._after(path, address, outcome, False)

    def _after(self, path: Path, address: str, outcome: Any, elsewhere: bool) -> dict[str, Any]:
        """What the page needs to go on: the outcome, the field's last record (for its undo)
        and the file's hash now (the page's change is not news to it)."""
        text = yamlio.read_text(path)
        data = yamlio.load_text(text)
        value, is_marked = edits.field_state(data, address)
        return {
            "confirmed": outcome.confirmed,
            "corrected": outcome.corrected,
            "unchanged": outcome.unchanged,
            "undone": outcome.undone,
            "warnings": outcome.warnings,
            "resolved_notes": outcome.resolved_notes,
            "record": confirm.last_confirmation(data, address),
            "value": value,
            "marked": is_marked,
            "etag": text_etag(text),
            "elsewhere": elsewhere,
        }


def serve(review: Review, port: int, ready: Any = None) -> ThreadingHTTPServer:
    """A server bound to loopback (port 0: any free one); `review.port` is set."""
    handler = type("ReviewHandler", (Handler,), {"review": review})
    server = ThreadingHTTPServer((HOST, port), handler)
    server.daemon_threads = True
    review.port = server.server_address[1]
    return server


def address(review: Review) -> str:
    return f"http://{HOST}:{review.port}/?token={review.token}"


def run(review: Review, port: int, open_browser: bool) -> None:
    review.repository.snapshot()  # read everything once before the address is given out
    server = serve(review, port)
    sys.stdout.write(f"cardkit review: {address(review)}\n(Ctrl-C to stop)\n")
    sys.stdout.flush()
    if open_browser:
        import webbrowser

        webbrowser.open(address(review))
    try:
        server.serve_forever()
    finally:
        server.server_close()
