"""Disney Villainous game system."""

NAME = "villainous"
TITLE = "Disney Villainous"
