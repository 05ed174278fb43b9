"""Kill `grove play --record` and `grove play --resume` at random moments: every record must be
found as it was before the command (absent, or the old file) or whole, replaying with `grove
replay --verify` (exit 0) as a stopped game whose stop line is right or a finished one; and a
resumed record, when replaced, must hold at least every action it held (issue 34: a Ctrl-C during
a resume once cut a stopped record from 403 actions to 110, and it still replayed).

Each of SIGINT, SIGTERM and SIGKILL is sent `GROVE_FAULT_TRIES` times (default 50) to each
command, at a moment drawn evenly from the start of the command to a little past its end. The
commands are the cheapest that write records: a game of two random players (about 300 actions
in 10 ms), and a resume of one stopped halfway. A game that short writes its record once, at its
end or stop (copies on the way come a second apart); the tests in test_records.py kill a game
that waits for a person, whose record was copied whole before the wait.

Bounded: a process per try would spend nearly all its time importing Python (0.2 s of CPU, of
which the game takes a tenth), so the kill would rarely land in the game. A small server
(`python tests/test_faults_records.py SPEC`) imports grove and plays one game first, then forks
a child per try that runs the command line's `main` exactly as `grove` does; the server sleeps,
sends the signal to its own unreaped child (so no other process can have that id) and reports how
it ended. The two commands' servers run at once. 300 tries take about 12 s of CPU in all.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from processes import ended, fork_main

REPO = Path(__file__).resolve().parents[1]
TRIES = int(os.environ.get("GROVE_FAULT_TRIES", "50") or 50)  # per signal and command
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGKILL)
LATE = 1.15  # kills are drawn up to this share of an unkilled run's time: some come too late


# ---- the server (run as a script) --------------------------------------------------------------
def serve(spec: dict) -> None:
    """Time the command unkilled, then run every try: fork, wait, signal, reap."""
    from grove.cli import main

    warm = Path(spec["warm"])
    with contextlib.suppress(SystemExit):  # imports, the card set's cache, a recorded game
        main(["play", "--ai", "random,random", "--seed", "99", "--quiet", "--record",
              str(warm / "warm.jsonl")], prog_name="grove", standalone_mode=False)
    times = []
    for _ in range(5):
        if spec["sample_from"]:
            shutil.copyfile(spec["sample_from"], spec["sample_to"])
        start = time.perf_counter()
        _, status = os.waitpid(fork_main(spec["sample"], spec["sample_cwd"]), 0)
        times.append(time.perf_counter() - start)
        assert ended(status) == {"exit": 0}, (spec["sample"], status)
    run_time = min(times)  # the machine is shared: the quickest run is the command's own time
    out = []
    for t in spec["tries"]:
        pid = fork_main(t["args"], t["cwd"])
        time.sleep(t["at"] * run_time)
        done, status = os.waitpid(pid, os.WNOHANG)
        if not done:  # still running (or a zombie: a signal then does nothing)
            os.kill(pid, t["sig"])
            _, status = os.waitpid(pid, 0)
        out.append({"cwd": t["cwd"], "sig": t["sig"], "late": bool(done), **ended(status)})
    print(json.dumps({"run_time": run_time, "tries": out}))


# ---- the test ----------------------------------------------------------------------------------
def _stopped_halfway(tmp: Path) -> Path:
    """A record of two random players stopped after half the game's actions."""
    from grove.engine import record as rec

    whole = tmp / "whole.jsonl"
    subprocess.run([sys.executable, "-c", "from grove.cli import main; main()", "play", "--ai",
                    "random,random", "--seed", "5", "--quiet", "--record", str(whole)],
                   check=True, capture_output=True, cwd=tmp)
    lines = whole.read_text(encoding="utf-8").splitlines()
    half = (len(lines) - 2) // 2
    path = tmp / "stopped.jsonl"
    path.write_text("\n".join([*lines[:half + 1], json.dumps(rec.stop_line(half))]) + "\n",
                    encoding="utf-8")
    return path


def _spec(tmp: Path, kind: str, stopped: Path, rnd: random.Random) -> dict:
    """The tries of one command: for `record`, the target absent or an older file of the
    user's; for `resume`, a copy of the stopped record."""
    tries = []
    for sig in SIGNALS:
        for n in range(TRIES):
            cwd = tmp / kind / f"{sig.name}-{n}"
            cwd.mkdir(parents=True)
            if kind == "resume":
                shutil.copyfile(stopped, cwd / "r.jsonl")
                args = ["play", "--resume", "r.jsonl", "--quiet"]
            else:
                if n % 2:
                    (cwd / "r.jsonl").write_text("an older file of the user's\n",
                                                 encoding="utf-8")
                args = ["play", "--ai", "random,random", "--seed", str(n), "--quiet",
                        "--record", "r.jsonl"]
            before = cwd / "before"
            if (cwd / "r.jsonl").exists():
                shutil.copyfile(cwd / "r.jsonl", before)
            tries.append({"args": args, "cwd": str(cwd), "sig": int(sig),
                          "at": rnd.uniform(0, LATE)})
    rnd.shuffle(tries)  # the signals' tries spread over the run, not one after another
    sample = tmp / kind / "sample"
    sample.mkdir()
    sample_args = (["play", "--resume", "r.jsonl", "--quiet"] if kind == "resume" else
                   ["play", "--ai", "random,random", "--seed", "1", "--quiet", "--record",
                    "r.jsonl"])
    return {"warm": str(sample), "sample": sample_args, "sample_cwd": str(sample),
            "sample_from": str(stopped) if kind == "resume" else None,
            "sample_to": str(sample / "r.jsonl"), "tries": tries}


