"""Marvel Champions game system."""

NAME = "marvel-champions"
TITLE = "Marvel Champions"
MANIFEST_KIND = "marvel-champions/expansion"
READER = "cardkit.games.marvel_champions.rulebook"
PROOF_KINDS = {"decklist": "decklist", "card": "single"}
