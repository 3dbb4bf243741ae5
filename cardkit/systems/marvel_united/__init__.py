"""marvel-united game system."""

NAME = "marvel-united"
