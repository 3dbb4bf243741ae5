"""cardkit's data in other tools' shapes: marvelsdb JSON, Tabletop Simulator decks, CSV.

Each module maps plain values (documents' data, dicts) to another format and back;
reading and writing files is left to `cardkit.exchange.files` and the CLI.
"""
