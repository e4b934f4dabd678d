"""toolsense never reads files outside the workspace, whatever the repository says: a symlink in the workspace
that leads out of it, and `registry` / `samples` settings that name files outside it, are not read — and the
contents of those files appear nowhere (stdout, stderr, diagnostics, messages, logs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run_cli
from hostile import tool, write_json
from rawrpc import ServerProcess
from waiting import until

SECRET = "OUTSIDE-SECRET-3e8a61f0"
BOUND_S = 60.0


def _world(tmp_path: Path) -> tuple[Path, Path]:
    """(workspace, outside): secrets outside; inside, links to them and settings that name them."""
    outside = tmp_path / "home"
    outside.mkdir()
    secret_tool = tool("secret_tool", {"type": "object", "properties": {"a": {"type": "string"}}})
    secret_tool["description"] = SECRET
    write_json(outside / "secret.tools.json", [secret_tool])
    (outside / "credentials.json").write_text(f'token = "{SECRET}"\n[not json at all] {SECRET}\n', encoding="utf-8")
    write_json(outside / "sample.json", {"secret": SECRET})
    workspace = tmp_path / "repo"
    (workspace / "tools").mkdir(parents=True)
    (workspace / "tools" / "linked.json").symlink_to(outside / "secret.tools.json")
    (workspace / "tools" / "creds.json").symlink_to(outside / "credentials.json")
    (workspace / "calls").mkdir()
    (workspace / "calls" / "creds.json").symlink_to(outside / "credentials.json")
    write_json(workspace / "tools" / "ok.json", [tool("ok_tool", {"type": "object", "additionalProperties": False})])
    (workspace / "toolsense.toml").write_text(
        f'registry = "{outside / "secret.tools.json"}"\n\n[samples]\nok_tool = "../home/sample.json"\n',
        encoding="utf-8",
    )
    return workspace, outside


@pytest.mark.timeout(BOUND_S * 2)
@pytest.mark.parametrize("output", ["text", "json", "sarif"])
def test_cli_reads_nothing_outside_the_workspace(tmp_path: Path, output: str) -> None:
    workspace, _ = _world(tmp_path)
    done = run_cli(["check", "--format", output, "."], workspace, timeout=BOUND_S)
    assert SECRET not in done.stdout + done.stderr
    assert done.returncode == 2, done.stderr  # the settings name files outside: a configuration error
    assert "setting 'registry'" in done.stderr and "outside the workspace" in done.stderr
    assert "setting 'samples.ok_tool'" in done.stderr


@pytest.mark.timeout(BOUND_S * 2)
def test_cli_skips_links_out_of_the_workspace(tmp_path: Path) -> None:
    workspace, _ = _world(tmp_path)
    (workspace / "toolsense.toml").unlink()
    done = run_cli(["check", "--format", "json", "."], workspace, timeout=BOUND_S)
    assert SECRET not in done.stdout + done.stderr
    assert done.returncode in (0, 1), done.stderr
    paths = {Path(d["path"]).name for d in json.loads(done.stdout)}
    assert not paths & {"linked.json", "creds.json"}, paths


@pytest.mark.timeout(BOUND_S * 3)
def test_server_reads_nothing_outside_the_workspace(tmp_path: Path) -> None:
    workspace, outside = _world(tmp_path)
    server = ServerProcess(workspace, log_level="DEBUG")
    try:
        server.initialize(workspace, {"diagnostics": {"debounce_ms": 0}})
        ok = workspace / "tools" / "ok.json"
        uri = server.open(ok, ok.read_text(encoding="utf-8"))
        server.wait_diagnostics(uri, BOUND_S, lambda p: p.get("version") == 1)
        # A watched-file event for the link, and a workspace pull: still nothing read from outside.
        server.notify(
            "workspace/didChangeWatchedFiles",
            {"changes": [{"uri": (workspace / "tools" / "creds.json").as_uri(), "type": 2}]},
        )
        report = server.request("workspace/diagnostic", {"previousResultIds": []}, BOUND_S)
        uris = [item["uri"] for item in report["items"]]
        assert not any("creds.json" in u or "linked.json" in u or str(outside) in u for u in uris), uris
        answer = server.request(
            "textDocument/completion",
            {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 13}},
            BOUND_S,
        )
        assert "secret_tool" not in json.dumps(answer)
        # The settings' registry path is refused when indexing ends, which may come after the answers above.
        until(
            lambda: any(
                "outside the workspace" in m["params"]["message"] for m in server.notifications("window/showMessage")
            ),
            "the message that the registry path outside the workspace was not read",
            BOUND_S,
        )
        server.close()
    finally:
        server.close()
    assert SECRET not in server.stdout_text()
    assert SECRET not in server.stderr_text()
