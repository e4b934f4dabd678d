"""Outline and folding, read from the tree (never walking all of it): tools with their parameters, automations
with their trigger and actions, tool calls; folding ranges for objects and arrays that span lines."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Literal

from tree_sitter import Node

from ..document.document import Document
from ..document.jsontree import Pointer, locate, member, pair_key, pairs, string_value, value_children
from ..document.outline import LightNode
from ..engine.catalog import UnitKind
from ..engine.detect import detect, skeleton
from ..engine.token_costs import unit_cost
from ..engine.units import Split, read_unit, split, with_dialects
from ..models.definitions import NAME_KEY, SCHEMA_KEY
from ..tokens import TokenCount

SymbolKind = Literal["tool", "parameter", "automation", "trigger", "action", "call", "unit"]

MAX_UNITS_WITH_CHILDREN = 1000
"""Above this many units the outline lists the units only: thousands of parameters help nobody and cost a pause
on every outline refresh (a generated file's tools with their parameters: ~0.6 ms of CPU each, 1.3 s for 2,000;
the units alone ~0.08 ms each)."""


@dataclass
class Symbol:
    """An outline entry in byte offsets: `span` covers the whole thing, `selection` its name."""

    name: str
    kind: SymbolKind
    span: tuple[int, int]
    selection: tuple[int, int]
    detail: str | None = None
    children: list[Symbol] = field(default_factory=list)


def _member_value(obj: Node, key: str) -> Node | None:
    pair = member(obj, key)
    return pair.child_by_field_name("value") if pair is not None else None


def _text(node: Node | None) -> str | None:
    return string_value(node) if node is not None else None


def _span(node: Node) -> tuple[int, int]:
    return node.start_byte, node.end_byte


def _tool_dialect(obj: Node) -> str:
    found = detect(skeleton(obj), relaxed=True)
    if found is not None and found.dialect in SCHEMA_KEY and not found.inner:
        return found.dialect
    return "anthropic"


def _named(obj: Node, pointer: Pointer, fallback: str) -> tuple[str, tuple[int, int]]:
    location = locate(obj, pointer)
    if location.complete:
        name = string_value(location.value)
        if name:
            return name, _span(location.value)
    return fallback, (obj.start_byte, min(obj.start_byte + 1, obj.end_byte))


def _tool_symbol(obj: Node, index: int, children: bool, cost: TokenCount | None = None) -> Symbol:
    dialect = _tool_dialect(obj)
    name, selection = _named(obj, NAME_KEY[dialect], f"tool {index}")
    detail = f"{dialect} · {cost.label()}" if cost is not None else dialect
    symbol = Symbol(name, "tool", _span(obj), selection, detail)
    if not children:
        return symbol
    location = locate(obj, (*SCHEMA_KEY[dialect], "properties"))
    if location.complete and location.value.type == "object":
        required_node = locate(obj, (*SCHEMA_KEY[dialect], "required"))
        required: set[str] = set()
        if required_node.complete and required_node.value.type == "array":
            required = {v for item in value_children(required_node.value) if (v := string_value(item))}
        for pair in pairs(location.value):
            key = pair.child_by_field_name("key")
            value = pair.child_by_field_name("value")
            prop = pair_key(pair)
            if key is None or prop is None:
                continue
            kind = _text(_member_value(value, "type")) if value is not None and value.type == "object" else None
            detail = (kind or "any") + (" · required" if prop in required else "")
            symbol.children.append(Symbol(prop, "parameter", _span(pair), _span(key), detail))
    return symbol


def _automation_symbol(obj: Node, index: int, children: bool) -> Symbol:
    name, selection = _named(obj, ("name",), f"automation {index}")
    trigger_node = _member_value(obj, "trigger_type")
    trigger = _text(trigger_node)
    symbol = Symbol(name, "automation", _span(obj), selection, trigger)
    if not children:
        return symbol
    if trigger_node is not None:
        pair = member(obj, "trigger_type")
        assert pair is not None
        symbol.children.append(Symbol(trigger or "trigger", "trigger", _span(pair), _span(trigger_node), "trigger"))
    actions = _member_value(obj, "actions")
    if actions is not None and actions.type == "array":
        for position, action in enumerate(value_children(actions)):
            if action.type != "object":
                continue
            action_name, action_selection = _named(action, ("id",), f"action {position}")
            tool = _text(_member_value(action, "tool"))
            symbol.children.append(Symbol(action_name, "action", _span(action), action_selection, tool))
    return symbol


def _call_symbol(obj: Node, index: int) -> Symbol:
    for pointer in (("name",), ("function", "name")):
        location = locate(obj, pointer)
        if location.complete and (name := string_value(location.value)):
            call_id = _text(_member_value(obj, "id"))
            return Symbol(name, "call", _span(obj), _span(location.value), call_id)
    return Symbol(f"call {index}", "call", _span(obj), (obj.start_byte, obj.start_byte + 1))


def _costs(document: Document, file_split: Split) -> dict[Pointer, TokenCount]:
    """Each tool's tokens by its pointer (units read with the dialects their file gives them)."""
    if file_split.kind != "tool":
        return {}
    units = with_dialects([read_unit(document, span) for span in file_split.spans])
    return {cost.pointer: cost.count for index, unit in enumerate(units) if (cost := unit_cost(unit, index))}


