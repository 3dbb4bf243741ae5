"""A made-up fourth game system, "Tiny Heist", that lives outside cardkit.

It proves that a system is one package: the tests put this folder's parent on
PYTHONPATH, name it in CARDKIT_SYSTEMS, and cardkit validates, lists gaps and
prints proofs for its cards without any change to cardkit itself.
"""

NAME = "tiny-heist"
TITLE = "Tiny Heist"
PROOF_KINDS = {"card": "single"}
CARD_SIZE = {"width": "44mm", "height": "68mm"}
