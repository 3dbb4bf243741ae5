"""Rules that hold for every system: ids and references across the tree."""

NAME = "core"
