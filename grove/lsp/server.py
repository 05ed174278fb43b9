"""`grove lsp`: the language server's wiring, each LSP request to the module that answers it.

Every handler runs inside `_guard`: an exception in one (a file no reader expected, a bug) is
logged to the client and to stderr and the request gets an empty answer; the server goes on.
Diagnostics are published for every file of the checked edition that has any, and withdrawn
from the files that had some before and have none now.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import traceback
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from grove import __version__
from grove.dsl.diagnostics import Diagnostic
from grove.lsp import actions, hover, names, navigation, prelude, wire
from grove.lsp.documents import Session, Target, target_of
from grove.lsp.text import (
    MAX_LINE,
    char_col,
    context,
    key_column,
    sibling_keys,
    span_range,
    utf16_col,
    word_at,
)

log = logging.getLogger("grove.lsp")
F = TypeVar("F", bound=Callable[..., Any])

# A text larger than this is not looked into for completion, hover or the outline (the check
# itself refuses it with INPUT-TOO-LARGE, as lint does).
MAX_TEXT_CHARS = 1024 * 1024


class GroveServer(LanguageServer):
    """pygls' server with grove's session and the author's language."""

    def __init__(self, session: Session):
        super().__init__("grove", __version__)
        self.session = session
        self.lang = "en"
        self.published: dict[str, set[str]] = {}  # checked unit -> uris given diagnostics
        self.printed: dict[str, list[Diagnostic]] = {}  # unit -> its printouts' last findings
        # whether the editor sent messages not yet handled (wire.serve tells); until it is
        # known, a change drains as if there were some
        self.queued: Callable[[], bool] = lambda: True

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None,
                 framer: wire.Framer | None = None, handover: prelude.Handover | None = None
                 ) -> None:
        """Serve on stdin and stdout through grove's own reader (`wire`), which answers a
        broken header instead of waiting for ever; exits with the status `wire.serve` gives.
        `handover`: what `prelude.answer` read and answered from `framer` before."""
        code = wire.serve(self, stdin or sys.stdin.buffer, stdout or sys.stdout.buffer,
                          wire.stall_seconds(), framer,
                          handover.read if handover is not None else (),
                          (lambda w: prelude.Answers(w, handover)) if handover is not None
                          else None)
        if code:
            raise SystemExit(code)


def _guard(ls: GroveServer, what: str, fn: F) -> F:
    @wraps(fn)
    def sync(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - one failed request must not stop the server
            _report(ls, what, exc)
            return None

    @wraps(fn)
    async def run_async(*args: Any, **kwargs: Any) -> Any:
        try:
            return await fn(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - as above
            _report(ls, what, exc)
            return None

    return run_async if asyncio.iscoroutinefunction(fn) else sync  # type: ignore[return-value]


def _report(ls: GroveServer, what: str, exc: BaseException) -> None:
    text = f"grove lsp: {what} failed: {exc!r}\n{traceback.format_exc()}"
    log.error(text)
    with contextlib.suppress(Exception):  # the client is gone: stderr has it
        ls.window_log_message(types.LogMessageParams(types.MessageType.Error, text))


def _path(uri: str) -> Path | None:
    p = to_fs_path(uri) if uri.startswith("file:") else None
    return Path(p) if p else None


def _lines(ls: GroveServer, path: Path) -> list[str]:
    text = ls.session.text(path)
    return text.splitlines() if text is not None else []


def _enc(ls: GroveServer) -> str:
    return str(ls.workspace.position_encoding or "utf-16")


def to_lsp(d: Diagnostic, lines: list[str], enc: str) -> types.Diagnostic:
    """A grove diagnostic as the client shows it: lint's code, message and place; the hint in
    the message (as lint prints it under the caret) and in `data` for the quick fixes."""
    return types.Diagnostic(
        range=span_range(d.span, lines, enc), message=prelude.message_of(d),
        severity=types.DiagnosticSeverity(prelude.SEVERITY.get(d.severity, 1)), code=d.code,
        source="grove", data={"hint": d.hint} if d.hint else None)


def publish(ls: GroveServer, target: Target, found: list[Diagnostic]) -> None:
    """The diagnostics of every file that has some, and of the checked file always (an empty
    list tells the client its file is clean)."""
    unit = str(target.folder or target.path)
    uris: set[str] = set()
    enc = _enc(ls)
    for file, diags in prelude.by_file(target, found):
        lines = _lines(ls, Path(file))
        uri = from_fs_path(file) or Path(file).as_uri()
        uris.add(uri)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, diagnostics=[to_lsp(d, lines, enc) for d in diags]))
    for uri in sorted(ls.published.get(unit, set()) - uris):
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri,
                                                                            diagnostics=[]))
    ls.published[unit] = uris


