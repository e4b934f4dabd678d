"""features/automation_help through the provider API (LSP-free): completion, hover, definition, references.

A `|` in a text marks the cursor.
"""

from __future__ import annotations

import json

from automations import TOOLS_URI, make_registry

import toolsense.features  # noqa: F401  (loads automation_help into PROVIDERS)
from toolsense.document.document import Document
from toolsense.features.completion import complete
from toolsense.features.definition import definition, references
from toolsense.features.hover import hover
from toolsense.features.providers import CompletionCandidate, CursorQuery
from toolsense.features.query import build_hover_query, build_query, index_for
from toolsense.settings import Settings

URI = "file:///ws/automations/a.automation.json"

POLLING = """{
  "name": "t",
  "trigger_type": "polling",
  "trigger_config": {
    "source_tool": "oura_get_daily_sleep",
    "polling_interval_minutes": 60,
    "tool_params": {"start_date": "{{yest"},
    "filter": {"path": "sc"}
  },
  "actions": [
    {
      "id": "classify",
      "tool": "llm_classify",
      "parameters": {"text": "{{trigger_data.score}}", "question": "q", "options": ["A"]},
      "output_as": "verdict"
    },
    {
      "id": "notify",
      "tool": "send_push_notification",
      "condition": {"path": "verdict.answer", "op": "==", "value": "A"},
      "parameters": {"title": "😀 \\"{{verdict.answer}}\\" {{verdict.}}", "body": "{{"}
    }
  ],
  "variables": {"limit": 70}
}"""


def _query(text: str, marker: str, *, hover_query: bool = False, occurrence: int = 0) -> CursorQuery:
    """The query with the cursor at the `occurrence`-th place where `marker` (containing `|`) appears."""
    needle = marker.replace("|", "")
    at = -1
    for _ in range(occurrence + 1):
        at = text.index(needle, at + 1)
    offset = len(text[: at + marker.index("|")].encode("utf-8"))
    document = Document.from_text(URI, text)
    build = build_hover_query if hover_query else build_query
    return build(document, index_for(document, "automation"), offset, make_registry(), Settings())


def _labels(candidates: list[CompletionCandidate]) -> list[str]:
    return [c.label for c in candidates]


def test_template_roots_right_after_braces() -> None:
    query = _query(POLLING, '"body": "{{|"')
    found = complete(query)
    labels = _labels(found)
    assert labels[:3] == ["verdict", "limit", "trigger_data"]
    assert {"score", "day", "user", "today", "yesterday", "now"} <= set(labels)
    by_label = {c.label: c for c in found}
    assert by_label["today"].insert_text == "today}}"  # the template was not closed yet
    assert by_label["verdict"].insert_text == "verdict"  # an object: the user goes on with a dot
    assert by_label["verdict"].detail == "output of action 'classify' · llm_classify"
    assert by_label["score"].detail == "integer · trigger data field (shorthand for trigger_data.score)"
    start, end = by_label["today"].replace or (0, 0)
    assert start == end == query.offset


def test_fields_after_an_output_name_with_exact_replace_span() -> None:
    query = _query(POLLING, "{{verdict.|}}")
    found = complete(query)
    assert _labels(found) == ["answer", "confidence"]
    answer = found[0]
    assert answer.insert_text == "answer"  # `}}` is already there
    assert answer.detail == "string · the output of action 'classify' (llm_classify)"
    assert answer.documentation == "The option chosen"
    assert answer.replace == (query.offset, query.offset)


def test_fields_after_trigger_data_replace_the_partial_segment() -> None:
    text = POLLING.replace('"{{trigger_data.score}}"', '"{{trigger_data.da}}"')
    query = _query(text, "{{trigger_data.da|}}")
    found = complete(query)
    assert _labels(found) == ["score", "day", "timestamp", "contributors"]
    assert found[1].replace == (query.offset - 2, query.offset)


def test_tool_params_offer_built_ins_not_trigger_data() -> None:
    labels = _labels(complete(_query(POLLING, '"{{yest|"')))
    assert "yesterday" in labels and "limit" in labels
    assert "trigger_data" not in labels and "verdict" not in labels and "score" not in labels


def test_filter_and_condition_paths() -> None:
    assert _labels(complete(_query(POLLING, '"path": "sc|"'))) == [
        "score",
        "day",
        "timestamp",
        "contributors",
        "trigger_data",
    ]
    labels = _labels(complete(_query(POLLING, '"path": "verdict.|answer"')))
    assert labels == ["answer", "confidence"]
    roots = _labels(complete(_query(POLLING, '"path": "|verdict.answer"')))
    assert "verdict" in roots and "today" not in roots  # built-ins are not condition paths


