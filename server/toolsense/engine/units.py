"""Classify a file and split it into units (one tool, one automation, one tool call).

Works on the tree's top levels only — a 24 MB file is never walked node by node here.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import unquote, urlparse

from tree_sitter import Node

from ..document.document import Document
from ..document.embedded import EmbeddedNode
from ..document.jsontree import (
    MAX_DEPTH,
    Pointer,
    TooDeep,
    document_values,
    member,
    string_value,
    to_value,
    value_children,
)
from ..document.outline import LightNode
from ..models.dialects import Dialect, as_dialect
from ..models.mcp_clients import FILE_NAMES, SERVER_KEYS
from ..settings import DEFAULT_AUTOMATION_GLOBS, DEFAULT_TOOL_CALL_GLOBS, DEFAULT_TOOL_GLOBS, Settings
from . import records, regexes
from .claim import NOT_OURS, Claim, Claimer, Origin, UnitSpan, conversation
from .config_dialects import config_reader
from .config_dialects import mcp_config_dialect as mcp_config_dialect  # where every caller finds it
from .detect import detect
from .lenient import lenient_json
from .ownership import broken_file_owner, broken_note, name_says, uri_path
from .placement import syntax_errors
from .recovery import Shape, recover
from .unit_kinds import UnitKind

__all__ = ["UnitSpan"]

_DEFAULTS: tuple[tuple[UnitKind, tuple[str, ...]], ...] = (
    ("automation", DEFAULT_AUTOMATION_GLOBS),
    ("tool_call", DEFAULT_TOOL_CALL_GLOBS),
    ("tool", DEFAULT_TOOL_GLOBS),
)
_HINT_GLOBS = _DEFAULTS
"""The default globs, by folder (`**/tools/*.json`) and by file name (`**/*.tools.json`), only lower the bar:
folders of that name hold all sorts of JSON, and other programs name their own files `*.tools.json` too (a flow
tool's node metadata). Only the user's own settings force a kind."""


def glob_match(path: str, pattern: str) -> bool:
    """A glob with `**` (any folders), `*`, `?` and `[...]`, matched against a whole posix path (linear time)."""
    return regexes.glob_match(path.replace("\\", "/"), pattern)


def glob_any(path: str, patterns: tuple[str, ...] | list[str]) -> bool:
    """Whether the path matches any of the globs (`glob_match` of each, in one pass)."""
    return regexes.glob_any(path.replace("\\", "/"), tuple(patterns))


def kind_from_path(path: str, settings: Settings) -> UnitKind | None:
    """The kind the settings' globs force on this file (None: the content decides; see `weak_hint` for the
    default globs, which only lower the bar)."""
    files = settings.files
    groups = (
        tuple(files.exclude),
        tuple(files.automations),
        tuple(files.tool_calls),
        (*files.tool_definitions, *files.dialects),
    )
    found = regexes.glob_first(path.replace("\\", "/"), groups)  # one match for every glob (per file indexed)
    return None if found is None else _PATH_KINDS[found]


_PATH_KINDS: tuple[UnitKind | None, ...] = (None, "automation", "tool_call", "tool")
"""What `kind_from_path` gives for each of its groups of globs: an excluded file is none of ours."""


def forced_dialect(path: str, settings: Settings) -> str | None:
    """The dialect `[tool.toolsense.files] dialects` ({glob = dialect}) forces on this file's tools."""
    for pattern, dialect in settings.files.dialects.items():
        if glob_match(path, pattern):
            return dialect
    return None


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
    derived: dict[str, Any] = dataclasses.field(default_factory=dict, init=False, repr=False, compare=False)
    """What rules compute from this unit alone (its content digest, its tool view), kept with the unit so every
    rule family reuses it; a new unit (any change) starts empty."""
    origin: Origin = "file"
    """Where the unit sits (`engine.claim.Origin`): a request body and an MCP `tools/list` result are sent as-is."""
    container_dialect: str | None = None
    """The dialect the unit's container decides; `with_dialects` keeps it over the unit's own keys."""
    text: bytes | LightNode | None = dataclasses.field(default=None, repr=False, compare=False)
    """The unit's own bytes when `json.loads` read `value` straight from them (no comment, no tolerant read, no
    name taken from a key): a validator parses them instead of encoding `value` again (`json_text`). For a unit
    of an outline, its node, which slices them when asked (a large file's texts are not all held at once)."""

    @property
    def json_text(self) -> bytes | None:
        """The unit's own JSON text (see `text`), or None."""
        text = self.text
        return text.text if isinstance(text, LightNode) else text

    @property
    def sent_as_is(self) -> bool:
        """Whether the unit is known to reach the provider or client exactly as written."""
        return self.origin in ("request", "tools_list", "forced")


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
    broken: bool = False
    """The file does not parse as JSON (syntax errors, less what its reader accepts)."""
    recovered: bool = False
    """True when the document's root is an ERROR node and the units are the complete values found in it."""
    note: str | None = None
    """Why a file a folder glob points at was not checked (one information diagnostic), else None."""
    hinted: bool = False
    """A folder glob points at the file: its syntax errors are reported even when its content is not ours."""
    containers: tuple[tuple[str, Pointer], ...] = ()
    """Containers that are not what they should be (`"tools": "x"` in a request body, a dataset's `tools` string
    that does not parse): a message and where, each."""


