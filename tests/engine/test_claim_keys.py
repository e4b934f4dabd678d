"""The keys the VS Code extension looks for before it starts the server: one source (engine/claim_keys.py), a
generated copy in the extension that must be current, and every key one that claims a file."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolsense.engine.claim_keys import UNIT_KEYS, UNIT_TYPES, render
from toolsense.engine.detect import detect

EXTENSION_COPY = Path(__file__).resolve().parents[2] / "vscode-extension" / "src" / "claimKeys.json"


def test_the_extensions_copy_is_current() -> None:
    assert EXTENSION_COPY.read_text(encoding="utf-8") == render(), (
        "regenerate: PYTHONPATH=server python -m toolsense.engine.claim_keys > vscode-extension/src/claimKeys.json"
    )


SAMPLE_VALUES = {
    "arguments": "{}",
    "functionDeclarations": [],
    "function_declarations": [],
    "trigger_type": "cron",
    "trigger_config": {},
    "function": {"name": "f", "arguments": "{}"},
}


@pytest.mark.parametrize("key", sorted(UNIT_KEYS - {"functionDeclarations", "function_declarations"}))
def test_every_unit_key_claims_a_named_object(key: str) -> None:
    value = SAMPLE_VALUES.get(key, {"type": "object"})
    assert detect({"name": "lookup", key: value}) is not None


@pytest.mark.parametrize("kind", sorted(UNIT_TYPES))
def test_every_unit_type_claims_a_named_object(kind: str) -> None:
    assert detect({"type": kind, "name": "lookup"}) is not None


def test_an_object_without_any_key_is_not_claimed() -> None:
    assert detect({"name": "ripgrep", "url": "https://example.org", "license": "MIT"}) is None
