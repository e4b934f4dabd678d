"""toolsense's MCP tool checks accept and reject what each protocol version's official schema does.

The oracle is `jsonschema` with `../shared/specs/mcp/<version>/schema.json` (`Tool` under `definitions` or
`$defs`). toolsense "rejects" a tool when any of its findings is an error, leaving out the checks of the JSON
Schema *inside* `inputSchema`/`outputSchema` (meta-schema, type names, `$ref`s, `required`) and the
`x-mcp-header` rules, which the official schema.json does not express. The tools are the corpus's MCP tools, a
deterministic list of mutations of a few of them (every version's new and removed members, wrong types, nulls,
extra keys, outputSchema shapes), and seeded random combinations of right and wrong members.
"""

from __future__ import annotations

import copy
import functools
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator, Draft202012Validator
from jsonschema.protocols import Validator

from toolsense.engine.checker import resolve_severity
from toolsense.engine.context import CheckContext, ToolRegistry
from toolsense.engine.findings import Severity
from toolsense.engine.unit_rules import run_unit_checks
from toolsense.engine.units import Unit
from toolsense.models.definitions import MCP_VERSIONS
from toolsense.rules import CATALOG
from toolsense.settings import McpSettings, Settings

SHARED = next((p / "shared" for p in Path(__file__).resolve().parents if (p / "shared" / "specs").is_dir()), None)
pytestmark = pytest.mark.skipif(SHARED is None, reason="../shared (specs and corpus) is not available")

INNER = frozenset(
    {
        "TS210",
        "TS212",
        "TS213",
        "TS214",
        "TS215",
        "TS216",
        "TS217",
        "TS218",
        "TS254",
        "TS290",
        "TS291",
        "TS292",
        "TS293",
    }
)
"""Checks of the JSON Schema inside the tool, of spec text rules that schema.json does not express, and the
security rules (TS290–TS293: what the texts say, not the shape; a scanner's fixture in the corpus is poisoned on
purpose)."""


@functools.cache
def oracle(version: str) -> Validator:
    assert SHARED is not None
    schema = json.loads((SHARED / "specs" / "mcp" / version / "schema.json").read_text(encoding="utf-8"))
    if "definitions" in schema:
        return Draft7Validator({**schema, "$ref": "#/definitions/Tool"})
    return Draft202012Validator({**schema, "$ref": "#/$defs/Tool"})


def toolsense_rejects(tool: Any, version: str) -> list[str]:
    settings = Settings(mcp=McpSettings(protocol_version=version))
    ctx = CheckContext(settings, ToolRegistry(), "file:///w/tools/t.json", catalog=CATALOG)
    unit = Unit("tool", ("tools", 0), tool, "mcp", 0, 0, True)
    errors = []
    for finding in run_unit_checks(unit, ctx):
        if finding.code not in INNER and resolve_severity(finding, ctx) == Severity.ERROR:
            errors.append(f"{finding.code} {finding.pointer} {finding.message}")
    return errors


def _tools_in(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, list):
        for item in value:
            yield from _tools_in(item)
    elif isinstance(value, dict):
        if isinstance(value.get("name"), str) and "inputSchema" in value:
            yield value
            return
        for key in ("tools", "result"):
            if key in value:
                yield from _tools_in(value[key])


@functools.cache
def corpus_tools() -> list[dict[str, Any]]:
    assert SHARED is not None
    corpus = SHARED / "corpus"
    paths = sorted((corpus / "github-mcp-server").glob("*.snap"))
    paths += sorted((corpus / "mcp-proxy-snapshots").glob("*.json"))
    manifest = (corpus / "realworld" / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]
    paths += [corpus / "realworld" / row.split("\t")[0] for row in manifest if row.split("\t")[5] == "mcp"]
    tools: list[dict[str, Any]] = []
    for path in paths:
        tools.extend(_tools_in(json.loads(path.read_text(encoding="utf-8"))))
    return tools


def test_the_corpus_has_mcp_tools() -> None:
    assert len(corpus_tools()) > 250


@pytest.mark.parametrize("version", MCP_VERSIONS)
def test_corpus_tools_agree_with_the_official_schema(version: str) -> None:
    disagreements = []
    for tool in corpus_tools():
        official = oracle(version).is_valid(tool)
        ours = toolsense_rejects(tool, version)
        if official == bool(ours):
            disagreements.append((tool.get("name"), official, ours))
    assert disagreements == []


Mutation = Callable[[dict[str, Any]], None]


def _set(path: tuple[str, ...], value: Any) -> Mutation:
    def apply(tool: dict[str, Any]) -> None:
        node = tool
        for part in path[:-1]:
            node = node.setdefault(part, {})
        node[path[-1]] = copy.deepcopy(value)

    apply.__name__ = f"set {'.'.join(path)}={json.dumps(value)[:40]}"
    return apply


def _drop(key: str) -> Mutation:
    def apply(tool: dict[str, Any]) -> None:
        tool.pop(key, None)

    apply.__name__ = f"drop {key}"
    return apply


