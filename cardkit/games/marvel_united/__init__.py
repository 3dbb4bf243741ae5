"""Marvel United game system."""

NAME = "marvel-united"
TITLE = "Marvel United"
MANIFEST_KIND = "marvel-united/box"
VILLAIN_KIND = "marvel-united/villain"
READER = "cardkit.games.marvel_united.rulebook"
PROOF_KINDS = {
    "villain": "villain",
    "henchmen": "sheet",
    "hero": "sheet",
    "equipment": "sheet",
    "weak-spot": "sheet",
    "masterplan-card": "masterplan-card",
    "threat-card": "threat-card",
}
CORRECTIONS = {"place": "cardkit.games.marvel_united.placement:merge"}
