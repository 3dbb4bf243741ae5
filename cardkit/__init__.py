"""cardkit: transcribe, validate, close gaps in and print board- and card-game content."""

__version__ = "0.1.0"
