"""Cursor context: pointer path, key or value, partial text — on complete and on half-typed JSON.

`|` marks the cursor in each text.
"""

from __future__ import annotations

import pytest

from toolsense.document.cursor import CursorContext, cursor_context


def at(marked_text: str, base: tuple[str | int, ...] = (), scan_from: str | None = None) -> CursorContext:
    index = marked_text.index("|")
    text = marked_text[:index] + marked_text[index + 1 :]
    data = text.encode()
    start = data.index(scan_from.encode()) if scan_from else 0
    return cursor_context(data, start, base, len(text[:index].encode()))


def span(marked_text: str, context: CursorContext) -> str:
    """The text the completion would replace."""
    index = marked_text.index("|")
    data = (marked_text[:index] + marked_text[index + 1 :]).encode()
    return data[context.replace_start : context.replace_end].decode()


@pytest.mark.parametrize(
    ("text", "slot", "pointer", "partial", "replaced", "in_string"),
    [
        # complete JSON
        ('{"name": "x", "input_schema": {"type": "|"}}', "value", ("input_schema", "type"), "", '""', True),
        ('{"type": "ob|ject"}', "value", ("type",), "ob", '"object"', True),
        ('{"ty|pe": "object"}', "key", (), "ty", '"type"', True),
        ('{"type": |}', "value", ("type",), "", "", False),
        ('{"a": 1, |}', "key", (), "", "", False),
        ('{"a": [1, 2, |]}', "value", ("a", 2), "", "", False),
        ('{"a": tr|ue}', "value", ("a",), "tr", "true", False),
        # half-typed: unclosed string, truncated file, missing comma
        ('{"na|', "key", (), "na", '"na', True),
        ('{"a": {"b": "x|', "value", ("a", "b"), "x", '"x', True),
        ('{"a": 1 "b|', "key", (), "b", '"b', True),
        ('{"a": 1 "b": |', "value", ("b",), "", "", False),
        ('{"a":|', "value", ("a",), "", "", False),
        ('{"a": tr|', "value", ("a",), "tr", "tr", False),
        ('[{"a": 1}, {"b": |', "value", (1, "b"), "", "", False),
        ('{"a": [{"b": 1}, {"c": |', "value", ("a", 1, "c"), "", "", False),
        (
            '{"tools": [{"name": "x", "input_schema": {"type": "object", "properties": {"a": {"ty|',
            "key",
            ("tools", 0, "input_schema", "properties", "a"),
            "ty",
            '"ty',
            True,
        ),
        ('{"x": 1,\n  "|\n  "y": 2}', "key", (), "", '"', True),
        # comments between array items and members
        ('[1, /* c */ 2, // x\n {"a": |}]', "value", (2, "a"), "", "", False),
        ('{"a": 1, /* x */ "b": |', "value", ("b",), "", "", False),
        # escapes and non-ASCII before the cursor
        ('{"a\\"b": |', "value", ('a"b',), "", "", False),
        ('{"a": "x\\"y|"}', "value", ("a",), 'x"y', '"x\\"y"', True),
        ('{"é😀": {"k": "東|', "value", ("é😀", "k"), "東", '"東', True),
    ],
)
def test_cursor_context(
    text: str, slot: str, pointer: tuple[str | int, ...], partial: str, replaced: str, in_string: bool
) -> None:
    context = at(text)
    assert (context.slot, context.pointer, context.partial, context.in_string) == (slot, pointer, partial, in_string)
    assert span(text, context) == replaced


def test_existing_keys_before_and_after_the_cursor() -> None:
    context = at('{"a": 1, |, "b": {"nested": 1}, "c": 2}')
    assert context.slot == "key"
    assert context.existing_keys == frozenset({"a", "b", "c"})  # not the nested one
    typing = at('{"a": 1, "na|", "b": 2}')
    assert typing.existing_keys == frozenset({"a", "b"})  # the key being typed is not "existing"


def test_cursor_inside_a_comment_or_outside_the_value() -> None:
    assert at('{"a": 1, // co|mment\n}').slot == "none"
    assert at('{"a": 1 /* x| */}').slot == "none"
    assert at('{"a": 1}|').slot == "none"
    assert at('|{"a": 1}').slot == "value"  # before the value: the value itself (pointer = base)


def test_scan_from_a_unit_start_with_its_pointer() -> None:
    text = '{"tools": [{"name": "a"}, {"name": "b", "input_schema": {"type": "|'
    context = at(text, base=("tools", 1), scan_from='{"name": "b"')
    assert context.pointer == ("tools", 1, "input_schema", "type")
    assert context.slot == "value"


def test_string_start_and_container() -> None:
    context = at('{"a": ["x", "y|"]}')
    assert context.container == "array"
    assert context.pointer == ("a", 1)
    assert context.string_start == 12
    assert context.key == 1
