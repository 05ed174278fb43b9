"""`grove simulate` and `grove compare` as a designer uses them: real games on real worker
processes and a real Dask local cluster, real Parquet files read back, a real Ctrl-C and a real
worker killed mid-run.

The runs are small (tens of games) and made once per module; the slowest test is the issue's
sanity check, greedy against random over 200 rotated base games.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from grove.cli import main
from grove.simulation.aggregate import Totals, read_totals
from grove.simulation.summary import summarize

REPO = Path(__file__).resolve().parents[1]
GROVE = Path(sys.executable).parent / "grove"
GAMES = 40
SIM = ["simulate", "--edition", "base", "--ai", "greedy,random", "--games", str(GAMES),
       "--seed", "11", "--rotate"]
FIGURES = ("seats", "ais", "species", "turns")


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, [str(a) for a in args], env=env, catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


def grove(*args: str, env: dict[str, str] | None = None, timeout: float = 300
          ) -> subprocess.CompletedProcess:
    return subprocess.run([str(GROVE), *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def changed_copy(top: Path) -> Path:
    """A copy of the base game in which the red fox scores 12 points flat instead of 2 per
    hare: an author's changed card, found through GROVE_CARDS."""
    shutil.copytree(REPO / "grove" / "cards" / "base", top / "base")
    path = top / "base" / "left_right.yaml"
    text = path.read_text(encoding="utf-8")
    at = text.index("score: 2 per hare", text.index("id: red_fox"))
    path.write_text(text[:at] + "score: 12" + text[at + len("score: 2 per hare"):],
                    encoding="utf-8")
    return top


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict]]:
    """The same run with one job, two jobs and a local Dask cluster, and the same run on a copy
    of the cards with one species changed."""
    top = tmp_path_factory.mktemp("runs")
    out: dict[str, tuple[Path, dict]] = {}
    for name, extra in (("one", ["--jobs", "1"]), ("two", ["--jobs", "2"])):
        code, stdout, err = run(*SIM, *extra, "--out", top / name, "--json")
        assert code == 0, err
        out[name] = (top / name, json.loads(stdout))
    proc = grove(*SIM, "--jobs", "2", "--cluster", "local", "--out", top / "cluster", "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "", "the cluster's logs are not grove's output"
    out["cluster"] = (top / "cluster", json.loads(proc.stdout))
    cards = changed_copy(tmp_path_factory.mktemp("cards"))
    code, stdout, err = run(*SIM, "--jobs", "1", "--out", top / "fox", "--json",
                            env={"GROVE_CARDS": str(cards)})
    assert code == 0, err
    out["fox"] = (top / "fox", json.loads(stdout))
    return out


def test_same_seed_same_figures_on_one_job_two_jobs_and_a_cluster(runs):
    one = runs["one"][1]
    for other in ("two", "cluster"):
        for key in FIGURES:
            assert runs[other][1][key] == one[key], (other, key)
    # the rows are written in game order whoever played them: the very same tables
    for name in ("games.parquet", "cards.parquet"):
        a = pq.read_table(runs["one"][0] / name)
        for other in ("two", "cluster"):
            assert pq.read_table(runs[other][0] / name).equals(a), (other, name)


def test_a_running_cluster_is_joined_by_its_address(tmp_path):
    """`--cluster ADDRESS`: a Dask scheduler started apart from grove (here by the test, on the
    loopback address), joined by grove as a client; the figures are those of one job."""
    import logging

    from distributed import LocalCluster

    args = ["simulate", "--edition", "base", "--ai", "random,random,random", "--games", "12",
            "--seed", "5", "--json"]
    cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                           host="127.0.0.1", dashboard_address=":0", silence_logs=logging.ERROR)
    try:
        proc = grove(*args, "--cluster", cluster.scheduler_address, "--out", tmp_path / "far")
    finally:
        cluster.close()
    assert proc.returncode == 0, proc.stderr
    code, out, err = run(*args, "--jobs", "1", "--out", tmp_path / "here")
    assert code == 0, err
    far, here = json.loads(proc.stdout), json.loads(out)
    assert far["games"] == 12
    assert all(far[k] == here[k] for k in FIGURES)


