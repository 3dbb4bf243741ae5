"""Marvel Champions game system."""

NAME = "marvel-champions"
TITLE = "Marvel Champions"
MANIFEST_KIND = "marvel-champions/expansion"
# a villain's setup is its group; an encounter card names its villain in villain_ref (its
# marvelsdb set_code would group hero cards too, but decklists and setups carry none)
GROUP = {"name": "villain", "kind": "marvel-champions/villain-setup", "ref": "villain_ref"}
READER = "cardkit.games.marvel_champions.rulebook"
PROOF_KINDS = {"decklist": "decklist", "card": "single"}
