"""The built-in game systems, one folder each, holding everything of that game.

The core reaches them only through the registry (`cardkit.systems`); the contract a
game implements is `cardkit.plugin`. A new built-in game is a new folder here.
"""
