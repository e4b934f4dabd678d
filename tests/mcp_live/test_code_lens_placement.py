"""The "Check this server's tools" lenses of a large MCP configuration are placed in one pass (issue 26, M9): a
search from the root per entry read every key before it, 5,000 servers took a minute on the event loop."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from toolsense.document import jsontree
from toolsense.document.document import Document
from toolsense.lsp.mcp_code_lens import CHECK_COMMAND, server_lenses


def test_each_entry_gets_its_lens_on_its_key_reading_each_key_about_once(monkeypatch: pytest.MonkeyPatch) -> None:
    count = 2000
    servers = {f"s{i}": {"type": "stdio", "command": "node", "args": ["x.js", str(i)]} for i in range(count)}
    text = json.dumps({"servers": servers}, indent=2)
    document = Document("file:///ws/.vscode/mcp.json", bytearray(text.encode()))
    document.outline  # noqa: B018 - built before counting
    reads = 0
    real: Callable[[Any], str | None] = jsontree.pair_key

    def counted(pair: Any) -> str | None:
        nonlocal reads
        reads += 1
        return real(pair)

    monkeypatch.setattr(jsontree, "pair_key", counted)
    lenses = server_lenses(document, json.loads(text), "vscode", "file:///ws/.vscode/mcp.json")
    assert lenses is not None and len(lenses) == count
    lines = text.splitlines()
    for index in (0, 1, count // 2, count - 1):
        lens = lenses[index]
        assert lens.command is not None and lens.command.command == CHECK_COMMAND
        assert lens.command.arguments == ["file:///ws/.vscode/mcp.json", f"s{index}"]
        line = lines[lens.range.start.line]
        assert line[lens.range.start.character : lens.range.end.character] == f'"s{index}"'
    assert reads <= 2 * count + 10  # a search per entry read about count² / 2 keys


def test_a_server_name_used_in_two_projects_gets_lenses_that_say_which_entry() -> None:
    """~/.claude.json keeps each project's servers: the same name twice, so the lens names the entry's pointer too."""
    uri = "file:///home/me/.claude.json"
    value = {
        "mcpServers": {"user": {"command": "u"}},
        "projects": {"/a": {"mcpServers": {"db": {"command": "a"}}}, "/b": {"mcpServers": {"db": {"command": "b"}}}},
    }
    text = json.dumps(value, indent=2)
    lenses = server_lenses(Document(uri, bytearray(text.encode())), value, "claude-user", uri)
    assert lenses is not None
    assert [lens.command.arguments for lens in lenses if lens.command is not None] == [
        [uri, "user"],
        [uri, "db", ["projects", "/a", "mcpServers", "db"]],
        [uri, "db", ["projects", "/b", "mcpServers", "db"]],
    ]
    lines = text.splitlines()
    assert [lines[lens.range.start.line].strip() for lens in lenses] == ['"user": {', '"db": {', '"db": {']
    assert lenses[1].range.start.line < lenses[2].range.start.line
