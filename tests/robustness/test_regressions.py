"""Small, exact cases of inputs that can hang, crash or livelock a server: each found by the fuzz and
hostile-input tests, each pinned here so that it stays fixed."""

from __future__ import annotations

from pathlib import Path

import pytest
from rawrpc import ServerProcess

from toolsense.document.cursor import cursor_context
from toolsense.domain.instances import instance_issues
from toolsense.engine.context import ToolRegistry


@pytest.mark.timeout(10)
@pytest.mark.parametrize("text", [b'{"a": 1 / 2}', b'{"a": /', b'{"a": /x, "b": 1}', b"[/, /]", b"/"])
def test_a_lone_slash_does_not_hang_the_cursor_scan(text: bytes) -> None:
    """A `/` that starts no comment looped forever in the bare-word scan (hover/completion froze the server)."""
    for offset in range(len(text) + 1):
        cursor_context(text, 0, (), offset)


@pytest.mark.timeout(60)
def test_hover_and_completion_at_a_lone_slash_over_stdio(tmp_path: Path) -> None:
    text = '{"name": "get_weather", "description": / "x", "input_schema": {"type": "object"}}\n'
    path = tmp_path / "slash.tool.json"
    path.write_text(text, encoding="utf-8")
    server = ServerProcess(tmp_path, log_level="WARNING")
    try:
        server.initialize(tmp_path, {"diagnostics": {"debounce_ms": 0}})
        uri = server.open(path, text)
        at = {"line": 0, "character": text.index("/") + 1}
        server.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": at}, 30)
        server.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": at}, 30)
    finally:
        server.close()


@pytest.mark.timeout(10)
def test_no_tools_before_and_none_after_is_no_registry_change() -> None:
    """Two open files without tools re-checked each other forever: set_file(uri, []) counted as a change."""
    registry = ToolRegistry()
    version = registry.version
    assert registry.set_file("file:///w/a.json", []) is False
    assert registry.remove_file("file:///w/b.json") is False
    assert registry.version == version


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("schema", "value"),
    [
        ({"type": "integer", "maximum": None}, 7),
        ({"type": "integer", "minimum": "5"}, 7),
        ({"type": "string", "maxLength": "x"}, "abc"),
        ({"type": "array", "minItems": [], "items": {"type": "string"}}, ["x"]),
        ({"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/a"}}}, 1),
    ],
)
def test_an_invalid_schema_cuts_a_value_check_short_instead_of_crashing(
    schema: dict[str, object], value: object
) -> None:
    result = instance_issues(schema, "anthropic", value)
    assert result.cut_short, result
