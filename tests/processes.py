"""The processes of a session, for the tests that kill `grove simulate` and look for what it
left alive (a run started in a session of its own: its fork server, resource tracker and
workers stay in that session, whoever their parent becomes)."""

from __future__ import annotations

import os


def session(sid: int) -> list[int]:
    """The process ids of session `sid`, read from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getsid(int(entry)) == sid:
                    found.append(int(entry))
            except OSError:
                pass
    return found