def root_value(document_node: Node) -> Node | None:
    for child in document_node.named_children:
        if child.type not in ("comment", "ERROR"):
            return child
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
    if "tool" in name and "manifest" not in name:
        return "tool"
    return None


def _member_value(obj: Node, key: str) -> Node | None:
    pair = member(obj, key)
    return pair.child_by_field_name("value") if pair is not None else None


def split(document: Document, kind_hint: UnitKind | None, dialect: str | None = None) -> Split:
    """The file's kind, shape and units.

    kind_hint: a kind the settings or the file's name force (every unit is claimed); without one, the content
    decides, with a lower bar when a folder glob (`**/tools/*.json`) points at the file. dialect: a dialect the
    settings force on the file's tools. A file that does not parse is claimed only on an authority
    (`ownership.broken_file_owner`: settings, `$schema`, the file's name, the open document's history); without
    one it is not ours and gets at most one note.
    """
    found = _split(document, kind_hint, dialect)
    path = uri_path(document.uri)
    if not document.has_error or not syntax_errors(document, path):
        return found
    found = dataclasses.replace(found, broken=True)
    schema_named = found.root is not None and found.root.type == "object" and schema_kind(found.root) is not None
    owner = broken_file_owner(kind_hint is not None, schema_named, name_says(path), document.claimed_kind is not None)
    if owner is not None:
        return found
    looks: UnitKind | None = found.kind or weak_hint(document.uri)
    note = broken_note(looks) if looks is not None else None
    return Split(None, found.shape, [], found.root, None, found.base, note=note, broken=True)


def _split(document: Document, kind_hint: UnitKind | None, dialect: str | None) -> Split:
    weak = weak_hint(document.uri) if kind_hint is None else None
    forced_dialect = as_dialect(dialect)
    claimer = Claimer(kind_hint, weak is not None, forced_dialect)
    top = document.outline
    # A broken file of the open document's history is recovered with the kind it had when it parsed.
    history = document.claimed_kind if document.claimed_kind in ("tool", "automation", "tool_call") else None
    fallback: UnitKind | None = weak or cast("UnitKind | None", history)
    if top.type == "ERROR":
        return Split(*recover(top, claimer, fallback), None, None, None, recovered=True)
    values = document_values(top)
    if not values:
        errors = [child for child in top.named_children if child.type == "ERROR"]
        whole = next((e for e in errors if e.child_count and e.children[0].type in ("{", "[")), None)
        if whole is not None:
            # tree-sitter could not parse the text as a whole
            return Split(*recover(whole, claimer, fallback), None, None, None, recovered=True)
        if errors:
            return Split(kind_hint, "none", [], None, None, top, hinted=weak is not None)  # only syntax errors
        expected = kind_hint or weak  # an empty file a glob points at: what it should hold is known
        return Split(expected, "none", [], None, "empty" if expected else None, top)
    root = values[0]
    if root.type == "object" and len(values) == 1 and kind_hint is None and (named := schema_kind(root)):
        claimer = Claimer(named, False, forced_dialect)
    if len(values) > 1:
        lines = [((i,), node) for i, node in enumerate(values)]
        claim = claimer.elements(lines, "file")
        if claim.kind is None:
            claim = records.claim_records(claimer, lines)
        return _from_claim(claim, "lines", root, top, weak)
    if root.type == "array":
        items = [((i,), node) for i, node in enumerate(value_children(root))]
        if not items and weak is not None:
            return Split(weak, "array", [], root, None, root)  # an empty list where a glob expects units: fine
        claim = claimer.elements(items, "file")
        if claim.kind is None and claimer.forced is None:
            claim = conversation(items)
        if claim.kind is None:
            claim = records.claim_records(claimer, items)
        return _from_claim(claim, "array", root, root, weak)
    if root.type != "object":
        if claimer.forced is not None:
            return Split(claimer.forced, "none", [], root, root.type, root)
        return _from_claim(NOT_OURS, "none", root, root, weak)
    if kind_hint in (None, "mcp_config") and (reader := config_reader(document.uri, root)) is not None:
        return Split("mcp_config", "object", [UnitSpan("mcp_config", (), root, reader)], root, None, root)
    claim = records.claim_object(claimer, root)
    return _from_claim(claim, claim.shape if claim.kind is not None else "object", root, root, weak)


