"""A made-up fourth game system, "Tiny Heist", that lives outside cardkit.

It proves that a system is one package: the tests put this folder's parent on
PYTHONPATH, name it in CARDKIT_SYSTEMS, and cardkit validates, lists gaps and
prints proofs for its cards without any change to cardkit itself.
"""

NAME = "tiny-heist"
TITLE = "Tiny Heist"
PROOF_KINDS = {"card": "single"}
CARD_SIZE = {"width": "44mm", "height": "68mm"}
# a crew is its group; a card names its crew in crew_ref (cardkit.plugin.Grouping)
GROUP = {"name": "crew", "kind": "tiny-heist/crew", "ref": "crew_ref"}
