"""`grove lsp` answers `initialize` and the first `didOpen` of a set `grove lint` has seen
before it imports pygls and lsprotocol (grove/lsp/prelude.py): the same answers the full server
gives, each once, and the full server takes the session on from there."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from test_lsp_wire import Raw

from grove import api
from grove.compiler.search_path import search_path
from grove.lsp import wire

MEADOW = Path(__file__).parent / "editions" / "meadow"
PARAMS = {"capabilities": {"general": {"positionEncodings": ["utf-16"]}}, "processId": None,
          "initializationOptions": {"lang": "de"}}


def _linted_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "meadow"
    shutil.copytree(MEADOW, folder)
    species = folder / "species.yaml"
    text = species.read_text(encoding="utf-8")
    species.write_text(text.replace("score: 1 per pond", "score: 1 per pnd"), encoding="utf-8")
    assert [d.code for d in api.lint([str(folder)], roots=search_path(env={})) if d.is_error] \
        == ["DSL-UNKNOWN-NAME"]
    return species


def _session(species: Path, process_id: int) -> tuple[dict, list[dict], list[dict]]:
    """One server: its answer to `initialize`, the diagnostics it publishes for the opened file
    until the full server's own have come, and every answer it gave to id 1."""
    raw = Raw(GROVE_CARDS="")
    try:
        raw.request(1, "initialize", {**PARAMS, "processId": process_id})
        init = raw.answer(1)
        raw.send(wire.frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        uri = species.resolve().as_uri()
        raw.send(wire.frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                             "text": species.read_text(encoding="utf-8")}}}))
        raw.request(2, "textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        published, answers = [], [init]
        while True:  # the answer to 2 comes from the full server, after its didOpen was taken
            msg = raw.messages.get(timeout=60)
            assert msg is not None, raw.err()
            if msg.get("method") == "textDocument/publishDiagnostics" and \
                    msg["params"]["uri"] == uri:
                published.append(msg["params"]["diagnostics"])
            elif msg.get("id") == 1:
                answers.append(msg)
            elif msg.get("id") == 2:
                assert msg["result"], msg
                break
        raw.request(3, "shutdown")
        assert raw.answer(3)["result"] is None
        raw.send(wire.frame({"jsonrpc": "2.0", "method": "exit"}))
        assert raw.exited() == 0
        while (msg := raw.messages.get(timeout=60)) is not None:  # nothing more for id 1
            if msg.get("id") == 1:
                answers.append(msg)
        assert "Traceback" not in raw.err(), raw.err()
    finally:
        raw.close()
    return init, published, answers


def test_the_second_start_answers_as_the_first(tmp_path: Path):
    species = _linted_copy(tmp_path)
    first_init, first, first_answers = _session(species, 100)  # keeps its answer
    again_init, again, again_answers = _session(species, 200)  # answered by the prelude
    assert again_init["result"] == first_init["result"]
    assert len(first_answers) == len(again_answers) == 1
    assert first and again and again[0] == first[0]
    assert [d["code"] for d in again[0]] == ["DSL-UNKNOWN-NAME"]
    assert all(p == again[0] for p in again)  # the full server's own are the same again


def test_the_prelude_imports_neither_pygls_server_nor_lsprotocol(tmp_path: Path):
    """In a process of its own: the answers come before lsprotocol is imported."""
    species = _linted_copy(tmp_path)
    script = textwrap.dedent(f"""
        import io, json, os, sys
        from grove.compiler.search_path import search_path
        from grove.lsp import prelude, wire
        from grove.lsp.documents import Session

        params = {PARAMS!r}
        prelude.keep_answer(prelude.answer_key(params),
                            {{"jsonrpc": "2.0", "result": {{"capabilities": {{}}}}}})
        uri = {species.resolve().as_uri()!r}
        text = open({str(species)!r}, encoding="utf-8").read()
        r, w = os.pipe()
        for m in ({{"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": params}},
                  {{"jsonrpc": "2.0", "method": "initialized", "params": {{}}}},
                  {{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {{
                      "textDocument": {{"uri": uri, "languageId": "yaml", "version": 1,
                                       "text": text}}}}}}):
            os.write(w, wire.frame(m))
        out = io.BytesIO()
        handover = prelude.answer(wire.Framer(r), out, Session(search_path(env={{}})))
        print(json.dumps({{"modules": sorted(m for m in sys.modules
                                             if m.startswith(("lsprotocol", "pygls.lsp"))),
                          "read": len(handover.read), "asked": handover.asked,
                          "answered": handover.answered, "out": out.getvalue().decode()}}))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["modules"] == []
    assert (found["read"], found["asked"], found["answered"]) == (3, 7, True)
    bodies = [json.loads(part.split("\r\n\r\n", 1)[1])
              for part in found["out"].split("Content-Length: ")[1:]]
    assert bodies[0] == {"jsonrpc": "2.0", "result": {"capabilities": {}}, "id": 7}
    codes = [d["code"] for b in bodies[1:] for d in b["params"]["diagnostics"]]
    assert "DSL-UNKNOWN-NAME" in codes


def test_no_answer_kept_leaves_all_to_the_server():
    """A first message that is no `initialize` is the full server's to take, as read."""
    raw = Raw()
    try:
        raw.request(5, "shutdown")
        answer = raw.answer(5)
        assert "result" in answer or "error" in answer
    finally:
        raw.close()
