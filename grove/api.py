"""The public face of grove: load, lint, score. The CLI is a thin layer over these functions.

Every function that reads card sets takes `roots`, the search path (`compiler.search_path`):
the author's folders first, then the shipped editions; None means `GROVE_CARDS` and the shipped
ones. Heavy modules are imported where they are used, so a command pays only for what it does:
`grove editions` reads the cached editions and never imports the YAML reader or the schemas.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grove.compiler.search_path import Roots, edition_folders, search_path
from grove.dsl.diagnostics import Diagnostic, DiagnosticError, Severity, error, sort_key

if TYPE_CHECKING:
    from collections.abc import Callable

    from grove.compiler.cardset import CardSet
    from grove.compiler.model import EditionDef
    from grove.compiler.universe import Universe
    from grove.engine.scoring import PlayerScore

FOREST_SUFFIXES = (".yaml", ".yml", ".json")


def editions(roots: Roots | None = None) -> list[dict[str, Any]]:
    from grove.compiler.cardset import errors_by_folder
    from grove.compiler.universe import load_universe

    universe = load_universe(roots)
    errors = errors_by_folder(universe)
    rows = []
    for e in sorted(universe.editions.values(), key=lambda e: e.id):
        folder = str(Path(e.folder).resolve())
        rows.append({
            "id": e.id, "names": dict(e.names), "standalone": e.standalone,
            "expansion_of": e.expansion_of, "combines_with": list(universe.expansions_of(e.id)),
            "species": len(e.species), "cards": sum(c.count for c in e.deck),
            "folder": e.folder, "digest": e.digest[:16],
            "errors": errors.pop(folder, 0), "broken": False,
        })
    for folder in sorted(f for f in errors if (Path(f) / "edition.yaml").exists()):
        # an edition folder whose edition.yaml did not load: listed by its folder's name
        rows.append({
            "id": Path(folder).name, "names": {"en": ""}, "standalone": False,
            "expansion_of": None, "combines_with": [], "species": 0, "cards": 0,
            "folder": folder, "digest": "", "errors": errors[folder], "broken": True,
        })
    return rows


def load_cardset(edition: str, expansions: list[str] | tuple[str, ...] | None = None,
                 roots: Roots | None = None) -> CardSet:
    from grove.compiler.cardset import build

    return build(edition, expansions or (), roots)


def cards(edition: str, expansions: list[str], lang: str = "en", roots: Roots | None = None
          ) -> list[dict[str, Any]]:
    """Every species an edition lists (an expansion its own), as `grove cards --json` prints
    them; rules text in `lang` ("" for none). The rows are the card database's own
    (`database.rows`), which `find` and `export` list too."""
    from grove.database.rows import cards as rows

    return rows(edition, expansions, lang, roots)


def find(query: str, editions: list[str] | tuple[str, ...] | None = None, lang: str | None = None,
         roots: Roots | None = None, on_warning: Any = None) -> list[dict[str, Any]]:
    """The species a query matches (docs/find.md), over `editions` or every edition on the
    path, as `grove cards --json` rows with their `edition`; rules text in `lang` (English
    when None, and `name:` then looks in every language). A query that cannot be asked raises
    `DiagnosticError` whose spans point into the query (file `query`):
    `database.query.shown(exc.diagnostics, query)` prints them with a caret. `on_warning`
    receives each edition left out because it does not build."""
    import functools

    from grove.database import catalog
    from grove.database.query import Vocabulary, search

    found = catalog.load(editions, lang or "en", roots)
    for w in found.warnings:
        if on_warning is not None:
            on_warning(w)
    @functools.cache
    def wider() -> Vocabulary:  # only asked for a word the editions searched lack
        every = catalog.load(None, lang or "en", roots)
        return Vocabulary.of(every.rows, every.editions)

    rows = search(query, found.rows, found.editions, lang_given=lang is not None,
                  wider=wider if editions else None)
    return [{k: v for k, v in r.items() if k != "reads"} for r in rows]


def export(fmt: str, out: str | None = None, editions: list[str] | tuple[str, ...] | None = None,
           roots: Roots | None = None, on_warning: Any = None, force: bool = False
           ) -> list[Path]:
    """The card database of the search path (or of `editions`) as files in the schema of
    docs/export.md: one SQLite or JSON file, or a folder of CSV or Parquet files, one a table;
    JSON to standard output with `out` "-". The target is refused (IO-WRITE) before any work
    (a file grove did not write only with `force`), and every file is made before the first
    is written, each written whole; returns the files written."""
    import sys

    from grove import __version__
    from grove.database import export as ex
    from grove.files.output import is_stdout
    from grove.files.write import Refused

    if fmt not in ex.FORMATS:
        raise DiagnosticError([error("USAGE-FORMAT", None, f"unknown format {fmt!r}",
                                     f"formats: {', '.join(ex.FORMATS)}")])
    if is_stdout(out) and fmt != "json":
        raise DiagnosticError([error(
            "USAGE-BAD-OPTION", None, f"-o - writes to standard output, which takes one text "
            f"file: {fmt} is {'a folder of files' if ex.is_folder(fmt) else 'a binary file'}",
            "--format json -o -, or name a file or folder: -o " + ex.default_out(fmt))])
    target = out or ex.default_out(fmt)
    why = None if is_stdout(target) else ex.refusal(target, fmt, force)
    if why is not None:
        raise DiagnosticError([error("IO-WRITE", None, f"{target}: cannot write: {why}")])
    db = ex.gather(editions, roots, version=__version__)
    for w in db.warnings:
        if on_warning is not None:
            on_warning(w)
    made = ex.render(db, fmt)
    if is_stdout(target) and isinstance(made, bytes):
        sys.stdout.buffer.write(made)
        sys.stdout.flush()
        return []
    try:
        return ex.write(target, fmt, made)
    except OSError as exc:  # Refused among them: the target changed since it was checked
        raise DiagnosticError([error(
            "IO-WRITE", None, f"{target}: cannot write: {exc.strerror or exc}",
            "every file is written whole or not at all: what was there is as it was"
            if isinstance(exc, Refused) else None)]) from None


def _forest_files_below(folder: Path, skip: set[Path]) -> list[Path]:
    """Files below `folder` that a forest file could be: any but an edition folder's own (its
    subfolders may hold forests, as `grove new` lays them out)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(folder):
        here = Path(dirpath).resolve()
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        if here in skip:
            continue
        out += [Path(dirpath) / f for f in sorted(filenames) if f.endswith(FOREST_SUFFIXES)]
    return out