def _checked(ls: GroveServer, uri: str) -> tuple[Target, str] | None:
    """What an open file is checked as, and the unit its findings are published for (its
    edition folder, or the forest file); None for a file grove does not check."""
    path = _path(uri)
    if path is None:
        return None
    target = target_of(path, ls.session.text(path))
    if target.kind == "other":
        return None
    return target, str(target.folder or target.path)


async def _check(ls: GroveServer, uri: str, version: int | None) -> None:
    """Loading and checking findings first (what a keystroke breaks), published beside the
    printouts' findings of the check before; then, unless the author has typed on meanwhile,
    the printouts' findings anew, so that what stands at the end is all of `grove lint`'s
    findings. Where lint's cache holds all of them for the folder as it is on disk (a file
    opened of a set `grove lint` has seen), they come at once."""
    checked = _checked(ls, uri)
    if checked is None:
        _withdraw(ls, uri)
        return
    target, unit = checked
    whole = ls.session.linted(target)
    if whole is not None:
        publish(ls, target, whole)
        # the loading findings among them, told apart for the next change to merge with
        shown = set(ls.session.check(target, printouts=False))
        ls.printed[unit] = [d for d in whole if d not in shown]
        return
    cards = ls.session.check(target, printouts=False)
    publish(ls, target, _merged(cards, ls.printed.get(unit, [])))
    if target.kind != "edition":
        return
    await asyncio.sleep(SETTLE_S)  # a newer change read meanwhile makes the rest needless
    printed: list[Diagnostic] = []
    for check in ls.session.printout_checks(target):
        if _newer(ls, uri, version):
            return
        printed += check()
        await asyncio.sleep(PIECE_S)  # the next keystroke waits for this piece only
    ls.printed[unit] = _merged(printed)
    publish(ls, target, _merged(cards, ls.printed[unit]))


async def _warm(ls: GroveServer, uri: str) -> None:
    """After an opened file's diagnostics, what its first keystroke would build else (a
    keystroke sent meanwhile waits for one piece at most)."""
    checked = _checked(ls, uri)
    for piece in ls.session.warm_pieces(checked[0]) if checked is not None else []:
        await asyncio.sleep(PIECE_S)
        piece()


def _withdraw(ls: GroveServer, uri: str) -> None:
    """A file grove no longer checks (a YAML file whose `players:` went) loses what it was
    given as a forest file."""
    path = _path(uri)
    unit = str(path.resolve()) if path is not None else ""
    for old in sorted(ls.published.pop(unit, set())):
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=old,
                                                                            diagnostics=[]))


# How long a change with messages queued behind it waits before it is checked, for them to be
# read.
DRAIN_S = 0.01
# How long a change waits, after its first diagnostics, for the next keystroke before the
# printouts are checked.
SETTLE_S = 0.05
# The pause between the pieces of the printouts' check (sheets, icons, rules text, cards): long
# enough for the loop to read a change the editor sent meanwhile, which makes the rest needless.
PIECE_S = 0.001


def _merged(*parts: list[Diagnostic]) -> list[Diagnostic]:
    from grove.dsl.diagnostics import sort_key

    return sorted(dict.fromkeys(d for p in parts for d in p), key=sort_key)


def _newer(ls: GroveServer, uri: str, version: int | None) -> bool:
    doc = ls.workspace.text_documents.get(uri)
    return bool(doc is not None and doc.version is not None and version is not None
                and doc.version > version)


def _open_text(ls: GroveServer, uri: str) -> tuple[Path, Target, list[str]] | None:
    path = _path(uri)
    if path is None:
        return None
    text = ls.session.text(path)
    if text is None or len(text) > MAX_TEXT_CHARS:
        return None
    return path, target_of(path, text), text.splitlines()


def _cursor(ls: GroveServer, uri: str, position: types.Position
            ) -> tuple[Path, Target, list[str], int, str, int] | None:
    """An open file and where its cursor stands: the file's lines, the cursor's line number,
    that line (cut at MAX_LINE) and the cursor's column in it."""
    opened = _open_text(ls, uri)
    if opened is None:
        return None
    path, target, lines = opened
    line_no = position.line
    if not 0 <= line_no <= len(lines) or position.character < 0:
        return None  # a position outside the text: answered with null
    line = lines[line_no][:MAX_LINE] if line_no < len(lines) else ""
    return path, target, lines, line_no, line, char_col(line, position.character, _enc(ls))


