"""The MCP registry's server.json (TS950) against the registry's schema: the registry's own invalid examples
(../shared/corpus, when present) each get their one error, its valid examples none; a range as a package version
is an error too; a server.json that is not the registry's shape is not ours."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.support.checking import diagnostics

EXAMPLES = Path(__file__).resolve().parents[3].parent / "shared" / "corpus" / "mcp-registry-server-json" / "examples"
EXPECTED = {
    "bad-name-pattern.json": 'The name "no-namespace-separator" is not reverse-DNS `namespace/name` with one slash '
    "(io.github.user/weather)",
    "description-too-long.json": "`description` has 111 characters; the registry accepts at most 100",
    "package-version-latest.json": '`packages.0.version` is "latest": a package needs a specific version',
    "positional-argument-missing-value.json": "`packages.0.packageArguments.0` needs 'valueHint' or 'value'",
    "missing-name.json": None,
}


def errors(text: str) -> list[str]:
    return [d.message for d in diagnostics(text, "server.json") if d.code == "TS950"]


@pytest.mark.skipif(not EXAMPLES.is_dir(), reason="../shared/corpus is not available")
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_registrys_invalid_examples(name: str) -> None:
    text = (EXAMPLES / "invalid" / name).read_text(encoding="utf-8")
    expected = EXPECTED[name]
    if expected is None:  # no name: not recognisably a server.json, so not ours
        assert diagnostics(text, "server.json") == []
    else:
        assert errors(text) == [expected]


@pytest.mark.skipif(not EXAMPLES.is_dir(), reason="../shared/corpus is not available")
@pytest.mark.parametrize("name", ["minimal.json", "with-package.json", "with-remote.json"])
def test_the_registrys_valid_examples(name: str) -> None:
    """Valid under the version they declare (2025-12-11), with nothing the registry would drop: no finding at all."""
    assert diagnostics((EXAMPLES / "valid" / name).read_text(encoding="utf-8"), "server.json") == []


def test_a_version_range_and_a_remote_without_url() -> None:
    server = {
        "name": "io.github.user/weather",
        "description": "Weather forecasts.",
        "version": "1.0.0",
        "packages": [{"registryType": "npm", "identifier": "w", "version": "^1.2.0", "transport": {"type": "stdio"}}],
        "remotes": [{"type": "sse"}],
    }
    assert errors(json.dumps(server)) == [
        '`packages.0.version` is the range "^1.2.0": the registry rejects ranges; give the exact version',
        "`remotes.0` lacks 'url'",
    ]


def test_another_files_server_json_is_not_ours() -> None:
    assert diagnostics(json.dumps({"servers": ["a"], "port": 80}), "server.json") == []
