"""A JSON document inside a JSON string: its nodes answer at the file's byte offsets, through every kind of escape."""

from __future__ import annotations

import json

import pytest

from toolsense.document.document import Document, new_parser
from toolsense.document.embedded import MAX_EMBEDDED_BYTES, EmbeddedNode, Embedding, embedded_document
from toolsense.document.jsontree import document_values, locate, string_value


def _embedded(inner: object, before: str = '{"tools": ') -> tuple[bytes, EmbeddedNode]:
    """The file `{"tools": "<inner as JSON text>"}` and the embedded root value of its string."""
    text = before + json.dumps(json.dumps(inner)) + "}"
    document = Document.from_text("file:///x.json", text)
    root = document.root.named_children[0]
    string = root.named_children[0].child_by_field_name("value")
    assert string is not None
    embedded = embedded_document(string)
    assert embedded is not None
    (value,) = document_values(embedded)
    assert isinstance(value, EmbeddedNode)
    return bytes(document.data), value


@pytest.mark.parametrize(
    ("inner", "key"),
    [
        ({"a": 1, "b": "x"}, "b"),
        ({"q": 'say "hi"\n', "b": "x"}, "b"),  # \" and \n before the key: two file bytes for one
        ({"q": "é☀", "b": "x"}, "b"),  # json.dumps writes \u00e9 and \u2600: six bytes for two and three
        ({"q": "😀", "b": "x"}, "b"),  # a surrogate pair: twelve bytes for four
    ],
)
def test_a_member_is_found_at_its_bytes_in_the_file(inner: dict[str, str], key: str) -> None:
    data, root = _embedded(inner)
    location = locate(root, (key,))
    assert location.complete and location.key is not None
    assert data[location.key.start_byte : location.key.end_byte] == b'\\"b\\"'
    assert data[location.value.start_byte : location.value.end_byte] == b'\\"x\\"'
    assert string_value(location.value) == "x"
    assert location.value.text == b'"x"'  # a node's text is the embedded document's own JSON


def test_a_lone_surrogate_counts_three_bytes() -> None:
    text = '{"tools": "{\\"q\\": \\"\\\\ud800\\", \\"b\\": 1}"}'
    document = Document.from_text("file:///x.json", text)
    string = document.root.named_children[0].named_children[0].child_by_field_name("value")
    assert string is not None
    embedded = embedded_document(string)
    assert embedded is not None
    value = locate(embedded, ("b",)).value
    assert text.encode()[value.start_byte : value.end_byte] == b"1"


def test_characters_inside_an_embedded_string_map_through_the_escapes() -> None:
    data, root = _embedded({"d": 'a"b{{x}}'})
    value = locate(root, ("d",)).value
    assert isinstance(value, EmbeddedNode)
    start, end = value.content_offsets(3, 8)  # {{x}} in the decoded description
    assert data[start:end] == b"{{x}}"
    start, end = value.content_offsets(0, 3)  # a"b: the quote is \\\" in the file (three escapes deep)
    assert data[start:end] == b'a\\\\\\"b'


def test_strings_too_large_or_not_strings_are_not_read() -> None:
    large = json.dumps(json.dumps([{"name": "t" * MAX_EMBEDDED_BYTES}]))
    document = Document.from_text("file:///x.json", '{"tools": ' + large + "}")
    string = document.root.named_children[0].named_children[0].child_by_field_name("value")
    assert string is not None
    assert embedded_document(string) is None
    assert embedded_document(document.root.named_children[0]) is None


@pytest.mark.parametrize(
    ("body", "expected", "end_of_first"),
    [
        ("abc", [1, 2, 3, 4], 2),  # no escape: byte for byte after the quote
        ('a\\"b', [1, 2, 4, 5], 2),
        ("é\\u00e9x", [1, 2, 3, 3, 9, 10], 2),  # a start inside an escaped character maps to the escape's start
        ("\\ud83d\\ude00z", [1, 1, 1, 1, 13, 14], 13),  # an end inside it, to the escape's end
        ("\\ud800q", [1, 1, 1, 7, 8], 7),
        ("\\n\\t", [1, 3, 5], 3),
    ],
)
def test_every_decoded_byte_maps_to_its_character_in_the_token(
    body: str, expected: list[int], end_of_first: int
) -> None:
    token = ('"' + body + '"').encode()
    embedding = Embedding(token, 10, json.loads(token), new_parser)
    assert [embedding.outer(i) - 10 for i in range(len(embedding.text) + 1)] == expected
    assert embedding.outer(1, end=True) - 10 == end_of_first
