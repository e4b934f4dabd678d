"""No diagnostic carries an invisible or control character, whatever a file holds (issue 23).

Every string and key of the project's own sample files (the golden inputs, the examples, the security corpus) gets
a payload of invisible characters (zero-width, bidi override, tag characters, ESC); the files are then checked with
every profile on, in every output format. A rule may quote the text it judges; what reaches the terminal, JSON,
SARIF or a pull-request annotation shows the characters escaped (`<U+200B>`), never raw."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.support.clirun import run

from toolsense.document.lines import Position, Range
from toolsense.engine.checker import Diagnostic, RelatedLocation
from toolsense.engine.findings import Severity
from toolsense.rules import CATALOG
from toolsense.textsafety import message_is_safe

ROOT = Path(__file__).resolve().parents[2]
PAYLOAD = "\u200b\u202e" + "".join(chr(0xE0000 + ord(c)) for c in "hide") + "\x1b[2J\u2066"
PROFILES = ["mcp", "mcp-quality", "mcp-security", "anthropic", "openai"]
_NAME_MAPS = frozenset({"properties", "$defs", "definitions", "mcpServers", "servers", "env", "headers"})


def _poisoned(value: Any, names: bool = False) -> Any:
    """Each string value, and each key of a map of names (parameters, servers), with the payload in its middle;
    the keys a format defines are left alone, so every file still reads as what it is."""
    if isinstance(value, str):
        return value[: len(value) // 2] + PAYLOAD + value[len(value) // 2 :]
    if isinstance(value, list):
        return [_poisoned(item) for item in value]
    if isinstance(value, dict):
        return {(_poisoned(k) if names else k): _poisoned(v, k in _NAME_MAPS) for k, v in value.items()}
    return value


def _poisoned_text(text: str) -> str:
    try:
        return json.dumps(_poisoned(json.loads(text)), ensure_ascii=False, indent=1)
    except ValueError:
        return text  # a broken sample stays broken: its own errors are checked as they are


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    sources = [
        *(ROOT / "tests" / "golden").glob("*.json"),
        *(ROOT / "examples").rglob("*.json"),
        *(ROOT / "tests" / "corpus" / "security").rglob("*.json"),
    ]
    for index, source in enumerate(sorted(sources)):
        if source.name.endswith(".expected.json"):
            continue
        folder = root / f"{index:03d}" / source.parent.name
        target = folder / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_poisoned_text(source.read_text(encoding="utf-8")), encoding="utf-8")
    (root / "toolsense.toml").write_text(f"profiles = {json.dumps(PROFILES)}\n", encoding="utf-8")
    return root


def _unsafe(text: str) -> bool:
    return not message_is_safe(text)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *_strings(v))]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def test_every_output_format_shows_invisible_characters_escaped(
    hostile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "--format", "json", "--jobs", "1", str(hostile))
    assert code == 1
    found = json.loads(out)
    codes = {d["code"] for d in found}
    assert {"TS290", "TS292"} <= codes and len(codes) >= 25, sorted(codes)
    leaking = [(d["code"], d["message"]) for d in found if _unsafe(d["message"])]
    assert leaking == []
    assert any("<U+200B>" in d["message"] for d in found)
    for output in ("text", "github"):
        _, out, _ = run(capsys, "--format", output, "--jobs", "1", str(hostile))
        assert not _unsafe(out), output
    _, out, _ = run(capsys, "--format", "sarif", "--jobs", "1", str(hostile))
    assert [s for s in _strings(json.loads(out)) if _unsafe(s)] == []


@pytest.mark.parametrize("code", sorted(CATALOG.rules))
def test_no_rule_can_put_an_invisible_character_in_a_diagnostic(code: str) -> None:
    """Every message passes through the diagnostic, whichever rule wrote it (and its related locations)."""
    zero = Range(Position(0, 0), Position(0, 0))
    message = f"Name 'a{PAYLOAD}b' is wrong\n(second line)"
    related = RelatedLocation("file:///x", zero, message)
    diagnostic = Diagnostic(zero, Severity.ERROR, code, message, related=(related,))
    for text in (diagnostic.message, diagnostic.related[0].message, json.dumps(diagnostic.to_json("x"))):
        assert not _unsafe(text)
    assert diagnostic.message.endswith("b' is wrong\n(second line)")
    assert "<U+202E>" in diagnostic.message and "<U+E0068>" in diagnostic.message
