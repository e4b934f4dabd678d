"""The VS Code extension declares its trust needs and passes no secrets: unit level, from package.json and the
settings mapping (vscode-extension/src/settings.ts, src/controller.ts, src/client.ts). The extension's own unit tests
(vscode-extension/test/settings.test.ts, packageJson.test.ts) cover the mapping's behaviour in TypeScript; these
check the security contract from the server's side."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from toolsense.settings import Settings

EXTENSION = Path(__file__).resolve().parents[2] / "vscode-extension"
pytestmark = pytest.mark.skipif(not (EXTENSION / "package.json").is_file(), reason="no vscode-extension")

CODE_RUNNING = {"toolsense.interpreter", "toolsense.models", "toolsense.python_path"}
"""Settings whose workspace value picks or imports code: restricted in untrusted workspaces."""


def _package() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    return loaded


def _properties() -> dict[str, Any]:
    configuration = _package()["contributes"]["configuration"]
    sections = configuration if isinstance(configuration, list) else [configuration]
    found: dict[str, Any] = {}
    for section in sections:
        found.update(section.get("properties", {}))
    return found


def _ts_array(source: str, name: str) -> list[str]:
    match = re.search(rf"export const {name} = \[(.*?)\] as const;", source, re.S)
    assert match is not None, f"{name} not found"
    return re.findall(r"'([^']+)'", match.group(1))


@pytest.mark.timeout(30)
def test_untrusted_workspaces_are_limited_and_code_running_settings_restricted() -> None:
    untrusted = _package()["capabilities"]["untrustedWorkspaces"]
    assert untrusted["supported"] == "limited"
    assert "description" in untrusted and "models" in untrusted["description"]
    assert set(untrusted["restrictedConfigurations"]) >= CODE_RUNNING
    assert set(untrusted["restrictedConfigurations"]) <= set(_properties())


@pytest.mark.timeout(30)
def test_only_toolsense_settings_and_the_trusted_flag_reach_the_server() -> None:
    properties = _properties()
    assert all(name.startswith("toolsense.") for name in properties)
    source = (EXTENSION / "src" / "settings.ts").read_text(encoding="utf-8")
    forwarded = _ts_array(source, "SERVER_SETTING_KEYS")
    client_only = _ts_array(source, "CLIENT_ONLY_SETTING_KEYS")
    assert {f"toolsense.{k}" for k in forwarded} | {f"toolsense.{k}" for k in client_only} == set(properties)
    assert "interpreter" in client_only  # a path on the user's machine: the client's business only
    # What is forwarded is exactly what the server's settings model knows (it rejects anything else).
    known = set(Settings.model_fields)
    assert {k.split(".")[0] for k in forwarded} <= known
    # The only thing added is the trusted flag, taken from VS Code's workspace trust.
    body = source[source.index("export function buildServerSettings") :]
    body = body[: body.index("\n}\n")]
    assert re.findall(r"result\.(\w+)\s*=", body) == ["trusted"]
    controller = (EXTENSION / "src" / "controller.ts").read_text(encoding="utf-8")
    assert "vscode.workspace.isTrusted" in controller
    assert "onDidGrantWorkspaceTrust" in controller  # trust granted later: a new server, never a settings push


@pytest.mark.timeout(30)
def test_no_setting_looks_like_a_secret() -> None:
    secretish = re.compile(r"token|secret|password|api[_-]?key|credential|auth", re.I)
    assert not [name for name in _properties() if secretish.search(name)]


@pytest.mark.timeout(30)
def test_configuration_pulls_are_answered_with_the_mapped_settings() -> None:
    """A server's workspace/configuration pull gets the same mapped object (with `trusted` from VS Code), never
    VS Code's raw `toolsense` section, where a workspace's settings.json could put `trusted: true`."""
    client = (EXTENSION / "src" / "client.ts").read_text(encoding="utf-8")
    middleware = client[client.index("middleware: {") :]
    assert "configuration: async" in middleware
    assert "host.serverSettings(scope)" in middleware


@pytest.mark.timeout(30)
def test_the_extensions_targets_are_the_settings_targets() -> None:
    from typing import get_args

    from toolsense.settings import TargetName

    targets = _properties()["toolsense.targets"]
    assert tuple(targets["items"]["enum"]) == get_args(TargetName)