def _lint_forest(path: Path, roots: Roots | None, explicit: bool) -> list[Diagnostic]:
    """A forest file's problems (or a game record's final forests); a file found in a folder
    that is no forest is passed over."""
    from grove import forest_file
    from grove.compiler.yaml_source import MAX_FOREST_FILE_BYTES, load
    from grove.engine import placement

    if explicit and forest_file.is_record(path):
        try:
            ff = forest_file.read_record(path, roots)
            return placement.check_forests(ff.cardset, list(ff.forests), list(ff.positions))
        except DiagnosticError as exc:
            return list(exc.diagnostics)
    try:
        doc = load(path, MAX_FOREST_FILE_BYTES)  # refused before it is parsed twice
    except DiagnosticError as exc:
        return list(exc.diagnostics)
    if not (isinstance(doc.data, dict) and "players" in doc.data):
        return [error("LINT-UNKNOWN-FILE", None,
                      f"{path}: neither a forest file nor part of an edition folder")
                ] if explicit else []
    try:
        ff = forest_file.read(path, roots)
        return placement.check_forests(ff.cardset, list(ff.forests), list(ff.positions))
    except DiagnosticError as exc:
        return list(exc.diagnostics)


def lint(paths: list[str], provisional: bool = False, roots: Roots | None = None,
         strict: bool = False) -> list[Diagnostic]:
    """Lint card-set folders, edition folders, single card files and forest files.

    A folder may hold editions, forest files, or both: every forest file below it (outside its
    edition folders) is checked as `grove score` would read it. The folders linted go first on
    the search path, ahead of `roots`, so their editions are the ones checked. Placeholder
    words (TEXT-PLACEHOLDER) are counted, or with `strict` listed one by one."""
    from grove.compiler import cache
    from grove.compiler.universe import load_universe

    out: list[Diagnostic] = []
    card_roots: list[Path] = []  # folders (or a file's folder) that hold editions
    forests: list[tuple[Path, bool]] = []  # (file, named on the command line)
    for p in map(Path, paths):
        if p.is_dir():
            eds = edition_folders(p.resolve())
            if eds:
                card_roots.append(p)
            skip = {e.resolve() for e in eds}
            forests += [(f, False) for f in _forest_files_below(p, skip)]
        elif p.suffix in FOREST_SUFFIXES and (p.parent / "edition.yaml").is_file():
            card_roots.append(p.parent)
        else:
            forests.append((p, True))
    base = roots if roots is not None else search_path()
    extra = [str(r.resolve()) for r in card_roots if str(r.resolve()) not in base]
    all_roots = tuple(dict.fromkeys([*extra, *base]))
    for f, explicit in forests:  # read with the card sets linted beside them
        out += _lint_forest(f, all_roots, explicit)
    if card_roots:
        universe = load_universe(all_roots)
        asked = sorted(str(f.resolve()) for r in card_roots for f in edition_folders(r.resolve()))
        wanted = sorted(e.id for e in universe.editions.values()
                        if str(Path(e.folder).resolve()) in asked)
        files = sorted(str(p.resolve()) for p in map(Path, paths)
                       if not p.is_dir() and p.parent.resolve() in {Path(a) for a in asked})
        k = _lint_key(universe, wanted, asked, files)
        found = cache.cached("lint", k, lambda: _lint_cards(all_roots, wanted, asked, files, universe))
        out.extend(found)
        if provisional:
            for eid in wanted:
                for span, reason in universe.editions[eid].provisional:
                    out.append(Diagnostic("PROVISIONAL", Severity.INFO, span,
                                          f"provisional: {reason}"))
        for eid in wanted:
            out += _placeholders(universe.editions[eid], each=strict)
    return sorted(dict.fromkeys(out), key=sort_key)


