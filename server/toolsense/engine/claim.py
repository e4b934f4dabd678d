"""Which files are ours, and where their units are: content first.

A file is claimed when its content has the shape of a known dialect — each unit has a name and its dialect's
schema key (`input_schema`, `inputSchema`, `parameters`, `function`, `toolSpec`, …), or the file is a known
wrapper of such units (`{"tools": [...]}`, a `tools/list` result, a request body, Gemini `functionDeclarations`,
Bedrock `toolConfig`, a name-keyed map, an application's record around an OpenAI `function`). A wrapper is ours
only when its members are: in a mixed one the members are units and the other entries are left alone. A default
glob, by folder (`**/tools/*.json`) or by file name (`*.tools.json`), lowers the bar (a unit may lack its name)
but never claims content that has none of a tool's keys; only a kind the user's settings give claims every unit.
A provider's response (`"object": "response"`) echoes the tools it accepted: they are not claimed.

Detection reads only the top levels of each unit (a "skeleton" of a few keys), so a 24 MB file costs a few
sampled units, never a walk of the whole tree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from tree_sitter import Node

from ..document.jsontree import Pointer, pair_key, pairs, value_children
from ..models.dialects import Dialect
from .detect import (
    DECLARATIONS,
    LIST_RESULT_KEYS,
    REQUEST_KEYS,
    Detected,
    detect,
    loose_member,
    member_node,
    neutral,
    skeleton,
)
from .ownership import map_claimed, members_claimed, provider_echo
from .unit_kinds import UnitKind

Origin = Literal["file", "request", "tools_list", "app", "map", "conversation", "forced", "response"]
"""Where a unit sits: a tool file, an API request body (sent as-is), an MCP `tools/list` result (sent as-is), an
application's record around the tool, a name-keyed map (the key names a tool that does not say its name), a
conversation's messages, a file whose dialect the settings force, or a provider's response (`engine.records`)."""

_SAMPLE = 16

# --- claiming --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitSpan:
    """Where a unit is, before its value is read: its kind, pointer and node, the dialect its container decides
    (Gemini declarations, a forced dialect; None when the unit's own keys decide) and where it sits."""

    kind: UnitKind
    pointer: Pointer
    node: Node
    dialect: str | None = None
    origin: Origin = "file"


Claimed = UnitSpan


@dataclass(frozen=True)
class Claim:
    """What a file holds: its kind (None: not ours), its shape and units; `problem` is one diagnostic about a
    container that is not what it should be (`"tools": "x"`)."""

    kind: UnitKind | None
    shape: Literal["object", "array", "wrapper", "lines", "none"]
    units: list[Claimed]
    problem: tuple[str, Pointer] | None = None
    problems: tuple[tuple[str, Pointer], ...] = ()
    """More such diagnostics (one per record of a dataset whose `tools` string does not parse)."""

    @property
    def all_problems(self) -> tuple[tuple[str, Pointer], ...]:
        return ((self.problem,) if self.problem is not None else ()) + self.problems


NOT_OURS = Claim(None, "none", [])
_FOUND = {"object": "an object", "string": "a string", "number": "a number", "true": "true", "false": "false"}


@dataclass(frozen=True)
class Claimer:
    """The bar a file's content must pass: `forced` (a kind from the settings or the file's name: every unit is
    claimed), `relaxed` (a folder glob: a unit may lack its name), `dialect` (forced by the settings)."""

    forced: UnitKind | None = None
    relaxed: bool = False
    dialect: Dialect | None = None

    @property
    def lenient(self) -> bool:
        return self.relaxed or self.forced is not None

    def origin(self, default: Origin) -> Origin:
        return "forced" if self.dialect is not None else default

    # -- arrays and JSON Lines --

    def elements(self, items: Sequence[tuple[Pointer, Node]], origin: Origin, container: bool = False) -> Claim:
        """Units among the elements of an array (or the values of JSON Lines). container: the array is known to
        hold tools (`tools`, `functions`), so one recognised element is enough to claim it. Either way an element
        is a unit only when it is a member (`_is_member`): the rest of a mixed array is left alone."""
        expanded: list[tuple[Pointer, Node, Detected | None, Dialect | None, dict[str, Any] | None]] = []
        sampled = recognised = 0
        plain = True
        """Whether every sampled element is a unit as it stands (no record around a tool, no declarations list,
        no neutral entry): then the elements past the sample are taken as they are, unread (a 5,000-tool file
        is split on every keystroke)."""
        for index, (pointer, node) in enumerate(items):
            if node.type != "object" or (plain and index >= _SAMPLE):
                expanded.append((pointer, node, None, None, None))
                continue
            shape = skeleton(node)
            declarations = next((k for k in DECLARATIONS if isinstance(shape.get(k), list)), None)
            if declarations is not None:
                plain = False
                inner = member_node(node, declarations)
                if inner is not None and inner.type == "array":
                    declared = Detected("tool", None)
                    for j, child in enumerate(value_children(inner)):
                        expanded.append(((*pointer, declarations, j), child, declared, Dialect.GEMINI, None))
                    recognised += 1
                    sampled += 1
                continue
            if neutral(shape):
                plain = False
                continue
            found = detect(shape, self.lenient)
            if found is not None and found.inner:
                plain = False
            if index < _SAMPLE:
                sampled += 1
                recognised += found is not None
            expanded.append((pointer, node, found, None, shape))
            if found is not None and shape.get("type") == "namespace" and isinstance(shape.get("tools"), list):
                plain = False
                expanded.extend(_namespace_members(node, pointer, self.lenient))
        if self.forced is None and not members_claimed(recognised, sampled, container):
            return NOT_OURS
        kinds = Counter(found.kind for _, _, found, _, _ in expanded if found is not None)
        main: UnitKind = self.forced or (kinds.most_common(1)[0][0] if kinds else "tool")
        units: list[Claimed] = []
        forced_dialect = self.dialect if main == "tool" else None
        plain_origin = self.origin(origin)
        app_origin = self.origin("app" if origin == "file" else origin)
        for pointer, node, found, dialect, seen in expanded:
            if found is None:
                if not self._is_member(node, seen, main, origin):
                    continue
                units.append(Claimed(main, pointer, node, forced_dialect or dialect, plain_origin))
            elif found.kind != main and self.forced is None:
                units.append(Claimed(found.kind, pointer, node, None, origin))
            elif found.inner and found.kind == main:
                target = _inner_node(node, found.inner)
                units.append(Claimed(main, (*pointer, *found.inner), target, forced_dialect or dialect, app_origin))
            else:
                units.append(Claimed(main, pointer, node, forced_dialect or dialect, plain_origin))
        return Claim(main, "array", units)

    def _is_member(self, node: Node, shape: dict[str, Any] | None, kind: UnitKind, origin: Origin) -> bool:
        """Whether an element no dialect recognised is still a unit of its array: always when the settings force
        the kind or the array is sent as it is (the API defines what its elements are); an element past the
        sample (`shape` None: taken unread) when it is an object; else when it looks like a unit of the array's
        kind (`loose_member`). Anything else is someone else's entry, left alone."""
        if self.forced is not None or origin in ("request", "tools_list"):
            return True
        if shape is None:
            return node.type == "object"
        return loose_member(shape, kind)

    # -- objects --

    def root_object(self, root: Node) -> Claim:
        shape = skeleton(root)
        result = member_node(root, "result") if "result" in shape else None
        if result is not None and result.type == "object":
            tools = member_node(result, "tools")
            if tools is not None and tools.type == "array":
                return self._wrapped(("result", "tools"), tools, "tools_list")
        if self.forced in (None, "automation") and isinstance(shape.get("automations"), list):
            automations = member_node(root, "automations")
            if automations is not None and automations.type == "array":
                claimed = self._wrapped(("automations",), automations, "file", kind="automation")
                if claimed.kind is not None:
                    return claimed
        if shape.get("method") == "tools/call" and self.forced in (None, "tool_call"):
            params = member_node(root, "params")
            if params is not None and params.type == "object":  # an MCP tools/call request: its params are the call
                return Claim("tool_call", "object", [Claimed("tool_call", ("params",), params, Dialect.MCP_CALL)])
        request = bool(REQUEST_KEYS & shape.keys())
        tool_config = member_node(root, "toolConfig") if "toolConfig" in shape else None
        if tool_config is not None and tool_config.type == "object":
            tools = member_node(tool_config, "tools")
            if tools is not None and tools.type == "array":
                claim = self._wrapped(("toolConfig", "tools"), tools, "request" if request else "file")
                return _with_calls(claim, root, shape) if request else claim
        # The tools a provider's response echoes are the ones it accepted: not ours to judge.
        echoed = self.forced is None and provider_echo(shape)
        for key in ("tools", "functions", *DECLARATIONS):
            if key not in shape or echoed:
                continue
            holder = member_node(root, key)
            if holder is None:
                continue
            if holder.type == "array":
                origin: Origin = "request" if request else "file"
                if key == "tools" and not request and shape.keys() <= LIST_RESULT_KEYS and _mcp_first(holder):
                    origin = "tools_list"
                claim = self._wrapped((key,), holder, origin, gemini=key in DECLARATIONS)
                return _with_calls(claim, root, shape) if request else claim
            if holder.type == "object" and key == "tools":
                mapped = self.name_keyed(holder, ("tools",))
                if mapped.kind is not None:
                    return mapped
            if request or self.forced is not None:
                what = _FOUND.get(holder.type, holder.type)
                problem = (f"'{key}' must be an array of tools, found {what}", (key,))
                return Claim(self.forced or "tool", "wrapper", [], problem)
        if request and isinstance(shape.get("messages"), list):
            calls = _with_calls(Claim("tool_call", "wrapper", []), root, shape)
            if calls.units:
                return calls
        single = detect(shape, self.lenient)
        if single is not None and (self.forced is None or single.kind == self.forced):
            target = _inner_node(root, single.inner)
            dialect = self.dialect if single.kind == "tool" and self.dialect is not None else None
            origin = self.origin("app" if single.inner else "file")
            return Claim(single.kind, "object", [Claimed(single.kind, single.inner, target, dialect, origin)])
        mapped = self.name_keyed(root, ())
        if mapped.kind is not None:
            return mapped
        if self.forced is not None:
            dialect = self.dialect if self.forced == "tool" else None
            return Claim(self.forced, "object", [Claimed(self.forced, (), root, dialect, self.origin("file"))])
        return NOT_OURS

    def _wrapped(
        self, prefix: Pointer, array: Node, origin: Origin, kind: UnitKind | None = None, gemini: bool = False
    ) -> Claim:
        """A wrapper's array (`tools`, `functions`, `automations`, a list result's `tools`): ours only when its
        members are (one recognised element, or the settings force the kind); its other entries are left alone."""
        items = [((*prefix, i), node) for i, node in enumerate(value_children(array))]
        if not items:
            return Claim(kind or self.forced or "tool", "wrapper", [])
        if self.forced is None:
            # Known to hold tools (or automations), yet its entries must still look like ones of some dialect.
            claim = Claimer(None, self.relaxed, self.dialect).elements(items, origin, container=True)
            if claim.kind is None or (kind is not None and claim.kind != kind):
                return NOT_OURS
        else:
            claim = Claimer(self.forced, self.relaxed, self.dialect).elements(items, origin, True)
        if gemini and self.dialect is None:
            claim = Claim(
                claim.kind,
                claim.shape,
                [Claimed(u.kind, u.pointer, u.node, Dialect.GEMINI, u.origin) for u in claim.units],
            )
        return Claim(claim.kind, "wrapper", claim.units)

    def name_keyed(self, obj: Node, prefix: Pointer) -> Claim:
        """`{"get_weather": {description, parameters}, …}`: every value is a tool of one dialect."""
        read = [(pair_key(pair), pair.child_by_field_name("value")) for pair in pairs(obj)]
        entries = [(key, node) for key, node in read if key is not None and node is not None]
        if not entries or any(node.type != "object" for _, node in entries):
            return NOT_OURS
        sampled: list[Dialect | None] = []
        dialects: set[Dialect] = set()
        members: list[tuple[str, Node]] = []
        for index, (key, node) in enumerate(entries):
            found = detect(skeleton(node), relaxed=True)
            dialect = found.dialect if found is not None and found.kind == "tool" and not found.inner else None
            if index < _SAMPLE:
                sampled.append(dialect)
                if dialect is None:
                    break  # a sampled value that is no tool: `map_claimed` refuses the map
            if dialect is not None:
                dialects.add(dialect)
                members.append((key, node))
            # past the sample, an entry that is no tool is someone else's: left alone
        if not map_claimed(sampled, dialects):
            return NOT_OURS
        units = [Claimed("tool", (*prefix, key), node, self.dialect, self.origin("map")) for key, node in members]
        return Claim("tool", "wrapper", units)


def _namespace_members(
    node: Node, pointer: Pointer, lenient: bool
) -> list[tuple[Pointer, Node, Detected | None, Dialect | None, dict[str, Any] | None]]:
    """The function and custom tools inside an OpenAI `namespace` tool: units of their own (the namespace stays one
    too, for its own members), so every tool rule checks them at their place."""
    inner = member_node(node, "tools")
    if inner is None or inner.type != "array":
        return []
    members: list[tuple[Pointer, Node, Detected | None, Dialect | None, dict[str, Any] | None]] = []
    for j, child in enumerate(value_children(inner)):
        if child.type == "object":
            shape = skeleton(child)
            members.append(((*pointer, "tools", j), child, detect(shape, lenient), None, shape))
    return members


def _mcp_first(array: Node) -> bool:
    """Whether the first object of a `tools` array is an MCP tool (then `{"tools": [...]}` is a list result)."""
    first = next((node for node in value_children(array) if node.type == "object"), None)
    return first is not None and "inputSchema" in skeleton(first)


def _inner_node(node: Node, pointer: Pointer) -> Node:
    for part in pointer:
        if node.type != "object" or not isinstance(part, str):
            return node
        inner = member_node(node, part)
        if inner is None:
            return node
        node = inner
    return node


# --- tool calls inside requests and conversations --------------------------------------------------------


def _with_calls(claim: Claim, root: Node, shape: Mapping[str, Any]) -> Claim:
    """A request body's tool calls (assistant `tool_calls`, `tool_use` blocks, `function_call` items) as
    tool-call units beside its tools."""
    calls: list[Claimed] = []
    for key in ("messages", "input", "contents"):
        holder = member_node(root, key) if key in shape else None
        if holder is not None and holder.type == "array":
            calls.extend(message_calls([((key, i), node) for i, node in enumerate(value_children(holder))], "request"))
    if not calls:
        return claim
    kind: UnitKind = claim.kind or "tool_call"
    return Claim(kind, "wrapper", [*claim.units, *calls], claim.problem)


def message_calls(messages: Iterable[tuple[Pointer, Node]], origin: Origin) -> list[Claimed]:
    """The tool calls in a list of chat messages (OpenAI Chat, Anthropic Messages, Responses items, Bedrock)."""
    found: list[Claimed] = []
    for pointer, message in messages:
        if message.type != "object":
            continue
        shape = skeleton(message)
        if shape.get("type") == "function_call":
            found.append(Claimed("tool_call", pointer, message, Dialect.OPENAI_RESPONSES_CALL, origin))
            continue
        if shape.get("role") not in ("assistant", "model"):
            continue
        calls = member_node(message, "tool_calls") if "tool_calls" in shape else None
        if calls is not None and calls.type == "array":
            for j, call in enumerate(value_children(calls)):
                found.append(Claimed("tool_call", (*pointer, "tool_calls", j), call, Dialect.OPENAI_CALL, origin))
        legacy = member_node(message, "function_call") if "function_call" in shape else None
        if legacy is not None and legacy.type == "object":
            found.append(Claimed("tool_call", (*pointer, "function_call"), legacy, Dialect.OPENAI_FLAT_CALL, origin))
        content = member_node(message, "content") if "content" in shape else None
        if content is not None and content.type == "array":
            for j, block in enumerate(value_children(content)):
                if block.type != "object":
                    continue
                block_shape = skeleton(block)
                if block_shape.get("type") == "tool_use":
                    found.append(Claimed("tool_call", (*pointer, "content", j), block, Dialect.ANTHROPIC_CALL, origin))
                elif isinstance(block_shape.get("toolUse"), Mapping):
                    found.append(Claimed("tool_call", (*pointer, "content", j), block, Dialect.BEDROCK_CALL, origin))
    return found


def conversation(items: Sequence[tuple[Pointer, Node]]) -> Claim:
    """A bare list of chat messages (`[{role, content, tool_calls}, …]`): its tool calls, if it has any."""
    sample = [node for _, node in items[:_SAMPLE] if node.type == "object"]
    roles = sum(1 for node in sample if isinstance(skeleton(node).get("role"), str))
    if not members_claimed(roles, len(items[:_SAMPLE]), container=False):
        return NOT_OURS
    calls = message_calls(items, "conversation")
    return Claim("tool_call", "array", calls) if calls else NOT_OURS