def test_summary_shape(runs):
    s = runs["one"][1]
    assert s["games"] == s["games_asked"] == GAMES and s["seed"] == 11
    assert s["ai"] == ["greedy", "random"] and s["complete"] and not s["stopped"]
    assert [r["seat"] for r in s["seats"]] == [1, 2]
    for r in s["seats"]:
        assert set(r) >= {"seat", "win_rate", "win_ci95", "mean_total", "total_ci95"}
        lo, hi = r["win_ci95"]
        assert lo <= r["win_rate"] <= hi
        lo, hi = r["total_ci95"]
        assert lo <= r["mean_total"] <= hi
    ais = {r["ai"]: r for r in s["ais"]}
    assert set(ais) == {"greedy", "random"}
    assert all(set(r) >= {"ai", "games", "win_rate", "win_ci95", "mean_total"} for r in ais.values())
    assert ais["greedy"]["games"] == ais["random"]["games"] == GAMES
    assert s["turns"]["min"] <= s["turns"]["mean"] <= s["turns"]["max"]
    species = {r["id"]: r for r in s["species"]}
    assert len(species) == 57  # every species of the base game, played or not
    for r in species.values():
        assert set(r) >= {"id", "played_per_game", "mean_points_when_played",
                          "win_rate_when_played", "win_rate_when_not", "delta_ci95"}
        if r["win_rate_when_played"] is not None and r["win_rate_when_not"] is not None:
            lo, hi = r["delta_ci95"]
            assert lo <= r["win_rate_when_played"] - r["win_rate_when_not"] <= hi
    on_disk = json.loads((runs["one"][0] / "summary.json").read_text(encoding="utf-8"))
    assert on_disk == s


def test_the_rows_add_up(runs):
    """games.parquet: a row per game and seat, the scorepad rows adding up to the total, every
    tied top scorer a winner; cards.parquet: the species' points are the forest's points
    outside the cave."""
    folder, s = runs["one"]
    games = pq.read_table(folder / "games.parquet").to_pylist()
    assert pq.read_schema(folder / "games.parquet").names == [
        "game", "seed", "seat", "ai", "total", "trees", "top", "bottom", "left", "right", "cave",
        "winner", "turns"]
    assert pq.read_schema(folder / "cards.parquet").names == [
        "game", "seat", "ai", "species", "copies", "points", "winner", "drawn", "paid"]
    assert len(games) == 2 * GAMES
    assert [r["game"] for r in games] == sorted(r["game"] for r in games)
    best: dict[int, int] = {}
    for r in games:
        assert r["total"] == sum(r[k] for k in ("trees", "top", "bottom", "left", "right", "cave"))
        best[r["game"]] = max(best.get(r["game"], 0), r["total"])
    assert all(r["winner"] == (r["total"] == best[r["game"]]) for r in games)
    points: Counter[tuple[int, int]] = Counter()
    cost = {r["id"]: r["cost"] for r in s["species"]}
    for c in pq.read_table(folder / "cards.parquet").to_pylist():
        # a row for every species the seat played or drew; every copy played was drawn
        assert c["copies"] >= 1 or c["drawn"] >= 1
        assert c["drawn"] >= c["copies"] or c["copies"] == 0
        assert c["points"] == 0 or c["copies"] >= 1
        # each play paid its cost, or nothing where it was free
        assert 0 <= c["paid"] <= cost[c["species"]] * c["copies"]
        points[c["game"], c["seat"]] += c["points"]
    for r in games:
        assert points[r["game"], r["seat"]] == r["total"] - r["cave"]


def test_rotate_moves_every_ai_one_seat_on(runs):
    rows = pq.read_table(runs["one"][0] / "games.parquet").to_pylist()
    ais = ["greedy", "random"]
    assert all(r["ai"] == ais[(r["seat"] - 1 - r["game"]) % 2] for r in rows)


