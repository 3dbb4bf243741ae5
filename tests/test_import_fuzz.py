"""Importing arbitrary text never crashes: documents, or one clear InputError/UsageError."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardkit.errors import CardkitError
from cardkit.rulebook import importer

ROOT = Path(__file__).resolve().parent.parent
SEED_LINES = sorted(
    {
        line
        for path in (ROOT / "scans").glob("*/*/rulebook.txt")
        for line in path.read_text().splitlines()
    }
)
LINES = st.one_of(st.sampled_from(SEED_LINES), st.just(""), st.text(max_size=40))
TITLES = st.sampled_from(
    [
        "Marvel United: Fuzz Box Rulebook",
        "Marvel Champions: The Card Game – Fuzz Rulebook",
        "User Manual",
    ]
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TITLES, st.lists(LINES, max_size=60))
def test_import_of_random_books(title: str, lines: list[str]) -> None:
    text = "\n".join([title, "", *lines]) + "\n"
    if title == "User Manual":
        text += "Villain Deck\nFate\n"
    with tempfile.TemporaryDirectory() as folder:
        book = Path(folder) / "rulebook.txt"
        book.write_text(text, encoding="utf-8")
        try:
            result = importer.plan_import(book, Path(folder) / "out")
        except CardkitError:
            return
        assert all(isinstance(doc, dict) and doc.get("kind") for doc in result.documents)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=200))
def test_import_of_random_bytes(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        book = Path(folder) / "rulebook.txt"
        book.write_bytes(raw)
        out = Path(folder) / "out"
        try:
            result = importer.plan_import(book, out, system="marvel-united")
        except CardkitError as err:  # refused: one line that names the book
            message = str(err)
            assert message and "\n" not in message and "rulebook.txt" in message
            return
        assert all(isinstance(doc, dict) and doc.get("kind") for doc in result.documents)
        assert all(path.resolve().is_relative_to(out.resolve()) for path in result.files)
        assert not out.exists()  # planning writes nothing
