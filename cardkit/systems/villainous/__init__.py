"""villainous game system."""

NAME = "villainous"