def _placeholders(ed: EditionDef, each: bool) -> list[Diagnostic]:
    """The words still English in the languages an edition lists under `placeholders:`, as
    `grove new` writes them: one note counting them, or with `each` (`--strict`) one at each
    word. Notes, not warnings: a fresh set lints clean and plays in every language, and the
    words are the author's to write when they will."""
    if not ed.placeholders:
        return []
    if each:
        return [Diagnostic("TEXT-PLACEHOLDER", Severity.INFO, p.span,
                           f"placeholder: the {p.lang} word is the English '{p.word}'",
                           f"write the {p.lang} word here; a language all of whose words are "
                           "written comes out of `placeholders:` in edition.yaml")
                for p in ed.placeholders]
    n = len(ed.placeholders)
    langs = ", ".join(sorted({p.lang for p in ed.placeholders}))
    counted = "1 word in {} is a placeholder" if n == 1 else f"{n} words in {{}} are placeholders"
    return [Diagnostic("TEXT-PLACEHOLDER", Severity.INFO, ed.placeholders_at,
                       f"{counted.format(langs)}: the English word stands in",
                       "`grove lint --strict` lists each; writing the word clears it")]


def _lint_key(universe: Universe, wanted: list[str], asked: list[str], files: list[str]) -> str:
    from grove.compiler import cache
    from grove.printouts.sheets import icon_lint

    return cache.key("lint", universe.key, icon_lint.digest(universe), *wanted, "|", *asked,
                     "|", *files)


