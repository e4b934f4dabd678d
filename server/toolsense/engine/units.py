"""Classify a file and split it into units (one tool, one automation, one tool call).

Works on the tree's top levels only — a 24 MB file is never walked node by node here.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from tree_sitter import Node

from ..document.document import Document
from ..document.jsontree import Pointer, member, pair_key, pairs, string_value, to_value, value_children
from ..settings import DEFAULT_AUTOMATION_GLOBS, DEFAULT_TOOL_CALL_GLOBS, DEFAULT_TOOL_GLOBS, Settings
from .catalog import UnitKind

Shape = Literal["object", "array", "wrapper", "lines", "none"]

TOOL_KEYS = frozenset({"input_schema", "inputSchema", "parameters", "function"})
AUTOMATION_KEYS = frozenset({"trigger_type", "trigger_config"})
SKIPPED_TOOL_TYPES_PREFIXES = (
    "file_search",
    "code_interpreter",
    "web_search",
    "computer",
    "bash",
    "text_editor",
    "image_generation",
    "mcp",
    "local_shell",
    "memory",
)


@functools.lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    """A glob with `**` (any folders), `*`, `?` and `[...]`, matched against a whole posix path."""
    if not pattern.startswith(("/", "**")):
        pattern = "**/" + pattern
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[":
            end = pattern.find("]", i)
            if end < 0:
                out.append(re.escape(pattern[i]))
                i += 1
            else:
                out.append(pattern[i : end + 1])
                i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def glob_match(path: str, pattern: str) -> bool:
    return _glob_regex(pattern).match(path.replace("\\", "/")) is not None


def kind_from_path(path: str, settings: Settings) -> UnitKind | None:
    """Settings globs first, then the defaults."""
    files = settings.files
    if any(glob_match(path, g) for g in files.exclude):
        return None
    sources: list[tuple[UnitKind, tuple[str, ...], tuple[str, ...]]] = [
        ("automation", files.automations, DEFAULT_AUTOMATION_GLOBS),
        ("tool_call", files.tool_calls, DEFAULT_TOOL_CALL_GLOBS),
        ("tool", files.tool_definitions, DEFAULT_TOOL_GLOBS),
    ]
    for kind, user, _ in sources:
        if any(glob_match(path, g) for g in user):
            return kind
    for kind, _, default in sources:
        if any(glob_match(path, g) for g in default):
            return kind
    return None


@dataclass(frozen=True)
class UnitSpan:
    """Where a unit is, before its value is read."""

    kind: UnitKind
    pointer: Pointer
    node: Node


@dataclass(frozen=True)
class Unit:
    """One independent piece of a file, with its value read from its own text slice."""

    kind: UnitKind
    pointer: Pointer
    value: Any
    dialect: str | None
    start: int
    end: int
    clean: bool
    """False when the value came from a tolerant read (comments or syntax errors inside)."""


@dataclass(frozen=True)
class Split:
    kind: UnitKind | None
    shape: Shape
    spans: list[UnitSpan]
    root: Node | None
    problem: str | None = None


def root_value(document_node: Node) -> Node | None:
    for child in document_node.named_children:
        if child.type not in ("comment", "ERROR"):
            return child
    return None


def _keys(obj: Node) -> set[str]:
    return {key for pair in pairs(obj) if (key := pair_key(pair)) is not None}


def _sniff_object(obj: Node) -> UnitKind | None:
    keys = _keys(obj)
    if keys & AUTOMATION_KEYS or ("actions" in keys and "trigger_type" in keys):
        return "automation"
    type_pair = member(obj, "type")
    type_value = None
    if type_pair is not None and (value := type_pair.child_by_field_name("value")) is not None:
        type_value = string_value(value)
    arguments = _member_value(obj, "arguments")
    if type_value == "tool_use" or (
        arguments is not None and arguments.type in ("string", "object") and "name" in keys and "parameters" not in keys
    ):
        return "tool_call"
    if type_value == "function" and "function" in keys:
        function = member(obj, "function")
        inner = function.child_by_field_name("value") if function is not None else None
        if inner is not None and inner.type == "object" and "arguments" in _keys(inner):
            return "tool_call"
        return "tool"
    if keys & TOOL_KEYS:
        return "tool"
    return None


def _array_kind(array: Node) -> UnitKind | None:
    for index, element in enumerate(value_children(array)):
        if index >= 8:
            break
        if element.type == "object" and (kind := _sniff_object(element)) is not None:
            return kind
    return None


def _member_value(obj: Node, key: str) -> Node | None:
    pair = member(obj, key)
    return pair.child_by_field_name("value") if pair is not None else None


def split(document: Document, kind_hint: UnitKind | None) -> Split:
    """The file's kind, shape and units."""
    root = root_value(document.root)
    if root is None:
        return Split(kind_hint, "none", [], None, "empty")
    values = [child for child in document.root.named_children if child.type not in ("comment", "ERROR")]
    if len(values) > 1:
        # JSON Lines: one unit per top-level value.
        kind = kind_hint or next((k for v in values[:8] if v.type == "object" and (k := _sniff_object(v))), None)
        if kind is None:
            return Split(None, "lines", [], root)
        return Split(kind, "lines", [UnitSpan(kind, (i,), node) for i, node in enumerate(values)], root)
    if root.type == "array":
        kind = kind_hint or _array_kind(root)
        if kind is None:
            return Split(None, "array", [], root)
        spans = [UnitSpan(kind, (i,), node) for i, node in enumerate(value_children(root))]
        return Split(kind, "array", spans, root)
    if root.type != "object":
        return Split(kind_hint, "none", [], root, root.type)
    wrappers: tuple[tuple[str, UnitKind], ...] = (("tools", "tool"), ("functions", "tool"), ("automations", "automation"))
    for wrapper, kind_of in wrappers:
        inner = _member_value(root, wrapper)
        if inner is not None and inner.type == "array":
            wrapped: UnitKind = kind_hint or kind_of
            spans = [UnitSpan(wrapped, (wrapper, i), n) for i, n in enumerate(value_children(inner))]
            return Split(wrapped, "wrapper", spans, root)
    result = _member_value(root, "result")
    if result is not None and result.type == "object":
        tools = _member_value(result, "tools")
        if tools is not None and tools.type == "array":
            spans = [UnitSpan("tool", ("result", "tools", i), n) for i, n in enumerate(value_children(tools))]
            return Split("tool", "wrapper", spans, root)
    sniffed = _sniff_object(root)
    kind = kind_hint or sniffed
    if kind is None:
        return Split(None, "object", [], root)
    return Split(kind, "object", [UnitSpan(kind, (), root)], root)