def test_a_games_seed_replays_it_with_grove_play(runs):
    rows = [r for r in pq.read_table(runs["one"][0] / "games.parquet").to_pylist()
            if r["game"] == 7]
    seating = ",".join(r["ai"] for r in sorted(rows, key=lambda r: r["seat"]))
    code, out, err = run("play", "--edition", "base", "--ai", seating, "--seed",
                         str(rows[0]["seed"]), "--json")
    assert code == 0, err
    played = json.loads(out)
    assert [p["total"] for p in played["players"]] == [r["total"] for r in rows]
    assert played["turns"] == rows[0]["turns"]


def test_what_a_seat_paid_is_the_payments_of_its_record(runs, tmp_path):
    """The `paid` of a game's rows, seat by seat, is the number of `pay` actions its record
    holds when `grove play` replays it; a species of cost 0 never pays, and the run's own
    totals are those of this run, exactly."""
    rows = [r for r in pq.read_table(runs["one"][0] / "games.parquet").to_pylist()
            if r["game"] == 7]
    seating = ",".join(r["ai"] for r in sorted(rows, key=lambda r: r["seat"]))
    record = tmp_path / "game7.jsonl"
    code, _, err = run("play", "--edition", "base", "--ai", seating, "--seed",
                       str(rows[0]["seed"]), "--record", record)
    assert code == 0, err
    pays: Counter[int] = Counter()
    for line in record.read_text(encoding="utf-8").splitlines():
        step = json.loads(line)
        if step.get("type") == "action" and step["action"].startswith("pay "):
            pays[step["player"] + 1] += 1
    cards = pq.read_table(runs["one"][0] / "cards.parquet").to_pylist()
    paid: Counter[int] = Counter()
    for c in cards:
        if c["game"] == 7:
            paid[c["seat"]] += c["paid"]
    assert paid == pays and sum(pays.values()) > 0
    cost = {r["id"]: r["cost"] for r in runs["one"][1]["species"]}
    assert all(c["paid"] == 0 for c in cards if cost[c["species"]] == 0)
    totals = {sp: (sum(c["copies"] for c in cards if c["species"] == sp),
                   sum(c["paid"] for c in cards if c["species"] == sp))
              for sp in ("wolf", "red_fox", "beech_marten")}
    # (copies, cards paid) over the 40 games: one wolf of 32 (cost 3) was played free
    assert totals == {"wolf": (32, 93), "red_fox": (19, 38), "beech_marten": (61, 61)}


def test_the_counts_do_not_depend_on_the_order_of_the_rows(runs):
    """The summary is a function of integer counts: rows added in another order and in other
    batches give the same figures, to the last digit."""
    folder, s = runs["one"]
    games = pq.read_table(folder / "games.parquet")
    cards = pq.read_table(folder / "cards.parquet")
    shuffled = Totals()
    order = list(reversed(range(games.num_rows)))
    for i in range(0, len(order), 7):
        shuffled.add_games(games.take(pa.array(order[i:i + 7])))
    corder = list(reversed(range(cards.num_rows)))
    for i in range(0, len(corder), 101):
        shuffled.add_cards(cards.take(pa.array(corder[i:i + 101])))
    whole = read_totals(folder / "games.parquet", folder / "cards.parquet")
    a, b = summarize(shuffled, {}, []), summarize(whole, {}, [])
    for key in FIGURES:
        assert a[key] == b[key]
    for key in ("seats", "ais", "turns"):
        assert a[key] == s[key]


def test_report_is_one_page_that_loads_nothing(runs):
    html = (runs["one"][0] / "report.html").read_text(encoding="utf-8")
    assert "http://" not in html and "https://" not in html
    assert "<script" not in html and "<link" not in html and "<img" not in html
    for section in ('id="seats"', 'id="ais"', 'id="turns"', 'id="species"'):
        assert section in html
    # rotated greedy and random: the seats are alike by construction and not drawn; win rate
    # and totals per AI, strength per species, cost against points
    assert html.count("<svg") == 4 and 'id="seats-rotated"' in html
    assert "Red Fox" in html


