"""Marvel Champions game system."""

NAME = "marvel-champions"
