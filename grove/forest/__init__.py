"""The players' forests as one model (see forest/model.py)."""
