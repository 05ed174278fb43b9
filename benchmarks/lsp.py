"""`grove lsp`: from opening a file, and from a change in the editor, to its diagnostics,
through a real client on stdio.

Opening: a copy of the base game that `grove lint` has just linted (the cache warm, as after
an author's `grove lint my_woods`); each round starts a server, initializes it and opens
`left_right.yaml`, and times from the `didOpen` to the first `publishDiagnostics` for that file,
and from the server's start (the process started, initialized, the file opened). Targets:
1.5 s from the `didOpen`, 500 ms from the start (issue 48).

The file: the base game's 57 species and three more trees, 60 in one species file of a copy of
the base game. Each round sends a `didChange` with the whole text, alternately with and without
a typo in one score rule, and times until the `publishDiagnostics` for that file arrives with
the typo found (or gone): the author's wait between a keystroke and its squiggle. The server is
started once and warmed by opening the file; the figure is the median over the rounds.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from lsprotocol import types

REPO = Path(__file__).resolve().parent.parent
TARGET_MS = 100.0  # a keystroke to its diagnostics (issue 48)
OPEN_TARGET_MS = 1500.0
START_TARGET_MS = 500.0  # the server's start to its first diagnostics (issue 48)
SPECIES_FILE = "species.yaml"


def sixty_species(folder: Path) -> Path:
    """A copy of the base game whose species all stand in one file, with three trees more."""
    base = REPO / "grove" / "cards" / "base"
    folder.mkdir(parents=True)
    for f in ("edition.yaml", "deck.yaml"):
        shutil.copy(base / f, folder / f)
    entries = []
    for f in ("trees.yaml", "left_right.yaml", "top_bottom.yaml"):
        text = (base / f).read_text(encoding="utf-8")
        entries.append(text.split("species:\n", 1)[1])
    linden = re.search(r"  - id: linden\n(?:    .*\n)+", entries[0])
    assert linden is not None
    extra, deck = [], []
    for k in range(1, 4):
        entry = linden.group().replace("id: linden", f"id: bench_tree_{k}")
        extra.append(re.sub(r"copies: \d+", "copies: 1", entry))
        deck.append(f"  - {{card: bench_tree_{k}, symbol: linden, count: 1}}\n")
    text = "edition: base\nspecies:\n" + "".join(entries) + "".join(extra)
    path = folder / SPECIES_FILE
    path.write_text(text, encoding="utf-8")
    with (folder / "deck.yaml").open("a", encoding="utf-8") as fh:
        fh.writelines(deck)
    assert text.count("\n  - id: ") == 60, text.count("\n  - id: ")
    return path


async def _measure(path: Path, rounds: int) -> list[float]:
    from pygls.lsp.client import LanguageClient

    client = LanguageClient("grove-bench", "1")
    arrived: asyncio.Queue[types.PublishDiagnosticsParams] = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _published(params: types.PublishDiagnosticsParams) -> None:
        arrived.put_nowait(params)

    await client.start_io(sys.executable, "-c", "from grove.cli import main; main()", "lsp")
    try:
        await client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), process_id=None))
        client.initialized(types.InitializedParams())
        uri = path.resolve().as_uri()
        clean = path.read_text(encoding="utf-8")
        typo = clean.replace("score: 2 per hare", "score: 2 per european_hair", 1)
        assert typo != clean

        async def until(has_typo: bool | None) -> None:
            """The next diagnostics of the file (with the typo found or gone, unless None)."""
            while True:
                p = await asyncio.wait_for(arrived.get(), 120)
                if p.uri == uri and (has_typo is None or any(
                        d.code == "DSL-UNKNOWN-NAME" for d in p.diagnostics) == has_typo):
                    return

        client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=clean)))
        await until(False)
        times: list[float] = []
        full: list[float] = []
        for r in range(rounds + 2):  # two rounds to warm the server's own memory
            has_typo = r % 2 == 0
            t0 = time.perf_counter()
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(uri=uri, version=r + 2),
                [types.TextDocumentContentChangeWholeDocument(text=typo if has_typo else clean)]))
            await until(has_typo)
            t1 = time.perf_counter()
            await until(None)  # the sheets' and rules text's findings follow
            if r >= 2:
                times.append(t1 - t0)
                full.append(time.perf_counter() - t0)
        await client.shutdown_async(None)
        client.exit(None)
    finally:
        await client.stop()
    return times, full


async def _open_once(path: Path) -> tuple[float, float]:
    """(seconds from didOpen, seconds from the server's start) to the file's first
    diagnostics, in a server of its own."""
    from pygls.lsp.client import LanguageClient

    client = LanguageClient("grove-bench", "1")
    uri = path.resolve().as_uri()
    arrived = asyncio.Event()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _published(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == uri:
            arrived.set()

    t_start = time.perf_counter()
    await client.start_io(sys.executable, "-c", "from grove.cli import main; main()", "lsp")
    try:
        await client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), process_id=None))
        client.initialized(types.InitializedParams())
        t_open = time.perf_counter()
        client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
            uri=uri, language_id="yaml", version=1, text=path.read_text(encoding="utf-8"))))
        await asyncio.wait_for(arrived.wait(), 120)
        t_end = time.perf_counter()
        await client.shutdown_async(None)
        client.exit(None)
    finally:
        await client.stop()
    return t_end - t_open, t_end - t_start


def bench_open(rounds: int) -> dict[str, Any]:
    """A set `grove lint` has seen, opened in a fresh server `rounds` times."""
    import subprocess

    with tempfile.TemporaryDirectory(prefix="grove-bench-lsp-open-") as tmp:
        folder = Path(tmp) / "woods"
        shutil.copytree(REPO / "grove" / "cards" / "base", folder)
        subprocess.run([sys.executable, "-c", "from grove.cli import main; main()", "lint",
                        str(folder)], capture_output=True, check=False, timeout=600)
        # the first server keeps pygls' answer to initialize, which later starts give before
        # pygls is imported (grove/lsp/prelude.py): timed, and quoted apart
        first = asyncio.run(_open_once(folder / "left_right.yaml"))
        pairs = [asyncio.run(_open_once(folder / "left_right.yaml")) for _ in range(rounds)]
    opened = statistics.median(p[0] for p in pairs) * 1e3
    started = statistics.median(p[1] for p in pairs) * 1e3
    verdict = "holds" if opened <= OPEN_TARGET_MS else "DOES NOT HOLD"
    print("== grove lsp: didOpen of a file of a set `grove lint` has seen -> its first "
          "publishDiagnostics (real client, stdio, warm cache)")
    print(f"   from didOpen: median {opened:7.1f} ms, slowest {max(p[0] for p in pairs) * 1e3:7.1f}"
          f" ms over {len(pairs)} servers; target <= {OPEN_TARGET_MS:.0f} ms {verdict}")
    start_verdict = "holds" if started <= START_TARGET_MS else "DOES NOT HOLD"
    print(f"   from the server's start: median {started:7.1f} ms; target <= {START_TARGET_MS:.0f} "
          f"ms {start_verdict}; the first start, which keeps the answer to initialize: "
          f"{first[1] * 1e3:.1f} ms")
    return {"open_to_diagnostics_ms": round(opened, 1),
            "open_slowest_ms": round(max(p[0] for p in pairs) * 1e3, 1),
            "start_to_diagnostics_ms": round(started, 1),
            "first_start_to_diagnostics_ms": round(first[1] * 1e3, 1),
            "open_target_ms": OPEN_TARGET_MS,
            "start_target_ms": START_TARGET_MS}


def bench_lsp(opts: Any) -> dict[str, Any]:
    opened = bench_open(max(3, opts.rounds // 4))
    rounds = max(5, opts.rounds)
    with tempfile.TemporaryDirectory(prefix="grove-bench-lsp-") as tmp:
        path = sixty_species(Path(tmp) / "base")
        times, full = asyncio.run(_measure(path, rounds))
    med = statistics.median(times) * 1e3
    med_full = statistics.median(full) * 1e3
    verdict = "holds" if med <= TARGET_MS else "DOES NOT HOLD"
    print("== grove lsp: didChange of a 60-species file -> its publishDiagnostics (real client, "
          "stdio)")
    print(f"   the change's findings: median {med:7.1f} ms, slowest {max(times) * 1e3:7.1f} ms "
          f"over {len(times)} changes; target <= {TARGET_MS:.0f} ms {verdict}")
    print(f"   all of lint's findings (sheets and rules text too): median {med_full:7.1f} ms, "
          f"slowest {max(full) * 1e3:7.1f} ms")
    return {"lsp": {"change_to_diagnostics_ms": round(med, 1),
                    "slowest_ms": round(max(times) * 1e3, 1),
                    "change_to_all_findings_ms": round(med_full, 1),
                    "rounds": len(times), "target_ms": TARGET_MS, **opened}}
