"""marvel-champions game system."""

NAME = "marvel-champions"