def test_compare_names_the_changed_species(runs):
    code, out, err = run("compare", runs["one"][0], runs["fox"][0], "--json")
    assert code == 0, err
    result = json.loads(out)
    named = {c["id"] for c in result["changed"]}
    assert "red_fox" in named
    fox = [c for c in result["changed"] if c["id"] == "red_fox"]
    assert all(set(c) == {"id", "what", "a", "b", "p"} for c in result["changed"])
    assert any(c["what"] == "mean_points_when_played" and c["b"] > c["a"] for c in fox)
    assert all(c["p"] < 0.05 for c in result["changed"])
    code, out, _ = run("compare", runs["one"][0], runs["fox"][0])
    assert code == 0 and "red_fox" in out and "mean_points_when_played" in out


def test_compare_of_the_same_cards_and_seed_shows_no_change(runs):
    for other in ("two", "cluster"):
        code, out, err = run("compare", runs["one"][0], runs[other][0], "--json")
        assert code == 0, err
        result = json.loads(out)
        assert result["changed"] == [] and result["compared"] > 100
        assert all(f["p"] is None or f["p"] == 1.0 for f in result["figures"])
    code, out, _ = run("compare", runs["one"][0], runs["two"][0], "--correction", "bh")
    assert code == 0 and "0 of " in out and "figures changed beyond chance" in out


def test_greedy_beats_random(tmp_path):
    """The issue's sanity check: greedy against random, seats rotated, 200 base games."""
    code, out, err = run("simulate", "--edition", "base", "--ai", "greedy,random", "--rotate",
                         "--games", "200", "--jobs", "2", "--out", tmp_path / "run", "--json")
    assert code == 0, err
    ais = {r["ai"]: r for r in json.loads(out)["ais"]}
    assert ais["greedy"]["games"] == 200
    assert ais["greedy"]["win_rate"] > 0.85


def _wait_for(test, timeout: float = 120) -> None:
    end = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def workers(run, seen: dict[int, float], settled: float = 0.03) -> list:
    """The worker processes of a run (a `psutil.Process`): the first pool's are forked from the
    run itself (its command line, unexecuted), a pool that replaces a broken one is the fork
    server's children; neither the fork server nor the resource tracker is one. Those two are
    started by a fork and an exec, and show the run's command line for the instant between: a
    child of the run is taken for a forked worker only once it has shown the run's command line
    for `settled` seconds of this test's polling (`seen`: when each was first seen so). Killed
    before its exec, a resource tracker broke the run's pipe to it (1 run in 8); psutil's
    creation times are no help, being off by a constant of tenths of a second."""
    import psutil

    found = []
    now = time.monotonic()
    with contextlib.suppress(psutil.Error):
        for c in run.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                forked = c.ppid() == run.pid and c.cmdline() == run.cmdline()
                if c.ppid() != run.pid or (forked and now - seen.setdefault(c.pid, now) >= settled):
                    found.append(c)
    return found


