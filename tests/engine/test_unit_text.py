"""A unit's own JSON text (`Unit.text`) is validated instead of its value encoded again: the findings are those of
the value, on every file of the corpus, the examples and the golden cases, and on texts where the text and the
value could differ (duplicate keys, numbers JSON spells several ways, escapes)."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest
from checking import CORPUS, EXAMPLES, report

from generate import tools_text
from toolsense.document.document import Document
from toolsense.document.outline import LightNode
from toolsense.domain.validation import model_findings
from toolsense.engine import checker
from toolsense.engine.units import Unit, UnitSpan, read_unit, split
from toolsense.models.definitions import TOOL_MODELS

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def _files() -> list[Path]:
    found = [*EXAMPLES.rglob("*.json"), *GOLDEN.glob("*.json")]
    corpus = Path(os.environ.get("TOOLSENSE_CORPUS", CORPUS))  # a worktree beside the checkout names it
    if corpus.is_dir():
        found += [*corpus.rglob("*.json"), *corpus.rglob("*.jsonl")]
    return sorted(p for p in found if not p.name.endswith(".expected.json"))


def _both_ways(data: bytes, name: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[object], list[object], int]:
    """Diagnostics (range, code, severity, message) with the units' text, then without; units that had text."""
    texts: list[bytes] = []

    def seen(keep: bool) -> list[object]:
        def reading(document: Document, span: UnitSpan) -> Unit:
            unit = read_unit(document, span)
            if unit.json_text is not None:
                texts.append(unit.json_text)
            return unit if keep else dataclasses.replace(unit, text=None)

        with monkeypatch.context() as patch:
            patch.setattr(checker, "read_unit", reading)
            _document, result = report(data, name)
        assert not [unit for unit in result.units if isinstance(unit.text, bytes)]  # not kept past the checks
        return [(d.range, d.code, d.severity, d.message) for d in result.diagnostics]

    fast = seen(True)
    count = len(texts)
    return fast, seen(False), count


def test_every_file_has_the_same_findings_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    with_text = 0
    for path in _files():
        fast, slow, texts = _both_ways(path.read_bytes(), path.name, monkeypatch)
        assert fast == slow, path
        with_text += texts
    assert with_text > 20  # the text was really used


def test_a_large_outlined_file_has_the_same_findings_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    tools = json.loads(tools_text(300))
    tools[3]["input_schema"]["type"] = "objekt"
    tools[7]["nmae"] = "x"
    data = json.dumps(tools, indent=2).encode()
    document, _report = report(data, "big.tools.json")
    assert isinstance(document.outline, LightNode)
    fast, slow, texts = _both_ways(data, "big.tools.json", monkeypatch)
    assert fast == slow
    assert texts == 300
    assert {code for _range, code, _severity, _message in fast} >= {"TS101"}


@pytest.mark.parametrize(
    "text",
    [
        # json.loads keeps a duplicate key's last member; pydantic's parser sees the first one too
        '{"name": "a", "input_schema": {"type": "object", "properties": {"x": 1, "x": {}}}}',
        '{"name": "a", "input_schema": {"type": "object", "properties": {"x": {}, "x": 1}}}',
        '{"name": 1, "name": "a", "input_schema": {"type": "object"}}',
        '{"name": "a", "name": 1, "input_schema": {"type": "object"}}',
        '{"name": "a", "zz": 1, "zz": 2, "input_schema": {"type": "object"}}',
        # numbers JSON spells several ways, and escapes
        '{"name": "a", "input_schema": {"type": "object", "x": [1e400, -0, -0.0, 1E2, 12345678901234567890123]}}',
        '{"name": "a", "cache_control": 1e400, "input_schema": {"type": "object"}}',
        '{"name": "a", "cache_control": -0, "input_schema": {"type": "object"}}',
        '{"name": "\\ud83d\\ude00\\u00e9\\n", "input_schema": {"type": "object"}}',
        '{"name": "\\ud800", "input_schema": {"type": "object"}}',
        '{"name": "a", "description": NaN, "input_schema": {"type": "object"}}',
        '{"name": "a", "description": "é\u2028", "input_schema": {"type": "object"}}',
    ],
)
def test_texts_that_could_differ_from_their_value(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, slow, texts = _both_ways(text.encode("utf-8", "surrogatepass"), "x.tool.json", monkeypatch)
    assert fast == slow
    assert texts == 1


def test_model_findings_from_the_text_are_those_of_the_value() -> None:
    model = TOOL_MODELS["anthropic"]
    text = b'{"name": "a", "input_schema": {"type": "object"}, "zz": 1, "zz": 2}'
    value = json.loads(text)
    assert model_findings(model, value, "tool", text) == model_findings(model, value, "tool")
    assert [f.code for f in model_findings(model, value, "tool", text)] == ["TS101"]
    valid = b'{"name": "a", "input_schema": {"type": "object"}}'
    assert model_findings(model, json.loads(valid), "tool", valid) == []


def test_a_unit_read_with_comments_or_named_by_its_key_has_no_text() -> None:
    def texts(text: str) -> list[bytes | None]:
        document = Document.from_text("file:///x/x.tools.json", text)
        return [read_unit(document, span).json_text for span in split(document, "tool").spans]

    assert texts('[{"name": "a", /* c */ "input_schema": {"type": "object"}}]') == [None]
    assert texts('{"tools": {"a": {"input_schema": {"type": "object"}}}}') == [None]
    assert texts('[{"name": "a", "input_schema": {}}, 1]') == [b'{"name": "a", "input_schema": {}}', None]
