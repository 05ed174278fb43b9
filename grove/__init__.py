"""grove: card database and rules-authoring toolchain for the Forest Shuffle family."""

__version__ = "0.1.0"
