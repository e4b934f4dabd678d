"""Generated inputs for the robustness and LSP tests (deterministic; nothing is committed but this code)."""

from __future__ import annotations

import json
import random
from typing import Any

_WORDS = (
    "returns", "the", "matching", "records", "for", "given", "account", "and", "time", "range", "so", "that",
    "assistant", "can", "answer", "questions", "about", "status", "owners", "limits", "recent", "changes",
)  # fmt: skip
_ENUM = ("celsius", "fahrenheit", "kelvin", "low", "normal", "high", "critical", "draft", "open", "closed")


def _sentence(rng: random.Random, n: int) -> str:
    text = " ".join(rng.choice(_WORDS) for _ in range(n))
    return text[0].upper() + text[1:] + "."


def tool(rng: random.Random, index: int) -> dict[str, Any]:
    """One Anthropic tool of about 5 KB: strings, bounded integers, an enum, a nested object, an example."""
    properties: dict[str, Any] = {}
    example: dict[str, Any] = {}
    for p in range(10):
        name = f"field_{p}"
        kind = p % 4
        if kind == 0:
            values = rng.sample(_ENUM, 4)
            properties[name] = {"type": "string", "enum": values, "description": _sentence(rng, 8)}
            example[name] = values[0]
        elif kind == 1:
            properties[name] = {"type": "integer", "minimum": 0, "maximum": 500, "description": _sentence(rng, 8)}
            example[name] = rng.randint(0, 500)
        elif kind == 2:
            properties[name] = {"type": "string", "maxLength": 200, "description": _sentence(rng, 10)}
            example[name] = "north" + str(p)
        else:
            properties[name] = {
                "type": "object",
                "properties": {
                    "inner_a": {"type": "string", "description": _sentence(rng, 6)},
                    "inner_b": {"type": "boolean", "description": _sentence(rng, 6)},
                },
                "required": ["inner_a"],
                "additionalProperties": False,
                "description": _sentence(rng, 7),
            }
            example[name] = {"inner_a": "x", "inner_b": True}
    return {
        "name": f"tool_number_{index:05d}",
        "description": _sentence(rng, 30) + " " + _sentence(rng, 12),
        "input_schema": {
            "type": "object",
            "properties": properties,
            "required": ["field_0", "field_1"],
            "additionalProperties": False,
        },
        "input_examples": [example],
    }


def tools_text(size_bytes: int, seed: int = 11) -> str:
    """A JSON array of tools (indent 2) at least `size_bytes` long."""
    rng = random.Random(seed)
    sample = json.dumps([tool(rng, i) for i in range(20)], indent=2)
    count = max(1, int(size_bytes * 1.01 * 20 / len(sample)) + 1)
    rng = random.Random(seed)
    return json.dumps([tool(rng, i) for i in range(count)], indent=2) + "\n"
