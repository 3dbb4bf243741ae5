"""Load card files, check them against their schema and the rules, and report.

Fast path: libyaml load, then a compiled Rust validator answers valid or not.
Only a failing file pays for the Python validator's detailed errors and for
positions, which are found by re-parsing that one file's text.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardkit import suggest
from cardkit.check.rules import Finding, Rule, all_rules
from cardkit.check.walk import RuleWalk
from cardkit.errors import InputError
from cardkit.files import yamlio
from cardkit.model import Diagnostic, Document, Report, Severity, json_pointer
from cardkit.report.findings import SpooledReport
from cardkit.schemas import explain
from cardkit.schemas import registry as schemas
from cardkit.schemas import scope as validate_scope

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
    """The path as shown in reports: relative to the working folder when it lies below it
    (symbolic links resolved), else as given."""
    cwd = _real(os.getcwd())
    text = os.fspath(path)
    head, name = os.path.split(os.path.abspath(text))
    if ".." in Path(text).parts or not name or os.path.islink(text):
        real = os.path.realpath(text)  # what Path.resolve gives; the folder's cache can't
    else:
        real = os.path.join(_real(head), name)
    if cwd == real:
        return "."
    prefix = cwd if cwd.endswith(os.sep) else cwd + os.sep
    if real.startswith(prefix):
        return Path(real[len(prefix) :]).as_posix()
    return path.as_posix()


@lru_cache(maxsize=1024)
def _real(folder: str) -> str:
    """A folder's real path: one resolution per folder of the tree, not per file."""
    return os.path.realpath(folder)


def _problem(display_path: str, problem: yamlio.YamlProblem) -> Diagnostic:
    return Diagnostic(
        display_path, problem.line, problem.column, problem.code, Severity.ERROR, problem.message
    )


def load_document(path: Path) -> Document | Diagnostic:
    """A Document, or the one diagnostic that says why the file is not one."""
    shown = display(path)
    try:
        text = yamlio.read_text(path)
        data, root = yamlio.load_with_nodes(text)
    except yamlio.YamlProblem as problem:
        return _problem(shown, problem)
    except OSError as err:
        return Diagnostic(shown, 1, 1, "CK010", Severity.ERROR, f"cannot read file: {err.strerror}")
    locate = yamlio.Locator.parsed(text, root)
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
    if not isinstance(kind, str) or kind not in _kinds():
        line, column = locate(("kind",))
        named = kind if isinstance(kind, str) else ""
        hint = suggest.hint(named, schemas.kinds(), elsewhere=schemas.SEE_KINDS)
        return Diagnostic(
            shown,
            line,
            column,
            "CK006",
            Severity.ERROR,
            f"unknown kind {explain.short(kind)}; {hint}",
        )
    return document


_KINDS: tuple[object, frozenset[str]] = (None, frozenset())


def _kinds() -> frozenset[str]:
    """schemas.kinds() as a set, made again only when the schema files are read again."""
    global _KINDS
    files = schemas._files()  # cached: the same object until the schemas change
    if _KINDS[0] is not files:
        _KINDS = (files, frozenset(schemas.kinds()))
    return _KINDS[1]


def schema_diagnostics(document: Document) -> list[Diagnostic]:
    fast = schemas.fast_validator(document.kind)
    if fast.is_valid(document.data):
        return []
    found: list[Diagnostic] = []
    seen: set[tuple[str, str]] = set()
    for error in _detailed_errors(document, fast):
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


def _detailed_errors(document: Document, fast: Any) -> list[Any]:
    """The Python validator's errors, walking only the parts the compiled one found wrong
    (validate_scope.py says why that gives the same errors)."""
    where = [tuple(error.instance_path) for error in fast.iter_errors(document.data)]
    scoped = validate_scope.scoped(document.data, where, document.kind)
    errors = list(validate_scope.explaining_validator(document.kind).iter_errors(scoped))
    if errors:
        return errors
    # The two validators disagree on this file: explain it the whole way.
    return list(schemas.detailed_validator(document.kind).iter_errors(document.data))


