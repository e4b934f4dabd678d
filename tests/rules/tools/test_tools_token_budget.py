"""The opt-in token budget rules (TS296 tool, TS297 file, TS298 repeated subschema) and TS298's quick fix, run as
`toolsense check` runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run

ADDRESS = {
    "type": "object",
    "properties": {"street": {"type": "string", "description": "Street."}, "city": {"type": "string"}},
    "required": ["street", "city"],
    "additionalProperties": False,
}


def _ship(dialect: str) -> dict[str, object]:
    schema = {
        "type": "object",
        "properties": {"origin": ADDRESS, "destination": ADDRESS, "billing": ADDRESS},
        "required": ["origin", "destination", "billing"],
        "additionalProperties": False,
    }
    if dialect == "gemini":
        return {"name": "ship_order", "description": "Ship an order to the addresses.", "parameters": schema}
    return {"name": "ship_order", "description": "Ship an order to the addresses.", "input_schema": schema}


PING = {
    "name": "ping",
    "description": "Check that the service answers.",
    "input_schema": {"type": "object", "properties": {}, "additionalProperties": False},
}


def _project(tmp_path: Path, budgets: str, tools: list[object]) -> Path:
    (tmp_path / "toolsense.toml").write_text(f"[tokens]\n{budgets}\n", encoding="utf-8")
    path = tmp_path / "ship.tools.json"
    path.write_text(json.dumps(tools, indent=2) + "\n", encoding="utf-8")
    return path


def _findings(capsys: pytest.CaptureFixture[str], path: Path, *codes: str) -> list[tuple[str, int, str]]:
    _, out, _ = run(capsys, "--format", "json", "--config", str(path.parent / "toolsense.toml"), str(path))
    return [(d["code"], d["range"]["start"]["line"], d["message"]) for d in json.loads(out) if d["code"] in codes]


def test_tool_and_file_budgets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _project(tmp_path, "max_tool_tokens = 100\nmax_file_tokens = 150", [_ship("anthropic"), PING])
    assert _findings(capsys, path, "TS296", "TS297") == [
        (
            "TS296",
            2,
            "This tool definition costs ≈153 tokens (o200k_base estimate), over the budget of 100 "
            "(`tokens.max_tool_tokens`); it is sent with every request",
        ),
        (
            "TS297",
            2,
            "The 2 tools of this file cost ≈182 tokens (o200k_base estimate) together, over the budget of 150 "
            "(`tokens.max_file_tokens`); the heaviest is this one (≈153 tokens (o200k_base estimate))",
        ),
    ]


def test_no_budget_no_findings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _project(tmp_path, "", [_ship("anthropic"), PING])
    assert _findings(capsys, path, "TS296", "TS297", "TS298") == []


def test_repeated_subschema_moves_into_defs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _project(tmp_path, "max_tool_tokens = 1000", [_ship("anthropic")])
    found = _findings(capsys, path, "TS298")
    assert [(code, line) for code, line, _ in found] == [("TS298", 7)]
    assert found[0][2].startswith("This subschema is written out 3 times, ≈")
    status, _, err = run(capsys, "--fix", "--unsafe-fixes", "--config", str(tmp_path / "toolsense.toml"), str(path))
    assert "Fixed 1 problem in 1 file." in err and status == 0
    schema = json.loads(path.read_text(encoding="utf-8"))[0]["input_schema"]
    assert schema["properties"] == {
        "origin": {"$ref": "#/$defs/origin"},
        "destination": {"$ref": "#/$defs/origin"},
        "billing": {"$ref": "#/$defs/origin"},
    }
    assert schema["$defs"] == {"origin": ADDRESS}
    assert _findings(capsys, path, "TS298") == []


def test_not_offered_where_the_dialect_has_no_ref(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _project(tmp_path, "max_tool_tokens = 1000", {"functionDeclarations": [_ship("gemini")]})  # type: ignore[arg-type]
    assert _findings(capsys, path, "TS298") == []