def _from_claim(claim: Claim, shape: Shape, root: Node, base: Node, weak: UnitKind | None) -> Split:
    if claim.kind is None:
        note = _not_checked(weak) if weak is not None else None
        return Split(None, shape, [], root, None, base, note=note, hinted=weak is not None)
    spans = claim.units
    return Split(
        claim.kind, shape if shape != "none" else claim.shape, spans, root, None, base, containers=claim.all_problems
    )


MCP_CONFIG_FILES = FILE_NAMES
"""MCP client configuration files (`models.mcp_clients`): ours when the path is a client's and the content has
its servers."""
MCP_SERVER_KEYS = tuple(sorted(SERVER_KEYS))


def _not_checked(kind: UnitKind) -> str:
    what = {"tool": "tool definitions", "automation": "an automation", "tool_call": "tool calls"}[kind]
    setting = {"tool": "tool_definitions", "automation": "automations", "tool_call": "tool_calls"}[kind]
    return (
        f"Not checked: the file's path suggests {what}, but the content has the shape of no known dialect (a tool "
        f"needs a name and input_schema, inputSchema, parameters, function or toolSpec); to check it anyway, add its "
        f"path to [tool.toolsense.files] {setting}"
    )


def weak_hint(uri: str) -> UnitKind | None:
    """The kind a default glob (`**/tools/*.json`, `**/*.tools.json`) suggests for this file: it lowers the bar,
    never forces."""
    if not uri.startswith("file:"):
        return None
    path = unquote(urlparse(uri).path)
    for kind, globs in _HINT_GLOBS:
        if glob_any(path, globs):
            return kind
    return None


def read_unit(document: Document, span: UnitSpan) -> Unit:
    """The unit's value from `json.loads` of its own bytes; a tolerant tree read when that fails.

    Comments are blanked out before `json.loads` (they are allowed). Nesting deeper than `MAX_DEPTH` gives no
    value and a TS006 problem; a JSON error tree-sitter accepts (a raw control character in a string, `1.`)
    gives the tolerant value and a TS001 problem at the exact character.
    """
    node = span.node
    start, end = node.start_byte, min(node.end_byte, len(document.data))
    # A unit inside a JSON string of the file reads the string's decoded text (its node spans the file's bytes).
    raw = node.text if isinstance(node, EmbeddedNode) else bytes(document.data[start:end])
    if raw.count(b"{") + raw.count(b"[") > MAX_DEPTH and (deep := _depth_exceeded(raw)) is not None:
        return _unreadable(span, _too_deep(node.file_offset(deep) if isinstance(node, EmbeddedNode) else start + deep))
    clean = True
    problem: UnitProblem | None = None
    text: bytes | LightNode | None = raw if raw[:1] == b"{" else None  # only objects are validated
    try:
        # An outline node holds its value already, read by the same decoder from the same text.
        if isinstance(node, LightNode):
            value = node.value
            text = node if text is not None else None
        else:
            value = json.loads(raw)
    except RecursionError:
        return _unreadable(span, _too_deep(start))
    except ValueError as error:
        failure: ValueError | None = error
        value, text = None, None
        if (b"/" in raw or b"," in raw) and (stripped := lenient_json(raw)) != raw:
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
    if span.origin == "map" and isinstance(value, dict) and "name" not in value and "function" not in value:
        value, text = _named_by_key(value, span.pointer[-1]), None
    return Unit(
        span.kind,
        span.pointer,
        value,
        span.dialect,
        start,
        node.end_byte,
        clean,
        problem,
        span.origin,
        span.dialect,
        text,
    )