def lint_cached(universe: Universe, folder: str | Path) -> list[Diagnostic] | None:
    """What `grove lint FOLDER` found in this universe, if it is in the cache (None if not):
    the language server opens a file of a set lint has seen without checking it again."""
    from grove.compiler import cache

    asked = [str(Path(folder).resolve())]
    found = cache.get("lint", _lint_key(universe, _wanted(universe, folder), asked, []))
    return sorted(dict.fromkeys(found), key=sort_key) if found is not None else None


def _lint_cards(roots: Roots, wanted: list[str], folders: list[str], files: list[str],
                universe: Universe | None = None) -> list[Diagnostic]:
    """Every finding for the editions asked: loading, checking, printed sheets, rule-book text."""
    from grove.compiler import cardset as cs

    found = cs.lint(roots, wanted, folders, universe)
    if files:  # single card files asked: their findings only
        found = [d for d in found if d.span is None or str(Path(d.span.file).resolve()) in files]
    return found + _lint_printouts(roots, wanted, universe)


def _lint_printouts(roots: Roots, wanted: list[str], universe: Universe | None = None
                    ) -> list[Diagnostic]:
    """The findings of the printed word: sheets (text that overflows its box, glyphs fonts
    lack, icons) and rule-book text (a phrase, name or lexicon entry missing)."""
    return [d for lint in _printout_lints() for d in lint(roots, wanted, universe)]


def _printout_lints() -> tuple[Callable[[Roots, list[str], Universe | None], list[Diagnostic]],
                               ...]:
    from grove.printouts import text_lint
    from grove.printouts.cards import lint as card_lint
    from grove.printouts.sheets import icon_lint
    from grove.printouts.sheets import lint as sheet_lint

    return (sheet_lint.lint,  # text that overflows, glyphs fonts lack
            icon_lint.lint,  # icons a sheet cannot draw, or draws for nothing
            text_lint.lint,  # a phrase, name or lexicon entry missing
            card_lint.lint)  # text too long for its box on a card


def _wanted(universe: Universe, folder: str | Path) -> list[str]:
    """The ids of the editions that lie in `folder`."""
    asked = str(Path(folder).resolve())
    return sorted(e.id for e in universe.editions.values() if str(Path(e.folder).resolve()) == asked)


def lint_roots(folder: str | Path, roots: Roots | None = None) -> Roots:
    """The search path `grove lint FOLDER` checks an edition folder with: the folder first."""
    base = roots if roots is not None else search_path()
    return tuple(dict.fromkeys([str(Path(folder).resolve()), *base]))


def lint_edition(universe: Universe, folder: str | Path, *, cards: bool = True,
                 printouts: bool = True) -> list[Diagnostic]:
    """What `grove lint FOLDER` finds in one edition folder, in a universe given whole (the
    language server's holds an editor's unsaved text); never read from or kept in the cache.
    `universe` is loaded on `lint_roots(folder)`. `cards` (loading and checking) and
    `printouts` (sheets and rules text, the slower part) together are all of lint's findings;
    the language server asks for them one after the other."""
    from grove.compiler import cardset as cs

    wanted = _wanted(universe, folder)
    found = cs.lint(universe.roots, wanted, [str(Path(folder).resolve())], universe) if cards else []
    if printouts:
        found += _lint_printouts(universe.roots, wanted, universe)
    return sorted(dict.fromkeys(found), key=sort_key)


def printout_checks(universe: Universe, folder: str | Path) -> list[Callable[[], list[Diagnostic]]]:
    """`lint_edition`'s printouts, in the pieces they are made of (the sheets, their icons, the
    rules text, the cards' faces): the language server runs one at a time and reads the
    editor's messages between them, so that a keystroke waits for one piece at most."""
    from functools import partial

    wanted = _wanted(universe, folder)
    return [partial(lint, universe.roots, wanted, universe) for lint in _printout_lints()]