def document_symbols(document: Document, kind_hint: UnitKind | None) -> list[Symbol]:
    file_split = split(document, kind_hint)
    children = len(file_split.spans) <= MAX_UNITS_WITH_CHILDREN
    costs = _costs(document, file_split) if children else {}
    result: list[Symbol] = []
    for index, span in enumerate(file_split.spans):
        # An outlined unit is read from a copy: its scanned members are not kept in the outline afterwards.
        node = span.node.detached() if isinstance(span.node, LightNode) else span.node
        if node.type != "object":
            continue
        if span.kind == "tool":
            result.append(_tool_symbol(node, index, children, costs.get(span.pointer)))
        elif span.kind == "automation":
            result.append(_automation_symbol(node, index, children))
        elif span.kind == "mcp_config":
            continue  # an MCP configuration file is not a list of calls; its outline is the JSON's own
        else:
            result.append(_call_symbol(node, index))
    return result


@dataclass(frozen=True)
class Fold:
    start: int
    end: int
    """Byte offsets of the opening and the closing bracket (or of a block comment's ends)."""
    comment: bool = False


DEFAULT_FOLD_LIMIT = 20_000


def folding_ranges(document: Document, limit: int | None = None) -> list[Fold]:
    """Objects and arrays spanning lines, outermost first until the limit (the client's `rangeLimit`).

    Read from the document's outline when it has one: a container's members are visited (and, in a light
    outline, scanned) only when the walk reaches them, so a 22 MB file is neither parsed whole nor expanded
    beyond the folds returned."""
    limit = DEFAULT_FOLD_LIMIT if limit is None or limit <= 0 else limit
    lines = document.lines
    result: list[Fold] = []
    # Breadth first over nodes; an entry `(node, True)` stands for node's children, put in its place only when
    # popped, so the order is that of queueing the children at once without asking for them early.
    queue: deque[tuple[Node, bool]] = deque([(document.outline, True)])
    while queue and len(result) < limit:
        node, members = queue.popleft()
        if members:
            if isinstance(node, LightNode):
                node = node.detached()  # the members scanned here are not kept in the outline
            queue.extendleft((child, False) for child in reversed(node.named_children))
            continue
        kind = node.type
        if kind in ("object", "array"):
            if lines.line_of(node.end_byte) > lines.line_of(node.start_byte):
                result.append(Fold(node.start_byte, node.end_byte - 1))
                queue.append((node, True))
        elif kind in ("pair", "ERROR", "document"):
            queue.append((node, True))
        elif kind == "comment" and lines.line_of(node.end_byte) > lines.line_of(node.start_byte):
            result.append(Fold(node.start_byte, node.end_byte - 1, comment=True))
    result.sort(key=lambda fold: fold.start)
    return result