def _completion(ls: GroveServer, params: types.CompletionParams) -> types.CompletionList | None:
    from grove.lsp import completion  # the grammar: not needed to start, nor for diagnostics

    at = _cursor(ls, params.text_document.uri, params.position)
    if at is None:
        return None
    path, target, lines, line_no, line, col = at
    if target.kind == "other":
        return None
    ctx = context(lines, line_no, col)
    schema = completion.schema_for(path.name, "\n".join(lines))
    scope, own = None, ""
    if target.kind == "edition" and target.folder is not None:
        scope = ls.session.scope(target.folder)
        own = scope.visible[-1].id if scope is not None else ""
    deck = completion.deck_items(line[:col], scope, own) if schema == "deck" else None
    if deck is not None:
        items = deck
    elif ctx.on_key:
        present = sibling_keys(lines, line_no, key_column(line)) - {word_at(line, col)[0]}
        items = completion.key_items(schema, ctx.path, present)
    elif completion.is_rule_field(ctx.key, ctx.path, schema):
        items = completion.rule_items(ctx.key or "", ctx.value or "", scope, own) or []
    else:
        items = completion.value_items(ctx.key or "", scope, schema, ctx.path)
        if target.kind == "forest":
            items += _forest_values(ls, lines, ctx.value or "")
    return types.CompletionList(is_incomplete=False, items=items)


def _forest_values(ls: GroveServer, lines: list[str], typed: str) -> list[types.CompletionItem]:
    """In a forest file, the species of its game (and its host kinds for a host's key)."""
    edition, exps = names.forest_game("\n".join(lines))
    cset = ls.session.forest_cardset(edition, exps) if edition else None
    if cset is None:
        return []
    word = typed.split("[")[-1].split(",")[-1].split("{")[-1].strip()
    return [types.CompletionItem(s.id, kind=types.CompletionItemKind.Class,
                                 detail=s.name(ls.lang))
            for s in cset.species.values() if s.id.startswith(word)]


def _hover(ls: GroveServer, params: types.HoverParams) -> types.Hover | None:
    at = _cursor(ls, params.text_document.uri, params.position)
    if at is None:
        return None
    _, target, lines, line_no, line, col = at
    named, word, start, end = names.lookup(ls.session, target, lines, line_no, col)
    enc = _enc(ls)
    rng = types.Range(types.Position(line_no, utf16_col(line, start, enc)),
                      types.Position(line_no, utf16_col(line, end, enc)))
    if named is None:
        from grove.lsp import completion

        ctx = context(lines, line_no, col)
        if ctx.key in completion.FIELDS and word in completion.grammar_keywords():
            found = hover.keyword_line(word)
            if found:
                return types.Hover(types.MarkupContent(types.MarkupKind.Markdown,
                                                       f"`{word}` — {found}"), rng)
        return None
    cset = named.cardset
    if cset is None and named.kind == "species" and target.folder is not None:
        cset = ls.session.cardset(target.folder)
    scope = ls.session.scope(target.folder) if target.folder is not None else None
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown,
                                           _describe(ls, named, cset, scope)), rng)


def _name_in(table: Any, key: str, lang: str) -> str:
    decl = table.get(key) if table is not None else None
    return (decl.names.get(lang) or decl.names.get("en") or key) if decl is not None else key


def _describe(ls: GroveServer, named: names.Named, cset: Any, scope: Any) -> str:
    decl = named.decl
    if named.kind != "species":
        what = {"tree": "tree symbol", "type": "type symbol"}.get(named.kind, named.kind)
        name = decl.names.get(ls.lang) or decl.names.get("en") or named.key
        return f"**{name}** `{named.key}` — {what} of {decl.edition}"
    rules: dict[str, str] = {}
    compiled = cset.species.get(named.key) if cset is not None else None
    if compiled is not None:
        rules = hover.card_rules(compiled, cset, ls.lang)
    sources = {rt.field: rt.text for rt in getattr(decl, "rules", ())} or {
        f: rt.text for f, rt in getattr(decl, "rule_texts", {}).items()}
    # names of symbols and hosts: the edition's scope in a card file, the game's card set in
    # a forest file
    types_of = scope.types if scope is not None else None
    hosts = scope.hosts if scope is not None else (cset.hosts if cset is not None else None)
    type_names = tuple(
        _name_in(types_of, t, ls.lang) if types_of is not None else (
            _symbol_name(cset, t, ls.lang)) for t in decl.types)
    host = next((h for h in (hosts or {}).values() if h.from_kind == decl.kind), None)
    facts = hover.Facts(
        decl.kind, decl.cost, decl.copies, type_names,
        host=(host.names.get(ls.lang) or host.names.get("en") or host.id) if host else None,
        sides=tuple(getattr(compiled, "sides", ()) or ()))
    return hover.species_text(decl.names, facts, decl.id, decl.edition, ls.lang, rules, sources)


