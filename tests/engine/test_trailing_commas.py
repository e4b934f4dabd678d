"""Trailing commas: accepted where the file's reader is VS Code's JSONC parser, a syntax error elsewhere, and never
read as a phantom element.

VS Code reads `.vscode/mcp.json` (and every `.jsonc` file) with its JSONC parser, which takes a comma before `]`
or `}`: such files in real repositories work, so toolsense must not call them broken. Claude Desktop's
`claude_desktop_config.json` is read with JSON.parse, where the same comma is an error. Either way, error
recovery's invented value after the comma is not an element (it read as `0`, and `args` got "expected string,
received integer").
"""

from __future__ import annotations

import pytest
from checking import check

MCP_CONFIG = """{
  "servers": {
    "playwright": {
      "type": "stdio",
      "command": "npm",
      // what the arguments mean: README
      "args": ["run", "start-stdio",],
    },
  },
}
"""


@pytest.mark.parametrize(
    "uri",
    [
        "file:///work/repo/.vscode/mcp.json",
        "file:///work/repo/.vscode/settings.jsonc",
        "file:///work/repo/tools/weather.tools.jsonc",
    ],
)
def test_a_jsonc_reader_accepts_trailing_commas(uri: str) -> None:
    text = MCP_CONFIG if "mcp.json" in uri else '[{"name": "w", "input_schema": {"type": "object",},},]'
    assert [d for d in check(text, None, uri=uri) if d.code == "TS001" or d.severity == "error"] == []


def test_a_plain_json_reader_rejects_them_once_each_and_reads_no_phantom_value() -> None:
    text = MCP_CONFIG.replace('"servers"', '"mcpServers"').replace('      "type": "stdio",\n', "")
    found = check(text, None, uri="file:///home/u/.config/Claude/claude_desktop_config.json")
    assert [(d.code, d.severity, d.message, d.range, d.text) for d in found] == [
        ("TS001", "error", "Syntax error: trailing comma", (5, 35, 5, 36), ","),
        ("TS001", "error", "Syntax error: trailing comma", (5, 37, 5, 38), ","),
        ("TS001", "error", "Syntax error: trailing comma", (6, 5, 6, 6), ","),
        ("TS001", "error", "Syntax error: trailing comma", (7, 3, 7, 4), ","),
    ]


def test_a_trailing_comma_in_an_array_adds_no_element() -> None:
    text = '[{"name": "w", "input_schema": {"type": "object", "required": ["a",], "properties": {"a": {}}}},]'
    found = check(text, "tool", uri="file:///work/repo/tools/w.json")
    # Only the two commas: nothing about an invented `0` in `required` (not a string, not a property).
    assert [(d.code, d.range, d.text) for d in found if d.severity == "error"] == [
        ("TS001", (0, 66, 0, 67), ","),
        ("TS001", (0, 95, 0, 96), ","),
    ]
