"""Marvel Champions game system."""

NAME = "marvel-champions"
TITLE = "Marvel Champions"
MANIFEST_KIND = "marvel-champions/expansion"
