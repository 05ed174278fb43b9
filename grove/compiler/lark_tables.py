"""A Lark LALR parser whose tables are kept in grove's on-disk cache.

Building the tables of a grammar costs a short command more than the rest of what it does
with them, and ten times what loading them costs: the rules' parser serves every compile of a
card file and every keystroke the language server checks, the query's parser every `grove
find`. Lark serializes the tables as plain data, which the cache keeps under the grammar's
digest, Lark's version and the parser's options.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from typing import Any


def parser(package: str, grammar_file: str, **options: Any) -> Any:
    """The `lalr` parser of `package`'s `grammar_file`, built with `options` once per cache."""
    import lark
    from lark import Lark

    from grove.compiler import cache

    grammar = resources.files(package).joinpath(grammar_file).read_text(encoding="utf-8")

    def tables() -> dict[str, Any]:
        from lark.grammar import Rule
        from lark.lexer import TerminalDef

        built = Lark(grammar, parser="lalr", **options)
        data, memo = built.memo_serialize([TerminalDef, Rule])
        return {"data": data, "memo": memo}

    k = cache.key("grammar", f"{package}/{grammar_file}", lark.__version__,
                  hashlib.sha256(grammar.encode()).hexdigest(), repr(sorted(options.items())))
    return Lark.load(cache.cached("grammar", k, tables))


@cache
def rules() -> Any:
    """The rules' parser (grove/dsl/parser.py's grammar and options), its tables cached: the
    one the compiler hands `parse_rule`, and the language server's completion reads."""
    from grove.dsl import parser as dsl

    return parser(*dsl.GRAMMAR, **dsl.lark_options())
