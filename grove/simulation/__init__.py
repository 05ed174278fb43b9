"""Batches of games: `grove simulate` and `grove compare`.

This room drives the engine and never changes it: it plays many games of one card set on worker
processes or a Dask cluster (`executors.py`, `worker.py`), streams a row per game and seat and per
species in a forest into Parquet files (`sinks.py`) in a hidden folder that takes the place of
the run's folder only when whole (`folder.py`), adds the rows up into exact counts
(`aggregate.py`), turns the counts into rates with confidence intervals (`statistics.py`,
`summary.py`), draws them as one self-contained page (`report.py`), and puts two runs side by
side with tests corrected for the number of comparisons (`compare.py`). `run.py` holds a
simulation together; `plan.py` says what a run plays, so that every game's seed and seating
follow from the run's seed and the game's index alone.
"""
