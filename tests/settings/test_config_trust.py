"""Which configuration is obeyed, and when it may make toolsense import code.

- The search for `toolsense.toml` / `pyproject.toml` stays inside the project: the repository root (`.git`), or
  without one the folder checked (the CLI's working folder, the server's workspace folder).
- A configuration file that another user owns, or that lies in (or is) a folder every user may write, is never
  read, even inside those bounds; the search says so on stderr or in the editor.
- Paths are resolved before the search: `check .` in a subfolder reads what `check "$PWD"` reads.
- Only the boolean `true` is trust: `trusted: "false"`, `0` or `null` are not trusted.
"""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path

import pytest
from clirun import run_cli
from hostile import tool, write_json
from rawrpc import ServerProcess

from toolsense.config_files import discover_config
from toolsense.settings import client_trust, settings_from_mapping

BOUND_S = 60.0
_PLANTED = textwrap.dedent(
    """
    from pathlib import Path as _P
    (_P(__file__).resolve().parent / "PWNED").write_text("imported")
    from pydantic import BaseModel


    class M(BaseModel):
        city: str
    """
)
_SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string", "description": "The city."}},
    "required": ["city"],
    "additionalProperties": False,
}


def _nobody() -> int:
    import pwd

    return pwd.getpwnam("nobody").pw_uid


def _plant(folder: Path) -> Path:
    """A `toolsense.toml` in folder that registers a model from a module that leaves a mark when imported."""
    (folder / ".x").mkdir(parents=True, exist_ok=True)
    (folder / ".x" / "planted.py").write_text(_PLANTED, encoding="utf-8")
    config = folder / "toolsense.toml"
    config.write_text('python_path = [".x"]\nprofiles = ["openai"]\n[models]\nget_weather = "planted:M"\n')
    return config


def _project(folder: Path) -> Path:
    write_json(folder / "tools" / "weather.tools.json", [tool("get_weather", _SCHEMA)])
    call = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris", "extra": 1}}
    write_json(folder / "calls" / "call.json", call)
    return folder


# --- the search itself ------------------------------------------------------------------------------------


def test_without_a_repository_the_search_goes_up_through_our_own_folders(tmp_path: Path) -> None:
    """`check .` from a subfolder of a project without git finds the project's configuration (the folders on the
    way are ours); a server given a workspace folder stops there."""
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    (tmp_path / "a" / "toolsense.toml").write_text("", encoding="utf-8")
    assert discover_config(nested).path == tmp_path / "a" / "toolsense.toml"
    assert discover_config(nested / "file.json").path == tmp_path / "a" / "toolsense.toml"
    found = discover_config(nested, workspace=nested)
    assert found.path is None
    assert found.skipped == (
        f"{tmp_path / 'a' / 'toolsense.toml'} is not read: it is above {nested}, outside the project (the search "
        "stops at the repository root, or without one at the folder checked); check or open that folder, or pass "
        "--config, to use it",
    )
    assert discover_config(nested, workspace=tmp_path / "a").path == tmp_path / "a" / "toolsense.toml"