def lint_forest_text(path: str | Path, text: str, roots: Roots | None = None
                     ) -> list[Diagnostic]:
    """What `grove lint FILE` finds in a forest file, read from `text` (an editor's buffer);
    a YAML file that holds no `players` is no forest and gets nothing."""
    from grove import forest_file
    from grove.compiler.yaml_source import MAX_FOREST_FILE_BYTES, load_text
    from grove.engine import placement

    try:
        doc = load_text(text, path, MAX_FOREST_FILE_BYTES)
    except DiagnosticError as exc:
        return list(exc.diagnostics)
    if not (isinstance(doc.data, dict) and "players" in doc.data):
        return []
    try:
        ff = forest_file.read_doc(doc, roots)
        found = placement.check_forests(ff.cardset, list(ff.forests), list(ff.positions))
    except DiagnosticError as exc:
        found = list(exc.diagnostics)
    return sorted(dict.fromkeys(found), key=sort_key)


def score_file(path: str, explain: bool = False, roots: Roots | None = None) -> dict[str, Any]:
    """Score a forest file, or the final forests of a grove game record (the end line holds them
    all), so a finished game is scored straight from its record; the forests must be legal.
    The scores of legal forests are kept in the on-disk cache (`compiler.cache`), keyed by the
    file's bytes and by every card file of the search path: asked again of the same file and
    cards, they are read back, without building the card set, its rules or the YAML reader."""
    from grove.compiler import cache

    key = _score_key(path, explain, roots)
    if key is None:
        return _score_file(path, explain, roots)
    return cache.cached("score", key, lambda: _score_file(path, explain, roots))


def _score_key(path: str, explain: bool, roots: Roots | None) -> str | None:
    """The cache key of a forest file's scores, or None where the cache is off or the path is
    no regular file of a size whose bytes a key is made of (the reader says what is wrong)."""
    import stat

    from grove.compiler import cache
    from grove.compiler.search_path import roots_near
    from grove.compiler.universe import folder_digests, key_of

    if cache.cache_dir() is None:
        return None
    near = roots_near(path, roots)
    cards = key_of(folder_digests(near if near is not None else search_path()))
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > cache.MAX_DIGEST_BYTES:
            return None
        forests = cache.file_digest(Path(path))
    except (OSError, ValueError):  # gone, unreadable, or no path at all (a NUL in it)
        return None
    return cache.key("score", cards, forests, "explain" if explain else "")


def _score_file(path: str, explain: bool, roots: Roots | None) -> dict[str, Any]:
    from grove import forest_file
    from grove.engine import placement, scoring

    reader = forest_file.read_record if forest_file.is_record(path) else forest_file.read
    ff = reader(path, roots)
    problems = placement.check_forests(ff.cardset, list(ff.forests), list(ff.positions))
    if problems:
        raise DiagnosticError(problems)
    scores = scoring.score_forests(ff.cardset, list(ff.forests), list(ff.ai), explain)
    return result_json(ff.edition, ff.expansions, scores, explain)


def result_json(edition: str, expansions, scores: list[PlayerScore], explain: bool
                ) -> dict[str, Any]:
    from grove.engine import scoring

    players = []
    for s in scores:
        cards = []
        for c in s.cards:
            entry: dict[str, Any] = {"card": c.card, "host": c.host, "slot": c.slot,
                                     "points": c.points}
            if explain:
                entry["rules"] = c.rules
            cards.append(entry)
        p: dict[str, Any] = {"name": s.name, "total": s.total, "by_category": s.by_category,
                             "cards": cards}
        if s.ai:
            p["ai"] = s.ai
        players.append(p)
    return {"edition": edition, "with": list(expansions), "players": players,
            "winners": scoring.winners(scores)}


def cardset_of(result: dict[str, Any], roots: Roots | None = None, *, programs: bool = True
               ) -> CardSet:
    """The card set a result was scored with; `programs=False` leaves its rules uncompiled, all
    a scoreboard needs unless it words each rule's terms (`grove score --explain --lang`)."""
    from grove.compiler.cardset import build

    return build(result["edition"], result["with"], roots, programs=programs)


