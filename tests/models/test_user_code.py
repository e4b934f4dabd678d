"""User code: registered models (`[models]` tool → "pkg.mod:Model") are imported only in trusted workspaces, in a
way that cannot block (a module that sleeps or spins at import time does not freeze diagnostics), and an import
error is a diagnostic. End to end: the real server over stdio and the CLI as a subprocess, in tmp workspaces."""

from __future__ import annotations

import json
import textwrap
import time
from pathlib import Path

import pytest
from clirun import run_cli
from hostile import tool, write_json
from rawrpc import ServerProcess

BOUND_S = 30.0
"""Diagnostics must arrive within this long even while a registered module hangs at import."""
IMPORT_TIMEOUT_S = 2

_MARK = textwrap.dedent(
    """
    from pathlib import Path as _P
    (_P(__file__).resolve().parents[1] / ("imported-" + __name__.rsplit(".", 1)[-1] + ".marker")).write_text("x")
    """
)
_MODEL = textwrap.dedent(
    """
    from pydantic import BaseModel, ConfigDict


    class Input(BaseModel):
        model_config = ConfigDict(extra="forbid")
        city: str
    """
)
MODULES = {
    "weather": _MARK + _MODEL,
    "sleepy": _MARK + "import time\ntime.sleep(60)\n" + _MODEL,
    "spinning": _MARK + "while True:\n    pass\n" + _MODEL,
    "broken": _MARK + "raise RuntimeError('database not configured')\n" + _MODEL,
}
TOOLS = {"get_weather": "weather", "sleepy_tool": "sleepy", "spinning_tool": "spinning", "broken_tool": "broken"}


def _workspace(root: Path, trusted_in_file: bool | None = None) -> Path:
    package = root / "usermods"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    for name, source in MODULES.items():
        (package / f"{name}.py").write_text(source, encoding="utf-8")
    lines = ['python_path = ["."]']
    if trusted_in_file is not None:
        lines.append(f"trusted = {'true' if trusted_in_file else 'false'}")
    lines += ["", "[limits]", f"model_import_timeout_s = {IMPORT_TIMEOUT_S}", "", "[models]"]
    lines += [f'{tool_name} = "usermods.{module}:Input"' for tool_name, module in TOOLS.items()]
    (root / "toolsense.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    schema = {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "The city."}},
        "required": ["city"],
        "additionalProperties": False,
    }
    write_json(root / "tools" / "all.json", [tool(name, schema) for name in TOOLS])
    for name in TOOLS:
        call = {"type": "tool_use", "id": f"toolu_{name}", "name": name, "input": {"city": "Paris", "extra": 1}}
        write_json(root / "calls" / f"{name}.json", call)
    return root


def _markers(root: Path) -> list[str]:
    return sorted(p.name for p in root.glob("imported-*.marker"))


