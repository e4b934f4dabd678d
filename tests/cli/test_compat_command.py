"""`toolsense compat`: the matrix of tools × targets, exact in text, JSON and Markdown on a hand-made file, its exit
status, and a run over the wild corpus's servers (no crash; a few verdicts pinned)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from checking import CORPUS
from clirun import run_cli

from toolsense.cli import main

NOTES = """{
  "tools": [
    {
      "name": "search_notes",
      "description": "Search the notes by text.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "query": {"type": "string", "description": "What to look for"},
          "mode": {"const": "fast", "description": "How to search"}
        },
        "required": ["query"]
      }
    },
    {
      "name": "tag_notes",
      "description": "Tag several notes at once.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "ids": {"type": "array", "description": "Note ids"},
          "span": {"type": "array", "items": [{"type": "integer"}, {"type": "integer"}], "description": "Range"}
        },
        "required": ["ids"]
      }
    }
  ]
}
"""


@pytest.fixture
def notes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "notes.tools.json").write_text(NOTES, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "notes.tools.json"


def compat(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["compat", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


TEXT = """\
2 tools × 4 targets (✓ accepted, ~ changed, ✗ rejected, ? unknown; docs/compat.md)

tool                            1  2  3  4
notes.tools.json search_notes   ✓  ✗  ✓  ?
notes.tools.json tag_notes      ✗  ✗  ✗  ?

 1 claude-code (Claude Code): 1 accepted, 1 rejected
 2 gemini-api (Gemini API): 2 rejected
 3 vscode-mcp (VS Code MCP): 1 accepted, 1 rejected
 4 cursor (Cursor): 2 unknown

✗ notes.tools.json search_notes gemini-api /properties/mode/const: Invalid JSON payload received. Unknown name \
"const" at 'tools[0].function_declarations[N].parameters.properties[1].value': Cannot find field.
✗ notes.tools.json tag_notes claude-code /properties/span/items: tools.N.custom.input_schema: JSON schema is \
invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use \
at https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview.
✗ notes.tools.json tag_notes gemini-api /properties/span/items: `items` must be one Schema in the Gemini API's \
`parameters`, not a list (documented: Schema.items) (+1 more)
✗ notes.tools.json tag_notes vscode-mcp /properties/ids: Failed to validate tool mcp_<server>_tag_notes: Error: \
tool parameters array type must have items. Please open a Github issue for the MCP server or extension which \
provides this tool
"""


def test_text_matrix_exactly(notes: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = compat(capsys, "notes.tools.json", "--targets", "claude-code,gemini-api,vscode-mcp,cursor")
    assert (code, err) == (1, "")  # targets chosen and one rejects: a CI gate
    assert out == TEXT


MARKDOWN = """\
| tool | `claude-code` | `gemini-api` | `vscode-mcp` | `cursor` |
|---|:---:|:---:|:---:|:---:|
| `search_notes` (notes.tools.json) | ✅ | ❌ | ✅ | ❔ |
| `tag_notes` (notes.tools.json) | ❌ | ❌ | ❌ | ❔ |

✅ accepted · ⚠️ changed · ❌ rejected · ❔ unknown (no evidence either way): docs/compat.md