def test_built_in_completion_still_gives_tool_names_parameters_and_ops() -> None:
    text = POLLING.replace('"tool": "send_push_notification"', '"tool": "sen"')
    tools = complete(_query(text, '"tool": "sen|"'))
    assert '"send_push_notification"' in _labels(tools)
    push = next(c for c in tools if c.label == '"send_push_notification"')
    assert push.documentation == "Send a push notification to the user's phone."
    text = POLLING.replace('"title": "😀', '"titel": "😀')
    params = complete(_query(text, '"parameters": {|"titel"'))
    assert _labels(params)[:2] == ["title", "priority"]  # required first (body is there already)
    assert params[0].detail == "string · required · input of send_push_notification"
    ops = _labels(complete(_query(POLLING, '"op": "|=="')))
    assert '"exists"' in ops and '"<"' in ops


def test_webhook_filters_ops_and_operator() -> None:
    text = json.dumps(
        {
            "name": "t",
            "trigger_type": "webhook",
            "trigger_config": {
                "service": "Gmail",
                "event_type": "message.created",
                "filters": {"operator": "", "clauses": [{"path": "subject", "op": ""}]},
            },
            "actions": [],
        }
    )
    ops = complete(_query(text, '"op": "|"'))
    assert _labels(ops)[:3] == ['"<"', '">"', '"<="']
    assert ops[0].detail == "less than"
    assert _labels(complete(_query(text, '"operator": "|"'))) == ['"AND"', '"OR"']


def test_hover_on_template_variables_origin_and_type() -> None:
    answer = hover(_query(POLLING, '"{{trigger_data.sc|ore}}"', hover_query=True))
    assert answer is not None
    assert answer.markdown == (
        "**`trigger_data.score`** · `integer`\n\nSleep score, 0-100\n\n"
        "*Trigger data: the output of the polled tool 'oura_get_daily_sleep'*"
    )
    answer = hover(_query(POLLING, '"{{|verdict.answer}}\\"', hover_query=True))
    assert answer is not None
    assert answer.markdown == (
        "**`verdict`** · `object`\n\n*Output of action 'classify' (#1, tool `llm_classify`), stored as `verdict`*"
        "\n\nFields: `answer`, `confidence`"
    )
    # The hover span is the variable inside the string, after an emoji and an escaped quote.
    query = _query(POLLING, '"{{|verdict.answer}}\\"', hover_query=True)
    start, end = answer.span or (0, 0)
    assert bytes(query.document.data[start:end]) == b"verdict"
    # An unfinished template: the built-in hover speaks for the parameter.
    built_in = hover(_query(POLLING, '"{{yes|t"', hover_query=True))
    assert built_in is not None
    assert built_in.markdown.startswith("**start_date** · `string` · required")


def test_hover_on_a_built_in_and_a_condition_path() -> None:
    text = POLLING.replace('"{{yest"', '"{{yesterday}}"')
    answer = hover(_query(text, "{{yester|day}}", hover_query=True))
    assert answer is not None
    assert answer.markdown == (
        "**`yesterday`** · `string (YYYY-MM-DD)`\n\nYesterday's date in the user's time zone.\n\n*Built-in variable*"
    )
    answer = hover(_query(POLLING, '"path": "verdict.ans|wer"', hover_query=True))
    assert answer is not None
    assert answer.markdown.startswith("**`verdict.answer`** · `string`\n\nThe option chosen")


def test_hover_on_a_tool_name_comes_from_the_built_in_hover() -> None:
    answer = hover(_query(POLLING, '"tool": "llm_cl|assify"', hover_query=True))
    assert answer is not None
    assert "Classify a text into one of the given options with an LLM." in answer.markdown
    assert "- `text`: string (required)" in answer.markdown


def test_definition_of_an_output_a_variable_and_a_trigger_field() -> None:
    [output] = definition(_query(POLLING, "{{verd|ict.answer}}", hover_query=True))
    assert (output.uri, output.pointer, output.target) == (URI, ("actions", 0, "output_as"), "value")
    [field] = definition(_query(POLLING, "{{trigger_data.sc|ore}}", hover_query=True))
    assert field.uri == TOOLS_URI
    assert field.pointer == ("tools", 4, "outputSchema", "properties", "score")
    text = POLLING.replace('"{{"}', '"{{limit}}"}')
    [variable] = definition(_query(text, "{{lim|it}}", hover_query=True))
    assert (variable.pointer, variable.target) == (("variables", "limit"), "key")
    [tool] = definition(_query(POLLING, '"tool": "llm_cl|assify"', hover_query=True))
    assert (tool.uri, tool.pointer) == (TOOLS_URI, ("tools", 0, "name"))


def test_references_of_an_output_as() -> None:
    query = _query(POLLING, '"output_as": "ver|dict"', hover_query=True)
    found = references(query, True, [])
    assert found[0].pointer == ("actions", 0, "output_as")
    pointers = [f.pointer for f in found[1:] if f.pointer is not None]
    ranges = [f.range for f in found[1:] if f.range is not None]
    assert pointers == [("actions", 1, "condition", "path")]
    # The template in the title, after the emoji (2 UTF-16 units) and an escaped quote; the half-typed
    # `{{verdict.}}` after it is not a reference yet.
    assert [(r.start.line, r.start.character, r.end.line, r.end.character) for r in ranges] == [(20, 38, 20, 52)]
