"""`toolsense check --stats`: each tool's tokens, the total per file, per MCP server and overall (on stderr; the
report on stdout stays what --format says)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run

OPENAI = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the weather.",
            "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
        },
    }
]
SNAPSHOT = {
    "serverInfo": {"name": "demo", "version": "1.0.0"},
    "tools": [
        {"name": "ping", "description": "Check that the server answers.", "inputSchema": {"type": "object"}},
        {"name": "echo", "description": "Return the text it is given.", "inputSchema": {"type": "object"}},
    ],
}


def test_stats_table(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "weather.openai.tools.json").write_text(json.dumps(OPENAI), encoding="utf-8")
    (tmp_path / "demo.tools.json").write_text(json.dumps(SNAPSHOT), encoding="utf-8")
    _, out, err = run(capsys, "--stats", "--format", "json", ".")
    json.loads(out)  # the report alone on stdout
    table = [line for line in err.splitlines() if "files/s" not in line]
    assert table == [
        "toolsense: tokens per tool (o200k_base; ≈ marks an estimate: exact for OpenAI dialects only)",
        "file / tool                         tokens",
        "demo.tools.json (2 tools)              ≈41",
        "  ping                                 ≈20",
        "  echo                                 ≈21",
        "weather.openai.tools.json (1 tool)      34",
        "  get_weather                           34",
        "server demo (2 tools)                  ≈41",
        "total: 3 tools in 2 files              ≈75",
    ]
