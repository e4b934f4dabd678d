"""JSON pointer → ranges of the key and of the value, resolved lazily along the path."""

from __future__ import annotations

from positions import span

from toolsense.document.document import Document
from toolsense.document.jsontree import MAX_DEPTH, TooDeep, locate, to_value

TEXT = """{
  "name": "weather 😀",
  "input_schema": {
    "type": "object",
    "properties": {"city": {"type": "string", "enum": ["Paris", "東京"]}},
    "required": ["city"]
  },
  "input_examples": [
    // a comment is no element
    {"city": "Paris"},
    /* neither is this */ {"city": "東京"}
  ]
}"""


def ranges(text: str, pointer: tuple[str | int, ...]) -> tuple[tuple[int, ...] | None, tuple[int, ...]]:
    document = Document.from_text("file:///x.json", text)
    location = locate(document.root, pointer)
    assert location.complete
    key = document.node_range(location.key) if location.key is not None else None
    value = document.node_range(location.value)

    def flat(r: object) -> tuple[int, ...]:
        return (r.start.line, r.start.character, r.end.line, r.end.character)  # type: ignore[attr-defined]

    return (flat(key) if key else None), flat(value)


def test_key_and_value_ranges_of_a_member() -> None:
    key, value = ranges(TEXT, ("input_schema", "type"))
    assert key == span(TEXT, '"type"')
    assert value == span(TEXT, '"object"')


def test_array_indices_skip_comments() -> None:
    key, value = ranges(TEXT, ("input_examples", 1, "city"))
    assert key == span(TEXT, '"city"', 3)
    assert value == span(TEXT, '"東京"', 1)
    _, element = ranges(TEXT, ("input_examples", 1))
    assert element == span(TEXT, '{"city": "東京"}')


def test_value_after_an_emoji_is_in_utf16_columns() -> None:
    text = '{"a": "😀😀", "b": 1}'
    key, value = ranges(text, ("b",))
    assert key == (0, 14, 0, 17)  # 12 characters before it, two of them astral (2 UTF-16 units each)
    assert value == (0, 19, 0, 20)


def test_crlf_and_u2028_inside_a_string() -> None:
    text = '{\r\n  "a": "x\u2028y",\r\n  "b": true\r\n}'
    key, value = ranges(text, ("b",))
    assert key == (2, 2, 2, 5)  # U+2028 starts no line
    assert value == (2, 7, 2, 11)


def test_escaped_keys_match_their_decoded_text() -> None:
    text = '{"n\\u00e4me": 1, "a\\"b": 2}'
    key, _ = ranges(text, ("näme",))
    assert key == (0, 1, 0, 12)
    key, _ = ranges(text, ('a"b',))
    assert key == (0, 17, 0, 23)


def test_duplicate_keys_resolve_to_the_last_one_like_json_parsers() -> None:
    text = '{"a": 1, "a": 2}'
    _, value = ranges(text, ("a",))
    assert value == (0, 14, 0, 15)


def test_a_missing_member_stops_at_the_deepest_existing_node() -> None:
    document = Document.from_text("file:///x.json", TEXT)
    location = locate(document.root, ("input_schema", "properties", "country", "type"))
    assert not location.complete
    assert location.resolved == 2
    assert location.value.type == "object"
    assert location.key is not None and location.key.text == b'"properties"'
    assert not locate(document.root, ("input_examples", 7)).complete
    assert not locate(document.root, ("name", "x")).complete


def test_json_lines_documents_take_the_line_index_first() -> None:
    text = '{"a": 1}\n{"a": 2}\n// a comment line\n{"a": 3}\n'
    document = Document.from_text("file:///x.json", text)
    location = locate(document.root, (2, "a"))
    assert location.complete and location.value.text == b"3"
    assert locate(document.root, (1,)).value.text == b'{"a": 2}'
    single = Document.from_text("file:///y.json", '{"a": [5]}')
    assert locate(single.root, ("a", 0)).value.text == b"5"  # one value: pointers start inside it


def test_values_wrapped_in_error_nodes_keep_their_indices() -> None:
    text = '[1 2, {"a": 1 "b": 2}]'  # two missing commas
    document = Document.from_text("file:///x.json", text)
    assert locate(document.root, (1,)).value.text == b"2"
    assert locate(document.root, (2, "a")).value.text == b"1"  # a member recovered from the ERROR node
    assert locate(document.root, (2, "b")).value.text == b"2"
    assert to_value(document.root) == [1, 2, {"a": 1, "b": 2}]


def test_to_value_is_iterative_and_bounded() -> None:
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    value = to_value(Document.from_text("file:///x.json", ok).root)
    for _ in range(MAX_DEPTH - 1):
        value = value[0]
    assert value == []
    deep = "[" * 10_000 + "]" * 10_000
    try:
        to_value(Document.from_text("file:///x.json", deep).root)
    except TooDeep as error:
        assert error.offset == MAX_DEPTH
    else:
        raise AssertionError("expected TooDeep")