def _named_by_key(value: dict[str, Any], key: Any) -> dict[str, Any]:
    """A tool of a name-keyed map that does not say its name is named by its key (findings about the name land
    on the key: the pointer `name` leads past the text to the key that holds the tool)."""
    inner = value.get("toolSpec")
    if isinstance(inner, dict):
        return {**value, "toolSpec": {"name": key, **inner}} if "name" not in inner else value
    return {"name": key, **value}


def _unreadable(span: UnitSpan, problem: UnitProblem) -> Unit:
    node = span.node
    return Unit(
        span.kind,
        span.pointer,
        None,
        span.dialect,
        node.start_byte,
        node.end_byte,
        False,
        problem,
        span.origin,
        span.dialect,
    )


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
    # Said in full: the security rules (TS290, TS292) read a unit's texts at any depth, but not an unread unit's.
    message = (
        f"Nesting is too deep to check: more than {MAX_DEPTH} levels of arrays and objects; nothing in it was read, "
        "not even by the security rules (TS290, TS292)"
    )
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
    """Which provider's tool shape this is; None for things that are not function tools (a provider's built-in
    tool); "unknown" when nothing tells (the file's dominant dialect applies)."""
    if not isinstance(value, dict):
        return None
    found = detect(value, relaxed=True)
    if found is not None and found.kind == "tool" and not found.inner:
        return found.dialect
    if isinstance(value.get("arguments"), list):
        return None  # Docker MCP catalog entries: a different format
    kind = value.get("type")
    if isinstance(kind, str) and kind not in ("function", "custom"):
        return None  # a provider's built-in tool, or nothing a tool dialect knows
    return "unknown"


def call_dialect(value: Any) -> str | None:
    if not isinstance(value, dict):
        return None
    found = detect(value, relaxed=True)
    if found is not None and found.kind == "tool_call":
        return found.dialect
    if "input" in value and "name" in value:
        return Dialect.ANTHROPIC_CALL
    if isinstance(value.get("arguments"), list):
        return None
    return Dialect.INPUT


def with_dialects(units: list[Unit]) -> list[Unit]:
    """Give each unit its dialect: the one its container decides, else its own keys'; tools without telling
    keys take the file's dominant dialect; flat functions beside Gemini declarations are Gemini's."""
    result: list[Unit] = []
    dialects: list[str | None] = []
    for unit in units:
        if unit.container_dialect is not None:
            dialects.append(unit.container_dialect)
        elif unit.kind == "tool":
            dialects.append(tool_dialect(unit.value))
        elif unit.kind == "tool_call":
            dialects.append(call_dialect(unit.value))
        elif unit.kind == "mcp_config":
            dialects.append(mcp_config_dialect(unit.value))
        else:
            dialects.append(Dialect.AUTOMATION)
    known = [d for d in dialects if d not in (None, "unknown")]
    dominant: str | None = Counter(known).most_common(1)[0][0] if known else Dialect.ANTHROPIC
    if any(isinstance(u.value, dict) and isinstance(u.value.get("arguments"), list) for u in units if u.kind == "tool"):
        dominant = None  # a Docker MCP catalog: bare {name, description} entries are not tool definitions
    gemini = Dialect.GEMINI in known
    for unit, dialect in zip(units, dialects, strict=True):
        if dialect == "unknown":
            dialect = dominant if unit.kind == "tool" else dialect
        if gemini and dialect == Dialect.OPENAI_FLAT and unit.container_dialect is None:
            dialect = Dialect.GEMINI
        if isinstance(dialect, str) and not isinstance(dialect, Dialect):
            dialect = as_dialect(dialect) or dialect
        # Cached units usually have their dialect already: skip the copy (this loop runs on every keystroke).
        result.append(unit if unit.dialect == dialect else dataclasses.replace(unit, dialect=dialect))
    return result
