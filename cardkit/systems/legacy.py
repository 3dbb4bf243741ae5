"""Old names of the grouping, kept because outputs and games written before it use them.

Before games declared `GROUP` (cardkit.plugin.Grouping), the core knew one grouping, a
Marvel United villain: games declared `VILLAIN_KIND`, documents named theirs in
`villain_ref`, the gaps JSON carried a `villain` key and `gaps --group-by villain`
grouped by it. Those names live here, once, so no other core module spells them:

- `VILLAIN_KIND = "K"` in a game reads as
  `GROUP = {"name": "villain", "kind": "K", "ref": "villain_ref"}`;
- the gaps JSON `villain` key (deprecated; read `game_group`) is the row's group when
  its game's group is named `villain`, else "", as it always was;
- `--group-by villain` (deprecated; use `--group-by group`) groups such rows by their
  group and every other row by its document, as it always did.
"""

from __future__ import annotations

OLD_NAME = "villain"  # the group's old name: its JSON key and --group-by word
OLD_DECLARATION = "VILLAIN_KIND"
OLD_REF = "villain_ref"


def grouping(kind: str) -> dict[str, str]:
    """The GROUP an old `VILLAIN_KIND = kind` declaration means."""
    return {"name": OLD_NAME, "kind": kind, "ref": OLD_REF}


def old_value(group: str, label: str) -> str:
    """The old `villain` value of a row in group `group` of a game whose group is `label`."""
    return group if label == OLD_NAME else ""
