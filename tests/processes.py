"""The processes of the tests that kill grove: those of a session, for the tests that kill
`grove simulate` and look for what it left alive (a run started in a session of its own: its
fork server, resource tracker and workers stay in that session, whoever their parent becomes);
and `fork_main`, a grove command run in a child forked from a process that has imported grove
already, so a test that starts hundreds of commands spends its time in them, not in imports."""

from __future__ import annotations

import gc
import os
import signal
import sys
import time


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


def _child(args: list[str], cwd: str, new_session: bool) -> None:
    """Run `grove ARGS` in this forked child, as a shell would start it: Ctrl-C raises
    KeyboardInterrupt, SIGTERM kills (grove's own handler aside), no terminal; stderr goes to
    `stderr.txt` in `cwd`."""
    code: int | None = None
    try:
        try:
            if new_session:
                os.setsid()
            os.chdir(cwd)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            null = os.open(os.devnull, os.O_RDWR)
            err = os.open("stderr.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(null, 0)
            os.dup2(null, 1)
            os.dup2(err, 2)
            from grove.cli import main

            main(args, prog_name="grove")
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    except KeyboardInterrupt:
        # grove turns every KeyboardInterrupt of a command into INTERRUPTED: one that reaches
        # here came before click's main began (as a Ctrl-C during a real grove's imports would),
        # or after grove had ended, while its exit was being read (a kill at 100%)
        code = 130 if code is None else code
    except BaseException:  # a traceback is a failure the test reads from stderr.txt
        import traceback

        traceback.print_exc()
        code = 99
    sys.stderr.flush()
    os._exit(code)


def fork_main(args: list[str], cwd: str, new_session: bool = False) -> int:
    """The process id of a forked child running `grove ARGS` (in a session of its own, whose
    id is that pid, with `new_session`); the caller reaps it with `os.waitpid`."""
    sys.stdout.flush()
    sys.stderr.flush()
    # what the parent holds, frozen: the child's collections then leave its pages alone, and
    # are not copied one by one on write (a tenth of a short command's time)
    gc.freeze()
    pid = os.fork()
    if pid == 0:
        _child(args, cwd, new_session)
    if new_session:
        # the child makes its session itself: wait for it, or a group signal sent at once (a
        # kill at 0% of a run) finds no group and fails with ESRCH
        end = time.monotonic() + 10
        while os.getsid(pid) != pid and time.monotonic() < end:
            time.sleep(0.001)
    return pid


def ended(status: int) -> dict:
    """How a reaped child ended: {"signal": N} or {"exit": code}."""
    if os.WIFSIGNALED(status):
        return {"signal": os.WTERMSIG(status)}
    return {"exit": os.WEXITSTATUS(status)}
