"""`grove lsp` on an author's card sets, found through GROVE_CARDS (the test editions meadow and
hedgerow, an expansion of the base game, in a folder outside cards/), and on a forest file of
theirs: every feature as on the shipped cards, through a real client over stdio.
"""

from __future__ import annotations

import os
import shutil
import tempfile
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
from grove.compiler.search_path import search_path

ROOT = Path(__file__).resolve().parents[1]
# The server is started with GROVE_CARDS naming this folder; the editions are copied in before
# the first document is opened (grove looks for editions on each check, not once at start).
# Only named here: every xdist worker imports this module, and one made at import was left
# behind in /tmp by each worker that did not run it.
OWN = Path(tempfile.gettempdir()) / f"grove-lsp-own-{os.getpid()}"
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module", autouse=True)
def own_cards():
    shutil.rmtree(OWN, ignore_errors=True)  # a folder a killed run of this process id left
    shutil.copytree(ROOT / "tests" / "editions", OWN, dirs_exist_ok=True)
    yield OWN
    shutil.rmtree(OWN, ignore_errors=True)


@pytest_lsp.fixture(config=ClientServerConfig(
    server_command=SERVER, server_env={**os.environ, "GROVE_CARDS": str(OWN)}), scope="module")
async def client(lsp_client: LanguageClient, own_cards):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


async def test_diagnostics_are_lints_own_then_a_typo(client: LanguageClient):
    f = OWN / "meadow" / "species.yaml"
    text = f.read_text(encoding="utf-8")
    u = open_doc(client, f)
    linted = api.lint([str(f.parent)], roots=search_path([OWN]))
    mine = [d for d in linted if Path(d.span.file).resolve() == f.resolve()]
    found = await wait_diagnostics(client, u, lambda ds: len(ds) == len(mine))
    assert sorted((d.code, d.range.start.line, d.range.start.character) for d in found) == \
        sorted((d.code, d.span.line - 1, d.span.col - 1) for d in mine)
    typo = text.replace("score: 4 if host has reed", "score: 4 if host has reeds")
    change_doc(client, u, typo, 2)
    found = await wait_diagnostics(client, u, lambda ds: any(
        d.code == "DSL-UNKNOWN-NAME" for d in ds))
    at = pos(typo, "has reeds", offset=4)
    d = next(d for d in found if d.code == "DSL-UNKNOWN-NAME")
    assert d.range == types.Range(at, types.Position(at.line, at.character + 5))
    assert "did you mean 'reed'?" in d.message
    change_doc(client, u, text, 3)
    await wait_diagnostics(client, u, lambda ds: not any(
        d.code == "DSL-UNKNOWN-NAME" for d in ds))


async def test_completion_offers_the_editions_names(client: LanguageClient):
    f = OWN / "meadow" / "species.yaml"
    text = f.read_text(encoding="utf-8")
    got = labels(await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri(f)), pos(text, "score: 2 per frog", offset=13))))
    assert {"frog", "reed", "pond", "reed_frog", "heron", "card", "distinct"} <= set(got)
    assert "red_fox" not in got  # meadow sees no base game
    # an expansion sees its base game: plain and qualified
    h = OWN / "hedgerow" / "species.yaml"
    htext = h.read_text(encoding="utf-8")
    open_doc(client, h)
    got = labels(await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri(h)), pos(htext, "score: 1 per hedgerow", offset=13))))
    assert {"hedgerow", "red_fox", "base:red_fox", "bank_vole", "tree"} <= set(got)
    assert "hedgerow:bank_vole" not in got
    got = labels(await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri(h)), pos(htext, "symbol(hawthorn)", offset=7))))
    assert "hawthorn" in got and "oak" in got and "bank_vole" not in got


async def test_hover_definition_and_outline(client: LanguageClient):
    f = OWN / "meadow" / "species.yaml"
    text = f.read_text(encoding="utf-8")
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(f)), pos(text, "- id: heron", offset=7)))
    shown = hover.contents.value
    assert "**Heron** `meadow:heron`" in shown and "forest dweller (top) · cost 1 · ×8 · Frog" in shown
    assert "*Points*: 4 points if a reed also sits on the same tree or pond" in shown
    got = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri(f)), pos(text, "sharing slot with reed_frog", 20)))
    assert got[0].uri == uri(f) and got[0].range.start == pos(text, "- id: reed_frog", 6)
    got = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri(f)), pos(text, "only on pond", 9)))
    ed = OWN / "meadow" / "edition.yaml"
    assert got[0].uri == uri(ed)
    # `pond` is a type symbol before it is a host (the order names resolve in)
    assert got[0].range.start == pos(ed.read_text(encoding="utf-8"), "    pond: {names", 4)
    outline = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        types.TextDocumentIdentifier(uri(f))))
    assert [s.name for s in outline] == [
        line.split("id:")[1].strip() for line in text.splitlines()
        if line.strip().startswith("- id:")]


async def test_a_forest_file(client: LanguageClient):
    f = OWN / "forests" / "meadow.yaml"
    text = f.read_text(encoding="utf-8")
    u = open_doc(client, f)
    assert api.lint([str(f)], roots=search_path([OWN])) == []
    await wait_diagnostics(client, u, lambda ds: len(ds) == 0)
    typo = text.replace("north: heron", "north: heronn")
    change_doc(client, u, typo, 2)
    found = await wait_diagnostics(client, u, lambda ds: bool(ds))
    at = pos(typo, "heronn")
    assert [(d.code, d.range) for d in found] == [
        ("FOREST-UNKNOWN-CARD", types.Range(at, types.Position(at.line, at.character + 6)))]
    fixes = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(u), found[0].range,
        types.CodeActionContext(diagnostics=list(found))))
    assert [e.new_text for e in fixes[0].edit.changes[u]] == ["heron"]
    change_doc(client, u, text, 3)
    await wait_diagnostics(client, u, lambda ds: len(ds) == 0)
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(u), pos(text, "north: heron", offset=8)))
    assert "**Heron**" in hover.contents.value
    species = OWN / "meadow" / "species.yaml"
    got = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(u), pos(text, "north: heron", offset=8)))
    assert path_of(got[0].uri) == species.resolve()
    assert got[0].range.start == pos(species.read_text(encoding="utf-8"), "- id: heron", 6)
    got = labels(await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(u), pos(text, "north: heron", offset=9))))
    assert "heron" in got and "willow" not in got
    keys = labels(await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(u), pos(text, "    cave: 1", offset=4))))
    assert {"cave", "cave_card", "ai"} <= set(keys)  # a player's keys not yet written
    assert not {"name", "forest", "edition"} & set(keys)
    outline = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        types.TextDocumentIdentifier(u)))
    assert [s.name for s in outline] == ["Ana", "Ben"]