def outside_ids(root: Path | None, validated: Iterable[Path]) -> dict[tuple[str, str], str]:
    """(system, id) -> kind for files under root that are not being validated.

    A cheap text scan, of changed files only (check/id_index.py keeps the rest): lets a
    run over one file resolve references into the rest.
    """
    if root is None or not root.is_dir():
        return {}
    from cardkit.check import id_index

    skip = {p.resolve() for p in validated}
    names = {p.name for p in skip}  # resolving every path of a big tree costs seconds
    known: dict[tuple[str, str], str] = {}
    for path, kind, ident in id_index.ids_under(root):
        if path.name not in names or path.resolve() not in skip:
            known[(kind.split("/", 1)[0], ident)] = kind
    return known


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off while streaming: documents are acyclic and freed by
    reference counting, so its passes over the long-lived objects are pure cost. The young
    generation is still swept every so often for the cycles an error's traceback makes."""
    was_enabled = gc.isenabled()
    gc.freeze()  # what is alive now (modules, schemas, validators) is never scanned again
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()


OnValid = Callable[[Document, list[Diagnostic]], None]
Add = Callable[[Diagnostic], None]


def schema_valid(files: Iterable[Path], add: Add) -> Iterator[Document]:
    """The one load -> schema step of every pipeline (validate, gaps, build): each
    schema-valid document as it is read; `add` hears why each other file is not one."""
    for count, path in enumerate(files, 1):
        if count % 2000 == 0:
            gc.collect(0)  # the cycles an error's traceback makes, with the collector paused
        loaded = load_document(path)
        if isinstance(loaded, Diagnostic):
            add(loaded)
            continue
        errors = schema_diagnostics(loaded)
        for error in errors:
            add(error)
        if not errors:
            yield loaded
        del loaded  # let it go before the next is read: one document alive at a time


def schema_valid_one(path: Path, add: Add) -> Document | None:
    """One file through the same step: its document, or None (and `add` heard why)."""
    return next(schema_valid([path], add), None)


def check(
    paths: Sequence[Path],
    *,
    context_root: Path | None = None,
    on_valid: OnValid | None = None,
    keep: bool = True,
) -> tuple[Report, list[Document]]:
    """The report (diagnostics as found: document by document, then what the rules find
    once the tree is seen) and, unless not `keep`, the schema-valid documents, for callers that
    go on to use them. `on_valid(document, diagnostics)` sees each schema-valid document
    while it is alive, with what the rules found in it so far."""
    files = collect_files(paths)
    report = Report([], files_checked=len(files))
    held = _check_files(files, paths, context_root, report.diagnostics.append, on_valid, keep)
    return report, held


def report_paths(paths: Sequence[Path], *, context_root: Path | None = None) -> SpooledReport:
    """The report, with its diagnostics spooled: memory stays flat whatever the tree's size
    (only counts are held; the diagnostics wait on disk, in runs, to be written in order).
    Documents are let go as soon as they are checked. `cardkit.api.validate` is this."""
    files = collect_files(paths)
    report = SpooledReport()
    report.files_checked = len(files)
    _check_files(files, paths, context_root, report.add, None, False)
    return report


def _check_files(
    files: list[Path],
    paths: Sequence[Path],
    context_root: Path | None,
    add: Add,
    on_valid: OnValid | None,
    keep: bool,
) -> list[Document]:
    """load -> schema -> rules -> positions, one document alive at a time (unless held)."""
    if context_root is not None and any(Path(p).resolve() == context_root.resolve() for p in paths):
        context_root = None  # every file under it is being validated: nothing lies outside
    walk = RuleWalk(all_rules(), keep=keep)
    with collector_paused():
        for loaded in schema_valid(files, add):
            found = [_diagnostic(rule, finding) for rule, finding in walk.see(loaded)]
            for diagnostic in found:
                add(diagnostic)
            if on_valid is not None:
                on_valid(loaded, found)
            walk.done(loaded)
    for rule, finding in walk.finish(outside_ids(context_root, files)):
        add(_diagnostic(rule, finding))
    return walk.held if keep else []


def load_valid(paths: Sequence[Path]) -> tuple[list[Path], list[Document], list[Diagnostic]]:
    """The files under paths, the schema-valid documents among them, and why the rest are not."""
    files = collect_files(paths)
    valid: list[Document] = []
    problems: list[Diagnostic] = []
    with collector_paused():
        for loaded in schema_valid(files, problems.append):
            valid.append(loaded)
            loaded.locate.release()  # type: ignore[attr-defined]
    return files, valid, problems


def _diagnostic(rule: Rule, finding: Finding) -> Diagnostic:
    line, column = finding.document.locate(finding.pointer)
    return Diagnostic(
        finding.document.display_path,
        line,
        column,
        rule.code,
        rule.severity,
        finding.message,
        json_pointer(finding.pointer),
    )
