"""Disney Villainous game system."""

NAME = "villainous"
