"""Editions as data: one folder per edition."""
from pathlib import Path

CARDS_DIR = Path(__file__).parent
