"""`grove print`: seconds to lay out and write print-and-play cards.

Two rows, as the issue asked: the whole base deck (158 cards, 5 caves, 3 winter cards) as a PDF
in one language, timed in this process after the card set is compiled and fonts are loaded
(median and best of a few rounds; CPU time beside it, since wall time on a shared machine
includes waiting); and one species with `--only` as a user runs it, a whole `grove print`
process with the cache warm (Python, click, the card set from the cache, fonts, the PDF): the
"change a card, look at it" loop, whose target is about a second. Printed, never asserted.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EDITION = "base"
LANG = "de"
ONLY = "red_fox"
TARGET_ONLY_S = 1.0


def bench_print(opts) -> dict:
    from grove.compiler.cardset import build
    from grove.printouts.cards.output import Options, render

    cs = build(EDITION)
    whole = Options(LANG, "pdf")
    render(cs, whole)  # fonts, catalogs and icons loaded once per process
    rounds = max(2, min(5, opts.rounds // 5))
    wall, cpu, size = [], [], 0
    for _ in range(rounds):
        t0, c0 = time.perf_counter(), time.process_time()
        size = len(render(cs, whole)[""])
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    grove = str(Path(sys.executable).parent / "grove")
    runs, child_cpu = [], []
    with tempfile.TemporaryDirectory() as tmp:
        args = [grove, "print", "--edition", EDITION, "--lang", LANG, "--only", ONLY,
                "-o", str(Path(tmp) / "one.pdf")]
        subprocess.run(args, check=True, capture_output=True)  # the cache filled
        for _ in range(rounds):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(args, check=True, capture_output=True)
            runs.append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            child_cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    med_only = statistics.median(runs)
    verdict = "HOLDS" if med_only <= TARGET_ONLY_S else "DOES NOT HOLD"
    print(f"== grove print ({EDITION}, {LANG}), {rounds} rounds")
    print(f"   whole deck as PDF (166 cards): median {statistics.median(wall):.2f} s, best "
          f"{min(wall):.2f} s, CPU {statistics.median(cpu):.2f} s, {size / 1024:.0f} KiB")
    print(f"   `grove print --only {ONLY}`, a whole process, cache warm: median {med_only:.2f} s, "
          f"best {min(runs):.2f} s, CPU {statistics.median(child_cpu):.2f} s "
          f"(target about {TARGET_ONLY_S:.0f} s: {verdict})")
    return {"print": {"whole_deck_s": round(statistics.median(wall), 3),
                      "whole_deck_cpu_s": round(statistics.median(cpu), 3),
                      "only_one_s": round(med_only, 3), "only_one_best_s": round(min(runs), 3),
                      "only_one_cpu_s": round(statistics.median(child_cpu), 3)}}