def test_ctrl_c_leaves_valid_files_and_a_summary_of_what_they_hold(tmp_path):
    """Ctrl-C as a terminal sends it: to the whole process group, workers included."""
    out = tmp_path / "run"
    proc = subprocess.Popen(
        [str(GROVE), "simulate", "--edition", "base", "--ai", "random,random", "--games", "2000",
         "--jobs", "2", "--out", str(out), "--json"], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        # the first row group is written once 100 games are done, into the hidden folder
        _wait_for(lambda: any(p.stat().st_size > 1000
                              for p in tmp_path.glob(".run.grove-*.tmp/games.parquet")))
        os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "SIM-STOPPED" in stderr
    summary = json.loads(stdout)
    assert summary["stopped"] and not summary["complete"]
    assert 100 <= summary["games"] < 2000
    assert json.loads((out / "summary.json").read_text(encoding="utf-8")) == summary
    games = pq.read_table(out / "games.parquet")
    assert games.num_rows == 2 * summary["games"]
    assert len(set(games["game"].to_pylist())) == summary["games"]
    assert pq.read_table(out / "cards.parquet").num_rows > 0
    assert sorted(p.name for p in out.iterdir()) == [
        "cards.parquet", "games.parquet", "report.html", "summary.json"]
    assert [p.name for p in tmp_path.iterdir()] == ["run"]  # the hidden folder is gone


def test_a_worker_that_dies_has_its_games_run_again(tmp_path):
    import psutil

    out = tmp_path / "run"
    proc = subprocess.Popen(
        [str(GROVE), "simulate", "--edition", "base", "--ai", "random,random", "--games", "400",
         "--jobs", "2", "--out", str(out), "--json"], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        me = psutil.Process(proc.pid)
        seen: dict[int, float] = {}
        _wait_for(lambda: len(workers(me, seen)) == 2 and any(tmp_path.glob(".run.grove-*.tmp")))
        workers(me, seen)[0].kill()
        stdout, stderr = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, stderr
    summary = json.loads(stdout)
    assert summary["games"] == 400 and summary["complete"] and summary["games_failed"] == 0
    games = pq.read_table(out / "games.parquet")
    assert sorted(games.filter(pa.compute.equal(games["seat"], 1))["game"].to_pylist()) == \
        list(range(400))


def test_games_whose_workers_die_twice_are_reported_and_the_run_still_writes(tmp_path):
    """Every worker is killed as soon as it appears: each chunk is lost, played again, lost
    again, and reported game by game with the `grove play` line that plays it again. The run's
    output goes to files: the fork server's workers print a traceback as they are killed, more
    than a pipe holds, and a run blocked on a full pipe sat out the test's two minutes."""
    import psutil

    out = tmp_path / "run"
    with open(tmp_path / "stdout", "w+") as so, open(tmp_path / "stderr", "w+") as se:
        proc = subprocess.Popen(
            [str(GROVE), "simulate", "--edition", "base", "--ai", "random,random", "--games", "8",
             "--jobs", "2", "--out", str(out), "--json"], stdout=so, stderr=se, text=True)
        me = psutil.Process(proc.pid)
        seen: dict[int, float] = {}
        end = time.monotonic() + 120
        while proc.poll() is None and time.monotonic() < end:
            for c in workers(me, seen):
                with contextlib.suppress(psutil.Error):
                    c.kill()
            time.sleep(0.005)
        proc.wait(timeout=60)
        so.seek(0)
        se.seek(0)
        stdout, stderr = so.read(), se.read()
    assert proc.returncode == 1, stderr
    stderr = _without_fork_server_tracebacks(stderr)
    assert "Traceback" not in stderr
    summary = json.loads(stdout)
    assert summary["games_failed"] >= 1 and not summary["complete"]
    assert summary["games"] + summary["games_failed"] == 8
    lines = [json.loads(line) for line in stderr.splitlines()]
    assert {d["code"] for d in lines} == {"SIM-GAME-FAILED"}
    assert all("lost 2 times" in d["message"] and d["hint"].startswith("grove play ")
               for d in lines)
    assert pq.read_table(out / "games.parquet").num_rows == 2 * summary["games"]


def _without_fork_server_tracebacks(stderr: str) -> str:
    """stderr without the tracebacks of CPython's own fork server process.

    Killing workers every few milliseconds can cut a request to the fork server short (seen
    twice, each time while the whole suite ran on both cores): its main loop then dies with
    its own traceback, printed by that process, which grove neither runs nor can catch. The run
    goes on as when workers die (the next spawn fails and its games are reported), which the
    test checks; a traceback of grove's own process stays an error."""
    out: list[str] = []
    block: list[str] = []
    for line in stderr.splitlines(keepends=True):
        if block:
            block.append(line)
            if not line.startswith(" "):  # the exception's own line ends the traceback
                if not any("multiprocessing/forkserver.py" in b for b in block):
                    out += block
                block = []
        elif line.startswith("Traceback (most recent call last):"):
            block = [line]
        else:
            out.append(line)
    return "".join(out + block)


def test_fork_server_tracebacks_alone_are_set_aside():
    theirs = ('Traceback (most recent call last):\n  File "<string>", line 1, in <module>\n'
              '  File "/py/lib/python3.11/multiprocessing/forkserver.py", line 258, in main\n'
              '    fds = reduction.recvfds(s, MAXFDS_TO_SEND + 1)\nEOFError\n')
    ours = ('Traceback (most recent call last):\n  File "/grove/simulation/run.py", line 9, in x\n'
            'ValueError: no\n')
    line = '{"code": "SIM-GAME-FAILED"}\n'
    assert _without_fork_server_tracebacks(line + theirs + line) == line + line
    assert _without_fork_server_tracebacks(line + ours) == line + ours


def test_a_game_that_fails_is_reported_with_its_seed(tmp_path):
    """A game the engine cannot finish is reported and the chunk's other games still count."""
    from grove.compiler.cardset import build
    from grove.compiler.search_path import search_path
    from grove.simulation.folder import stage
    from grove.simulation.plan import Plan
    from grove.simulation.run import engine_for, simulate

    cardset = build("base")
    plan = Plan("base", (), ("random", "no_such_ai"), 4, 3, True, search_path())
    outcome = simulate(plan, cardset, engine_for(plan, cardset, 1, None), stage(tmp_path / "r"))
    # with rotate, every game seats both kinds: each fails when the unknown one is made
    assert outcome.summary["games"] == 0 and outcome.summary["games_failed"] == 4
    assert [f.game for f in outcome.failed] == [0, 1, 2, 3]
    assert all(f.seed == plan.game_seed(f.game) and "unknown AI" in f.error for f in outcome.failed)
    assert pq.read_table(tmp_path / "r" / "games.parquet").num_rows == 0


@pytest.mark.parametrize("args, code", [
    (["--ai", "random,clever"], "USAGE-BAD-OPTION"),
    (["--ai", "human,random"], "USAGE-BAD-OPTION"),
    (["--games", "0"], "USAGE-BAD-OPTION"),
    (["--jobs", "0"], "USAGE-BAD-OPTION"),
    (["--edition", "atlantis"], "EDITION-UNKNOWN"),
    (["--ai", ",".join(["random"] * 9)], "USAGE-BAD-OPTION"),
    (["--out", "{file}/run"], "IO-WRITE"),
    (["--cluster", "nowhere"], "IO-CLUSTER"),
])
def test_bad_input_is_one_clear_line_and_exit_2(tmp_path, args, code):
    (tmp_path / "a_file").write_text("not a folder\n", encoding="utf-8")
    base = {"--edition": "base", "--ai": "random,random", "--games": "3",
            "--out": str(tmp_path / "out")}
    for k, v in zip(args[::2], args[1::2], strict=True):
        base[k] = v.format(file=tmp_path / "a_file")
    rc, out, err = run("simulate", *[x for kv in base.items() for x in kv])
    assert rc == 2, err
    assert err.startswith(f"error {code}: ") and "Traceback" not in err
    assert out == ""
    assert not (tmp_path / "out").exists()


def test_compare_refuses_what_is_no_run(tmp_path, runs):
    rc, _, err = run("compare", tmp_path / "nothing", runs["one"][0])
    assert rc == 2 and err.startswith("error IO-NOT-FOUND: ")
    half = tmp_path / "half"
    half.mkdir()
    shutil.copy(runs["one"][0] / "games.parquet", half)
    rc, _, err = run("compare", runs["one"][0], half)
    assert rc == 2 and "cards.parquet: no such file" in err
    (half / "cards.parquet").write_text("not parquet\n", encoding="utf-8")
    rc, _, err = run("compare", runs["one"][0], half, "--json")
    assert rc == 1 and json.loads(err.splitlines()[0])["code"] == "RUN-BAD"


def test_compare_of_runs_of_two_games_warns_and_compares_what_both_have(tmp_path, runs):
    code, _, err = run("simulate", "--edition", "dartmoor", "--ai", "random,random,random",
                       "--games", "3", "--jobs", "1", "--out", tmp_path / "moor")
    assert code == 0, err
    code, out, err = run("compare", runs["one"][0], tmp_path / "moor", "--json")
    assert code == 0 and "Traceback" not in err
    warnings = [json.loads(line) for line in err.splitlines()]
    assert {w["code"] for w in warnings} == {"RUN-MISMATCH"}
    assert any("edition" in w["message"] for w in warnings)
    assert any("players: 2" in w["message"] for w in warnings)
    result = json.loads(out)
    assert len(result["differences"]) == 2
    assert {f["id"] for f in result["figures"]} >= {"seat 1", "seat 2"}
    assert "seat 3" not in {f["id"] for f in result["figures"]}
    code, _, err = run("compare", runs["one"][0], runs["two"][0])
    assert code == 0 and "RUN-MISMATCH" not in err


def _broken_copy(src: Path, dst: Path, file: str, change) -> Path:
    shutil.copytree(src, dst)
    table = pq.read_table(dst / file)
    pq.write_table(change(table), dst / file)
    return dst


@pytest.mark.parametrize("file, change, said", [
    ("games.parquet",
     lambda t: t.set_column(4, t.schema.field(4), pa.nulls(t.num_rows, pa.int32())),
     "column total has 80 empty values"),
    ("games.parquet", lambda t: t.set_column(
        t.schema.get_field_index("winner"), "winner",
        pa.array([None, *t["winner"].to_pylist()[1:]], pa.bool_())),
     "column winner has 1 empty values"),
    ("cards.parquet", lambda t: t.set_column(3, "species", pa.nulls(t.num_rows, pa.string())),
     "column species has"),
    ("cards.parquet", lambda t: t.set_column(4, "copies", pa.array(
        [str(x) for x in t["copies"].to_pylist()])), "column copies is string, not an integer"),
    ("cards.parquet", lambda t: t.replace_schema_metadata(
        {b"grove.simulate": b'{"edition": "base", "seed": 99}'}), "files of two different runs"),
])
def test_compare_of_rows_no_run_holds_is_run_bad(tmp_path, runs, file, change, said):
    bad = _broken_copy(runs["one"][0], tmp_path / "bad", file, change)
    for args in ((runs["one"][0], bad), (bad, runs["one"][0], "--json")):
        code, out, err = run("compare", *args)
        assert code == 1 and out == "" and "Traceback" not in err
        assert "RUN-BAD" in err and said in err


def test_a_disk_that_fills_up_is_io_write_and_leaves_the_old_run(tmp_path, runs):
    """Files may grow to 20 KB (RLIMIT_FSIZE, as a full disk refuses a write): the run stops
    at the write that fails, says IO-WRITE and leaves the folder as it was: the earlier run in
    it whole, or no folder where there was none."""
    import resource

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))

    old = tmp_path / "old"
    shutil.copytree(runs["one"][0], old)
    before = {p.name: p.read_bytes() for p in old.iterdir()}
    for out in (tmp_path / "new", old):
        proc = subprocess.run(
            [str(GROVE), "simulate", "--edition", "base", "--ai", "random,random", "--games",
             "400", "--jobs", "1", "--out", str(out)], capture_output=True, text=True,
            timeout=300, preexec_fn=small_files)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith("error IO-WRITE: ") and "Traceback" not in proc.stderr
    assert {p.name: p.read_bytes() for p in old.iterdir()} == before
    assert [p.name for p in tmp_path.iterdir()] == ["old"]


def test_a_worker_that_reads_other_cards_refuses_its_games(tmp_path):
    """On a cluster a machine may hold other card files than the one that started the run: the
    worker compares the card set's digest with the run's and plays nothing on a difference."""
    from grove.compiler.cardset import build
    from grove.compiler.search_path import search_path
    from grove.simulation.executors import InProcess
    from grove.simulation.folder import stage
    from grove.simulation.plan import Plan
    from grove.simulation.run import simulate

    cardset = build("base")
    plan = Plan("base", (), ("random", "random"), 3, 0, False, search_path())
    outcome = simulate(plan, cardset, InProcess(plan, (("base", "0123456789abcdef"),)),
                       stage(tmp_path / "r"))
    assert outcome.summary["games"] == 0 and outcome.summary["games_failed"] == 3
    assert all("other card files" in f.error for f in outcome.failed)
