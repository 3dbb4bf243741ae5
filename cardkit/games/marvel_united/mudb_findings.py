"""cardkit's checks on Marvel United JSON Database boxes, each finding at its place in the file.

python -m cardkit.games.marvel_united.mudb_findings BOX.json... > report.md

Per box: imports it into a scratch folder, runs `validate` and `gaps` there, and checks
the source itself for what the report asks (decks not 12 / 6 cards, master plan cards
with no Move or no placement, placements the reference does not allow, keys and values
the field reference does not name). Every cardkit finding is matched to the source
finding that makes it true; one with no match would be the import's fault and is listed
as such. Only names, counts and positions are printed, never card texts.
"""

from __future__ import annotations

import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit.games.marvel_united.mudb_positions import Positions

# The keys the field reference (the database's README) names, by object.
LOC = {"text", "locText"}
NAMED: dict[str, set[str]] = {
    "box": {"boxId", "baseUrl", "img", "name", "rulebook", "tokens", "locations", "challenges"}
    | {"cards", "characters", "faq", "trophies"},
    "location": {"img", "title", "endOfTurn", "slots"},
    "endOfTurn": {"mandatory", "effect"},
    "challenge": {"img", "title", "description", "cards"},
    "card": {"cardType", "img", "title", "description", "specialEffect", "movement"}
    | {"movementText", "bam", "actions", "add", "lifePoints", "locationEffect"}
    | {"startingHand", "bottomDeck"},
    "specialEffect": {"mandatory", "title", "description"},
    "add": {"left", "center", "right"},
    "lifePoints": {"twoHeroes", "threeHeroes", "fourHeroes"},
    "character": {"img", "loyalty", "name", "realName", "bio", "cards", "dashboard", "tokens"},
    "dashboard": {"back", "front"},
    "back": {"img", "specialSetup", "superVillain", "superVillainText"},
    "front": {"img", "specialRules", "overflow", "bam", "plot", "lifePoints"},
    "faq": {"question", "answer"},
    "trophy": {"id", "category", "description", "completed"},
}
CHILDREN = {  # key -> the object type of its value (or of each item of its list)
    ("box", "locations"): "location",
    ("box", "challenges"): "challenge",
    ("box", "cards"): "card",
    ("box", "characters"): "character",
    ("box", "faq"): "faq",
    ("box", "trophies"): "trophy",
    ("location", "endOfTurn"): "endOfTurn",
    ("challenge", "cards"): "card",
    ("card", "specialEffect"): "specialEffect",
    ("card", "add"): "add",
    ("card", "lifePoints"): "lifePoints",
    ("character", "cards"): "card",
    ("character", "dashboard"): "dashboard",
    ("dashboard", "back"): "back",
    ("dashboard", "front"): "front",
    ("front", "lifePoints"): "lifePoints",
}
VALUES = {
    "cardType": {"hero", "plan", "threat", "challenge", "gem", "other"},
    "loyalty": {"hero", "villain", "anti-hero", "villain-bio", "challenge", "other", "hidden"},
}
LETTERS = {"add": {"C", "T"}, "slots": {"C", "T", "D", "empty"}}
LETTERS |= {"actions": {"A", "H", "M", "W"}, "superVillain": {"A", "H", "M", "W"}}
DECK = {"plan": 12, "threat": 6}
MAX_SLOT = 5  # as cardkit's MU110


@dataclass
class Finding:
    what: str
    who: str
    where: list[str]  # the character, then its Dashboard
    problems: list[str] = field(default_factory=list)
    codes: set[str] = field(default_factory=set)  # the cardkit rules that say the same


@dataclass
class BoxReport:
    file: str
    findings: list[Finding] = field(default_factory=list)
    unnamed: dict[tuple[str, str], list[str]] = field(default_factory=lambda: defaultdict(list))
    diagnostics: list[tuple[str, str, str]] = field(default_factory=list)  # code, who, message
    unexplained: list[str] = field(default_factory=list)
    gap_rows: int = 0
    counts: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # for the summary


def _text(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("text"), str) and bool(value["text"])


