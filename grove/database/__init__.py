"""The card database outward: the query language of `grove find` and the files of `grove export`.

It reads what the compiler built and the printouts render, and keeps nothing of its own: a
species' row is the one `grove cards --json` prints (`rows.py`), what a rule counts is the
compiler's own reading of it (`reads.py`), and every file it writes goes through files/.
"""
