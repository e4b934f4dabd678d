"""Classify a file and split it into units (one tool, one automation, one tool call).

Works on the tree's top levels only — a 24 MB file is never walked node by node here.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from tree_sitter import Node

from ..document.document import Document
from ..document.jsontree import (
    MAX_DEPTH,
    VALUE_TYPES,
    Pointer,
    TooDeep,
    document_values,
    member,
    pair_key,
    pairs,
    string_value,
    to_value,
    value_children,
)
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
class UnitProblem:
    """Why a unit's text could not be read exactly: a code, absolute byte offsets and a message."""

    code: str
    start: int
    end: int
    message: str


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
    """False when the value came from a tolerant read (syntax errors inside); comments alone keep it clean."""
    problem: UnitProblem | None = None
    """A syntax error tree-sitter accepts but JSON does not (TS001), or nesting too deep to read (TS006)."""


@dataclass(frozen=True)
class Split:
    kind: UnitKind | None
    shape: Shape
    spans: list[UnitSpan]
    root: Node | None
    problem: str | None = None
    base: Node | None = None
    """The node absolute pointers start from: the root value, or the document node of JSON Lines; None when
    tree-sitter could not parse the file as a whole (units were recovered from its fragments)."""
    recovered: bool = False
    """True when the document's root is an ERROR node and the units are the complete values found in it."""


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


def schema_kind(obj: Node) -> UnitKind | None:
    """The kind a file's own `$schema` names (after the settings' globs, before the content is sniffed).

    Matched on the schema's file name: `…/automation.schema.json` → automation, `…/tool-call.json` → tool call,
    `…/tools.schema.json` → tool definitions; JSON Schema meta-schemas and other schemas name none of these.
    """
    value = _member_value(obj, "$schema")
    text = string_value(value) if value is not None else None
    if not text:
        return None
    name = text.rstrip("/#").rsplit("/", 1)[-1].lower()
    if "automation" in name:
        return "automation"
    if "call" in name:
        return "tool_call"
    if "tool" in name:
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
    top = document.root
    if top.type == "ERROR":
        return _recovered_split(top, kind_hint)
    values = document_values(top)
    if not values:
        errors = [child for child in top.named_children if child.type == "ERROR"]
        whole = next((e for e in errors if e.child_count and e.children[0].type in ("{", "[")), None)
        if whole is not None:
            return _recovered_split(whole, kind_hint)  # tree-sitter could not parse the text as a whole
        if errors:
            return Split(kind_hint, "none", [], None, None, top)  # nothing but syntax errors
        return Split(kind_hint, "none", [], None, "empty", top)
    root = values[0]
    if root.type == "object" and len(values) == 1:
        kind_hint = kind_hint or schema_kind(root)
    if len(values) > 1:
        # JSON Lines: one unit per top-level value.
        kind = kind_hint or next((k for v in values[:8] if v.type == "object" and (k := _sniff_object(v))), None)
        if kind is None:
            return Split(None, "lines", [], root, None, top)
        return Split(kind, "lines", [UnitSpan(kind, (i,), node) for i, node in enumerate(values)], root, None, top)
    if root.type == "array":
        kind = kind_hint or _array_kind(root)
        if kind is None:
            return Split(None, "array", [], root, None, root)
        spans = [UnitSpan(kind, (i,), node) for i, node in enumerate(value_children(root))]
        return Split(kind, "array", spans, root, None, root)
    if root.type != "object":
        return Split(kind_hint, "none", [], root, root.type, root)
    if kind_hint in (None, "mcp_config") and _is_mcp_config(document.uri, root):
        return Split("mcp_config", "object", [UnitSpan("mcp_config", (), root)], root, None, root)
    for wrapper, kind_of in _WRAPPERS:
        inner = _member_value(root, wrapper)
        if inner is not None and inner.type == "array":
            wrapped: UnitKind = kind_hint or kind_of
            spans = [UnitSpan(wrapped, (wrapper, i), n) for i, n in enumerate(value_children(inner))]
            return Split(wrapped, "wrapper", spans, root, None, root)
    result = _member_value(root, "result")
    if result is not None and result.type == "object":
        tools = _member_value(result, "tools")
        if tools is not None and tools.type == "array":
            spans = [UnitSpan("tool", ("result", "tools", i), n) for i, n in enumerate(value_children(tools))]
            return Split("tool", "wrapper", spans, root, None, root)
    sniffed = _sniff_object(root)
    kind = kind_hint or sniffed
    if kind is None:
        return Split(None, "object", [], root, None, root)
    return Split(kind, "object", [UnitSpan(kind, (), root)], root, None, root)


_WRAPPERS: tuple[tuple[str, UnitKind], ...] = (("tools", "tool"), ("functions", "tool"), ("automations", "automation"))