def sheet(edition: str, expansions: list[str], langs: list[str], out: str | None = None,
          fmt: str = "pdf", paper: str = "a4", roots: Roots | None = None) -> list[Path]:
    """Quick-reference sheets, one file per language; returns the files written.

    Everything is rendered before anything is written, and each file is written to a temporary
    name and renamed, so a failure never leaves a half-written sheet behind."""
    from grove.printouts.sheets import output

    return output.write_sheets(load_cardset(edition, expansions, roots), langs, out, fmt, paper)


def print_cards(edition: str, expansions: list[str], lang: str, out: str | None = None, *,
                fmt: str = "pdf", paper: str = "a4", size: str = "63x88", bleed: float = 0.0,
                backs: bool = False, unique: bool = False, only: list[str] | None = None,
                cut: str = "marks", checklist: bool = False, url_base: str = "",
                roots: Roots | None = None, force: bool = False) -> list[Path]:
    """Print-and-play cards (docs/print.md); returns the files written. Everything is rendered
    before anything is written, each file whole (a text that does not fit: PRINT-OVERFLOW).
    `only` takes species, card numbers, `caves`, `winter` and `grove find` terms
    (`kind:tree`). A PDF file grove did not write is replaced only with `force`."""
    from grove import __version__
    from grove.printouts.cards import output

    cs = load_cardset(edition, expansions, roots)
    opts = output.Options(lang, fmt, paper, size, bleed, backs, unique,
                          _print_terms(cs, only or (), roots), cut, checklist, url_base,
                          __version__)
    return output.write(cs, opts, out, force=force)


def card_png(edition: str, expansions: list[str], number: int, lang: str, *,
             size: str = "63x88", dpi: float = 150.0, roots: Roots | None = None) -> bytes:
    """One card's face as PNG bytes, exactly as `grove print` draws it (stamp included):
    card `number` in the whole deck's order (`grove print --format png` file numbers),
    `size` WxH in mm, `dpi` pixels an inch. `DiagnosticError` for an unknown card or
    language, or a text that does not fit (PRINT-OVERFLOW)."""
    from grove import __version__
    from grove.printouts.cards.output import face_png

    return face_png(load_cardset(edition, expansions, roots), number, lang, size, dpi,
                    __version__)


def _print_terms(cs: Any, only: Any, roots: Roots | None) -> tuple[str, ...]:
    """`--only`'s terms with each `grove find` term (`kind:tree`, `type:bird`) replaced by
    the species it finds in the card set's editions; species, numbers and piles as given. A
    term that finds nothing is refused (USAGE-SPECIES), as a species the set lacks is."""
    out: list[str] = []
    for term in only:
        if ":" not in term or cs.species_named(term) is not None:
            out.append(term)
            continue
        keys = [r["key"] for r in find(term, [e.id for e in cs.editions], roots=roots)
                if r["key"] in cs.species]
        if not keys:
            raise DiagnosticError([error("USAGE-SPECIES", None, f"--only {term}: no card of "
                                         "this card set matches", "`grove find` takes the "
                                         "same terms and shows what they match")])
        out += keys
    return tuple(out)


