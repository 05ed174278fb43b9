"""A user's files, read and written so that nothing they keep is lost.

The lowest room: every other room that touches a user's file (records, forest files, sheets,
runs, the cache) goes through here, so the rules are one set: a write lands whole or not at all,
a target that is not a regular file or that the user may not write is refused and left alone,
and a read takes only a regular file, never more than a bound.
"""