MCP_CONFIG_FILES = frozenset({"mcp.json", ".mcp.json", "claude_desktop_config.json"})
"""MCP client configuration files (VS Code `.vscode/mcp.json`, Cursor `mcp.json`, Claude Code `.mcp.json`, Claude
Desktop): ours when the name matches and the content has a `servers` / `mcpServers` object."""


def _is_mcp_config(uri: str, root: Node) -> bool:
    if uri.rstrip("/").rsplit("/", 1)[-1] not in MCP_CONFIG_FILES:
        return False
    return any((value := _member_value(root, key)) is not None and value.type == "object" for key in MCP_SERVER_KEYS)


MCP_SERVER_KEYS = ("servers", "mcpServers")


def mcp_config_dialect(value: Any) -> str:
    """`vscode` (a `servers` map, with `inputs`) or `claude` (an `mcpServers` map: Claude Code, Claude Desktop,
    Cursor)."""
    return "vscode" if isinstance(value, dict) and isinstance(value.get("servers"), dict) else "claude"


_MAX_UNIT_DEPTH = 3


@dataclass
class _Open:
    """A container opened among the fragments of a document-level ERROR node."""

    kind: Literal["object", "array"]
    pointer: Pointer | None
    key: str | None = None
    colon: bool = False
    index: int = 0


def _next_pointer(frames: list[_Open]) -> Pointer | None:
    if not frames:
        return ()
    frame = frames[-1]
    if frame.pointer is None or len(frame.pointer) >= _MAX_UNIT_DEPTH:
        return None  # units sit at most three levels down (`result.tools[i]`); deeper pointers are not needed
    if frame.kind == "array":
        return (*frame.pointer, frame.index)
    return (*frame.pointer, frame.key) if frame.key is not None and frame.colon else None


def _advance(frames: list[_Open]) -> None:
    if frames:
        frame = frames[-1]
        frame.index += 1
        frame.key, frame.colon = None, False


def fragments(error_root: Node) -> tuple[str | None, list[tuple[Pointer, Node]]]:
    """The complete values among the children of a document-level ERROR node, with their pointers.

    When tree-sitter cannot parse a file as a whole (typically a string or bracket left open before the end),
    the root is an ERROR whose children are the tokens it could not place and the complete subtrees it could:
    `[{…}, {…}, {"name": "x` gives `[`, object, `,`, object, `,`, `{`, string, `:`, `"`, …. Replaying the
    brackets over those children recovers where each complete subtree sits. Returns the top container's kind.
    """
    frames: list[_Open] = []
    found: list[tuple[Pointer, Node]] = []
    top: str | None = None
    for child in error_root.children:
        kind = child.type
        if kind in ("{", "["):
            pointer = _next_pointer(frames)
            if not frames:
                top = "object" if kind == "{" else "array"
            frames.append(_Open("object" if kind == "{" else "array", pointer))
        elif kind in ("}", "]"):
            if frames:
                frames.pop()
                _advance(frames)
        elif kind == ":":
            if frames and frames[-1].kind == "object":
                frames[-1].colon = True
        elif kind == "pair":
            frame = frames[-1] if frames else None
            if frame is not None and frame.kind == "object" and frame.pointer is not None:
                key, value = pair_key(child), child.child_by_field_name("value")
                if key is not None and value is not None:
                    found.append(((*frame.pointer, key), value))
            _advance(frames)
        elif kind == "string" and frames and frames[-1].kind == "object" and not frames[-1].colon:
            frames[-1].key = string_value(child)
        elif kind in VALUE_TYPES:
            pointer = _next_pointer(frames)
            if pointer is not None:
                found.append((pointer, child))
            _advance(frames)
    return top, found


def _recovered_split(error_root: Node, kind_hint: UnitKind | None) -> Split:
    top, found = fragments(error_root)
    candidates: list[tuple[Pointer, Node]] = []
    if top == "array":
        candidates = [(p, n) for p, n in found if len(p) == 1]
    elif top == "object":
        for wrapper, _ in _WRAPPERS:
            whole = next((n for p, n in found if p == (wrapper,) and n.type == "array"), None)
            if whole is not None:
                candidates = [((wrapper, i), n) for i, n in enumerate(value_children(whole))]
            else:
                candidates = [(p, n) for p, n in found if len(p) == 2 and p[0] == wrapper]
            if candidates:
                break
        if not candidates:
            candidates = [(p, n) for p, n in found if len(p) == 3 and p[:2] == ("result", "tools")]
    objects = [n for _, n in candidates if n.type == "object"]
    kind = kind_hint or next((k for n in objects[:8] if (k := _sniff_object(n)) is not None), None)
    if kind is None or not candidates:
        return Split(kind, "none", [], None, None, None, recovered=True)
    shape: Shape = "array" if top == "array" else "wrapper"
    return Split(kind, shape, [UnitSpan(kind, p, n) for p, n in candidates], None, None, None, recovered=True)


