"""The fast YAML path (libyaml composes, grove builds the round-trip values) reads every file
exactly as ruamel's round-trip loader does: the same values of the same types, the same line and
column for every key, value and item, and where it cannot, it hands the text over."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from grove.compiler import yaml_source as ys
from grove.dsl.diagnostics import DiagnosticError

REPO = Path(__file__).resolve().parents[1]
FILES = sorted(p for p in REPO.rglob("*.yaml") if ".venv" not in p.parts)


def _shape(node, out: list, path: tuple = ()) -> list:
    """Every value with its type and every position, in document order."""
    out.append((path, type(node).__name__, node if not isinstance(node, (dict, list)) else None))
    if isinstance(node, CommentedMap):
        for k, v in node.items():
            out.append((path, "key", type(k).__name__, k, tuple(node.lc.data[k])))
            _shape(v, out, (*path, k))
    elif isinstance(node, CommentedSeq):
        for i, v in enumerate(node):
            out.append((path, "item", i, tuple(node.lc.data[i])))
            _shape(v, out, (*path, i))
    return out


def _round_trip(raw: str):
    return ys._yaml().load(raw)


def test_libyaml_is_there():
    assert ys._c_composer() is not None, "ruamel.yaml.clib is a dependency: the fast path is off"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_project_file_reads_the_same_both_ways(path: Path):
    raw = path.read_text(encoding="utf-8")
    fast, data = ys._fast_load(raw)
    try:
        slow = _round_trip(raw)
    except Exception:  # noqa: BLE001 - a broken file of the corpus: the fast path must refuse it
        assert not fast, f"{path}: the fast path read what the round-trip loader refuses"
        return
    if fast:
        assert _shape(data, []) == _shape(slow, [])


def test_most_card_files_take_the_fast_path():
    cards = [p for p in FILES if p.parts[len(REPO.parts)] == "cards"]
    fast = [p for p in cards if ys._fast_load(p.read_text(encoding="utf-8"))[0]]
    assert len(fast) >= len(cards) - 2, "the fast path refuses card files it should read"


@pytest.mark.parametrize("raw", [
    "a: 1\na: 2\n",  # duplicate key: ruamel words the error
    "a: !!python/object:os.system x\n",
    "<<: {a: 1}\nb: 2\n",
    "a: 2001-12-14\n",
    "- {x: a:b}\n",  # YAML 1.2 allows ':' in a flow scalar, libyaml does not
    "a: [1, 2\n",
    "a: 1\n---\nb: 2\n",
])
def test_what_the_fast_path_hands_over(raw: str):
    assert ys._fast_load(raw)[0] is False
    with contextlib.suppress(DiagnosticError):  # the round-trip loader's own diagnostic
        ys.loads(raw)


_scalars = st.one_of(
    st.integers(-10**6, 10**6), st.booleans(), st.none(),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=12),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True), inner, max_size=4),
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(_values, st.booleans())
def test_generated_documents_read_the_same_both_ways(value, flow: bool):
    import io

    from ruamel.yaml import YAML

    y = YAML()
    y.default_flow_style = flow
    buf = io.StringIO()
    y.dump({"doc": value}, buf)
    raw = buf.getvalue()
    fast, data = ys._fast_load(raw)
    if fast:
        assert _shape(data, []) == _shape(_round_trip(raw), [])


@settings(max_examples=100, deadline=None)
@given(_values, st.sampled_from([None, 2]))
def test_json_reads_the_same_both_ways_and_fast(value, indent):
    """JSON (a forest file as a record's last line writes it) is YAML whose keys are all quoted:
    the fast path reads it, and as the round-trip loader does."""
    import json

    raw = json.dumps({"doc": value}, indent=indent, ensure_ascii=False)
    fast, data = ys._fast_load(raw)
    assert fast, raw
    assert _shape(data, []) == _shape(_round_trip(raw), [])


@pytest.mark.parametrize("key", [False, True])
def test_a_merged_key_is_placed_at_its_merge(key: bool):
    # `span` of a key a merge brought in ended in KeyError (beside keys of the mapping's own) and
    # TypeError (the mapping has no key of its own)
    doc = ys.loads("base: &b {card: oak}\nplayers:\n  - name: Ana\n    <<: *b\n  - {<<: *b}\n")
    first, second = doc.span(["players", 0, "card"], key=key), doc.span(["players", 1, "card"],
                                                                        key=key)
    assert (first.line, first.col) == (4, 5)
    assert (second.line, second.col) == (5, 6)
    own = doc.span(["players", 0, "name"], key=key)
    assert (own.line, own.col) == (3, 5 if key else 11)


@pytest.mark.parametrize(("raw", "col"), [
    ("edition: !!bool base\n", 10), ("edition: !!int x\n", 10), ("edition: !!float name\n", 10),
    ("- !!float name: Ana\n", 3)])
def test_a_plain_tag_its_value_does_not_fit(raw: str, col: int):
    with pytest.raises(DiagnosticError) as exc:
        ys.loads(raw, "f.yaml")
    (d,) = exc.value.diagnostics
    assert (d.code, d.span.line, d.span.col) == ("YAML-TAG", 1, col)


def test_a_plain_tag_its_value_fits_still_loads():
    doc = ys.loads("a: !!bool true\nb: !!int 3\nc: !!float 1.5\nd: !!str 7\n")
    assert (doc.data["a"], doc.data["b"], doc.data["c"], doc.data["d"]) == (True, 3, 1.5, "7")