@pytest.mark.timeout(120)
def test_cli_trusted_imports_bounded_and_reports_problems(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    started = time.monotonic()
    done = run_cli(["check", "--format", "json", "."], root, timeout=90)
    elapsed = time.monotonic() - started
    assert done.returncode == 1, done.stderr
    by_file: dict[str, set[str]] = {}
    for d in json.loads(done.stdout):
        by_file.setdefault(Path(d["path"]).name, set()).add(d["code"])
    assert "TS802" in by_file["sleepy_tool.json"], by_file
    assert "TS802" in by_file["spinning_tool.json"], by_file
    assert "TS801" in by_file["broken_tool.json"], by_file
    assert not by_file.get("get_weather.json", set()) & {"TS801", "TS802"}
    assert "database not configured" in done.stderr
    assert "imported-weather.marker" in _markers(root)
    assert elapsed < 60, f"the CLI took {elapsed:.0f} s with two modules hanging at import"


@pytest.mark.timeout(60)
def test_cli_untrusted_by_settings_imports_nothing(tmp_path: Path) -> None:
    root = _workspace(tmp_path, trusted_in_file=False)
    done = run_cli(["check", "--format", "json", "."], root, timeout=45)
    assert done.returncode == 1, done.stderr
    assert "not imported" in done.stderr and "trusted = false" in done.stderr
    assert _markers(root) == []  # not even in a probe process
    codes = {d["code"] for d in json.loads(done.stdout)}
    assert not codes & {"TS801", "TS802"}


@pytest.mark.timeout(120)
def test_server_untrusted_imports_nothing_and_says_why(tmp_path: Path) -> None:
    root = _workspace(tmp_path, trusted_in_file=True)  # the repository claims trust; the client decides
    server = ServerProcess(root, log_level="INFO")
    try:
        server.initialize(root, {"trusted": False, "diagnostics": {"debounce_ms": 0}})
        path = root / "calls" / "get_weather.json"
        uri = server.open(path, path.read_text(encoding="utf-8"))
        published = server.wait_diagnostics(uri, BOUND_S, lambda p: p.get("version") == 1)
        untrusted = [d for d in published["diagnostics"] if d.get("code") == "TS805"]
        assert untrusted and "not trusted" in untrusted[0]["message"], published["diagnostics"]
        # The tool's input_schema is used instead (once the workspace's tools are indexed).
        server.wait_diagnostics(uri, BOUND_S, lambda p: any("'extra'" in d["message"] for d in p["diagnostics"]))
        messages = [m["params"]["message"] for m in server.notifications("window/showMessage")]
        assert any("not imported" in m and "not trusted" in m for m in messages), messages
        server.settle()  # any (wrongly started) model load has finished: its imports would have left a marker
        assert _markers(root) == []
        assert server.process.poll() is None
    finally:
        server.close()


@pytest.mark.timeout(180)
def test_server_trusted_is_not_frozen_by_modules_that_hang(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    server = ServerProcess(root, log_level="INFO")
    try:
        server.initialize(root, {"trusted": True, "diagnostics": {"debounce_ms": 0}})
        uris = {}
        opened = time.monotonic()
        for name in TOOLS:
            path = root / "calls" / f"{name}.json"
            uris[name] = server.open(path, path.read_text(encoding="utf-8"))
        other = write_json(root / "tools" / "other.json", [tool("other_tool", {"type": "object"})])
        other_uri = server.open(other, other.read_text(encoding="utf-8"))
        # Diagnostics for every file arrive within the bound while two modules hang at import.
        for uri in [*uris.values(), other_uri]:
            server.wait_diagnostics(uri, BOUND_S, lambda p: p.get("version") == 1)
        assert time.monotonic() - opened < BOUND_S
        # Requests are answered meanwhile.
        server.request("textDocument/documentSymbol", {"textDocument": {"uri": other_uri}}, BOUND_S)

        # Once loading gives up on them, the hanging and the broken modules are diagnostics on their calls.
        def codes_of(name: str, wanted: str) -> list[str]:
            found = server.wait_diagnostics(
                uris[name], 60, lambda p: wanted in [d.get("code") for d in p["diagnostics"]]
            )
            return [d.get("code") for d in found["diagnostics"]]

        assert "TS802" in codes_of("sleepy_tool", "TS802")
        assert "TS802" in codes_of("spinning_tool", "TS802")
        assert "TS801" in codes_of("broken_tool", "TS801")
        assert "imported-weather.marker" in _markers(root)
        messages = [m["params"]["message"] for m in server.notifications("window/showMessage")]
        assert any("database not configured" in m for m in messages), messages
        assert server.process.poll() is None
    finally:
        server.close()


@pytest.mark.timeout(120)
def test_trust_is_never_raised_after_start(tmp_path: Path) -> None:
    """Untrusted at `initialize`: a settings pull answering `trusted: true`, a settings push saying so, and the
    workspace's own toolsense.toml saying so — none of them makes the server import user code."""
    root = _workspace(tmp_path, trusted_in_file=True)
    server = ServerProcess(root, log_level="INFO")
    server.configuration = {"trusted": True, "diagnostics": {"debounce_ms": 0}}
    try:
        capabilities = {
            "workspace": {"configuration": True, "didChangeConfiguration": {"dynamicRegistration": False}},
            "textDocument": {"publishDiagnostics": {"versionSupport": True}},
        }
        server.initialize(root, {"trusted": False, "diagnostics": {"debounce_ms": 0}}, capabilities)
        path = root / "calls" / "get_weather.json"
        uri = server.open(path, path.read_text(encoding="utf-8"))
        server.wait_diagnostics(uri, BOUND_S, lambda p: any(d.get("code") == "TS805" for d in p["diagnostics"]))
        server.notify(
            "workspace/didChangeConfiguration", {"settings": {"toolsense": {"trusted": True, "profiles": ["mcp"]}}}
        )
        server.notify("workspace/didChangeConfiguration", {"settings": {"trusted": True}})
        server.change(uri, 2, [{"text": path.read_text(encoding="utf-8") + " "}])
        published = server.wait_diagnostics(uri, BOUND_S, lambda p: p.get("version") == 2)
        assert any(d.get("code") == "TS805" for d in published["diagnostics"]), published
        server.settle()  # the configuration changes are handled and any model load they started has finished
        assert _markers(root) == []
    finally:
        server.close()