def test_without_a_repository_a_world_writable_folder_ends_the_search(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    nested = shared / "project" / "sub"
    nested.mkdir(parents=True)
    (shared / "toolsense.toml").write_text("", encoding="utf-8")
    shared.chmod(0o1777)
    found = discover_config(nested)
    assert found.path is None
    assert found.skipped == (f"{shared / 'toolsense.toml'} is not read: the folder {shared} is writable by every user",)


def test_inside_a_repository_the_search_reaches_its_root_and_no_further(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    nested = repo / "pkg" / "sub"
    nested.mkdir(parents=True)
    (repo / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text("[tool.toolsense]\nprofiles = []\n", encoding="utf-8")
    assert discover_config(nested).path is None
    (repo / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")  # no [tool.toolsense]
    assert discover_config(nested).path is None
    (repo / "pyproject.toml").write_text("[tool.toolsense]\nprofiles = []\n", encoding="utf-8")
    assert discover_config(nested).path == repo / "pyproject.toml"
    (nested / "toolsense.toml").write_text("", encoding="utf-8")
    assert discover_config(nested).path == nested / "toolsense.toml"
    # Found above the workspace folder (inside the repository): its settings apply, its code is not imported.
    (nested / "toolsense.toml").unlink()
    assert discover_config(nested, workspace=nested).outside_workspace
    assert not discover_config(repo, workspace=repo).outside_workspace


def test_a_world_writable_folder_ends_the_search_and_is_named(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    victim = shared / "victim"
    victim.mkdir(parents=True)
    shared.chmod(0o1777)  # like /tmp: the sticky bit does not make it ours
    (shared / ".git").mkdir()  # nor does a planted repository marker
    config = _plant(shared)
    found = discover_config(victim, workspace=shared)
    assert found.path is None
    assert found.skipped == (f"{config} is not read: the folder {shared} is writable by every user",)
    found = discover_config(shared)
    assert found.path is None and "writable by every user" in found.skipped[0]


def test_a_world_writable_configuration_file_is_not_read(tmp_path: Path) -> None:
    config = tmp_path / "toolsense.toml"
    config.write_text("", encoding="utf-8")
    config.chmod(0o666)
    found = discover_config(tmp_path)
    assert found.path is None
    assert found.skipped == (f"{config} is not read: the file {config} is writable by every user",)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="changing a file's owner needs root")
def test_a_configuration_file_of_another_user_is_not_read(tmp_path: Path) -> None:
    config = tmp_path / "toolsense.toml"
    config.write_text("", encoding="utf-8")
    os.chown(config, _nobody(), -1)
    found = discover_config(tmp_path)
    assert found.path is None
    assert found.skipped == (f"{config} is not read: the file {config} belongs to another user (uid {_nobody()})",)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="changing a folder's owner needs root")
def test_a_folder_of_another_user_ends_the_search(tmp_path: Path) -> None:
    other = tmp_path / "other"
    mine = other / "mine"
    mine.mkdir(parents=True)
    config = _plant(other)
    os.chown(other, _nobody(), -1)
    found = discover_config(mine, workspace=other)
    assert found.path is None
    assert found.skipped == (f"{config} is not read: the folder {other} belongs to another user (uid {_nobody()})",)


# --- the CLI ----------------------------------------------------------------------------------------------


@pytest.mark.timeout(120)
def test_cli_never_imports_a_module_named_by_a_parent_folders_configuration(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    config = _plant(shared)
    victim = _project(shared / "victim")
    done = run_cli(["check"], victim, timeout=BOUND_S)
    assert done.returncode == 1, done.stderr  # the call's extra key, from the tool's input_schema
    assert not (shared / ".x" / "PWNED").exists()
    assert f"toolsense: {config} is not read: the folder {shared} is writable by every user" in done.stderr


@pytest.mark.timeout(120)
def test_cli_reads_the_same_configuration_for_dot_and_for_the_absolute_path(tmp_path: Path) -> None:
    repo = _project(tmp_path / "repo")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "toolsense.toml").write_text('registry = "tools/weather.tools.json"\n', encoding="utf-8")
    calls = repo / "calls"
    relative = run_cli(["check", ".", "--format", "json"], calls, timeout=BOUND_S)
    absolute = run_cli(["check", str(calls), "--format", "json"], calls, timeout=BOUND_S)
    (tmp_path / "empty.toml").write_text("", encoding="utf-8")
    plain = run_cli(
        ["check", ".", "--format", "json", "--config", str(tmp_path / "empty.toml")], calls, timeout=BOUND_S
    )
    codes = [sorted(d["code"] for d in json.loads(done.stdout)) for done in (relative, absolute, plain)]
    assert codes[0] == codes[1], (relative.stderr, absolute.stderr)
    assert "TS303" in codes[0] and "TS303" not in codes[2]  # the repository's configuration was applied


# --- trust is a boolean -----------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["false", "true", 0, 1, None, "yes", [], {}])
def test_trust_is_only_the_boolean_true(value: object) -> None:
    settings, problems = settings_from_mapping({"trusted": value}, "client")
    assert settings.trusted is False
    assert [p.key for p in problems] == ["trusted"]
    assert problems[0].message.endswith("; treated as false (not trusted)")
    assert client_trust({"trusted": value}) is False


def test_trust_booleans_and_absence() -> None:
    assert settings_from_mapping({"trusted": True}, "client")[0].trusted is True
    assert settings_from_mapping({"trusted": False}, "client") == (
        settings_from_mapping({}, "x")[0].model_copy(update={"trusted": False}),
        [],
    )
    assert settings_from_mapping({}, "client")[0].trusted is True  # the CLI and clients without a trust model
    assert client_trust({}) is None
    assert client_trust({"trusted": True}) is True


@pytest.mark.timeout(120)
@pytest.mark.parametrize("value", ["false", 0])
def test_server_treats_a_non_boolean_trusted_as_untrusted(tmp_path: Path, value: object) -> None:
    root = _project(tmp_path / "ws")
    (root / ".x").mkdir()
    (root / ".x" / "planted.py").write_text(_PLANTED, encoding="utf-8")
    (root / "toolsense.toml").write_text('python_path = [".x"]\n[models]\nget_weather = "planted:M"\n')
    server = ServerProcess(root, log_level="INFO")
    try:
        server.initialize(root, {"trusted": value, "diagnostics": {"debounce_ms": 0}})
        path = root / "calls" / "call.json"
        uri = server.open(path, path.read_text(encoding="utf-8"))
        published = server.wait_diagnostics(
            uri, BOUND_S, lambda p: any(d.get("code") == "TS805" for d in p["diagnostics"])
        )
        assert any("not trusted" in d["message"] for d in published["diagnostics"])
        messages = [m["params"]["message"] for m in server.notifications("window/showMessage")]
        assert any("'trusted'" in m and "treated as false (not trusted)" in m for m in messages), messages
        assert not (root / ".x" / "PWNED").exists()
    finally:
        server.close()


@pytest.mark.timeout(120)
def test_server_applies_a_configuration_above_its_folder_but_imports_nothing_for_it(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".git").mkdir()
    config = _plant(repo)
    root = _project(repo / "pkg")
    server = ServerProcess(root, log_level="INFO")
    try:
        server.initialize(root, {"diagnostics": {"debounce_ms": 0}})  # a client without a trust model
        path = root / "calls" / "call.json"
        uri = server.open(path, path.read_text(encoding="utf-8"))
        server.wait_diagnostics(uri, BOUND_S, lambda p: any(d.get("code") == "TS805" for d in p["diagnostics"]))
        messages = [m["params"]["message"] for m in server.notifications("window/showMessage")]
        expected = (
            f"toolsense: {config}: registered models are not imported: this configuration is above the workspace "
            f"folder {root} (open the folder that holds it to use them)"
        )
        assert expected in messages, messages
        assert not (repo / ".x" / "PWNED").exists()
    finally:
        server.close()
