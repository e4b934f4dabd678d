"""The extension point of the editor features: providers of completion, hover, definition and references.

Other parts of toolsense (automation help, tool-definition help, …) add editor help without editing the
language server: a module appends functions to the lists of `PROVIDERS` at import time, and
`toolsense.features` imports it (a plain import: a missing module fails loudly).

Every provider receives one `CursorQuery` — the document, the cursor's byte offset, the unit (tool,
automation, tool call) the cursor is in, the cursor context from the half-typed-JSON-proof token scan, the
workspace's tool registry and the settings — and answers with LSP-free data (byte offsets, pointers,
markdown); the language server turns that into LSP types in the negotiated position encoding.

Signatures and how answers combine:

- `completion_providers`: `(query: CursorQuery) -> list[CompletionCandidate] | None`.
  `None` means "nothing to say here". All answers are merged; when two candidates share a label, the one
  from the earlier provider wins. Extension providers run *before* the built-in schema-driven completion.
- `hover_providers`: `(query: CursorQuery) -> HoverAnswer | None`. The first non-`None` answer wins;
  extension providers run before the built-in hover (field description, type, enum meaning).
- `definition_providers`: `(query: CursorQuery) -> list[TargetLocation] | None`. First non-`None` wins;
  extension providers first. The built-in one goes from a tool name (in a tool call or an action) to the
  tool's definition.
- `reference_providers`: `(query: CursorQuery, include_declaration: bool) -> list[TargetLocation] | None`.
  All answers are concatenated.

Providers must be fast (they run on every keystroke's completion request: aim well under a millisecond on
a unit of a few KB), must not do I/O, and may raise: the server logs the exception and carries on with the
other providers, so one broken provider never hides the others' answers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Literal

from ..document.cursor import CursorContext
from ..document.document import Document
from ..document.jsontree import Pointer
from ..document.lines import Range
from ..engine.catalog import UnitKind
from ..engine.context import ToolRegistry
from ..jsonvalue import JsonValue
from ..settings import Settings

if TYPE_CHECKING:
    from ..usermodels import ModelRegistry

CandidateKind = Literal["property", "value", "enum", "keyword", "type", "tool", "snippet", "reference", "text"]
"""What a completion candidate is; the server maps it to an LSP CompletionItemKind."""


@dataclass(frozen=True)
class CompletionCandidate:
    """One completion item, LSP-free.

    `insert_text` replaces the byte span `replace` (default: the cursor context's partial token, quotes
    included — `CursorContext.replace_start/replace_end`). When the client supports snippets and `snippet`
    is set, the snippet (LSP snippet syntax: `$1`, `${1:x}`, `${1|a,b|}`) is inserted instead.
    """

    label: str
    insert_text: str
    kind: CandidateKind = "value"
    snippet: str | None = None
    detail: str | None = None
    documentation: str | None = None
    """Markdown."""
    replace: tuple[int, int] | None = None
    sort_text: str | None = None
    filter_text: str | None = None
    preselect: bool = False
    deprecated: bool = False
    additional_edits: tuple[tuple[int, int, str], ...] = ()
    """Other edits, as `(start byte, end byte, new text)`: e.g. the comma the previous member lacks."""


@dataclass(frozen=True)
class HoverAnswer:
    """Markdown shown for the byte span `span` (the key or value under the cursor)."""

    markdown: str
    span: tuple[int, int] | None = None


@dataclass(frozen=True)
class TargetLocation:
    """A place, in this document or another: give `range`, or a JSON `pointer` the server resolves.

    `target` says which part of the member at `pointer` to show: its key, its value or the whole member.
    """

    uri: str
    pointer: Pointer | None = None
    range: Range | None = None
    target: Literal["key", "value", "member"] = "value"


@dataclass(frozen=True)
class UnitRef:
    """The unit (tool, automation, tool call) that holds the cursor: where it starts and what it holds."""

    kind: UnitKind
    pointer: Pointer
    start: int
    value: JsonValue
    """The unit's value: `json.loads` of its text, or a tolerant read when the text is half-typed."""
    dialect: str | None


@dataclass(frozen=True)
class CursorQuery:
    """Everything a provider may know about the place the user is at. No LSP types."""

    document: Document
    offset: int
    """Byte offset of the cursor in `document.data`."""
    kind: UnitKind | None
    """The file's kind (tool definitions, automations, tool calls), None when it is none of ours."""
    unit: UnitRef | None
    cursor: CursorContext
    """Slot (key / value), absolute pointer, partial token and its replace span at the cursor."""
    registry: ToolRegistry
    settings: Settings
    snippets: bool = False
    """Whether the client accepts snippet insert texts."""
    models: ModelRegistry | None = field(default=None, compare=False)
    """Registered user models, when the workspace is trusted and they are loaded."""

    @property
    def uri(self) -> str:
        return self.document.uri

    @cached_property
    def relative(self) -> Pointer:
        """The cursor's pointer relative to its unit (the whole pointer when there is no unit)."""
        base = self.unit.pointer if self.unit is not None else ()
        pointer = self.cursor.pointer
        return pointer[len(base) :] if pointer[: len(base)] == base else pointer

    def value_at(self, pointer: Pointer) -> JsonValue:
        """A value inside the unit, by pointer relative to the unit; None when absent."""
        node: JsonValue = self.unit.value if self.unit is not None else None
        for part in pointer:
            if isinstance(node, dict) and isinstance(part, str):
                node = node.get(part)
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                node = node[part]
            else:
                return None
        return node

    def token_text(self) -> str:
        """The whole token under the cursor (decoded when it is a string), not only the part before it."""
        raw = bytes(self.document.data[self.cursor.replace_start : self.cursor.replace_end])
        text = raw.decode("utf-8", "replace")
        if self.cursor.in_string:
            try:
                value = json.loads(text)
            except ValueError:
                return text.strip('"')
            return value if isinstance(value, str) else text
        return text


CompletionProvider = Callable[[CursorQuery], "list[CompletionCandidate] | None"]
HoverProvider = Callable[[CursorQuery], "HoverAnswer | None"]
DefinitionProvider = Callable[[CursorQuery], "list[TargetLocation] | None"]
ReferenceProvider = Callable[[CursorQuery, bool], "list[TargetLocation] | None"]


class ProviderRegistry:
    """Lists of providers, filled once at import time and read-only afterwards (like the rule catalog)."""

    def __init__(self) -> None:
        self.completion_providers: list[CompletionProvider] = []
        self.hover_providers: list[HoverProvider] = []
        self.definition_providers: list[DefinitionProvider] = []
        self.reference_providers: list[ReferenceProvider] = []

    def completion(self, function: CompletionProvider) -> CompletionProvider:
        """Decorator: `@PROVIDERS.completion` registers a completion provider."""
        self.completion_providers.append(function)
        return function

    def hover(self, function: HoverProvider) -> HoverProvider:
        self.hover_providers.append(function)
        return function

    def definition(self, function: DefinitionProvider) -> DefinitionProvider:
        self.definition_providers.append(function)
        return function

    def references(self, function: ReferenceProvider) -> ReferenceProvider:
        self.reference_providers.append(function)
        return function


PROVIDERS = ProviderRegistry()
"""The one registry. `from toolsense.features.providers import PROVIDERS` then `@PROVIDERS.completion`."""
