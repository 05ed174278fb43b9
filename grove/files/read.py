"""Reads that cannot hang or swallow the machine.

A path given to grove may be a FIFO (reading waits for a writer that never comes), a device
(/dev/zero never ends) or a huge file: each read here opens only a regular file, without
blocking on open, and reads no more than its bound.
"""

from __future__ import annotations

import errno
import os
import stat


class NotRegular(OSError):
    """The path is not a regular file, or is larger than the read allows; nothing was read."""

    def __init__(self, path: str | os.PathLike[str], why: str):
        super().__init__(errno.EINVAL, why, os.fspath(path))


def is_regular(path: str | os.PathLike[str]) -> bool:
    """Whether `path` is a regular file (following links), without opening it."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def read_bytes(path: str | os.PathLike[str], limit: int) -> bytes:
    """The whole of a regular file of at most `limit` bytes. A FIFO, a device or a folder is
    `NotRegular` (opened with O_NONBLOCK, so a FIFO without a writer does not hang the open);
    so is a file larger than `limit`. Other failures are the OSError of the open or read."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder", os.fspath(path))
        if not stat.S_ISREG(st.st_mode):
            raise NotRegular(path, "is not a regular file (a FIFO, device or socket)")
        if st.st_size > limit:
            raise NotRegular(path, f"is larger than grove reads ({st.st_size} > {limit} bytes)")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # grew while read
                raise NotRegular(path, f"is larger than grove reads (> {limit} bytes)")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike[str], limit: int) -> str:
    """`read_bytes` decoded as UTF-8 (a UnicodeDecodeError on bytes that are not)."""
    return read_bytes(path, limit).decode("utf-8")