def simulate(edition: str, expansions: list[str], ais: list[str], games: int, seed: int = 0,
             rotate: bool = False, jobs: int | None = None, cluster: str | None = None,
             out: str | None = None, roots: Roots | None = None,
             on_progress: Any = None, on_warning: Any = None) -> Any:
    """Play `games` games of a card set with one AI kind per seat and write the run into `out`
    (`simulation.run.Outcome`). Everything that can be refused is refused before the first
    game: the AIs, the counts, the card set and its set-up for that many seats, the folder,
    the cluster. `on_warning` receives each warning (a `Diagnostic`) as it arises: `--jobs`
    above what this machine runs at once is cut down to that, and said so."""
    workers = _workers(jobs, cluster, on_warning)
    if cluster is None and workers > 1:  # it reads the engine while this process does
        from grove.simulation.executors import start_fork_server

        start_fork_server()
    from grove.compiler.cardset import build
    from grove.compiler.search_path import shipped_cards_dir
    from grove.engine import ai as pl
    from grove.engine.game import Game, SetupError
    from grove.files.write import Refused
    from grove.simulation import folder as run_folder
    from grove.simulation import run as sim
    from grove.simulation.plan import Plan

    def usage(message: str, code: str = "USAGE-BAD-OPTION", hint: str | None = None) -> None:
        raise DiagnosticError([error(code, None, message, hint)])

    kinds = [k.strip() for k in ais if k.strip()]
    bad = [pl.problem(k) for k in kinds if pl.problem(k)]
    if bad or not kinds:
        usage(bad[0] if bad else "--ai needs at least one AI kind",
              hint="--ai takes one kind per seat, comma-separated: random, greedy, mcts, "
                   "mcts:N (iterations) or mcts:Ns (seconds), each optionally with !SPECIES "
                   "(never plays it: greedy!red_fox)")
    if games < 1:
        usage(f"--games is {games}; a run plays at least 1 game")
    roots = roots if roots is not None else search_path()
    cardset = build(edition, expansions, roots)
    if cardset.setup.removed_for(frozenset(cardset.expansions), len(kinds)) is None:
        usage(f"{edition} has no set-up for {len(kinds)} players",
              hint="--ai names one AI kind per seat")
    known = {sp.key for sp in cardset.species.values()} | {
        sp.id for sp in cardset.species.values()}
    for k in kinds:  # a barred species the card set lacks would bar nothing, without a word
        if (missing := pl.unknown_species(k, known)) is not None:
            usage(f"--ai {k}: {edition} has no species {missing!r}",
                  hint="`grove cards EDITION` lists the species by id")
    shipped = str(shipped_cards_dir().resolve())
    plan = Plan(edition, tuple(cardset.expansions), tuple(kinds), games, seed, rotate,
                tuple(r for r in roots if r != shipped))
    try:  # a deck too small for the hands fails every game alike: say so once, as `play` does
        Game(cardset, [f"P{i + 1}" for i in range(len(kinds))], plan.game_seed(0))
    except SetupError as exc:
        raise DiagnosticError([error(
            "PLAY-SETUP", None, f"{cardset.root.id}: {exc}",
            "give the deck more cards or remove fewer in `setup: removed:`")]) from None
    folder = Path(out if out is not None else f"simulate-{edition}-{seed}")
    try:
        staging = run_folder.stage(folder)
    except Refused as exc:
        usage(f"{run_folder.shown(folder)}: cannot write: {exc.strerror}", code="IO-WRITE",
              hint=run_folder.HINT)
    try:
        engine = sim.engine_for(plan, cardset, workers, cluster)
    except (OSError, TimeoutError, ValueError) as exc:
        run_folder.discard(staging)
        usage(f"cannot reach the cluster at {cluster}: {exc}", code="IO-CLUSTER",
              hint="--cluster local starts one on this machine; an address is a running Dask "
              "scheduler's, such as tcp://HOST:8786")
    except BaseException:
        run_folder.discard(staging)
        raise
    try:
        return sim.simulate(plan, cardset, engine, staging, on_progress)
    except Refused as exc:  # the folder came to hold a file of the user's during the run
        usage(f"{run_folder.shown(folder)}: cannot write: {exc.strerror}; the new run was not "
              "kept", code="IO-WRITE", hint=run_folder.HINT)
    except OSError as exc:
        usage(f"{run_folder.shown(folder)}: cannot write: {exc.strerror or exc}; the folder is "
              "as it was", code="IO-WRITE")
    raise AssertionError("never reached: usage raises")


