"""`$ref` is never fetched over the network, never read from a file (inside or outside the workspace), never
echoed; cycles and very deep or very wide schemas are bounded with a diagnostic."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from clirun import run_cli
from hostile import local_http_server, network_tripwire, tool, write_json
from rawrpc import ServerProcess

SECRET = "TOOLSENSE-SECRET-7c1e9d4b"
CLI_BOUND_S = 120.0
SERVER_BOUND_S = 90.0


def _ref_tool(name: str, ref: str) -> dict[str, Any]:
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": ref, "description": "The thing."}},
        "required": ["a"],
        "additionalProperties": False,
    }
    return tool(name, schema, [{"a": "value"}])


def _hostile_workspace(tmp_path: Path, base_url: str) -> tuple[Path, Path]:
    """A workspace whose tools reference a local web server, /etc/passwd and a secret file outside it."""
    outside = tmp_path / "outside"
    secret_file = write_json(outside / "secret.json", {"type": "string", "description": SECRET, "enum": [SECRET]})
    workspace = tmp_path / "deep" / "ws"
    tools = [
        _ref_tool("http_ref", f"{base_url}/schema.json"),
        _ref_tool("http_ref_fragment", f"{base_url}/defs.json#/$defs/a"),
        _ref_tool("passwd_ref", "file:///etc/passwd"),
        _ref_tool("secret_file_ref", secret_file.resolve().as_uri()),
        _ref_tool("relative_ref", "../../outside/secret.json"),
        _ref_tool("relative_ref_fragment", "../../outside/secret.json#/description"),
    ]
    path = write_json(workspace / "refs.tools.json", tools)
    # An `$id` that makes relative references resolve against the web server / the file system.
    with_id = _ref_tool("id_based_ref", "secret.json")
    with_id["input_schema"]["$id"] = secret_file.parent.resolve().as_uri() + "/"
    write_json(workspace / "tools" / "with_id.json", [with_id])
    return workspace, path


def _assert_no_leak(text: str) -> None:
    assert SECRET not in text
    assert "root:x:0:0" not in text  # the first line of /etc/passwd


@pytest.mark.timeout(CLI_BOUND_S + 60)
@pytest.mark.parametrize("output", ["text", "json", "sarif", "github"])
def test_cli_never_fetches_or_reads_a_ref(tmp_path: Path, output: str) -> None:
    with local_http_server() as (base_url, requests), network_tripwire(tmp_path) as (env, net_log):
        workspace, _ = _hostile_workspace(tmp_path, base_url)
        done = run_cli(["check", "--format", output, "."], workspace, timeout=CLI_BOUND_S, env=env)
        assert done.returncode in (0, 1), done.stderr
        assert requests == [], "a $ref was fetched from the local web server"
        assert net_log.read_text(encoding="utf-8") == "", "toolsense tried to open a network connection"
    _assert_no_leak(done.stdout + done.stderr)
    if output == "json":
        diagnostics = json.loads(done.stdout)
        remote = [d for d in diagnostics if d["code"] == "TS216"]
        assert len(remote) == 7, [d["message"] for d in diagnostics]
        assert all("not fetched" in d["message"] for d in remote)
        cut = [d for d in diagnostics if d["code"] == "TS236"]
        assert len(cut) == 7  # each example could not be checked through the reference, and says so


@pytest.mark.timeout(SERVER_BOUND_S + 60)
def test_server_never_fetches_or_reads_a_ref(tmp_path: Path) -> None:
    with local_http_server() as (base_url, requests), network_tripwire(tmp_path) as (env, net_log):
        workspace, path = _hostile_workspace(tmp_path, base_url)
        server = ServerProcess(workspace, log_level="DEBUG", env=env)
        try:
            server.initialize(workspace, {"diagnostics": {"debounce_ms": 0}})
            uri = server.open(path, path.read_text(encoding="utf-8"))
            published = server.wait_diagnostics(uri, SERVER_BOUND_S, lambda p: p.get("version") == 1)
            codes = [d.get("code") for d in published["diagnostics"]]
            assert codes.count("TS216") == 6, published["diagnostics"]
            # Hover and completion on the reference do not follow it either.
            text = path.read_text(encoding="utf-8")
            line = text[: text.index("/etc/passwd")].count("\n")
            column = text.splitlines()[line].index("/etc/passwd")
            position = {"line": line, "character": column}
            server.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": position}, 30)
            server.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": position}, 30)
            server.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}, 30)
            server.close()
        finally:
            server.close()
        assert requests == []
        assert net_log.read_text(encoding="utf-8") == ""
    _assert_no_leak(server.stdout_text() + server.stderr_text())


@pytest.mark.timeout(CLI_BOUND_S + 30)
def test_ref_cycles_are_reported_and_bounded(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/a"}, "self": {"$ref": "#/properties/self"}},
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
        "additionalProperties": False,
    }
    recursive_ok = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#"}}},
        "additionalProperties": False,
    }
    write_json(
        tmp_path / "cycles.tools.json",
        [
            tool("cycle_tool", schema, [{"a": 1, "self": 2}]),
            tool("tree_tool", recursive_ok, [{"name": "x", "children": [{"name": "y", "children": []}]}]),
        ],
    )
    done = run_cli(["check", "--format", "json", "."], tmp_path, timeout=CLI_BOUND_S)
    assert done.returncode == 1, done.stderr
    diagnostics = json.loads(done.stdout)
    cycles = [d for d in diagnostics if d["code"] == "TS215" and "cycle" in d["message"]]
    assert len(cycles) >= 2, [d["message"] for d in diagnostics]
    assert any("#/$defs/a → #/$defs/b → #/$defs/a" in d["message"] for d in cycles)
    assert any("#/properties/self → #/properties/self" in d["message"] for d in cycles)
    assert not any(d["code"] == "TS006" for d in diagnostics), "a cycle is not 'nesting too deep' in the file"
    cut = [d for d in diagnostics if d["code"] == "TS236"]
    assert len(cut) == 1 and "cycle" in cut[0]["message"]
    assert cut[0]["range"]["start"]["line"] < _line_of(done.stdout, tmp_path, "tree_tool")
    # A legitimately recursive schema (a tree) is not a cycle.
    tree_line = _line_of(done.stdout, tmp_path, "tree_tool")
    assert not any(d["code"] in ("TS215", "TS236") and d["range"]["start"]["line"] >= tree_line for d in diagnostics)


def _line_of(_: str, folder: Path, needle: str) -> int:
    text = (folder / "cycles.tools.json").read_text(encoding="utf-8")
    return text[: text.index(needle)].count("\n")


def _deep_schema_text(levels: int) -> str:
    return '{"type": "object", "properties": {"x": ' * levels + '{"type": "string"}' + "}}" * levels


def _deep_items_text(levels: int) -> str:
    """A schema `levels` deep that is only about `levels` deep as JSON too (one object per level)."""
    return '{"type": "array", "items": ' * levels + '{"type": "string"}' + "}" * levels


@pytest.mark.timeout(CLI_BOUND_S + 30)
def test_very_deep_schemas_are_bounded(tmp_path: Path) -> None:
    tool_text = (
        '[{"name": "deep_tool", "description": "A tool whose schema nests five thousand levels deep, on purpose.", '
        f'"input_schema": {_deep_schema_text(5000)}, "input_examples": [{{"x": {{"x": 1}}}}]}},\n'
        ' {"name": "deep_enough", "description": "A tool whose schema nests one hundred levels deep, on purpose.", '
        '"input_schema": {"type": "object", "properties": {"x": '
        f"{_deep_items_text(100)}}}}}}}]\n"
    )
    (tmp_path / "deep.tools.json").write_text(tool_text, encoding="utf-8")
    done = run_cli(["check", "--format", "json", "."], tmp_path, timeout=CLI_BOUND_S)
    assert done.returncode == 1, done.stderr
    diagnostics = json.loads(done.stdout)
    codes = {d["code"] for d in diagnostics}
    assert "TS006" in codes, diagnostics  # 10,000 levels of JSON: too deep to read
    too_complex = [d for d in diagnostics if d["code"] == "TS217"]
    assert too_complex and "limits.max_schema_depth" in too_complex[0]["message"], diagnostics


@pytest.mark.timeout(CLI_BOUND_S + 30)
def test_very_wide_schemas_are_bounded(tmp_path: Path) -> None:
    """100,000 properties, none described: 100,000 findings in one object, each placed without scanning the
    object again (a quadratic placement takes minutes here)."""
    properties = {f"p{i}": {"type": "string"} for i in range(100_000)}
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    write_json(tmp_path / "wide.tool.json", tool("wide_tool", schema, [{"p1": "x", "nope": 1}]), indent=None)
    done = run_cli(["check", "--format", "json", "."], tmp_path, timeout=CLI_BOUND_S)
    assert done.returncode in (0, 1), done.stderr
    diagnostics = json.loads(done.stdout)
    too_complex = [d for d in diagnostics if d["code"] == "TS217"]
    assert too_complex and "limits.max_subschemas" in too_complex[0]["message"], diagnostics
    undescribed = [d for d in diagnostics if d["code"] == "TS241"]
    assert len({d["range"]["start"]["character"] for d in undescribed}) == len(undescribed) > 1000


@pytest.mark.timeout(SERVER_BOUND_S + 60)
def test_server_bounds_wide_and_cyclic_schemas(tmp_path: Path) -> None:
    properties = {f"p{i}": {"type": "string", "description": "d"} for i in range(100_000)}
    wide = tool("wide_tool", {"type": "object", "properties": properties, "additionalProperties": False})
    cyclic = tool(
        "cycle_tool",
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {"a": {"$ref": "#/$defs/a"}}},
        [{"a": 1}],
    )
    path = write_json(tmp_path / "hostile.tools.json", [wide, cyclic], indent=None)
    server = ServerProcess(tmp_path, log_level="INFO")
    try:
        server.initialize(tmp_path, {"diagnostics": {"debounce_ms": 0}})
        uri = server.open(path, path.read_text(encoding="utf-8"))
        published = server.wait_diagnostics(uri, SERVER_BOUND_S, lambda p: p.get("version") == 1)
        codes = [d.get("code") for d in published["diagnostics"]]
        assert "TS217" in codes and "TS215" in codes, published["diagnostics"]
        assert server.process.poll() is None
    finally:
        server.close()


_SELF_REFERENCES = {
    "not_self": {"type": "object", "properties": {"x": {"not": {"$ref": "#/properties/x"}}}},
    "any_of_self": {"type": "object", "properties": {"x": {"anyOf": [{"$ref": "#/properties/x"}]}}},
    "all_of_root": {"type": "object", "allOf": [{"$ref": "#"}]},
    "items_self": {"type": "object", "properties": {"x": {"items": {"$ref": "#/properties/x/items"}}}},
}


def _summary(diagnostics: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return sorted(
        (d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"], d["message"]) for d in diagnostics
    )


@pytest.mark.timeout(SERVER_BOUND_S + CLI_BOUND_S)
def test_self_referencing_schemas_give_the_same_findings_in_the_server_and_the_cli(tmp_path: Path) -> None:
    """A `$ref` cycle that never moves into the value (`not` → `$ref` → itself) is cut short after a fixed
    nesting budget, the same in the CLI and in the server (whose stack is deeper): never TS006 for the unit,
    never a Rust panic on stderr."""
    examples = [{"x": {"x": {"x": 1}}}, {}, {"x": [1, [2, [3]]]}]
    tools = [tool(name, schema, examples) for name, schema in _SELF_REFERENCES.items()]
    path = write_json(tmp_path / "tools" / "self.tools.json", tools)
    done = run_cli(["check", "--format", "json", "."], tmp_path, timeout=CLI_BOUND_S)
    assert done.returncode in (0, 1), done.stderr
    assert "panicked" not in done.stderr and "RecursionError" not in done.stderr, done.stderr[-2000:]
    cli = json.loads(done.stdout)
    codes = {d["code"] for d in cli}
    assert "TS006" not in codes and "TS900" not in codes, cli
    cut = [d for d in cli if d["code"] == "TS236"]
    assert any("input example 1 was cut short: the schema or the value nests too deeply" in d["message"] for d in cut)

    server = ServerProcess(tmp_path, log_level="INFO")
    try:
        server.initialize(tmp_path, {"diagnostics": {"debounce_ms": 0}})
        uri = server.open(path, path.read_text(encoding="utf-8"))
        published = server.wait_diagnostics(uri, SERVER_BOUND_S, lambda p: p.get("version") == 1)
        assert _summary(published["diagnostics"]) == _summary(cli)
        server.settle()
        assert "panicked" not in server.stderr_text(), server.stderr_text()[-2000:]
        assert server.process.poll() is None
    finally:
        server.close()


def test_a_self_reference_is_cut_short_the_same_however_deep_the_callers_stack(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """Whether the language server's deeper stack met Python's recursion limit in our code (TS236, cut short) or
    inside the Rust `referencing` internals (a panic: TS006 for the whole unit) depended on the caller's depth.
    A fixed nesting budget with room guaranteed makes it the same at every depth."""
    from toolsense.document.document import Document
    from toolsense.engine.checker import UnitCache, check_document
    from toolsense.engine.context import CheckContext, ToolRegistry
    from toolsense.rules import CATALOG
    from toolsense.settings import Settings

    def findings(description: str) -> list[tuple[str, str]]:
        value = tool("not_self", _SELF_REFERENCES["not_self"], [{"x": {"x": {"x": 1}}}, {}])
        value["description"] = description  # a new unit each time: nothing is reused from an earlier check
        document = Document.from_text("file:///w/self.tools.json", json.dumps([value], indent=1))
        ctx = CheckContext(Settings(), ToolRegistry(), document.uri, catalog=CATALOG)
        report = check_document(document, ctx, "tool", UnitCache())
        return sorted((d.code, d.message.replace(description, "")) for d in report.diagnostics)

    def at_depth(frames: int, description: str) -> list[tuple[str, str]]:
        return at_depth(frames - 1, description) if frames > 0 else findings(description)

    expected = findings("A tool that refers to itself, checked at the top of the stack.")
    assert "TS236" in {code for code, _ in expected} and "TS006" not in {code for code, _ in expected}
    for frames in range(0, 900, 9):
        got = at_depth(frames, f"A tool that refers to itself, checked {frames} frames deep.")
        assert got == expected, frames
    assert "panicked" not in capfd.readouterr().err
