"""Disney Villainous game system."""

NAME = "villainous"
TITLE = "Disney Villainous"
VILLAIN_KIND = "villainous/villain"
READER = "cardkit.systems.villainous.rulebook"
PROOF_KINDS = {"card": "single"}
