"""Property: each edit kind does exactly what it says on any JSON, however it is formatted.

Random JSON (objects, arrays, strings with escapes and emoji) is rendered in random styles — minified,
two/four spaces, tabs, CRLF, `//` comments after every `{`/`[` that ends a line, ASCII escapes — and a random
edit is applied where it fits. The result must parse without error, load (modulo comments) to exactly the
value the edit describes (key order included), keep every byte outside the edit, and never gain a blank line.
"""

from __future__ import annotations

import json
import re
from typing import Any

from fixing import assert_outside_unchanged, json_paths, strip_comments, value_at
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from toolsense.document.document import Document, new_parser
from toolsense.engine.findings import (
    Fix,
    FixEdit,
    InsertMembers,
    RemoveMember,
    RenameKey,
    ReplaceInString,
    ReplaceValue,
)
from toolsense.fixes import apply_edits, edits_for_fix, snippet_escape
from toolsense.fixes.text import _plain

keys = st.text(alphabet='abcé"\\/ \t😀', min_size=0, max_size=5)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-1000, 1000),
    st.text(alphabet='ab "\\\n\té😀{}', max_size=8),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=12,
)
roots = st.one_of(st.dictionaries(keys, values, min_size=1, max_size=5), st.lists(values, min_size=1, max_size=5))


def render(value: Any, style: int) -> str:
    indent: int | str | None = [None, 2, 4, "\t"][style % 4]
    text = json.dumps(value, indent=indent, ensure_ascii=style % 3 == 0)
    if indent is not None and style % 5 == 0:
        text = re.sub(r"([\[{])\n", r"\1 // note\n", text)
    if style % 2:
        text = text.replace("\n", "\r\n")
    return text + ("\n" if style % 7 else "")


def blank_lines(text: str) -> int:
    return sum(1 for line in re.split(r"\r\n|\r|\n", text)[:-1] if not line.strip())


def check_edit(value: Any, style: int, edit: FixEdit, expected: Any, snippets: bool = False) -> None:
    text = render(value, style)
    document = Document.from_text("file:///x.json", text)
    edits = edits_for_fix(document, Fix("t", (edit,)), snippets=snippets)
    assert edits is not None, (text, edit)
    new = apply_edits(document.data, edits)
    assert_outside_unchanged(bytes(document.data), new, edits)
    assert not new_parser().parse(new).root_node.has_error, new
    result = json.loads(strip_comments(new.decode("utf-8")))
    assert json.dumps(result) == json.dumps(expected), (text, new.decode())
    assert blank_lines(new.decode()) <= blank_lines(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=roots, style=st.integers(0, 209), data=st.data())
def test_remove(value: Any, style: int, data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(json_paths(value)[1:]))
    expected = json.loads(json.dumps(value))
    del value_at(expected, path[:-1])[path[-1]]
    check_edit(value, style, RemoveMember(path), expected)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=roots, style=st.integers(0, 209), new_key=keys, data=st.data())
def test_rename(value: Any, style: int, new_key: str, data: st.DataObject) -> None:
    members = [p for p in json_paths(value)[1:] if isinstance(p[-1], str)]
    assume(members)
    path = data.draw(st.sampled_from(members))
    parent = value_at(value, path[:-1])
    assume(new_key not in parent)
    expected = json.loads(json.dumps(value))
    target = value_at(expected, path[:-1])
    renamed = {(new_key if k == path[-1] else k): v for k, v in target.items()}
    target.clear()
    target.update(renamed)
    check_edit(value, style, RenameKey(path, new_key), expected)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=roots, style=st.integers(0, 209), replacement=values, pretty=st.booleans(), data=st.data())
def test_replace_value(value: Any, style: int, replacement: Any, pretty: bool, data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(json_paths(value)))
    expected = json.loads(json.dumps(value))
    if path:
        value_at(expected, path[:-1])[path[-1]] = replacement
    else:
        expected = replacement
    check_edit(value, style, ReplaceValue(path, json.dumps(replacement, indent=2 if pretty else None)), expected)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    value=roots,
    style=st.integers(0, 209),
    new=st.dictionaries(keys, values, min_size=1, max_size=3),
    snippets=st.booleans(),
    data=st.data(),
)
def test_insert(value: Any, style: int, new: dict[str, Any], snippets: bool, data: st.DataObject) -> None:
    objects = [p for p in json_paths(value) if isinstance(value_at(value, p), dict)]
    assume(objects)
    path = data.draw(st.sampled_from(objects))
    assume(not set(new) & set(value_at(value, path)))
    expected = json.loads(json.dumps(value))
    value_at(expected, path).update(new)
    members = tuple((k, json.dumps(v)) for k, v in new.items())
    # The snippet variant's placeholders default to the same values: accepting them gives the same JSON.
    snippet_members = tuple(
        (k, f"${{{i + 1}:{snippet_escape(json.dumps(v))}}}") for i, (k, v) in enumerate(new.items())
    )
    edit = InsertMembers(path, members, snippet_members)
    check_edit(value, style, edit, expected)
    if snippets:
        document = Document.from_text("file:///x.json", render(value, style))
        edits = edits_for_fix(document, Fix("t", (edit,)), snippets=True)
        assert edits is not None and all(e.snippet for e in edits if "$" in e.text)
        plain = apply_edits(document.data, [type(e)(e.start, e.end, _plain(e)) for e in edits])
        assert json.dumps(json.loads(strip_comments(plain.decode()))) == json.dumps(expected)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=roots, style=st.integers(0, 209), text=st.text(alphabet='xy"\\\n😀é', max_size=4), data=st.data())
def test_replace_in_string(value: Any, style: int, text: str, data: st.DataObject) -> None:
    strings = [p for p in json_paths(value) if isinstance(value_at(value, p), str)]
    assume(strings)
    path = data.draw(st.sampled_from(strings))
    original = value_at(value, path)
    start = data.draw(st.integers(0, len(original)))
    end = data.draw(st.integers(start, len(original)))
    expected = json.loads(json.dumps(value))
    replaced = original[:start] + text + original[end:]
    if path:
        value_at(expected, path[:-1])[path[-1]] = replaced
    check_edit(value, style, ReplaceInString(path, start, end, text), expected)
