"""The players' forests as one model (see grove/forest/model.py)."""
