"""The server's logs (stderr, at every level including DEBUG) never contain file contents beyond the offending
token: a document with errors and a secret string elsewhere in it is opened, edited, completed, hovered, its
symbols and code actions asked for — the secret must not reach stderr."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rawrpc import ServerProcess, position_of

SECRET = "SECRET-in-a-description-5b2f8e"
SECRET_VALUE = "SECRET-enum-value-91d3aa"
BOUND_S = 60.0


def _document() -> str:
    tool = {
        "name": "get_weather",
        "description": f"Returns the weather for a city. Internal note: {SECRET}.",
        "input_schema": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": f"The city ({SECRET})."},
                "unit": {"type": "string", "enum": ["celsius", SECRET_VALUE], "description": "Unit."},
            },
            "required": ["city", "cty"],
            "additionalProperties": False,
        },
        "input_examples": [{"city": "Paris", "unit": "kelvin", "extra": 1}],
        "unknown_key": True,
    }
    return json.dumps([tool], indent=2) + "\n"


@pytest.mark.timeout(BOUND_S * 3)
@pytest.mark.parametrize("level", ["DEBUG", "INFO", "WARNING"])
def test_server_logs_never_contain_file_contents(tmp_path: Path, level: str) -> None:
    text = _document()
    path = tmp_path / "tools" / "weather.json"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    server = ServerProcess(tmp_path, log_level=level)
    try:
        server.initialize(tmp_path, {"diagnostics": {"debounce_ms": 0}})
        uri = server.open(path, text)
        published = server.wait_diagnostics(uri, BOUND_S, lambda p: p.get("version") == 1)
        assert published["diagnostics"], "the document has errors"
        document = {"textDocument": {"uri": uri}}

        def at(needle: str, offset: int = 1) -> dict[str, object]:
            return {**document, "position": position_of(text, text.index(needle) + offset)}

        server.request("textDocument/hover", at('"city": {'), BOUND_S)
        server.request("textDocument/hover", at(SECRET), BOUND_S)
        server.request("textDocument/completion", at('"kelvin"'), BOUND_S)
        server.request("textDocument/completion", at('"unit": {'), BOUND_S)
        server.request("textDocument/documentSymbol", document, BOUND_S)
        server.request("textDocument/foldingRange", document, BOUND_S)
        whole = {"start": {"line": 0, "character": 0}, "end": position_of(text, len(text))}
        actions = server.request(
            "textDocument/codeAction",
            {**document, "range": whole, "context": {"diagnostics": published["diagnostics"]}},
            BOUND_S,
        )
        for action in actions or []:
            if isinstance(action, dict) and "edit" not in action and "command" not in action:
                server.request("codeAction/resolve", action, BOUND_S)
        # An edit that breaks the file, a request far outside it, and a request for a document never opened.
        server.change(
            uri, 2, [{"range": {"start": at(SECRET)["position"], "end": at(SECRET)["position"]}, "text": '"{'}]
        )
        server.wait_diagnostics(uri, BOUND_S, lambda p: p.get("version") == 2)
        server.request("textDocument/hover", {**document, "position": {"line": 9999, "character": 3}}, BOUND_S)
        server.request(
            "textDocument/completion",
            {"textDocument": {"uri": uri + ".missing"}, "position": {"line": 0, "character": 0}},
            BOUND_S,
        )
        server.close()
    finally:
        server.close()
    logs = server.stderr_text()
    if level == "DEBUG":
        assert "publishDiagnostics" in logs or "textDocument" in logs or logs, "DEBUG logging says something"
    assert SECRET not in logs, _excerpt(logs, SECRET)
    assert SECRET_VALUE not in logs, _excerpt(logs, SECRET_VALUE)
    assert "Returns the weather" not in logs, _excerpt(logs, "Returns the weather")


def _excerpt(logs: str, needle: str) -> str:
    at = logs.index(needle)
    return logs[max(0, at - 300) : at + 100]