def _symbol_name(cset: Any, sid: str, lang: str) -> str:
    sym = cset.symbol(sid) if cset is not None else None
    return (sym.names.get(lang) or sym.names.get("en") or sid) if sym is not None else sid


def _definition(ls: GroveServer, params: types.DefinitionParams) -> list[types.Location] | None:
    at = _cursor(ls, params.text_document.uri, params.position)
    if at is None:
        return None
    _, target, lines, line_no, _, col = at
    named, *_ = names.lookup(ls.session, target, lines, line_no, col)
    if named is None or named.span is None:
        return None
    return [navigation.location(named.span, lambda f: _lines(ls, Path(f)), _enc(ls))]


def _symbols(ls: GroveServer, params: types.DocumentSymbolParams
             ) -> list[types.DocumentSymbol] | None:
    opened = _open_text(ls, params.text_document.uri)
    if opened is None:
        return None
    path, target, lines = opened
    if target.kind == "other":
        return None
    from grove.lsp import completion

    schema = completion.schema_for(path.name, "\n".join(lines))
    return navigation.outline(path.name, schema, lines, _enc(ls))


def build_server(session: Session | None = None) -> GroveServer:
    ls = GroveServer(session or Session())

    def on(feature: str, options: Any = None):
        def register(fn: F) -> F:
            guarded = _guard(ls, feature, fn)
            ls.feature(feature, options)(guarded) if options is not None else \
                ls.feature(feature)(guarded)
            return fn

        return register

    @on(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        from grove.printouts import phrases

        opts = params.initialization_options if isinstance(
            params.initialization_options, dict) else {}
        lang = str(opts.get("lang") or "en")
        ls.lang = lang if lang in phrases.available_languages() else "en"
        if lang != ls.lang:
            log.warning("no catalog for language %r; hover speaks English", lang)

    @on(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(params: types.DidOpenTextDocumentParams) -> None:
        doc = params.text_document
        path = _path(doc.uri)
        if path is not None:
            ls.session.set_text(path, doc.text)
            await _check(ls, doc.uri, doc.version)
            await _warm(ls, doc.uri)

    @on(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        path = _path(uri)
        if path is None:
            return
        version = params.text_document.version
        # a burst of changes (3,000 queued by a client were checked 3,000 times): where
        # messages are queued, wait a moment for them to be read; a newer change makes this
        # check needless, so only the newest text of a burst is checked. A change with nothing
        # behind it (a keystroke) is checked at once.
        ls.session.set_text(path, ls.workspace.get_text_document(uri).source)  # for requests
        if ls.queued():
            await asyncio.sleep(DRAIN_S)
            if _newer(ls, uri, version):
                return
        await _check(ls, uri, version)

    @on(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(params: types.DidSaveTextDocumentParams) -> None:
        await _check(ls, params.text_document.uri, None)

    @on(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(params: types.DidCloseTextDocumentParams) -> None:
        path = _path(params.text_document.uri)
        if path is not None:
            ls.session.drop_text(path)  # the file on disk is what counts again
            await _check(ls, params.text_document.uri, None)

    @on(types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=[" ", "(", ":", "[", ","]))
    def complete(params: types.CompletionParams):
        return _completion(ls, params)

    @on(types.TEXT_DOCUMENT_HOVER)
    def on_hover(params: types.HoverParams):
        return _hover(ls, params)

    @on(types.TEXT_DOCUMENT_DEFINITION)
    def definition(params: types.DefinitionParams):
        return _definition(ls, params)

    @on(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbols(params: types.DocumentSymbolParams):
        return _symbols(ls, params)

    @on(types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    def code_action(params: types.CodeActionParams):
        return actions.quick_fixes(params.text_document.uri, list(params.context.diagnostics))

    return ls
