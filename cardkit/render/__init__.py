"""Proof sheets and proxy cards: pure layout geometry, card content, and the PDF painter."""