def _verdict(t: dict, held: list[str]) -> str | None:
    """What is wrong with one try's record, or None. `held`: the action lines a resumed record
    held, which a replaced one must begin with."""
    from click.testing import CliRunner

    from grove.cli import main
    from grove.engine import record as rec

    cwd = Path(t["cwd"])
    target, before = cwd / "r.jsonl", cwd / "before"
    err = (cwd / "stderr.txt").read_text(encoding="utf-8", errors="replace") if (
        cwd / "stderr.txt").exists() else ""
    if "Traceback" in err:
        return f"a traceback:\n{err[-2000:]}"
    leftovers = [p.name for p in cwd.iterdir() if p.name.startswith(".")]
    if leftovers and t["sig"] != signal.SIGKILL:
        return f"temporary files left: {leftovers}"
    if not target.exists():
        return None if not before.exists() else "the old file was removed"
    if before.exists() and target.read_bytes() == before.read_bytes():
        return None  # as it was
    r = CliRunner().invoke(main, ["replay", str(target), "--verify"], catch_exceptions=False)
    if r.exit_code != 0:
        return f"neither as it was nor whole: replay --verify exit {r.exit_code}: {r.stderr}"
    actions = [a["action"] for a in rec.read(target).actions]
    if actions[:len(held)] != held:
        return f"a resumed record lost actions: {len(actions)} where it held {len(held)}"
    return None


def test_killed_records_are_as_they_were_or_whole(tmp_path: Path) -> None:
    from grove.engine import record as rec

    rnd = random.Random(34)
    stopped = _stopped_halfway(tmp_path)
    held = [a["action"] for a in rec.read(stopped).actions]
    specs = {kind: _spec(tmp_path, kind, stopped, rnd) for kind in ("record", "resume")}
    env = {**os.environ, "GROVE_CACHE_DIR": str(tmp_path / "cache")}
    servers = {kind: subprocess.Popen([sys.executable, __file__, json.dumps(spec)],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True, cwd=REPO, env=env)
               for kind, spec in specs.items()}
    reports = {}
    for kind, proc in servers.items():
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, f"the {kind} server ended with {proc.returncode}:\n{err}"
        reports[kind] = json.loads(out.strip().splitlines()[-1])
    problems, seen = [], {}
    for kind, report in reports.items():
        for t in report["tries"]:
            why = _verdict(t, held if kind == "resume" else [])
            if why:
                problems.append(f"{kind}, {signal.Signals(t['sig']).name}, {t['cwd']}: {why}")
            key = f"{kind}/{signal.Signals(t['sig']).name}"
            for state in _states(t):
                seen.setdefault(key, {}).setdefault(state, 0)
                seen[key][state] += 1
    assert not problems, "\n".join(problems[:10])
    times = {kind: round(r["run_time"], 3) for kind, r in reports.items()}
    print(f"\nfaults: {TRIES} tries per signal and command; unkilled run {times} s; {seen}")
    # the kills did land in the games: grove stopped some itself (exit 130, after a stop line or
    # leaving a resumed record as it was), not only before or after them
    for kind, report in reports.items():
        assert any(t.get("exit") == 130 for t in report["tries"]), (kind, seen)


def _states(t: dict) -> list[str]:
    """How a try ended, for the summary: the record absent, as it was, stopped or finished (a
    kill after the end is `late`), and a temporary file that SIGKILL left beside it."""
    from grove.engine import record as rec

    cwd = Path(t["cwd"])
    target, before = cwd / "r.jsonl", cwd / "before"
    if not target.exists():
        state = "absent"
    elif before.exists() and target.read_bytes() == before.read_bytes():
        state = "as it was"
    else:
        state = "stopped" if rec.read(target).stop is not None else "finished"
    out = [state, "late"] if t["late"] else [state]
    if any(p.name.startswith(".") for p in cwd.iterdir()):
        out.append("temporary file left")  # SIGKILL during a copy's write: no cleanup runs
    return out


if __name__ == "__main__":
    serve(json.loads(sys.argv[1]))


_FINALIZER_PROBE = """
import time

from grove.cli import main

class Finalised:
    def __del__(self):
        raise KeyboardInterrupt  # as a Ctrl-C landing in a finalizer raises it

@main.command("probe")
def probe():
    Finalised()  # dropped at once: its finalizer runs here
    end = time.monotonic() + 20  # the command's own work goes on, the Ctrl-C comes in it
    while time.monotonic() < end:
        pass
    print("the Ctrl-C was lost")

main(["probe"], prog_name="grove")
"""


def test_a_ctrl_c_in_a_finalizer_is_not_lost() -> None:
    """Python prints a KeyboardInterrupt raised in `__del__` as "Exception ignored" and goes on:
    a CI run caught one in a ZipFile's finalizer during `grove play --record`. grove delivers it
    again, so the command stops as after any Ctrl-C."""
    # a Ctrl-C reaches a program only where SIGINT is not ignored, and a test process may have
    # inherited it ignored (a simulation worker's set-up ignores it): start the probe as a
    # terminal would
    r = subprocess.run([sys.executable, "-c", _FINALIZER_PROBE], capture_output=True, text=True,
                       timeout=60, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert "lost" not in r.stdout, r.stderr
    assert "Exception ignored" not in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert r.returncode == 130 and "INTERRUPTED" in r.stderr, (r.returncode, r.stderr)
