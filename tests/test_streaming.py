"""validate and gaps stream: the same output as the whole-tree path, one document alive.

The trees are generated here (villains of varying deck sizes, some invalid, their box
manifest sorted after them so the deck-size rule can only decide once the tree is seen),
plus copies of the corpus and the test cases.
"""

from __future__ import annotations

import io
import json
import random
import shutil
import weakref
from pathlib import Path
from typing import Any

import pytest

from cardkit.check import validate
from cardkit.files import spool
from cardkit.gaps import rows as gaps
from cardkit.gaps import stream as gaps_stream
from cardkit.model import Diagnostic, Document
from cardkit.report import RENDERERS, WRITERS, gaps_report, jsonstream

ROOT = Path(__file__).resolve().parent.parent


def _villain(index: int, rng: random.Random) -> str:
    cards = rng.choice([11, 12, 12, 13])
    lines = [
        "kind: marvel-united/villain",
        f"id: villain-{index}",
        f"name: Villain {index}",
        "box: zz-box",
        "dashboard:",
        "  bam: Deal 1 damage to each Hero in the Villain's Location.",
        "  player_count:",
        '    heroes: {"2": 5, "3": 6, "4": 7}',
        "threats:",
        f"  declared: {{count: {rng.choice([5, 6])}}}",
        "  cards:",
        f"    - {{name: Thing, copies: {rng.choice([5, 6])}, text: Does things.}}",
        "masterplan:",
        "  cards:",
    ]
    for n in range(1, cards + 1):
        broken = index % 7 == 0 and n == cards
        lines += [
            f"    - n: {n}",
            f"      move: {'far' if broken else rng.randint(0, 5)}",
            f"      place: {{left: {{civilian: {rng.randint(0, 2)}}}, right: {{thug: 1}}}}",
        ]
        if n % 4 == 0:
            lines.append("      unconfirmed: [place]")
    if index % 5 == 0:
        lines += [
            "gaps:",
            "  - note: the placements were read at display resolution.",
            "    fields: [masterplan/cards/*/place]",
            "    status: open",
        ]
    return "\n".join(lines) + "\n"


def _tree(root: Path, files: int = 40) -> Path:
    rng = random.Random(3)
    for index in range(files):
        folder = root / f"box-{index // 15}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"villain-{index:03d}.yaml").write_text(_villain(index, rng))
    (root / "zz").mkdir()
    (root / "zz" / "box.yaml").write_text(
        "kind: marvel-united/box\nid: zz-box\nname: ZZ Box\n"
        "components:\n  - {count: 60, name: Master Plan Cards, per: Villain, each: 12}\n"
    )
    return root


