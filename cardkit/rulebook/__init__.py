"""Rulebook transcriptions: the shared outline parser and block rendering.

Each game system turns an outline into documents in its own folder
(`cardkit/systems/<system>/rulebook.py`).
"""
