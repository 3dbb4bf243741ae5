"""Random bytes and random YAML never escape as exceptions: a diagnostic or a document."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardkit.check.validate import check, load_document
from cardkit.model import Diagnostic, Document

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.text(max_size=20), st.floats(allow_nan=False)
)
JSONISH = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
KINDS = st.sampled_from(
    ["marvel-united/villain", "marvel-united/box", "villainous/setup", "nope", 3]
)


def _check(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "card.yaml"
        path.write_bytes(raw)
        loaded = load_document(path)
        assert isinstance(loaded, Document | Diagnostic)
        report = check([path], keep=False)[0]
        assert report.files_checked == 1
        for d in report.diagnostics:
            assert d.line >= 1 and d.column >= 1 and d.code


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_random_bytes(raw: bytes) -> None:
    _check(raw)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(list("ab:-[]{}&*!|>'\"#\n\t ,?%@`~0.")), max_size=120))
def test_random_yaml_like_text(text: str) -> None:
    _check(text.encode())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    KINDS,
    st.dictionaries(
        st.sampled_from(["id", "name", "masterplan", "dashboard", "board", "steps", "x"]),
        JSONISH,
        max_size=5,
    ),
)
def test_random_documents(kind: object, body: dict[str, object]) -> None:
    import json

    _check(json.dumps({"kind": kind, **body}).encode())  # JSON is YAML