- `search_notes` rejected by `gemini-api` at `/properties/mode/const`: Invalid JSON payload received. Unknown name \
"const" at 'tools[0].function_declarations[N].parameters.properties[1].value': Cannot find field.
- `tag_notes` rejected by `claude-code` at `/properties/span/items`: tools.N.custom.input_schema: JSON schema is \
invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use \
at https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview.
- `tag_notes` rejected by `gemini-api` at `/properties/span/items`: `items` must be one Schema in the Gemini \
API's `parameters`, not a list (documented: Schema.items) (+1 more)
- `tag_notes` rejected by `vscode-mcp` at `/properties/ids`: Failed to validate tool mcp_<server>_tag_notes: Error: \
tool parameters array type must have items. Please open a Github issue for the MCP server or extension which \
provides this tool
"""


def test_markdown_matrix_exactly(notes: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = compat(
        capsys, "notes.tools.json", "--targets", "claude-code,gemini-api,vscode-mcp,cursor", "--format", "markdown"
    )
    assert code == 1
    assert out == MARKDOWN


VSCODE_SOURCE = (
    "https://github.com/microsoft/vscode/blob/0052d689f910e056718b44fdecc7a5e1ad2c3b66/"
    "src/vs/workbench/contrib/mcp/common/mcpServer.ts"
)
UNKNOWN = {"verdict": "unknown", "basis": "no evidence about this tool's schema at this target either way"}
JSON_REPORT = {
    "targets": [
        {
            "id": "vscode-mcp",
            "label": "VS Code MCP",
            "what": "VS Code's MCP client and agent mode, before any model sees the tool",
        },
        {"id": "cursor", "label": "Cursor", "what": "Cursor's MCP client"},
    ],
    "tools": [
        {
            "file": "notes.tools.json",
            "name": "search_notes",
            "pointer": "/tools/0",
            "verdicts": {
                "vscode-mcp": {
                    "verdict": "accepted",
                    "basis": f"documented contract: {VSCODE_SOURCE} (read 2026-12-07)",
                },
                "cursor": UNKNOWN,
            },
        },
        {
            "file": "notes.tools.json",
            "name": "tag_notes",
            "pointer": "/tools/1",
            "verdicts": {
                "vscode-mcp": {
                    "verdict": "rejected",
                    "findings": [
                        {
                            "verdict": "rejected",
                            "pointer": "/properties/ids",
                            "message": "Failed to validate tool mcp_<server>_tag_notes: Error: tool parameters array "
                            "type must have items. Please open a Github issue for the MCP server or extension which "
                            "provides this tool",
                            "rule": "vscode-array-items",
                            "documented": False,
                            "sources": [
                                {"url": "https://github.com/microsoft/vscode/issues/246119", "date": "2025-04-08"},
                                {
                                    "url": "https://github.com/modelcontextprotocol/php-sdk/issues/151",
                                    "date": "2025-11-15",
                                    "fixture": "vscode-mcp/array-missing-items-php-sdk",
                                },
                                {
                                    "url": "https://github.com/vespo92/SolidworksMCP-TS/pull/30",
                                    "date": "2026-09-17",
                                    "fixture": "vscode-mcp/array-missing-items-solidworks",
                                },
                            ],
                        }
                    ],
                },
                "cursor": UNKNOWN,
            },
        },
    ],
    "summary": {
        "vscode-mcp": {"accepted": 1, "changed": 0, "rejected": 1, "unknown": 0},
        "cursor": {"accepted": 0, "changed": 0, "rejected": 0, "unknown": 2},
    },
}


def test_json_report_exactly(notes: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = compat(capsys, "notes.tools.json", "--targets", "vscode-mcp,cursor", "--format", "json")
    assert code == 1
    assert json.loads(out) == JSON_REPORT
    assert out.endswith("}\n") and out.count("\n") > 50  # indented, one value per line


def test_every_target_without_a_choice_and_exit_zero(notes: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = compat(capsys, "--format", "json")
    assert code == 0  # nothing chosen: a report, not a gate
    report = json.loads(out)
    assert len(report["targets"]) == 15 and [t["name"] for t in report["tools"]] == ["search_notes", "tag_notes"]


def test_the_settings_targets_choose_the_columns(notes: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (notes.parent / "toolsense.toml").write_text('targets = ["claude-code"]\n', encoding="utf-8")
    code, out, _ = compat(capsys, "notes.tools.json")
    assert code == 1
    assert out.splitlines()[0] == "2 tools × 1 targets (✓ accepted, ~ changed, ✗ rejected, ? unknown; docs/compat.md)"


def test_an_unknown_target_is_a_usage_error(notes: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = compat(capsys, "notes.tools.json", "--targets", "claude-code,clade-code")
    assert (code, out) == (2, "")
    assert err.startswith("toolsense compat: unknown target 'clade-code'; the targets are: anthropic, ")


def test_no_tools_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "package.json").write_text('{"name": "x"}', encoding="utf-8")
    assert compat(capsys, ".") == (0, "toolsense compat: no tool definitions found\n", "")


@pytest.mark.corpus
@pytest.mark.timeout(300)
@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not here ({CORPUS})")
def test_the_wild_corpus_servers_end_to_end() -> None:
    done = run_cli(["compat", str(CORPUS / "mcp-proxy-snapshots"), "--format", "json"], timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    tools = {(Path(t["file"]).name, t["name"]): t["verdicts"] for t in report["tools"]}
    assert len(tools) == 83  # the eight captured servers' tools/list results
    read_file = tools[("server-filesystem.json", "read_file")]
    # Draft-07 `$schema` on every filesystem tool: fine for Anthropic, Gemini's proto has no such field.
    assert read_file["anthropic"]["verdict"] == read_file["claude-code"]["verdict"] == "accepted"
    assert read_file["gemini-api"]["verdict"] == "rejected"
    assert read_file["gemini-api"]["findings"][0]["message"] == (
        'Invalid JSON payload received. Unknown name "$schema" at '
        "'tools[0].function_declarations[N].parameters': Cannot find field."
    )
    fetch = tools[("mcp-server-fetch.json", "fetch")]
    assert [f["pointer"] for f in fetch["anthropic-strict"]["findings"]][:2] == ["/", "/properties/url/minLength"]
    assert all(verdicts["cursor"]["verdict"] == "unknown" for verdicts in tools.values())
    done = run_cli(["compat", str(CORPUS), "--format", "markdown"], timeout=300)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert done.stdout.startswith("| tool | `anthropic` |")