@pytest.fixture(params=["generated", "cards", "cases"])
def tree(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    if request.param == "generated":
        return _tree(tmp_path / "tree")
    name = str(request.param)
    shutil.copytree(ROOT / ("cards" if name == "cards" else "tests/cases"), tmp_path / name)
    return tmp_path / name


@pytest.fixture
def small_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs of a few records, so even a small tree goes through the on-disk merge."""
    monkeypatch.setattr(spool, "RUN", 7)


def test_spool_gives_sorted_order_stable_across_runs(small_runs: None) -> None:
    rng = random.Random(5)
    records = [(rng.randint(0, 9), i) for i in range(500)]
    held: spool.Spool[tuple[int, int]] = spool.Spool(lambda r: r[0])
    for record in records:
        held.add(record)
    assert len(held.runs) > 10  # most of them waited on disk
    assert list(held.drain()) == sorted(records, key=lambda r: r[0])


FLAT = {"path": 'é/"x\\', "line": 10**30, "ok": True, "no": False, "none": None, "neg": -4}


@pytest.mark.parametrize(
    "items",
    [
        [],
        [{"a": 1, "b": [1, {"c": "é\n\u2028"}], "d": {}, "e": None}],
        [[], "x", 2.5],
        [FLAT, {"f": 1.5}, {1: "a"}, {}, FLAT],  # flat objects take the fast path
    ],
)
def test_json_written_item_by_item_is_json_dumps(items: list[Any]) -> None:
    for ascii_only in (True, False):
        whole = {"v": 1, "runs": [{"tool": {}, "results": items}], "after": {"n": len(items)}}
        holed = {"v": 1, "runs": [{"tool": {}, "results": jsonstream.HOLE}], "after": {"n": 0}}
        counted = {"n": 0}

        def payload(holed: dict[str, Any] = holed, counted: dict[str, int] = counted) -> Any:
            return {**holed, "after": dict(counted)}

        def counting(counted: dict[str, int] = counted) -> Any:
            for item in items:
                counted["n"] += 1
                yield item

        out = io.StringIO()
        jsonstream.write(out, payload, counting(), ensure_ascii=ascii_only)
        assert out.getvalue() == json.dumps(whole, indent=2, ensure_ascii=ascii_only) + "\n"


def test_validate_report_streamed_is_the_report(tree: Path, small_runs: None) -> None:
    held, _ = validate.check([tree], keep=False)
    for name, write in WRITERS.items():
        out = io.StringIO()
        write(validate.report_paths([tree]), out)
        assert out.getvalue() == RENDERERS[name](held), name


def _rows_as_text(rows: list[gaps.Gap]) -> list[str]:
    return [json.dumps(r.as_dict(), sort_keys=True) for r in rows]


def test_gaps_streamed_are_the_rows_of_held_documents(tree: Path, small_runs: None) -> None:
    """One walk, three ways in: files let go (a document a late finding points at is read
    again), documents the caller holds (placed from memory), and a validate report's
    findings (build: the rules run once) give the same rows; the last in its own order."""
    documents, problems = gaps.load([tree])
    expected = gaps.collect(documents)
    heard: list[Diagnostic] = []
    streamed = list(gaps_stream.stream([tree], heard.append))
    assert _rows_as_text(streamed) == _rows_as_text(expected)
    assert heard == problems
    report, held = validate.check([tree])
    from_report = gaps.collect(held, gaps.system_findings(report.diagnostics))
    assert sorted(_rows_as_text(from_report)) == sorted(_rows_as_text(expected))
    inferred = [r for r in from_report if r.origin == "inferred"]
    order = [(d.path, d.code, d.message) for d in report.diagnostics]
    places = [order.index((r.path, r.code, r.why)) for r in inferred]
    assert places == sorted(places)  # in the report's order, not by rule
    assert [r.code for r in inferred] != sorted(r.code for r in inferred)  # which differs
    for name, render in gaps_report.RENDERERS.items():
        for group_by in (None, "box", "field"):
            out = io.StringIO()
            gaps_report.WRITERS[name](iter(streamed), group_by, out)
            assert out.getvalue() == render(expected, group_by), (name, group_by)


def test_generated_tree_has_late_and_folded_rows(tmp_path: Path) -> None:
    """The generated tree exercises what streaming must get right: inferred rows decided
    only at the end (the box comes last) and rows folded into notes and marks."""
    root = _tree(tmp_path / "tree")
    rows = list(gaps_stream.stream([root], lambda _: None))
    codes = {r.code for r in rows if r.origin == "inferred"}
    assert "MU101" in codes  # deck sizes: decided once the box manifest is seen
    inferred = gaps.system_findings(validate.check([root], keep=False)[0].diagnostics)
    folded = len([d for d in inferred if d.code]) - sum(r.origin == "inferred" for r in rows)
    assert folded > 0


class _Alive:
    """Counts the Documents alive while a run goes, through weak references."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.alive = 0
        self.most = 0
        self.made = 0
        load = validate.load_document

        def counted(path: Path) -> Document | Diagnostic:
            loaded = load(path)
            if isinstance(loaded, Document):
                self.made += 1
                self.alive += 1
                self.most = max(self.most, self.alive)
                weakref.finalize(loaded, self._gone)
            return loaded

        monkeypatch.setattr(validate, "load_document", counted)

    def _gone(self) -> None:
        self.alive -= 1


def test_validate_holds_one_document_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _tree(tmp_path / "tree", files=60)
    alive = _Alive(monkeypatch)
    report = validate.report_paths([root])
    assert alive.made >= 60
    assert alive.most <= 2, alive.most  # the one being checked (and the one let go)
    assert report.count > 60  # findings were found and held as counts, not objects


def test_gaps_hold_one_document_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _tree(tmp_path / "tree", files=60)
    alive = _Alive(monkeypatch)
    rows = 0
    for _ in gaps_stream.stream([root], lambda _: None):
        rows += 1
        assert alive.alive <= 2
    assert alive.made >= 60 and rows > 60
    assert alive.most <= 2, alive.most


def test_display_paths_are_resolved_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """display() resolves a folder once, not every file; it must still give what
    Path.resolve() gives: through folder links, file links and `..`."""
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "x.yaml").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "a")
    (tmp_path / "a" / "flink.yaml").symlink_to(tmp_path / "a" / "b" / "x.yaml")
    cases = [
        tmp_path / "a" / "b" / "x.yaml",
        tmp_path / "link" / "b" / "x.yaml",
        tmp_path / "a" / "flink.yaml",
        Path("a/b/x.yaml"),
        Path("link/../a/b/x.yaml"),
        Path("/etc/hostname"),
    ]
    for cwd in (tmp_path, tmp_path / "a", tmp_path / "link"):
        monkeypatch.chdir(cwd)
        for case in cases:
            try:
                expected = case.resolve().relative_to(Path.cwd().resolve()).as_posix()
            except ValueError:
                expected = case.as_posix()
            assert validate.display(case) == expected, (cwd, case)
