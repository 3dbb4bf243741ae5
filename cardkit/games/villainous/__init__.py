"""Disney Villainous game system."""

NAME = "villainous"
TITLE = "Disney Villainous"
# a villain document is its group; its cards and locations name it in villain_ref
GROUP = {"name": "villain", "kind": "villainous/villain", "ref": "villain_ref"}
READER = "cardkit.games.villainous.rulebook"
PROOF_KINDS = {"card": "single"}
