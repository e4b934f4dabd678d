#!/usr/bin/env python3
"""Deterministic tool-definition files for the benchmark: `tools_<N>.json`, a JSON array of N Anthropic tools.

Each tool looks hand-written (indent 2) and weighs about 5 KB: a name, a two-sentence description, an
`input_schema` of 9–11 properties (strings, integers with bounds, enums, booleans, one nested object, one
array of objects) and one or two `input_examples` that are valid against it. Files are written outside the
repository by default; nothing generated is committed.

    python bench/generate.py --out /tmp/toolsense-bench 10 100 1000 5000
    python bench/generate.py --workspace 20000 --out /tmp/toolsense-bench/ws20000

`--workspace N` writes a folder of N small files instead: nine in ten hold one to three small tools
(`*.tools.json`, about 1 KB a tool), one in ten is a tool call of one of them (`*.toolcall.json`); one tool
in twenty has an example that breaks its schema and one call in five passes a wrong value, so the check has
something to report.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

DEFAULT_SIZES = (10, 100, 1000, 5000)
DEFAULT_OUT = Path("/tmp/toolsense-bench")

_ACTIONS = ("read", "find", "make", "edit", "drop", "query", "load", "post", "count", "check", "plan", "stop")
_THINGS = ("forecast", "invoice", "issue", "account", "shipment", "booking", "article", "alert", "team", "device")
_FILLER = (
    "this", "tool", "returns", "the", "matching", "records", "for", "the", "given", "account", "and", "time",
    "range", "so", "that", "the", "assistant", "can", "answer", "questions", "about", "status", "owners", "limits",
    "and", "recent", "changes", "without", "guessing", "values", "that", "the", "user", "did", "not", "provide",
    "explicitly", "in", "the", "conversation", "or", "in", "earlier", "tool", "results",
)  # fmt: skip
_PROPERTY_NAMES = (
    "location", "unit", "start", "end", "max_items", "offset", "search", "order_by", "direction", "currency",
    "total", "urgency", "state", "labels", "owner", "locale", "zone", "output", "archived", "page_size",
    "cursor", "group", "area", "count", "remarks", "limit_value", "attempts", "wait_ms", "debug", "contact",
)  # fmt: skip
_ENUM_WORDS = (
    "celsius", "fahrenheit", "asc", "desc", "low", "normal", "high", "critical", "draft", "open", "closed",
    "waiting", "json", "csv", "markdown", "usd", "eur", "hourly", "daily", "weekly", "compact", "full",
)  # fmt: skip


def _words(rng: random.Random, low: int, high: int) -> str:
    text = " ".join(rng.choice(_FILLER) for _ in range(rng.randint(low, high)))
    return text[0].upper() + text[1:] + "."


def _leaf(rng: random.Random, kind: str) -> tuple[dict[str, Any], Any]:
    """A property schema and one valid example value for it."""
    if kind == "enum":
        values = rng.sample(_ENUM_WORDS, rng.randint(3, 7))
        return {"type": "string", "enum": values, "description": _words(rng, 4, 9)}, rng.choice(values)
    if kind == "integer":
        low = rng.choice((0, 1, 10))
        high = low + rng.choice((10, 100, 5000))
        schema = {"type": "integer", "minimum": low, "maximum": high, "description": _words(rng, 4, 9)}
        return schema, rng.randint(low, high)
    if kind == "number":
        return {"type": "number", "minimum": 0, "description": _words(rng, 4, 8)}, round(rng.uniform(0, 99), 1)
    if kind == "boolean":
        return {"type": "boolean", "description": _words(rng, 3, 8)}, rng.random() < 0.5
    schema = {"type": "string", "description": _words(rng, 5, 11)}
    if rng.random() < 0.4:
        schema["maxLength"] = rng.choice((64, 256))
    return schema, rng.choice(("north", "south", "east", "west")) + str(rng.randint(1, 99))


def _object(rng: random.Random, size: int, top: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    names = rng.sample(_PROPERTY_NAMES, size)
    kinds = ["enum", "integer", "string", "array", "object"] if top else []
    kinds += [rng.choice(("string", "integer", "enum", "boolean", "number")) for _ in range(size - len(kinds))]
    rng.shuffle(kinds)
    properties: dict[str, Any] = {}
    example: dict[str, Any] = {}
    required: list[str] = []
    for name, kind in zip(names, kinds, strict=True):
        if kind == "object":
            schema, value = _object(rng, rng.randint(3, 4), False)
            schema["description"] = _words(rng, 3, 7)
        elif kind == "array":
            item, item_value = _object(rng, rng.randint(2, 3), False)
            schema = {"type": "array", "items": item, "maxItems": 25, "description": _words(rng, 3, 7)}
            value = [item_value]
        else:
            schema, value = _leaf(rng, kind)
        properties[name] = schema
        if rng.random() < 0.5 or (not required and name == names[-1]):
            required.append(name)
        if name in required or rng.random() < 0.6:
            example[name] = value
    schema = {"type": "object", "properties": properties, "required": required, "additionalProperties": False}
    return schema, example


def tool(rng: random.Random, index: int) -> dict[str, Any]:
    schema, example = _object(rng, rng.randint(9, 11), True)
    examples = [example]
    if rng.random() < 0.5:
        examples.append({key: example[key] for key in schema["required"] if key in example})
    return {
        "name": f"{rng.choice(_ACTIONS)}_{rng.choice(_THINGS)}_{index:05d}",
        "description": _words(rng, 14, 40) + " " + _words(rng, 6, 18),
        "input_schema": schema,
        "input_examples": examples,
    }


def tools_text(count: int, seed: int = 7) -> str:
    rng = random.Random(seed * 100_003 + count)
    return json.dumps([tool(rng, i) for i in range(count)], indent=2, ensure_ascii=False) + "\n"


def small_tool(rng: random.Random, index: int) -> dict[str, Any]:
    schema, example = _object(rng, rng.randint(3, 5), False)
    if rng.random() < 0.05:
        example = {**example, "unexpected": True}
    return {
        "name": f"{rng.choice(_ACTIONS)}_{rng.choice(_THINGS)}_{index:06d}",
        "description": _words(rng, 8, 20),
        "input_schema": schema,
        "input_examples": [example],
    }


def write_workspace(out: Path, files: int, seed: int = 7) -> list[Path]:
    """A deterministic folder of `files` small tool and tool-call files (100 files per sub-folder)."""
    rng = random.Random(seed * 1_000_003 + files)
    written: list[Path] = []
    tools: list[dict[str, Any]] = []
    for number in range(files):
        folder = out / f"pkg_{number // 100:04d}"
        folder.mkdir(parents=True, exist_ok=True)
        if number % 10 == 9 and tools:
            tool = rng.choice(tools)
            arguments = dict(tool["input_examples"][0])
            if number % 50 == 19:
                arguments["unexpected"] = 1
            call = {"type": "tool_use", "id": f"toolu_{number:06d}", "name": tool["name"], "input": arguments}
            path = folder / f"call_{number:06d}.toolcall.json"
            path.write_text(json.dumps(call, indent=2) + "\n", encoding="utf-8")
        else:
            batch = [small_tool(rng, number * 4 + k) for k in range(rng.randint(1, 3))]
            tools.extend(batch)
            path = folder / f"tools_{number:06d}.tools.json"
            path.write_text(json.dumps(batch, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written


def write(out: Path, sizes: list[int], seed: int = 7) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for count in sizes:
        path = out / f"tools_{count}.json"
        path.write_text(tools_text(count, seed), encoding="utf-8")
        written.append(path)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("sizes", nargs="*", type=int, default=list(DEFAULT_SIZES))
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workspace", type=int, metavar="N", help="write N small files into --out instead")
    args = parser.parse_args()
    if args.workspace:
        paths = write_workspace(args.out, args.workspace, args.seed)
        total = sum(p.stat().st_size for p in paths)
        print(f"{args.out}  {len(paths)} files  {total / 1e6:.1f} MB")
        return
    for path in write(args.out, args.sizes, args.seed):
        size = path.stat().st_size
        print(f"{path}  {size / 1e6:7.2f} MB  {size / max(int(path.stem.split('_')[1]), 1) / 1e3:5.1f} KB/tool")


if __name__ == "__main__":
    main()
