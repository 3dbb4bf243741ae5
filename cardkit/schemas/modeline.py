"""The yaml-language-server modeline at the top of a card file, pointing at the schema.

It must resolve on a collaborator's machine and after a rebuilt virtualenv, so it is a
path relative to the card file into the *repository's* exported `schemas/` folder
(`cardkit schema --export schemas`), never into the installed package. The folder is
the nearest `schemas/` above the card that holds `common.schema.json`; where none is
exported yet, `<repository>/schemas/` (the nearest folder above with `.git`, else the
current folder), and `missing` says so, for the command to tell the user.
"""

from __future__ import annotations

import os
from pathlib import Path

FOLDER = "schemas"
MARKER = "common.schema.json"  # every export has it: the schemas' shared definitions


def exported(folder: Path) -> bool:
    return (folder / MARKER).is_file()


def schemas_folder(start: Path) -> Path:
    """The schemas/ folder a card file under `start` (a folder) should point at."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if exported(folder / FOLDER):
            return folder / FOLDER
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder / FOLDER
    return Path.cwd().resolve() / FOLDER


def line(kind: str, target: Path) -> str:
    """`# yaml-language-server: $schema=../../schemas/<kind>.schema.json` for `target`."""
    home = target.parent.resolve()
    schema = schemas_folder(home) / f"{kind}.schema.json"
    return f"# yaml-language-server: $schema={Path(os.path.relpath(schema, home)).as_posix()}\n"


def missing(target: Path) -> str:
    """A hint when the modeline of `target` points at schemas not exported yet, else ""."""
    folder = schemas_folder(target.parent.resolve())
    if exported(folder):
        return ""
    if folder.is_relative_to(Path.cwd().resolve()):
        folder = folder.relative_to(Path.cwd().resolve())
    return (
        f"the modeline points at {folder}, which holds no schemas yet; "
        f"`cardkit schema --export {folder}` writes them for editors"
    )
