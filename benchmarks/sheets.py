"""Quick-reference sheets: seconds to render one edition in all four languages.

Timed (wall clock, and this process's CPU time) after the card set is compiled (that cost is the
compile figure): content from the card set, templates, layout and PDF bytes, for each language in
turn, best and median of a few rounds. The target is under 2 s for the four on a 2-core machine;
printed, never asserted. The HTML pages are timed too: each lays its PDF out as well, to start
its printed pages where the PDF does.
"""

from __future__ import annotations

import statistics
import time

EDITION = "base"
EXPANSIONS = ("alpine", "woodland_edge")
LANGS = ("en", "de", "it", "th")
TARGET_S = 2.0


def bench_sheets(opts) -> dict:
    from grove.compiler.cardset import build
    from grove.printouts.sheets import html, pdf
    from grove.printouts.sheets.content import build_sheet

    cs = build(EDITION, EXPANSIONS)
    pdf.render(build_sheet(cs, "th"))  # fonts, templates and catalogs loaded once per process
    rounds = max(2, min(5, opts.rounds // 5))
    totals, cpu, per_lang, sizes = [], [], {lang: [] for lang in LANGS}, {}
    for _ in range(rounds):
        t0, c0 = time.perf_counter(), time.process_time()
        for lang in LANGS:
            t = time.perf_counter()
            data = pdf.render(build_sheet(cs, lang))
            per_lang[lang].append(time.perf_counter() - t)
            sizes[lang] = len(data)
        totals.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    t = time.perf_counter()
    pages = [html.render(build_sheet(cs, lang)) for lang in LANGS]
    html_s = time.perf_counter() - t
    editions = "+".join((EDITION, *EXPANSIONS))
    print(f"== quick-reference sheets ({editions}): PDF in {', '.join(LANGS)}, {rounds} rounds")
    for lang in LANGS:
        print(f"   {lang}  median {statistics.median(per_lang[lang]):6.2f} s   "
              f"{sizes[lang] / 1024:6.1f} KiB")
    best, med = min(totals), statistics.median(totals)
    verdict = "HOLDS" if med < TARGET_S else "DOES NOT HOLD"
    print(f"   all four languages: median {med:.2f} s, best {best:.2f} s   "
          f"(target < {TARGET_S:.0f} s: {verdict})")
    print(f"   CPU time of this process for the four: median {statistics.median(cpu):.2f} s "
          "(wall time above includes waiting for a busy machine)")
    print(f"   HTML, all four languages: {html_s:.2f} s, {sum(map(len, pages)) / 1024:.0f} KiB")
    return {"sheets": {"four_languages_s": round(med, 3), "best_s": round(best, 3),
                       "cpu_s": round(statistics.median(cpu), 3), "html_s": round(html_s, 3)}}
