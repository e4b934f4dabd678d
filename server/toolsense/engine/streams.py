"""Streamed chat completions: `chat.completion.chunk` objects, one per JSON line (or per segment of a recorded
response), whose tool calls come in fragments a client assembles (`choices[].delta.tool_calls[]`: `index`, `id`,
`function.name`, pieces of `function.arguments`).

Each call is assembled as the client assembles it, into a unit of its own (`document.assembled`) that is checked
like any other recorded call (`rules.calls.responses`). Its pointer is that of its first fragment (the first
chunk's `delta.tool_calls[i]`); a finding on an assembled argument lands on the chunk carrying its first character,
one on the call as a whole on that first fragment.

Fragments belong to one call by the stream's `id`, the choice's `index` and the call's `index`; a fragment with
another `id` at the same index starts a new call. `function.name` is joined from its fragments too, unless every
fragment repeats the same whole name (some OpenAI-compatible servers send it in each chunk).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tree_sitter import Node

from ..document.assembled import Assembly, Piece, anchored, string_pieces, verbatim
from ..document.embedded import EmbeddedNode
from ..document.jsontree import Pointer, document_values, string_value, value_children
from ..models.dialects import Dialect
from .claim import Claimed
from .detect import member_node

CHUNK = "chat.completion.chunk"


def is_chunk(node: Node) -> bool:
    """Whether an object of the file is a streamed chat completion chunk (one inside a JSON string is left alone:
    its fragments' bytes are not the file's)."""
    if isinstance(node, EmbeddedNode):
        return False
    kind = member_node(node, "object") if node.type == "object" else None
    return kind is not None and string_value(kind) == CHUNK


class _Call:
    """The fragments of one streamed tool call, in stream order."""

    def __init__(self, pointer: Pointer, first: Node) -> None:
        self.pointer = pointer
        self.first = first
        self.id: Node | None = None
        self.names: list[Node] = []
        self.arguments: list[Node] = []

    def add(self, fragment: Node) -> None:
        identifier = _string(fragment, "id")
        if self.id is None and identifier is not None:
            self.id = identifier
        function = member_node(fragment, "function")
        if function is None or function.type != "object":
            return
        for key, found in (("name", self.names), ("arguments", self.arguments)):
            token = _string(function, key)
            if token is not None and string_value(token):
                found.append(token)

    def claimed(self) -> Claimed | None:
        anchor = (self.first.start_byte, self.first.end_byte)
        names = self.names
        if len(names) > 1 and len({string_value(n) for n in names}) == 1:
            names = names[:1]  # the whole name repeated in every chunk
        pieces: list[Piece] = [
            anchored('{"id": ', *anchor),
            verbatim(self.id) if self.id is not None else anchored('""', *anchor),
            anchored(', "type": "function", "function": {"name": ', *anchor),
            *string_pieces(names, anchor),
            anchored(', "arguments": ', *anchor),
            *string_pieces(self.arguments, anchor),
            anchored("}}", *anchor),
        ]
        root: Any = Assembly(pieces).root  # an embedded node answers as a node
        values = document_values(root)
        if len(values) != 1 or values[0].type != "object":
            return None
        return Claimed("tool_call", self.pointer, values[0], Dialect.OPENAI_CALL, "response")


def streamed_calls(items: Sequence[tuple[Pointer, Node]]) -> list[Claimed]:
    """The tool calls assembled from the chunks among items (pointer, object), in the order they start."""
    calls: list[_Call] = []
    open_calls: dict[tuple[str | None, int, int], _Call] = {}
    for pointer, node in items:
        if not is_chunk(node):
            continue
        stream_token = _string(node, "id")
        stream = string_value(stream_token) if stream_token is not None else None
        choices = member_node(node, "choices")
        for c, choice in enumerate(value_children(choices) if choices is not None and choices.type == "array" else ()):
            delta = member_node(choice, "delta") if choice.type == "object" else None
            fragments = member_node(delta, "tool_calls") if delta is not None and delta.type == "object" else None
            if fragments is None or fragments.type != "array":
                continue
            for k, fragment in enumerate(value_children(fragments)):
                if fragment.type != "object":
                    continue
                key = (stream, _index(choice, c), _index(fragment, k))
                call = open_calls.get(key)
                identifier = _string(fragment, "id")
                if call is None or (
                    identifier is not None and call.id is not None and string_value(identifier) != string_value(call.id)
                ):
                    call = open_calls[key] = _Call((*pointer, "choices", c, "delta", "tool_calls", k), fragment)
                    calls.append(call)
                call.add(fragment)
    return [claimed for call in calls if (claimed := call.claimed()) is not None]


def _string(node: Node, key: str) -> Node | None:
    found = member_node(node, key)
    return found if found is not None and found.type == "string" else None


def _index(node: Node, position: int) -> int:
    """The object's own `index`, else its position in its array."""
    found = member_node(node, "index")
    if found is None or found.type != "number":
        return position
    try:
        return int((found.text or b"").decode())
    except ValueError:
        return position
