"""Quick fixes: a diagnostic's "did you mean 'x'?" as an edit that writes 'x' in its place.

The diagnostic's range covers the word it is about (a name in a rule, a key, a value), so the
fix replaces exactly that word.
"""

from __future__ import annotations

import re

from lsprotocol import types

_GUESS = re.compile(r"did you mean '([^']+)'\?")


def guess_of(diagnostic: types.Diagnostic) -> str | None:
    data = diagnostic.data if isinstance(diagnostic.data, dict) else {}
    hint = data.get("hint") or diagnostic.message
    m = _GUESS.search(hint or "")
    return m.group(1) if m else None


def quick_fixes(uri: str, diagnostics: list[types.Diagnostic]) -> list[types.CodeAction]:
    out = []
    for d in diagnostics:
        guess = guess_of(d)
        if guess is None or d.source != "grove":
            continue
        out.append(types.CodeAction(
            title=f"Change to '{guess}'",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[d],
            is_preferred=True,
            edit=types.WorkspaceEdit(changes={uri: [types.TextEdit(d.range, guess)]}),
        ))
    return out