def walk(value: Any, kind: str, path: str) -> Iterator[tuple[str, str, str, Any]]:
    """(object type, key, path, value) for every key of every object the reference types."""
    if not isinstance(value, dict):
        return
    for key, child in value.items():
        here = f"{path}.{key}" if path else key
        yield kind, key, here, child
        sub = CHILDREN.get((kind, key))
        if sub is None or key not in NAMED[kind]:
            continue
        items = child if isinstance(child, list) else [child]
        for i, item in enumerate(items):
            yield from walk(item, sub, f"{here}[{i}]" if isinstance(child, list) else here)


def _name(character: dict[str, Any], i: int) -> str:
    name = character.get("name")
    return str(name["text"]) if isinstance(name, dict) and _text(name) else f"character {i + 1}"


def source_findings(data: dict[str, Any], report: BoxReport) -> None:
    for kind, key, path, value in walk(data, "box", ""):
        if key not in NAMED[kind]:
            report.unnamed[(kind, key)].append(path)
        if key in VALUES and isinstance(value, str) and value not in VALUES[key]:
            report.unnamed[(kind, f"{key}: {value}")].append(path)
        if key in LETTERS and isinstance(value, list) and kind != "add":
            for n, letter in enumerate(value):
                if letter not in LETTERS[key]:
                    report.unnamed[(kind, f"{key} letter {letter}")].append(f"{path}[{n}]")
        if kind == "add" and isinstance(value, list):
            for n, letter in enumerate(value):
                if letter not in LETTERS["add"]:
                    report.unnamed[("add", f"letter {letter}")].append(f"{path}[{n}]")
    for i, character in enumerate(data.get("characters") or []):
        if isinstance(character, dict):
            _character(character, i, report)


def _ranges(numbers: list[int]) -> str:
    """`[0, 1, 2, 5]` -> `0-2, 5`."""
    parts: list[str] = []
    for n in numbers:
        if parts and parts[-1].split("-")[-1] == str(n - 1):
            parts[-1] = f"{parts[-1].split('-')[0]}-{n}"
        else:
            parts.append(str(n))
    return ", ".join(parts)


def _character(character: dict[str, Any], i: int, report: BoxReport) -> None:
    who, base = _name(character, i), f"characters[{i}]"
    by_type: dict[str, list[int]] = defaultdict(list)
    for n, card in enumerate(character.get("cards") or []):
        if isinstance(card, dict):
            by_type[str(card.get("cardType"))].append(n)
    if not (by_type["plan"] or by_type["threat"] or "dashboard" in character):
        return
    row = Finding("villain", who, [base])
    for kind, size in DECK.items():
        count = len(by_type[kind])
        if count != size:
            label = "master plan" if kind == "plan" else "threat"
            row.problems.append(f"{label} deck {count}, not {size}")
    no_move, no_add, crowded = [], [], []
    report.counts["plan cards"] += len(by_type["plan"])
    for n in by_type["plan"]:
        card = character["cards"][n]
        move = any(isinstance(card.get(k), int) for k in ("movement", "M"))
        if not move and not _text(card.get("movementText")):
            no_move.append(n)
        if "add" not in card:
            no_add.append(n)
        elif isinstance(card["add"], dict):
            for slot, letters in card["add"].items():
                if isinstance(letters, list) and len(letters) > MAX_SLOT:
                    crowded.append(f"cards[{n}].add.{slot}")
    report.counts["with no Move"] += len(no_move)
    report.counts["with no `add`"] += len(no_add)
    report.counts["decks not 12 / 6"] += sum(1 for p in row.problems if "deck" in p)
    if no_move:
        row.problems.append(f"no Move: cards[{_ranges(no_move)}]")
    if no_add:
        row.problems.append(f"no `add`: cards[{_ranges(no_add)}]")
    if crowded:
        row.problems.append(f"over {MAX_SLOT} tokens in a slot: {', '.join(crowded)}")
    board = character.get("dashboard")
    if isinstance(board, dict):
        front: dict[str, Any] = board["front"] if isinstance(board.get("front"), dict) else {}
        lacks = [] if isinstance(front.get("lifePoints"), dict) else ["lifePoints"]
        lacks += [key for key in ("plot", "bam", "overflow") if not _text(front.get(key))]
        if lacks:
            report.counts["Dashboards lacking a part"] += 1
            row.problems.append("Dashboard front lacks " + ", ".join(lacks))
        row.where.append(f"{base}.dashboard.front")
    if row.problems:
        report.findings.append(row)


