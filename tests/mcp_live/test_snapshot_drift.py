"""Snapshots (stable bytes whatever the server's order) and drift (added, removed, changed; order never counts)."""

from __future__ import annotations

import json

from toolsense.mcp_live.client import Listing, StdioTarget
from toolsense.mcp_live.drift import drift_findings, first_difference
from toolsense.mcp_live.snapshot import sanitise, server_file_name, snapshot_text


def _listing(tools: list[object], name: str | None = "My Server/2") -> Listing:
    return Listing(StdioTarget("/usr/bin/node", ("server.js",)), server_name=name, server_version="1.0", tools=tools)


def test_snapshot_bytes_do_not_depend_on_the_servers_order() -> None:
    a = {
        "inputSchema": {"required": ["x"], "properties": {"x": {"type": "string"}, "a": {}}, "type": "object"},
        "name": "b",
    }
    b = {"name": "a", "description": "A.", "inputSchema": {"type": "object"}}
    one = snapshot_text(_listing([a, b]))
    two = snapshot_text(_listing([b, json.loads(json.dumps(a))]))
    assert one == two
    data = json.loads(one)
    assert [t["name"] for t in data["tools"]] == ["a", "b"]
    assert list(data["tools"][1]["inputSchema"]) == ["type", "properties", "required"]
    assert list(data["tools"][1]["inputSchema"]["properties"]) == ["x", "a"]  # the parameters' own order
    assert one.endswith("}\n")


def test_file_names() -> None:
    assert server_file_name(_listing([])) == "My-Server-2.tools.json"
    assert server_file_name(_listing([], name=None)) == "node.tools.json"
    assert sanitise("../../etc/passwd") == "etc-passwd"
    assert sanitise("") == "server"


def test_drift() -> None:
    committed = [
        {"name": "keep", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}},
        {"name": "gone", "inputSchema": {"type": "object"}},
        {"name": "flag", "inputSchema": {"type": "object", "properties": {"on": {"const": True}}}},
    ]
    live = [
        {"inputSchema": {"properties": {"x": {"type": "string"}}, "type": "object"}, "name": "keep"},
        {"name": "flag", "inputSchema": {"type": "object", "properties": {"on": {"const": 1}}}},
        {"name": "new", "inputSchema": {"type": "object"}},
    ]
    found = [(f.code, f.pointer, f.message) for f in drift_findings(committed, live)]
    assert found == [
        (
            "TS925",
            ("tools",),
            "The server lists 1 tool this snapshot lacks: 'new' (run with --update-snapshot to accept)",
        ),
        (
            "TS926",
            ("tools", 1, "name"),
            "Tool 'gone' is no longer listed by the server (run with --update-snapshot to accept)",
        ),
        (
            "TS927",
            ("tools", 2, "inputSchema", "properties", "on", "const"),
            "Tool 'flag' changed: inputSchema.properties.on.const is 1 on the server, true here "
            "(breaking: 1 enum value removed; additive: 1 enum value added; run with --update-snapshot to accept)",
        ),
    ]


def test_first_difference_of_added_and_removed_keys() -> None:
    assert first_difference({"a": 1}, {"a": 1}) is None
    assert first_difference({"a": 1, "b": 2}, {"a": 1}) == (("b",), 2, None, True)
    assert first_difference({"a": 1}, {"a": 1, "c": 3}) == (("c",), None, 3, False)
    assert first_difference([1, 2], [1, 2, 3]) == ((), [1, 2], [1, 2, 3], True)