def read_unit(document: Document, span: UnitSpan) -> Unit:
    """The unit's value from `json.loads` of its own bytes; a tolerant tree read when that fails."""
    node = span.node
    raw = document.data[node.start_byte : node.end_byte]
    clean = True
    try:
        value = json.loads(bytes(raw))
    except ValueError:
        clean = False
        value = to_value(node)
    return Unit(span.kind, span.pointer, value, None, node.start_byte, node.end_byte, clean)


def tool_dialect(value: Any) -> str | None:
    """Which provider's tool shape this is; None for things that are not function tools."""
    if not isinstance(value, dict):
        return None
    kind = value.get("type")
    if "inputSchema" in value:
        return "mcp"
    if "input_schema" in value:
        return "anthropic"
    if isinstance(value.get("function"), dict) or (kind == "function" and "function" in value):
        return "openai"
    if "parameters" in value:
        return "openai-flat"
    if isinstance(kind, str) and kind not in ("function", "custom"):
        return None  # built-in / server tools (file_search, web_search_20250305, …)
    if isinstance(value.get("arguments"), list):
        return None  # Docker MCP catalog entries: a different format
    return "unknown"


def call_dialect(value: Any) -> str | None:
    if not isinstance(value, dict):
        return None
    if value.get("type") == "tool_use" or ("input" in value and "name" in value):
        return "anthropic-call"
    if isinstance(value.get("function"), dict):
        return "openai-call"
    if isinstance(value.get("arguments"), (str, dict)):
        return "openai-flat-call"
    if isinstance(value.get("arguments"), list):
        return None
    return "input"


def with_dialects(units: list[Unit]) -> list[Unit]:
    """Give each unit its dialect; tools without telling keys take the file's dominant dialect."""
    result: list[Unit] = []
    dialects: list[str | None] = []
    for unit in units:
        if unit.kind == "tool":
            dialects.append(tool_dialect(unit.value))
        elif unit.kind == "tool_call":
            dialects.append(call_dialect(unit.value))
        else:
            dialects.append("automation")
    known = [d for d in dialects if d not in (None, "unknown")]
    dominant: str | None = max(set(known), key=known.count) if known else "anthropic"
    if any(isinstance(u.value, dict) and isinstance(u.value.get("arguments"), list) for u in units if u.kind == "tool"):
        dominant = None  # a Docker MCP catalog: bare {name, description} entries are not tool definitions
    for unit, dialect in zip(units, dialects, strict=True):
        if dialect == "unknown":
            dialect = dominant
        result.append(Unit(unit.kind, unit.pointer, unit.value, dialect, unit.start, unit.end, unit.clean))
    return result
