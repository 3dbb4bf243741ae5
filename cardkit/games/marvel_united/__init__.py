"""Marvel United game system."""

NAME = "marvel-united"
TITLE = "Marvel United"
MANIFEST_KIND = "marvel-united/box"
# a villain document is its group; every other document names its villain in villain_ref
GROUP = {"name": "villain", "kind": "marvel-united/villain", "ref": "villain_ref"}
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
SLOTS = ("left", "villain", "right")  # a placement's slots, in printed order