MATCH = {  # a cardkit message -> the source finding that makes it true
    "the master plan deck lists": "master plan deck",
    "the threat deck holds": "threat deck",
    "no threat cards are transcribed": "threat deck 0,",
    "no master plan cards are transcribed": "master plan deck 0,",
    "no player-count table": "lifePoints",
    "no Villainous Plot": "plot",
    "no BAM! effect": "bam",
    "no Overflow effect": "overflow",
    "places": "tokens in a slot",
}


def cardkit_findings(path: Path, report: BoxReport) -> None:
    from cardkit import api
    from cardkit.check.validate import check
    from cardkit.files import yamlio
    from cardkit.games.marvel_united import mudb_files

    with tempfile.TemporaryDirectory() as scratch:
        plan = mudb_files.plan_import([path], Path(scratch))
        mudb_files.write_import(plan, force=False)
        folder = Path(scratch) / plan.boxes[0]
        names = {}
        for file in folder.glob("*.yaml"):
            doc = yamlio.load_text(file.read_text("utf-8"))
            names[file.name] = str(doc.get("name"))
        for diagnostic in check([folder], keep=False)[0].diagnostics:
            who = names.get(Path(diagnostic.path).name, diagnostic.path)
            report.diagnostics.append((diagnostic.code, who, diagnostic.message))
        report.gap_rows = sum(1 for _ in api.gap_rows([folder]))
    for row in report.findings:  # the rules cardkit itself raised for this villain
        row.codes = {code for code, who, _ in report.diagnostics if who == row.who}
    for code, who, message in report.diagnostics:
        wanted = next((v for k, v in MATCH.items() if k in message), None)
        found = wanted is not None and any(
            f.who == who and any(wanted in p for p in f.problems) for f in report.findings
        )
        if not found:
            report.unexplained.append(f"{code} {who}: {message}")


def render(report: BoxReport, positions: Positions) -> str:
    def at(path: str) -> str:
        line, _ = positions.at(path)
        return f"`{path}` l.{line}"

    out = [f"### `{report.file}`", ""]
    tally: dict[str, int] = defaultdict(int)
    for code, _, _ in report.diagnostics:
        tally[code] += 1
    shown = ", ".join(f"{c} x{n}" for c, n in sorted(tally.items())) or "none"
    out.append(
        f"`cardkit validate`: 0 errors, {len(report.diagnostics)} warnings ({shown}); "
        f"`cardkit gaps`: {report.gap_rows} open rows (the same findings). "
        f"Unexplained by the source: {len(report.unexplained)}."
    )
    summary = ["villains with findings", "plan cards", "with no Move", "with no `add`"]
    summary += ["decks not 12 / 6", "Dashboards lacking a part"]
    counts = {**report.counts, "villains with findings": len(report.findings)}
    out.append("")
    out.append("Summary: " + "; ".join(f"{key} {counts.get(key, 0)}" for key in summary))
    out[-1] += f"; keys and values the reference does not name {len(report.unnamed)}."
    out += ["", "| villain | at | what the source shows | cardkit |", "|---|---|---|---|"]
    for f in report.findings:
        where = ", ".join(at(p) for p in f.where)
        codes = ", ".join(sorted(f.codes)) or "-"
        out.append(f"| {f.who} | {where} | {'; '.join(f.problems)} | {codes} |")
    out += ["", "Keys and values the field reference does not name:", ""]
    out += ["| object | key or value | times | first at |", "|---|---|---|---|"]
    for (kind, key), paths in sorted(report.unnamed.items()):
        out.append(f"| {kind} | `{key}` | {len(paths)} | {at(paths[0])} |")
    for line in report.unexplained:
        out.append(f"\nNot explained by the source (an import fault): {line}")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    import json

    for name in argv:
        path = Path(name)
        text = path.read_text(encoding="utf-8")
        report = BoxReport(f"{path.parent.name}/{path.name}")
        source_findings(json.loads(text), report)
        cardkit_findings(path, report)
        sys.stdout.write(render(report, Positions(text)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
