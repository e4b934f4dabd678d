"""Every number RFC 8259 allows reads as a number: in the editor (tree-sitter's tree, whole and edited), in the
large-file outline (and the unit subtrees parsed from it), and in `toolsense check`. tree-sitter-json 0.24.8
misreads `e+` (`document.exponents`); `1e+16` is what `json.dumps(1e16)` writes."""

from __future__ import annotations

import json
from typing import Any

from clirun import run_cli
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_doc_outline import assert_same

from toolsense.document.document import Document
from toolsense.document.jsontree import to_value

RFC_8259_NUMBER = r"\A-?(0|[1-9][0-9]{0,18})(\.[0-9]{1,18})?([eE][+-]?[0-9]{1,3})?\Z"
"""RFC 8259 §6: `[ minus ] int [ frac ] [ exp ]`, `exp = e [ minus / plus ] 1*DIGIT`."""

FORMS = [
    sign + whole + fraction + exponent
    for sign in ("", "-")
    for whole in ("0", "7", "10")
    for fraction in ("", ".5", ".05")
    for exponent in ("", "e5", "E5", "e+5", "E+5", "e-5", "E-05", "e+0", "e+308")
]
"""Every shape RFC 8259's grammar gives a number (sign, integer part, fraction, each form of exponent)."""


def _tool(number: str) -> bytes:
    """A tool holding the number as a default, an enum member, an example value and a bound."""
    return (
        '[{"name": "n", "description": "Takes a number.", "input_schema": {"type": "object", "properties": '
        f'{{"x": {{"type": "number", "description": "The number.", "default": {number}, "enum": [{number}, 1], '
        f'"maximum": {number}}}}}, "additionalProperties": false}}, "input_examples": [{{"x": {number}}}]}}]'
    ).encode()


def _assert_read(number: str) -> None:
    data = _tool(number)
    expected = json.loads(data)
    document = Document("file:///w/n.tools.json", bytearray(data))
    assert not document.tree.root_node.has_error, document.tree.root_node
    assert to_value(document.tree.root_node) == expected
    diagnostics = assert_same(data, "n.tools.json")  # the outline and its unit subtrees read it alike
    assert "TS001" not in {d[1] for d in diagnostics}, diagnostics


@settings(max_examples=60, deadline=None)
@given(st.from_regex(RFC_8259_NUMBER))
@example("1e+16")
@example("-1.5E+10")
@example("0.5e+0")
def test_every_rfc_8259_number_reads_as_a_number(number: str) -> None:
    _assert_read(number)


def test_an_exponent_sign_typed_in_the_editor_reads_as_a_number() -> None:
    data = _tool("1e16")
    document = Document("file:///w/n.tools.json", bytearray(data))
    assert not document.tree.root_node.has_error
    for at in [m for m in range(len(data)) if data.startswith(b"1e16", m)][::-1]:
        document.replace_bytes(at + 2, at + 2, b"+")
        document.reparse()  # incremental, from the tree before the edit
        assert not document.tree.root_node.has_error, document.tree.root_node
    assert to_value(document.tree.root_node) == json.loads(bytes(document.data)) == json.loads(_tool("1e+16"))


def test_look_alikes_in_strings_and_comments_keep_their_text() -> None:
    data = b'// 1e+5\n{"name": "v1e+2", "description": "1e+16 x", "n": [1e+2, "2E+3"]}'
    document = Document("file:///w/x.json", bytearray(data))
    root = document.tree.root_node
    assert not root.has_error
    value: Any = to_value(root)
    assert value == {"name": "v1e+2", "description": "1e+16 x", "n": [100.0, "2E+3"]}


def test_a_malformed_exponent_is_still_a_syntax_error() -> None:
    for text in (b"[1e+]", b"[1e+ 2]", b"[+1]", b"[1e++2]"):
        assert Document("file:///w/x.json", bytearray(text)).tree.root_node.has_error, text


def test_the_cli_reads_every_form(tmp_path: Any) -> None:
    units = [_tool(number)[1:-1].replace(b'"n"', f'"n{i}"'.encode(), 1) for i, number in enumerate(FORMS)]
    tools = b"[" + b",".join(units) + b"]"
    (tmp_path / "numbers.tools.json").write_bytes(tools)
    done = run_cli(["check", "--format", "json", "numbers.tools.json"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "TS001" not in done.stdout
