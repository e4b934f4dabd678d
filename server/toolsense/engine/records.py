"""Tools and calls one level down: where real files keep them besides a tool file or a request body of their own.

- A recording of an HTTP exchange (`{request: {method, url, body}, response}`; a cassette's `interactions[]`),
  whose `body` is the request object or its JSON text, or is split into `bodySegments` (the Google Gen AI SDK's
  replay files: the request body is the one segment, a streamed response has one segment per chunk);
- a captured SDK call (`{arguments: {model, messages, tools, …}}`);
- a fine-tuning or eval dataset record (`{messages, tools}`, one per JSON line), whose `tools` (or legacy
  `functions`) may be a JSON string: read as an embedded document (`document.embedded`), so every finding is
  placed on its characters inside the string;
- a provider's response: a chat completion's `choices[].message.tool_calls` (streamed: the calls assembled from
  the `chat.completion.chunk` deltas, `engine.streams`), a Responses API object's
  `function_call` output items (and the tools it echoes, which the provider accepted: never judged), an
  Anthropic message's `tool_use` blocks.

Each record is claimed as its body would be at the top of a file (`Claimer.root_object`), its pointers under the
record's. A request body's tools and calls keep the origin "request" (sent as-is, and checked against each
other record by record, `record_of`); a response's units have the origin "response".
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Protocol, TypeVar

from tree_sitter import Node

from ..document.embedded import MAX_EMBEDDED_BYTES, embedded_document
from ..document.jsontree import Pointer, document_values, string_value, value_children
from .claim import NOT_OURS, Claim, Claimed, Claimer, Origin, message_calls
from .detect import REQUEST_KEYS, detect, member_node, skeleton
from .ownership import members_claimed
from .streams import is_chunk, streamed_calls
from .unit_kinds import UnitKind

RESPONSE: Origin = "response"
_SAMPLE = 16
DATASET_KEYS = frozenset(
    {"messages", "conversations", "conversation", "prompt", "query", "instruction", "system", "chosen", "rejected"}
)
"""Keys of a fine-tuning or eval dataset record beside its tools (OpenAI chat format, ShareGPT, preference
pairs, instruction tuning)."""
SEGMENTS = ("bodySegments", "body_segments")
"""Where a replay file keeps a body split into segments (camelCase as the SDK writes it, or its field's name)."""
RECORD_KEYS = ("tools", "functions", "messages", "input", "contents", "toolConfig", "output", "choices", "content")
"""Keys that open a request's or a response's own content: a unit's record is the part of its pointer before
the first of them."""


def claim_object(claimer: Claimer, root: Node) -> Claim:
    """A root object's claim: a record's when it is one, else the claimer's own."""
    if claimer.forced is None:
        found = record(claimer, root, ())
        if found is not None:
            return found
    return claimer.root_object(root)


def claim_records(claimer: Claimer, items: Sequence[tuple[Pointer, Node]]) -> Claim:
    """The units of an array or JSON Lines of records (recordings, dataset lines, request bodies, responses):
    claimed when at least half of the sampled objects are records."""
    if claimer.forced is not None:
        return NOT_OURS
    parts: list[Claim] = []
    sampled = recognised = 0
    for index, (pointer, node) in enumerate(items):
        if index == _SAMPLE and not members_claimed(recognised, sampled, container=False):
            return NOT_OURS  # decided on the sample: a large file of something else is not read line by line
        if node.type != "object":
            continue
        found = record(claimer, node, pointer)
        if found is None:
            found = _body(claimer, node, pointer)
        if index < _SAMPLE:
            sampled += 1
            recognised += found is not None
        if found is not None:
            parts.append(found)
    if not members_claimed(recognised, sampled, container=False):
        return NOT_OURS
    # Chunks recovered from text that is not JSON (a server-sent event stream, `data: {…}` lines) are not read:
    # only a clean document is claimed by its stream alone.
    holder = items[0][1].parent if items else None
    clean = holder is None or not holder.has_error
    streamed = streamed_calls(items) if clean and any(is_chunk(node) for _, node in items[:_SAMPLE]) else []
    if not streamed:
        return _combined(parts)
    # A call starts at its first chunk, before records further down: units stay in the file's order.
    combined = _combined([*parts, Claim("tool_call", "wrapper", streamed)])
    combined.units.sort(key=lambda unit: unit.node.start_byte)
    return combined


def record(claimer: Claimer, node: Node, prefix: Pointer) -> Claim | None:
    """What a record object holds (None: it is no record; a claim of no kind: a record with nothing of ours)."""
    shape = skeleton(node)
    response = _response(claimer, node, shape, prefix)
    if response is not None:
        return response
    if isinstance(shape.get("request"), Mapping):
        return _recording(claimer, node, prefix)
    if isinstance(shape.get("arguments"), Mapping) and "name" not in shape:
        arguments = member_node(node, "arguments")
        body = _body(claimer, arguments, (*prefix, "arguments")) if arguments is not None else None
        if body is not None:
            return _combined([body, *_replies(claimer, node, prefix, ("response", "result"))])
    if isinstance(shape.get("interactions"), list):
        holder = member_node(node, "interactions")
        if holder is not None and holder.type == "array":
            items = [((*prefix, "interactions", i), child) for i, child in enumerate(value_children(holder))]
            cassette = claim_records(claimer, items)
            if cassette.kind is not None or cassette.problems:
                return cassette
    return _dataset(claimer, node, shape, prefix)


def record_of(pointer: Pointer) -> Pointer:
    """The record a unit belongs to: its pointer up to the first key of a request's or response's content."""
    for index, part in enumerate(pointer):
        if part in RECORD_KEYS:
            return pointer[:index]
    return pointer


def exchange_of(pointer: Pointer) -> Pointer:
    """The exchange a request's or response's unit belongs to: its record up to the last array index in it (one
    line of a dataset, one interaction of a cassette), or the whole file."""
    found = record_of(pointer)
    # A segment's index is not an exchange's: a body split into segments is still one body.
    indices = (i for i, part in enumerate(found) if isinstance(part, int) and (i == 0 or found[i - 1] not in SEGMENTS))
    last = max(indices, default=-1)
    return found[: last + 1]


class _InExchange(Protocol):
    """What `exchanges` reads of a unit."""

    @property
    def pointer(self) -> Pointer: ...

    @property
    def origin(self) -> str: ...

    @property
    def kind(self) -> str: ...


Grouped = TypeVar("Grouped", bound=_InExchange)


def exchanges(units: list[Grouped]) -> list[list[Grouped]]:
    """The units file-level rules see together: a dataset's line or a cassette's interaction is a request of its
    own (its tool names, tool counts and calls are its own), everything else is the file's. The tools a response
    echoes stand for the request's only when it was not recorded beside it (else they would be counted twice)."""
    groups: dict[Pointer, list[Grouped]] = {}
    for unit in units:
        key = exchange_of(unit.pointer) if unit.origin in ("request", "response") else ()
        groups.setdefault(key, []).append(unit)
    found = list(groups.values()) if len(groups) > 1 else [units]
    return [_without_echoes(group) for group in found]


def _without_echoes(group: list[Grouped]) -> list[Grouped]:
    echoes = [u for u in group if u.origin == "response" and u.kind == "tool"]
    if not echoes or all(u.kind != "tool" or u.origin == "response" for u in group):
        return group
    return [u for u in group if u.kind != "tool" or u.origin != "response"]


# --- recordings and captured calls -----------------------------------------------------------------------


def _recording(claimer: Claimer, node: Node, prefix: Pointer) -> Claim | None:
    request = member_node(node, "request")
    bodies = _bodies(request, (*prefix, "request")) if request is not None and request.type == "object" else []
    parts = [found for where, body in bodies if (found := _body(claimer, body, where)) is not None]
    parts.extend(_replies(claimer, node, prefix, ("response",)))
    return _combined(parts) if parts else None


def _bodies(holder: Node, prefix: Pointer) -> list[tuple[Pointer, Node]]:
    """A recorded request's or response's body: its `body` member, or each of its `bodySegments`."""
    body = member_node(holder, "body")
    if body is not None:
        return [((*prefix, "body"), body)]
    for key in SEGMENTS:
        segments = member_node(holder, key)
        if segments is not None and segments.type == "array":
            return [((*prefix, key, i), segment) for i, segment in enumerate(value_children(segments))]
    return []


def _replies(claimer: Claimer, node: Node, prefix: Pointer, keys: tuple[str, ...]) -> list[Claim]:
    """The provider responses recorded beside a request: the member itself, its `body` (object or JSON text) or
    its `bodySegments` (a streamed response's chunks: their calls assembled)."""
    found: list[Claim] = []
    for key in keys:
        reply = member_node(node, key)
        if reply is None or reply.type != "object":
            continue
        bodies = [
            (where, target) for where, body in _bodies(reply, (*prefix, key)) if (target := _object_or_text(body))
        ]
        if not bodies and not any(member_node(reply, k) is not None for k in ("body", *SEGMENTS)):
            bodies = [((*prefix, key), reply)]
        for where, target in bodies:
            claim = _response(claimer, target, skeleton(target), where)
            if claim is not None and claim.kind is not None:
                found.append(claim)
        streamed = streamed_calls([(where, target) for where, target in bodies if is_chunk(target)])
        if streamed:
            found.append(Claim("tool_call", "wrapper", streamed))
    return found


def _object_or_text(node: Node) -> Node | None:
    """The object a member holds, or the object its JSON string holds (read as an embedded document)."""
    if node.type == "object":
        return node
    if node.type != "string" or (string_value(node) or "").lstrip()[:1] != "{":
        return None
    document = embedded_document(node)
    values = document_values(document) if document is not None and not document.has_error else []
    return values[0] if len(values) == 1 and values[0].type == "object" else None


def _body(claimer: Claimer, node: Node, prefix: Pointer) -> Claim | None:
    """A request body (object or JSON text) as it would be claimed at the top of a file, under prefix."""
    body = _object_or_text(node)
    if body is None:
        return None
    shape = skeleton(body)
    if not REQUEST_KEYS & shape.keys():
        return None
    dataset = _dataset(claimer, body, shape, prefix)
    if dataset is not None:
        return dataset
    if not {"tools", "functions", "toolConfig"} & shape.keys():  # a conversation alone is not claimed here
        return None
    claim = claimer.root_object(body)
    return _under(claim, prefix) if claim.kind is not None else None


# --- datasets: tools as a JSON string ---------------------------------------------------------------------


def _dataset(claimer: Claimer, node: Node, shape: Mapping[str, object], prefix: Pointer) -> Claim | None:
    """A dataset record whose `tools` or `functions` is a JSON string (a request sent with `model` would be
    rejected for it: that is left to the request's own rule)."""
    if "model" in shape or not DATASET_KEYS & shape.keys():
        return None
    strings = [
        (key, holder)
        for key in ("tools", "functions")
        if key in shape and (holder := member_node(node, key)) is not None and holder.type == "string"
    ]
    if not strings:
        return None
    parts = [found for key, holder in strings if (found := _embedded_tools(claimer, holder, key, prefix))]
    messages = member_node(node, "messages") if isinstance(shape.get("messages"), list) else None
    if messages is not None and messages.type == "array":
        items = [((*prefix, "messages", i), child) for i, child in enumerate(value_children(messages))]
        calls = message_calls(items, "request")
        if calls:
            parts.append(Claim("tool_call", "wrapper", calls))
    return _combined(parts) if parts else Claim(None, "wrapper", [])


def _embedded_tools(claimer: Claimer, holder: Node, key: str, prefix: Pointer) -> Claim | None:
    """The tools a JSON string holds (None: left alone, clearly not tools or too large to read)."""
    text = string_value(holder) or ""
    if text.lstrip()[:1] not in ("[", "{") or holder.end_byte - holder.start_byte > MAX_EMBEDDED_BYTES:
        return None
    pointer = (*prefix, key)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        message = f"'{key}' is a JSON string that does not parse: {error.msg} (at character {error.pos + 1})"
        return Claim("tool", "wrapper", [], problems=((message, pointer),))
    except RecursionError:
        message = f"'{key}' is a JSON string nested too deeply to read"
        return Claim("tool", "wrapper", [], problems=((message, pointer),))
    except ValueError as error:  # a number too long to convert, …
        message = f"'{key}' is a JSON string that cannot be read: {error}"
        return Claim("tool", "wrapper", [], problems=((message, pointer),))
    document = embedded_document(holder)
    values = document_values(document) if document is not None else []
    if len(values) != 1:
        return None
    root = values[0]
    if isinstance(value, list) and root.type == "array":
        items = [((*pointer, i), child) for i, child in enumerate(value_children(root))]
        claim = Claimer(None, claimer.relaxed, claimer.dialect).elements(items, "request", container=True)
        return Claim(claim.kind, "wrapper", claim.units) if claim.kind == "tool" else None
    found = detect(value, relaxed=True) if isinstance(value, dict) else None
    if found is not None and found.kind == "tool" and not found.inner:
        return Claim("tool", "wrapper", [Claimed("tool", pointer, root, claimer.dialect, "request")])
    return None


# --- provider responses -----------------------------------------------------------------------------------


def _response(claimer: Claimer, node: Node, shape: Mapping[str, object], prefix: Pointer) -> Claim | None:
    """A provider's response: its tool calls (origin "response") and the tools it echoes (never judged)."""
    if node.type != "object":
        return None
    kind = _string_member(node, "object")
    units: list[Claimed] = []
    if isinstance(shape.get("choices"), list) and ((kind or "").startswith("chat.completion") or "id" in shape):
        choices = member_node(node, "choices")
        for i, choice in enumerate(value_children(choices) if choices is not None else ()):
            message = member_node(choice, "message") if choice.type == "object" else None
            if message is not None and message.type == "object":
                units.extend(message_calls([((*prefix, "choices", i, "message"), message)], RESPONSE))
    elif kind == "response" and isinstance(shape.get("output"), list):
        tools = member_node(node, "tools")
        if tools is not None and tools.type == "array":
            items = [((*prefix, "tools", i), child) for i, child in enumerate(value_children(tools))]
            units.extend(Claimer(None, claimer.relaxed, claimer.dialect).elements(items, RESPONSE, True).units)
        output = member_node(node, "output")
        items = [((*prefix, "output", i), child) for i, child in enumerate(value_children(output))] if output else []
        units.extend(message_calls(items, RESPONSE))
    elif shape.get("type") == "message" and shape.get("role") == "assistant" and "stop_reason" in shape:
        units.extend(message_calls([(prefix, node)], RESPONSE))
    else:
        return None
    return _combined([Claim("tool_call", "wrapper", units)]) if units else Claim(None, "wrapper", [])


def _string_member(node: Node, key: str) -> str | None:
    value = member_node(node, key)
    return string_value(value) if value is not None else None


# --- combining ----------------------------------------------------------------------------------------------


def _under(claim: Claim, prefix: Pointer) -> Claim:
    units = [Claimed(u.kind, (*prefix, *u.pointer), u.node, u.dialect, u.origin) for u in claim.units]
    problems = tuple((message, (*prefix, *where)) for message, where in claim.all_problems)
    return Claim(claim.kind, "wrapper", units, problems=problems)


def _combined(parts: Sequence[Claim]) -> Claim:
    units = [unit for part in parts for unit in part.units]
    problems = tuple(problem for part in parts for problem in part.all_problems)
    kind: UnitKind | None = None
    if any(unit.kind == "tool" for unit in units) or (problems and not units):
        kind = "tool"
    elif units:
        kind = units[0].kind
    return Claim(kind, "wrapper", units, problems=problems)