def read_unit(document: Document, span: UnitSpan) -> Unit:
    """The unit's value from `json.loads` of its own bytes; a tolerant tree read when that fails.

    Comments are blanked out before `json.loads` (they are allowed). Nesting deeper than `MAX_DEPTH` gives no
    value and a TS006 problem; a JSON error tree-sitter accepts (a raw control character in a string, `1.`)
    gives the tolerant value and a TS001 problem at the exact character.
    """
    node = span.node
    start, end = node.start_byte, min(node.end_byte, len(document.data))
    raw = bytes(document.data[start:end])
    if raw.count(b"{") + raw.count(b"[") > MAX_DEPTH and (deep := _depth_exceeded(raw)) is not None:
        return _unreadable(span, _too_deep(start + deep))
    clean = True
    problem: UnitProblem | None = None
    try:
        value = json.loads(raw)
    except RecursionError:
        return _unreadable(span, _too_deep(start))
    except ValueError as error:
        failure: ValueError | None = error
        value = None
        if b"/" in raw and (stripped := strip_comments(raw)) != raw:
            try:
                value = json.loads(stripped)
                failure = None
            except ValueError as again:
                failure = again
            except RecursionError:
                return _unreadable(span, _too_deep(start))
        if failure is not None:
            clean = False
            try:
                value = to_value(node)
            except TooDeep as too_deep:
                return _unreadable(span, _too_deep(too_deep.offset))
            if not node.has_error and isinstance(failure, json.JSONDecodeError):
                problem = _json_problem(failure, start)
    return Unit(span.kind, span.pointer, value, None, start, node.end_byte, clean, problem)


def _unreadable(span: UnitSpan, problem: UnitProblem) -> Unit:
    return Unit(span.kind, span.pointer, None, None, span.node.start_byte, span.node.end_byte, False, problem)


_COMMENT_OR_STRING = re.compile(rb'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*(?:[^*]|\*(?!/))*(?:\*/)?')
_NOT_LINE_BREAK = re.compile(rb"[^\r\n]")


def strip_comments(raw: bytes) -> bytes:
    """raw with every `//` and `/* */` comment replaced by spaces (line breaks kept): offsets do not move."""

    def blank(match: re.Match[bytes]) -> bytes:
        token = match.group()
        return token if token.startswith(b'"') else _NOT_LINE_BREAK.sub(b" ", token)

    return _COMMENT_OR_STRING.sub(blank, raw)


_DEPTH_TOKEN = re.compile(rb'"(?:[^"\\\n]|\\.)*"|[\[\]{}]')


def _depth_exceeded(raw: bytes) -> int | None:
    """Offset of the first bracket that nests deeper than `MAX_DEPTH`, or None."""
    depth = 0
    for match in _DEPTH_TOKEN.finditer(raw):
        token = match.group()
        if token in (b"{", b"["):
            depth += 1
            if depth > MAX_DEPTH:
                return match.start()
        elif token in (b"}", b"]"):
            depth -= 1
    return None


def _too_deep(offset: int) -> UnitProblem:
    message = f"Nesting is too deep to check: more than {MAX_DEPTH} levels of arrays and objects"
    return UnitProblem("TS006", offset, offset + 1, message)


def _json_problem(error: json.JSONDecodeError, base: int) -> UnitProblem:
    """A JSON error at its exact character (`error.pos` counts characters of the decoded text)."""
    text = error.doc
    at = base + len(text[: error.pos].encode("utf-8", "surrogatepass"))
    char = text[error.pos] if error.pos < len(text) else ""
    if error.msg.startswith("Invalid control character") and char:
        message = f"Syntax error: control character U+{ord(char):04X} must be escaped in a string"
    else:
        message = f"Syntax error: {error.msg[:1].lower()}{error.msg[1:]}"
    return UnitProblem("TS001", at, at + len(char.encode("utf-8", "surrogatepass")), message)


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
        elif unit.kind == "mcp_config":
            dialects.append(mcp_config_dialect(unit.value))
        else:
            dialects.append("automation")
    known = [d for d in dialects if d not in (None, "unknown")]
    dominant: str | None = max(set(known), key=known.count) if known else "anthropic"
    if any(isinstance(u.value, dict) and isinstance(u.value.get("arguments"), list) for u in units if u.kind == "tool"):
        dominant = None  # a Docker MCP catalog: bare {name, description} entries are not tool definitions
    for unit, dialect in zip(units, dialects, strict=True):
        if dialect == "unknown":
            dialect = dominant
        # Cached units usually have their dialect already: skip the copy (this loop runs on every keystroke).
        result.append(unit if unit.dialect == dialect else dataclasses.replace(unit, dialect=dialect))
    return result
