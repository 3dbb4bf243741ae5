"""Marvel Champions game system."""

NAME = "marvel-champions"
TITLE = "Marvel Champions"
MANIFEST_KIND = "marvel-champions/expansion"
# a card's group is its marvelsdb set (`set_code`: a hero's set or an encounter set), which
# every imported card carries; the rulebook's setups, scenarios and decklists carry none
GROUP = {"name": "set", "ref": "set_code"}
READER = "cardkit.games.marvel_champions.rulebook"
PROOF_KINDS = {"decklist": "decklist", "card": "single"}
