"""JSON Schemas shipped with grove."""
from pathlib import Path

SCHEMA_DIR = Path(__file__).parent
