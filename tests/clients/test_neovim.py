"""An independent client: headless Neovim 0.7 (Debian's `neovim`) drives `toolsense serve` over stdio.

The Lua script (neovim_check.lua) opens a tool file with a wrong enum value in an example and an unknown key
on a line with an emoji, waits for diagnostics, asks for completion inside the example, edits the buffer through
Neovim's incremental sync and hovers. Needs `nvim` (scripts/install-test-deps.sh installs it): without it the test
is skipped, or fails when TOOLSENSE_REQUIRE_E2E=1.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.client

HERE = Path(__file__).resolve().parent

TOOL = """[
  {
    "name": "get_weather",
    "description": "Weather for a city 🌍.",
    "input_schema": {
      "type": "object",
      "properties": {
        "city": {"type": "string", "description": "City name"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Temperature unit"}
      },
      "required": ["city"],
      "additionalProperties": false
    },
    "input_examples": [{"city": "Paris", "unit": "kelvin"}],
    "note": "🌍", "bogus": 1
  }
]
"""


def _nvim() -> str:
    found = shutil.which("nvim")
    if found is None:
        message = "nvim is not installed (run scripts/install-test-deps.sh)"
        if os.environ.get("TOOLSENSE_REQUIRE_E2E") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return found


def _position(text: str, needle: str, shift: int = 0) -> tuple[int, int, int]:
    """(line, UTF-16 character, byte column) of needle + shift."""
    index = text.index(needle) + shift
    before = text[:index]
    line_text = before[before.rfind("\n") + 1 :]
    return before.count("\n"), len(line_text.encode("utf-16-le")) // 2, len(line_text.encode("utf-8"))


def test_neovim_sees_diagnostics_and_completion(tmp_path: Path) -> None:
    nvim = _nvim()
    root = tmp_path / "ws"
    (root / "tools").mkdir(parents=True)
    path = root / "tools" / "weather.tools.json"
    path.write_text(TOOL, encoding="utf-8")
    out = tmp_path / "result.json"
    complete_line, complete_char, _ = _position(TOOL, '"unit": "kelvin"', len('"unit": "k'))
    edit_line, _, edit_col = _position(TOOL, '"bogus"', len('"bogus'))
    env = {
        **os.environ,
        "TOOLSENSE_PYTHON": sys.executable,
        "TOOLSENSE_ROOT": str(root),
        "TOOLSENSE_FILE": str(path),
        "TOOLSENSE_OUT": str(out),
        "TOOLSENSE_COMPLETE_LINE": str(complete_line),
        "TOOLSENSE_COMPLETE_CHAR": str(complete_char),
        "TOOLSENSE_EDIT_LINE": str(edit_line),
        "TOOLSENSE_EDIT_COL": str(edit_col),
        "TOOLSENSE_EDIT_TEXT": "X",
        "TOOLSENSE_EDIT_EXPECT": "'bogusX'",
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    done = subprocess.run(
        [nvim, "--headless", "--clean", "-u", str(HERE / "neovim_check.lua")],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        cwd=root,
    )
    assert out.exists(), f"nvim wrote no result (exit {done.returncode}):\n{done.stdout}\n{done.stderr}"
    result = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in result, result
    assert result["steps"] == ["attached", "diagnostics", "completion", "edited", "hover"]

    unknown = next(d for d in result["diagnostics"] if d["code"] == "TS101" and "'bogus'" in d["message"])
    line, character, byte_column = _position(TOOL, '"bogus"')
    # Neovim converts the server's UTF-16 columns into byte columns: 🌍 is 2 UTF-16 units but 4 bytes.
    assert (unknown["lnum"], unknown["col"], unknown["end_lnum"], unknown["end_col"]) == (
        line,
        byte_column,
        line,
        byte_column + len('"bogus"'),
    )
    assert character != byte_column
    assert unknown["message"].startswith("Unknown property 'bogus' in Anthropic tool 'get_weather'.")
    assert unknown["source"] == "toolsense"

    labels = [item["label"] for item in result["completion"]]
    assert labels == ['"celsius"', '"fahrenheit"']
    celsius = result["completion"][0]
    assert celsius["new_text"] == '"celsius"'
    assert celsius["insert_text_format"] == 1  # plain text: Neovim 0.7 declares no snippet support
    start = _position(TOOL, '"kelvin"')[1]
    assert celsius["range"] == {
        "start": {"line": complete_line, "character": start},
        "end": {"line": complete_line, "character": start + len('"kelvin"')},
    }

    renamed = [d["message"] for d in result["after_edit"] if d["code"] == "TS101"]
    assert any("'bogusX'" in message for message in renamed), renamed
    assert "Temperature unit" in str(result.get("hover"))