MUTATIONS: list[Mutation] = [
    _drop("name"),
    _drop("inputSchema"),
    _set(("name",), 42),
    _set(("name",), None),
    _set(("name",), "dotted.name-with_chars"),
    _set(("title",), ["a"]),
    _set(("description",), None),
    _set(("description",), 3),
    _set(("x_vendor_extension",), {"anything": True}),
    _set(("inputSchema",), None),
    _set(("inputSchema",), "object"),
    _set(("inputSchema",), {"properties": {}}),
    _set(("inputSchema",), {"type": "array"}),
    _set(("inputSchema",), {"type": ["object", "null"]}),
    _set(("inputSchema",), {"type": "object", "properties": {"a": True}}),
    _set(("inputSchema",), {"type": "object", "oneOf": [{"properties": {"a": {"type": "string"}}}]}),
    _set(("inputSchema",), {"type": "object", "$schema": "http://json-schema.org/draft-07/schema#"}),
    _set(("outputSchema",), {"type": "array", "items": {"type": "string"}}),
    _set(("outputSchema",), {"type": "object", "properties": {"n": {"type": "number"}}}),
    _set(("outputSchema",), {"properties": {}}),
    _set(("outputSchema",), {"anyOf": [{"type": "string"}, {"type": "number"}]}),
    _set(("outputSchema",), "string"),
    _set(("annotations",), {"readOnlyHint": "yes"}),
    _set(("annotations",), {"destructiveHint": None}),
    _set(("annotations",), {"title": 5}),
    _set(("annotations",), {"readOnlyHint": True, "x_extra": 1}),
    _set(("annotations",), ["readOnlyHint"]),
    _set(("icons",), [{"src": "https://example.com/i.png", "sizes": ["48x48"], "theme": "dark"}]),
    _set(("icons",), [{"mimeType": "image/png"}]),
    _set(("icons",), [{"src": "https://example.com/i.png", "theme": "blue"}]),
    _set(("icons",), [{"src": "https://example.com/i.png", "sizes": "48x48"}]),
    _set(("icons",), {"src": "https://example.com/i.png"}),
    _set(("execution",), {"taskSupport": "optional"}),
    _set(("execution",), {"taskSupport": "always"}),
    _set(("execution",), "forbidden"),
    _set(("_meta",), {"com.example/key": 1}),
    _set(("_meta",), []),
]


def _samples() -> list[dict[str, Any]]:
    tools = corpus_tools()
    with_output = next(t for t in tools if "outputSchema" in t)
    with_annotations = next(t for t in tools if "annotations" in t and "outputSchema" not in t)
    plain = next(t for t in tools if set(t) <= {"name", "description", "inputSchema"})
    return [plain, with_annotations, with_output]


@pytest.mark.parametrize("version", MCP_VERSIONS)
@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.__name__)
def test_mutations_agree_with_the_official_schema(version: str, mutation: Mutation) -> None:
    for sample in _samples():
        tool = copy.deepcopy(sample)
        mutation(tool)
        official = oracle(version).is_valid(tool)
        ours = toolsense_rejects(tool, version)
        assert official != bool(ours), (tool.get("name"), official, ours)


def test_the_versions_differ_where_the_schemas_do() -> None:
    """The mutation list does tell the versions apart (else agreeing would prove little)."""
    outcomes = {version: tuple(oracle(version).is_valid(_mutated(m)) for m in MUTATIONS) for version in MCP_VERSIONS}
    assert len(set(outcomes.values())) == len(MCP_VERSIONS)


def _mutated(mutation: Mutation) -> dict[str, Any]:
    tool = copy.deepcopy(_samples()[0])
    mutation(tool)
    return tool


POOL: list[Any] = [
    None, 1, 1.5, True, "s", "", [], {}, ["a"], {"type": "object"}, {"type": "array"}, {"properties": {}},
    {"type": "object", "properties": {"a": True}},
    {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
    {"src": "x"}, [{"src": "x"}], [{"src": 1}], [{"src": "x", "theme": "dark"}], [{"src": "x", "sizes": [1]}],
    {"readOnlyHint": True}, {"readOnlyHint": "yes"}, {"title": "t", "openWorldHint": False}, {"x": 1},
    {"taskSupport": "optional"}, {"taskSupport": "x"}, {"com.example/a": 1},
]  # fmt: skip
"""Values any member may get: right and wrong for each of them."""
MEMBERS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations", "icons", "execution")


@pytest.mark.parametrize("version", MCP_VERSIONS)
def test_random_combinations_agree_with_the_official_schema(version: str) -> None:
    """Seeded random tools: every member absent, right or wrong in every way of the pool, independently."""
    rng = random.Random(version)
    for _ in range(400):
        tool: dict[str, Any] = {}
        for key in (*MEMBERS, "_meta", "x_extra"):
            roll = rng.random()
            if key == "name" and roll < 0.9:
                tool[key] = "n"
            elif key == "inputSchema" and roll < 0.7:
                tool[key] = {"type": "object"}
            elif roll < 0.3:
                tool[key] = copy.deepcopy(rng.choice(POOL))
        ours = toolsense_rejects(tool, version)
        assert oracle(version).is_valid(tool) != bool(ours), (tool, ours)