def _cores() -> int:
    """The cores this process may run on (its affinity where the system says, as a container's
    CPU set does), at least 1."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def _workers(jobs: int | None, cluster: str | None, on_warning: Any) -> int:
    """`--jobs` as a run uses it: the cores by default; more worker processes of this machine
    than it has cores only share them (1,000 took 18 GB and gained nothing), so a higher number
    is cut down to the cores with a warning. A running cluster's workers are its own."""
    if jobs is not None and jobs < 1:
        raise DiagnosticError([error("USAGE-BAD-OPTION", None,
                                     f"--jobs is {jobs}; a run needs at least 1 worker")])
    cores = _cores()
    if jobs is None:
        return cores
    if jobs > cores and cluster in (None, "local"):
        if on_warning is not None:
            on_warning(Diagnostic(
                "SIM-JOBS", Severity.WARNING, None,
                f"--jobs {jobs} is more than the {cores} cores this machine gives grove; "
                f"playing on {cores} worker{'s' if cores > 1 else ''}",
                "more workers than cores only share them, in more memory"))
        return cores
    return jobs


def compare(run_a: str, run_b: str, correction: str = "holm") -> dict[str, Any]:
    """Two runs' figures side by side (`simulation.compare.compare`)."""
    from grove.simulation.compare import compare as both
    from grove.simulation.compare import read_run

    return both(read_run(run_a), read_run(run_b), correction)


def against(run_a: str, run_b: str, correction: str = "holm") -> tuple[dict[str, Any], Any]:
    """Run B's summary with what changed from run A (`simulation.against.set_against`), and B's
    totals, from which its report is drawn."""
    from grove.simulation.against import set_against
    from grove.simulation.compare import read_run

    a, b = read_run(run_a), read_run(run_b)
    return set_against(a, b, correction), b.totals


def worth(edition: str, expansions: list[str], ai: str, species: list[str], games: int,
          seed: int = 0, jobs: int | None = None, roots: Roots | None = None,
          on_warning: Any = None, seats: int = 2) -> list[dict[str, Any]]:
    """Restricted play for each species: `games` games of `AI!species` against `AI` at every
    other seat (`seats` in all), rotated, each in a run folder of its own that is thrown away;
    a row per species (`simulation.against.worth_row`). `ai` is one AI kind without bars;
    `species` ids the card set has (`simulate` refuses the others before a game)."""
    import re
    import tempfile

    from grove.simulation.against import worth_row
    from grove.simulation.aggregate import read_totals
    from grove.simulation.sinks import CARDS_FILE, GAMES_FILE

    rows = []
    with tempfile.TemporaryDirectory(prefix="grove-worth-") as tmp:
        for sid in species:
            barred = f"{ai}!{sid}"
            folder = Path(tmp) / re.sub(r"\W+", "-", sid)
            simulate(edition, expansions, [barred] + [ai] * (seats - 1), games, seed, True,
                     jobs, None, str(folder), roots, on_warning=on_warning)
            t = read_totals(folder / GAMES_FILE, folder / CARDS_FILE)
            rows.append(worth_row(sid, t.ais[barred], t.ais[ai]))
    return rows


def rewrite_run(folder: str, summary: dict[str, Any], totals: Any) -> None:
    """A run folder's summary.json and report.html written again from `summary` (each file whole
    or as it was): `--against` and `--worth` add to a run once its games are played."""
    from grove.files.write import write_text
    from grove.simulation.report import render
    from grove.simulation.sinks import REPORT_FILE, SUMMARY_FILE
    from grove.simulation.summary import to_json

    write_text(Path(folder) / SUMMARY_FILE, to_json(summary))
    write_text(Path(folder) / REPORT_FILE, render(summary, totals))


def refuse_unknown_species(edition: str, expansions: list[str], names: list[str],
                           roots: Roots | None = None, option: str = "--worth") -> None:
    """A USAGE-BAD-OPTION error for the first of `names` the card set has no species of: said
    before a run's first game, not after it, when the restricted runs would start."""
    from grove.compiler.cardset import build

    cardset = build(edition, expansions, roots if roots is not None else search_path())
    known = {sp.key for sp in cardset.species.values()} | {
        sp.id for sp in cardset.species.values()}
    for name in names:
        if name not in known:
            raise DiagnosticError([error("USAGE-BAD-OPTION", None,
                                         f"{option} {name}: {edition} has no species {name!r}",
                                         "`grove cards EDITION` lists the species by id")])
