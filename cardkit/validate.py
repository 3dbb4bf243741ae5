"""Load card files, check them against their schema and the rules, and report.

Fast path: libyaml load, then a compiled Rust validator answers valid or not.
Only a failing file pays for the Python validator's detailed errors and for
positions, which are found by re-parsing that one file's text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from cardkit import explain, schemas, yamlio
from cardkit.errors import InputError
from cardkit.model import Diagnostic, Document, Report, Severity, json_pointer
from cardkit.rules import Tree, all_rules

YAML_SUFFIXES = (".yaml", ".yml")


def collect_files(paths: Sequence[Path]) -> list[Path]:
    """Files named directly, plus every *.yaml / *.yml below named folders, sorted."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(
                sorted(
                    p
                    for p in path.rglob("*")
                    if p.suffix in YAML_SUFFIXES and p.is_file() and not _hidden(p, path)
                )
            )
        elif path.is_file():
            found.append(path)
        else:
            raise InputError(f"{path}: no such file or directory")
    return list(dict.fromkeys(found))


def _hidden(path: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(root).parts)


def display(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _problem(display_path: str, problem: yamlio.YamlProblem) -> Diagnostic:
    return Diagnostic(
        display_path, problem.line, problem.column, problem.code, Severity.ERROR, problem.message
    )


def load_document(path: Path) -> Document | Diagnostic:
    """A Document, or the one diagnostic that says why the file is not one."""
    shown = display(path)
    try:
        text = yamlio.read_text(path)
        data = yamlio.load_text(text)
    except yamlio.YamlProblem as problem:
        return _problem(shown, problem)
    except OSError as err:
        return Diagnostic(shown, 1, 1, "CK010", Severity.ERROR, f"cannot read file: {err.strerror}")
    locate = yamlio.Locator(text)
    if not isinstance(data, dict):
        kind_name = explain.json_type(data)
        what = (
            "empty" if data is None else f"{'an' if kind_name[0] in 'aeiou' else 'a'} {kind_name}"
        )
        return Diagnostic(
            shown, 1, 1, "CK005", Severity.ERROR, f"top level is {what}; a card file is a mapping"
        )
    document = Document(path, shown, data, locate)
    kind = data.get("kind")
    if kind is None:
        return Diagnostic(
            shown, 1, 1, "CK007", Severity.ERROR, "no 'kind': say what this file holds"
        )
    if not isinstance(kind, str) or kind not in schemas.kinds():
        line, column = locate(("kind",))
        hint = _closest_kind(kind)
        return Diagnostic(
            shown,
            line,
            column,
            "CK006",
            Severity.ERROR,
            f"unknown kind {explain.short(kind)}{hint}",
        )
    return document


def _closest_kind(kind: object) -> str:
    import difflib

    if not isinstance(kind, str):
        return ""
    close = difflib.get_close_matches(kind, schemas.kinds(), n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


def schema_diagnostics(document: Document) -> list[Diagnostic]:
    if schemas.fast_validator(document.kind).is_valid(document.data):
        return []
    found: list[Diagnostic] = []
    seen: set[tuple[str, str]] = set()
    for error in schemas.detailed_validator(document.kind).iter_errors(document.data):
        pointer, message = explain.explain(error)
        key = (json_pointer(pointer), message)
        if key in seen:
            continue
        seen.add(key)
        at_key = message.startswith("unknown property")
        line, column = document.locate(pointer, key=at_key)
        found.append(
            Diagnostic(
                document.display_path, line, column, "CK100", Severity.ERROR, message, key[0]
            )
        )
    return found


_ID_LINE = re.compile(r"^(kind|id):\s*['\"]?([^'\"\s#]+)", re.MULTILINE)


def outside_ids(root: Path | None, validated: Iterable[Path]) -> dict[tuple[str, str], str]:
    """(system, id) -> kind for files under root that are not being validated.

    A cheap text scan: lets a run over one file resolve references into the rest.
    """
    if root is None or not root.is_dir():
        return {}
    skip = {p.resolve() for p in validated}
    known: dict[tuple[str, str], str] = {}
    for path in collect_files([root]):
        if path.resolve() in skip:
            continue
        try:
            text = path.read_text(encoding="utf-8")
            fields: dict[str, str] = {m.group(1): m.group(2) for m in _ID_LINE.finditer(text)}
        except (OSError, UnicodeDecodeError):
            continue
        if "kind" in fields and "id" in fields:
            known[(fields["kind"].split("/", 1)[0], fields["id"])] = fields["kind"]
    return known


def load_valid(paths: Sequence[Path]) -> tuple[list[Path], list[Document], list[Diagnostic]]:
    """The files under paths, the schema-valid documents among them, and why the rest are not."""
    files = collect_files(paths)
    valid: list[Document] = []
    problems: list[Diagnostic] = []
    for path in files:
        loaded = load_document(path)
        if isinstance(loaded, Diagnostic):
            problems.append(loaded)
            continue
        errors = schema_diagnostics(loaded)
        problems.extend(errors)
        if not errors:
            valid.append(loaded)
    return files, valid, problems


def check(
    paths: Sequence[Path], *, context_root: Path | None = None
) -> tuple[Report, list[Document]]:
    """The report, and the schema-valid documents, for callers that go on to use them."""
    files, valid, problems = load_valid(paths)
    if context_root is not None and any(Path(p).resolve() == context_root.resolve() for p in paths):
        context_root = None  # every file under it is being validated: nothing lies outside
    report = Report(problems, files_checked=len(files))
    report.diagnostics.extend(run_rules(Tree(valid, outside_ids(context_root, files))))
    return report, valid


def validate_paths(paths: Sequence[Path], *, context_root: Path | None = None) -> Report:
    return check(paths, context_root=context_root)[0]


def run_rules(tree: Tree) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for rule in all_rules():
        for finding in rule.run(tree):
            line, column = finding.document.locate(finding.pointer)
            found.append(
                Diagnostic(
                    finding.document.display_path,
                    line,
                    column,
                    rule.code,
                    rule.severity,
                    finding.message,
                    json_pointer(finding.pointer),
                )
            )
    return found
