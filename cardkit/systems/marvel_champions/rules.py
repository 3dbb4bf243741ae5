"""Rules for this system. Game rules arrive with the gaps issue."""
