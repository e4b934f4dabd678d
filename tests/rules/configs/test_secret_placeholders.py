"""TS940 judges a value by its shape, not by a word list per language: a placeholder for a secret, in any
language, is not a secret; a generated token is, whatever the variable is called."""

from __future__ import annotations

import json

import pytest
from checking import diagnostics


def _secrets(env: dict[str, str]) -> list[str]:
    text = json.dumps({"mcpServers": {"github": {"command": "npx", "args": ["-y", "server-github@1.0.0"], "env": env}}})
    return [d.message for d in diagnostics(text, ".mcp.json") if d.code == "TS940"]


@pytest.mark.parametrize(
    "placeholder",
    [
        "你的GitHub令牌",  # "your GitHub token"
        "あなたのAPIキー",
        "votre_jeton_github",
        "tu_token_de_github",
        "IHR-API-SCHLÜSSEL",
        "YOUR_GITHUB_TOKEN",
        "insert.key.here",
        "mypassword",
    ],
)
def test_a_placeholder_in_any_language_is_not_a_secret(placeholder: str) -> None:
    assert _secrets({"GITHUB_TOKEN": placeholder}) == []


@pytest.mark.parametrize(
    "secret",
    [
        "jira_4f8a9b2c7d1e6f3a",
        "s3cr3tP4ssw0rd",
        "d41d8cd98f00b204e9800998ecf8427e",  # hex, lower case and digits
        "ghp_abcdefghijklmnopqrstuvwxyz0123456789",  # a known token format, whatever the name
    ],
)
def test_a_token_shaped_value_is_a_secret(secret: str) -> None:
    (message,) = _secrets({"API_TOKEN": secret})
    assert message.startswith("A secret is written inline in `env.API_TOKEN`")
