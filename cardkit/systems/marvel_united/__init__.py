"""Marvel United game system."""

NAME = "marvel-united"
TITLE = "Marvel United"
MANIFEST_KIND = "marvel-united/box"
