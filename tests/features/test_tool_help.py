"""Editor help for tools and calls (features/tool_help.py): budget hover, completion and hover from the model."""

from __future__ import annotations

import dataclasses
import json

import pytest
from checking import MODEL_FIXTURES

import toolsense.features  # noqa: F401  (loads the optional provider modules, tool_help among them)
from toolsense.document.document import Document
from toolsense.engine.context import ToolRegistry
from toolsense.features.completion import complete
from toolsense.features.hover import hover
from toolsense.features.providers import PROVIDERS, CursorQuery
from toolsense.features.query import build_hover_query, build_query, index_for
from toolsense.features.tool_help import model_completion, tool_help_hover
from toolsense.settings import Settings
from toolsense.usermodels import ModelRegistry, load_models

MODELS = {"get_weather": "tsfx_good:WeatherInput"}


@pytest.fixture(scope="module")
def models() -> ModelRegistry:
    return load_models(Settings(models=MODELS, python_path=(str(MODEL_FIXTURES),)), MODEL_FIXTURES, timeout=20)


def query_at(
    text: str,
    marker: str,
    kind: str,
    *,
    hover_query: bool = False,
    settings: Settings | None = None,
    models: ModelRegistry | None = None,
) -> CursorQuery:
    offset = text.index(marker)
    source = text.replace(marker, "", 1)
    document = Document.from_text("file:///work/p/calls/c.json", source)
    index = index_for(document, kind)  # type: ignore[arg-type]
    settings = settings or Settings(models=MODELS)
    if hover_query:
        query = build_hover_query(document, index, offset, ToolRegistry(), settings)
    else:
        query = build_query(document, index, offset, ToolRegistry(), settings)
    return dataclasses.replace(query, models=models)


def test_the_providers_are_registered() -> None:
    assert tool_help_hover in PROVIDERS.hover_providers
    assert model_completion in PROVIDERS.completion_providers


def test_hover_on_a_tool_name_shows_its_budget() -> None:
    schema = {
        "type": "object",
        "properties": {"unit": {"type": "string", "enum": ["c", "f"], "description": "u"}},
        "additionalProperties": False,
    }
    text = json.dumps({"name": "weat|her", "description": "d", "input_schema": schema}, indent=2)
    answer = hover(query_at(text, "|", "tool", hover_query=True, settings=Settings(profiles=("openai-strict",))))
    assert answer is not None
    lines = answer.markdown.splitlines()
    assert lines[0].startswith("**weather** — budget (limits as of ")
    assert "| properties | 1 | 5000 |" in answer.markdown
    assert "| enum values | 2 | 1000 |" in answer.markdown


def test_property_names_in_a_call_come_from_the_registered_model(models: ModelRegistry) -> None:
    text = '{"type": "tool_use", "id": "t", "name": "get_weather", "input": {"place": {"|"}}}'
    labels = [c.label for c in complete(query_at(text, "|", "tool_call", models=models))]
    assert labels[:2] == ["city", "country"]


def test_enum_values_in_a_call_come_from_the_registered_model(models: ModelRegistry) -> None:
    text = '{"type": "tool_use", "id": "t", "name": "get_weather", "input": {"unit": "|"}}'
    candidates = model_completion(query_at(text, "|", "tool_call", models=models))
    assert candidates is not None
    assert [c.label for c in candidates] == ['"celsius"', '"fahrenheit"']


def test_no_model_no_answer_from_tool_help(models: ModelRegistry) -> None:
    text = '{"type": "tool_use", "id": "t", "name": "other_tool", "input": {"|"}}'
    assert model_completion(query_at(text, "|", "tool_call", models=models)) is None
    assert model_completion(query_at(text.replace("other_tool", "get_weather"), "|", "tool_call", models=None)) is None


def test_hover_in_a_call_names_the_model(models: ModelRegistry) -> None:
    text = '{"type": "tool_use", "id": "t", "name": "get_weather", "input": {"da|ys": 3}}'
    answer = tool_help_hover(query_at(text, "|", "tool_call", hover_query=True, models=models))
    assert answer is not None
    assert answer.markdown.startswith("**days** · `integer` · optional\n\nForecast days")
    assert "registered model tsfx_good:WeatherInput \\(" in answer.markdown  # file text: escaped Markdown
