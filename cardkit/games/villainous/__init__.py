"""Disney Villainous game system."""

NAME = "villainous"
TITLE = "Disney Villainous"
VILLAIN_KIND = "villainous/villain"
READER = "cardkit.games.villainous.rulebook"
PROOF_KINDS = {"card": "single"}
