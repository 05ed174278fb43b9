"""`grove lsp` end to end, on a copy of the shipped base game with a planted typo, through a
real LSP client over stdio (pytest-lsp): diagnostics as lint gives them, completion, hover in
German, go to definition, the outline, quick fixes, and a server that survives bad input.

One server for the module: the tests run in order, as an author's session would (each
worker of pytest-xdist starts its own, with every file of the edition open).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import (
    SERVER,
    change_doc,
    labels,
    open_doc,
    path_of,
    pos,
    uri,
    wait_diagnostics,
)
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from grove import api

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.asyncio(loop_scope="module")

TYPO_LINE = "    score: 2 per european_hair"


@pytest.fixture(scope="module")
def edition(tmp_path_factory) -> Path:
    """A copy of the base game whose Red Fox scores per 'european_hair'."""
    folder = tmp_path_factory.mktemp("lsp") / "base"
    shutil.copytree(ROOT / "grove" / "cards" / "base", folder)
    f = folder / "left_right.yaml"
    text = f.read_text(encoding="utf-8")
    fox = text.index("- id: red_fox")
    at = text.index("    score: 2 per hare", fox)
    f.write_text(text[:at] + TYPO_LINE + text[at + len("    score: 2 per hare"):],
                 encoding="utf-8")
    return folder


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def client(lsp_client: LanguageClient, edition: Path):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(), initialization_options={"lang": "de"}))
    # every file open, and the typo found, before the first test: pytest-xdist may hand a
    # later test of this module to a worker of its own, whose server has seen none before it
    for f in sorted(edition.glob("*.yaml")):
        open_doc(lsp_client, f)
    await wait_diagnostics(lsp_client, uri(edition / "left_right.yaml"), lambda ds: any(
        d.code == "DSL-UNKNOWN-NAME" for d in ds))
    yield
    await lsp_client.shutdown_session()


async def test_the_typo_is_found_where_it_stands(client: LanguageClient, edition: Path):
    f = edition / "left_right.yaml"
    text = f.read_text(encoding="utf-8")
    u = open_doc(client, f)
    found = await wait_diagnostics(client, u, lambda ds: any(
        d.code == "DSL-UNKNOWN-NAME" for d in ds))
    typo = [d for d in found if d.code == "DSL-UNKNOWN-NAME"]
    assert len(typo) == 1
    start = pos(text, "european_hair")
    assert typo[0].range == types.Range(start, types.Position(start.line, start.character + 13))
    assert typo[0].severity == types.DiagnosticSeverity.Error
    assert typo[0].source == "grove"
    assert "unknown name 'european_hair'" in typo[0].message
    assert "did you mean 'european_hare'?" in typo[0].message


async def test_diagnostics_are_lints_own(client: LanguageClient, edition: Path):
    """Every finding `grove lint FOLDER` prints, with its code, message and place, and no other."""
    linted = api.lint([str(edition)])
    assert any(d.code == "DSL-UNKNOWN-NAME" for d in linted)
    for f in sorted(edition.glob("*.yaml")):  # every file the check published for
        if f.name != "left_right.yaml":
            open_doc(client, f)
    want = sorted((str(Path(d.span.file).resolve()), d.code, d.span.line - 1, d.span.col - 1,
                   d.message + (f"\nhint: {d.hint}" if d.hint else "")) for d in linted)
    files = {w[0] for w in want}
    for file in files:
        n = sum(1 for w in want if w[0] == file)
        await wait_diagnostics(client, uri(Path(file)), lambda ds, n=n: len(ds) == n)
    got = sorted((str(path_of(u)), d.code, d.range.start.line, d.range.start.character,
                  d.message)
                 for u, ds in client.diagnostics.items() for d in ds
                 if str(path_of(u)).startswith(str(edition.resolve())))
    assert got == want


async def test_completion_of_a_partly_typed_species_id(client: LanguageClient, edition: Path):
    text = (edition / "left_right.yaml").read_text(encoding="utf-8")
    at = pos(text, "european_hair", offset=len("european_"))
    got = labels(await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri(edition / "left_right.yaml")), at)))
    assert "european_hare" in got and "european_badger" in got
    assert all(x.startswith("european_") for x in got)


async def test_completion_of_keywords_and_keys(client: LanguageClient, edition: Path):
    f = edition / "left_right.yaml"
    text = f.read_text(encoding="utf-8")
    after_points = pos(text, TYPO_LINE.strip(), offset=len("score: 2 "))
    got = labels(await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri(f)), after_points)))
    assert {"per", "if", "+"} <= set(got)
    symbol = pos(text, "    kind: dweller", offset=4)  # where a key of a species entry stands
    keys = labels(await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri(f)), symbol)))
    assert {"kind", "effect", "bonus", "water", "provisional"} <= set(keys)
    assert not {"cost", "copies", "score", "placement", "players"} & set(keys)  # written, or elsewhere
    deck = edition / "deck.yaml"
    deck_text = deck.read_text(encoding="utf-8")
    open_doc(client, deck)
    got = labels(await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri(deck)), pos(deck_text, "{card: linden", 10))))
    assert "linden" in got and all(x.startswith("lin") for x in got)
    got = labels(await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri(deck)), pos(deck_text, "[european_hare, linden]", 16))))
    assert "linden" in got and "oak" in got and "european_hare" not in got


async def test_hover_names_the_species_in_german(client: LanguageClient, edition: Path):
    f = edition / "left_right.yaml"
    text = f.read_text(encoding="utf-8")
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(f)), pos(text, "- id: red_fox", offset=8)))
    assert hover is not None
    shown = hover.contents.value
    assert "**Fuchs**" in shown and "base:red_fox" in shown
    assert "dweller · cost 2 · 5 copies · pawed" in shown
    hover = await client.text_document_hover_async(types.HoverParams(  # a species in a rule
        types.TextDocumentIdentifier(uri(f)), pos(text, "any number of european_hare", 20)))
    assert "**Feldhase** `base:european_hare`" in hover.contents.value


async def test_keyword_hover_quotes_the_dsl_doc(client: LanguageClient, edition: Path):
    f = edition / "left_right.yaml"
    text = f.read_text(encoding="utf-8")
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(f)), pos(text, "draw 1 per hare", offset=1)))
    assert hover is not None
    assert hover.contents.value.startswith("`draw` — ")
    doc = (ROOT / "docs" / "dsl.md").read_text(encoding="utf-8")
    line = hover.contents.value.split(" — ", 1)[1].split("  —  ")[0]
    assert line in doc


async def test_go_to_definition(client: LanguageClient, edition: Path):
    f = edition / "left_right.yaml"
    text = f.read_text(encoding="utf-8")
    # a species named in a rule -> its `- id:` line
    got = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri(f)), pos(text, "any number of european_hare", 16)))
    assert got == [types.Location(uri(f), types.Range(pos(text, "european_hare"),
                                                     pos(text, "european_hare", 13)))]
    # a deck entry -> the species file
    deck = edition / "deck.yaml"
    deck_text = deck.read_text(encoding="utf-8")
    got = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri(deck)), pos(deck_text, "{card: linden", 8)))
    trees = edition / "trees.yaml"
    trees_text = trees.read_text(encoding="utf-8")
    assert got is not None and got[0].uri == uri(trees)
    assert got[0].range.start == pos(trees_text, "- id: linden", 6)
    # a type symbol -> its entry in edition.yaml
    got = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri(f)), pos(text, "types: [pawed]", 9)))
    ed_text = (edition / "edition.yaml").read_text(encoding="utf-8")
    assert got is not None and got[0].uri == uri(edition / "edition.yaml")
    assert got[0].range.start == pos(ed_text, "    pawed:", 4)


async def test_outline_lists_the_species(client: LanguageClient, edition: Path):
    f = edition / "left_right.yaml"
    text = f.read_text(encoding="utf-8")
    got = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        types.TextDocumentIdentifier(uri(f))))
    ids = [line.split("id:")[1].strip() for line in text.splitlines()
           if line.strip().startswith("- id:")]
    assert [s.name for s in got] == ids
    fox = got[ids.index("red_fox")]
    assert fox.detail == "Red Fox" and fox.kind == types.SymbolKind.Class
    assert fox.selection_range.start == pos(text, "- id: red_fox", 6)


async def test_quick_fix_from_the_hint(client: LanguageClient, edition: Path):
    f = edition / "left_right.yaml"
    typo = [d for d in client.diagnostics[uri(f)] if d.code == "DSL-UNKNOWN-NAME"]
    got = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri(f)), typo[0].range,
        types.CodeActionContext(diagnostics=typo)))
    assert len(got) == 1 and got[0].kind == types.CodeActionKind.QuickFix
    assert list(got[0].edit.changes) == [uri(f)]
    assert list(got[0].edit.changes[uri(f)]) == [types.TextEdit(typo[0].range, "european_hare")]


async def test_the_diagnostic_goes_once_fixed_and_hover_reads_the_rules(
        client: LanguageClient, edition: Path):
    f = edition / "left_right.yaml"
    text = f.read_text(encoding="utf-8").replace("european_hair", "european_hare")
    change_doc(client, uri(f), text, 2)  # unsaved: the file on disk still has the typo
    found = await wait_diagnostics(client, uri(f), lambda ds: not any(
        d.code == "DSL-UNKNOWN-NAME" for d in ds))
    assert not [d for d in found if d.severity == types.DiagnosticSeverity.Error]
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(f)), pos(text, "- id: red_fox", offset=8)))
    shown = hover.contents.value
    assert "*Effekt*" in shown or "*Effect*" in shown, shown
    assert "Feldhase" in shown  # the rules text, in German, names the hare


async def test_bad_input_never_stops_the_server(client: LanguageClient, edition: Path,
                                                tmp_path_factory):
    f = edition / "top_bottom.yaml"
    half = "edition: base\nspecies:\n  - id: [\n    score: 2 per"
    change_doc(client, uri(f), half, 2)
    found = await wait_diagnostics(client, uri(f), lambda ds: any(
        d.code == "YAML-SYNTAX" for d in ds))
    assert found
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(f)), types.Position(3, 16)))
    assert hover is None or hover.contents
    await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri(f)), types.Position(3, 16)))
    other = tmp_path_factory.mktemp("junk")
    blob = other / "blob.yaml"
    blob.write_bytes(bytes(range(256)) * 4)
    open_doc(client, blob, text=blob.read_bytes().decode("latin-1"))
    found = await wait_diagnostics(client, uri(blob), lambda ds: bool(ds))
    assert [(d.code, d.range.start) for d in found] == [("YAML-SYNTAX", types.Position(0, 0))]
    big = other / "big.yaml"
    big_text = "players:\n" + "# padding\n" * 30_000
    open_doc(client, big, text=big_text)
    found = await wait_diagnostics(client, uri(big), lambda ds: bool(ds))
    assert [d.code for d in found] == ["INPUT-TOO-LARGE"]
    bad = "file:///nul%00here.yaml"  # a path no file system takes: the handler raises
    assert await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(bad), types.Position(0, 0))) is None
    assert any("failed" in m.message for m in client.log_messages)
    # ... and the server still answers
    text = (edition / "left_right.yaml").read_text(encoding="utf-8")
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(edition / "left_right.yaml")),
        pos(text, "- id: red_fox", offset=8)))
    assert "Fuchs" in hover.contents.value
