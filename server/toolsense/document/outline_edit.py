"""Edits of a document read from its outline (`outline.py`): a new generation of the outline for an edit inside
one outlined container, built from the members the edit touched, scanned again; or None, and the document goes to
tree-sitter."""

from __future__ import annotations

import bisect
import weakref
from collections.abc import Callable
from typing import Any, cast

from tree_sitter import Node

from .outline import LightNode, Outline, _container_value, _ids, _Reject, _Scanner


def edit_outline(
    document: LightNode, start: int, end: int, new_text: bytes, broken: Callable[[Node], Any] | None = None
) -> LightNode | None:
    """The outline after replacing bytes [start, end) by new_text, as a new generation, or None when the edit
    does not lie inside one outlined container or leaves text there that is not strict JSON.

    broken (the tolerant reader of a tree-sitter node's value, `jsontree.to_value`): when given, an edit inside
    one element of the root array that leaves it broken (a keystroke half-way) is taken too: that element is
    read by tree-sitter from its own text, at its offset, so its syntax errors stay inside
    it (a whole-file parse could read every string after a stray quote inside out) and the document has_error.
    Only one element may be broken at a time, and only the root array's: its elements are the units, each
    read on its own, whereas a member of an outlined object may be inside a unit the engine reads as a value.

    Only the members the edit touches (of the deepest outlined container around it) are scanned again; every
    node on the way up is made anew with its end moved, and the members after the edit are made anew at their
    moved offsets (lazy again below them). Nodes before the edit are shared with the old generation, which stays
    as it was: reports and snapshots holding its nodes read the old text through `Outline.apply`'s link. The
    caller then applies the bytes with `old.apply(new, …)`. A node shared this way is adopted by the new
    generation's container (`_adopted`): its parent is the current one (same type and start, the current span),
    and no node of the new generation leads back to an old one — else each generation, every member after its
    edit made anew, would stay alive through the next for as long as the document is open.
    """
    old = document.outline
    chain = [document]  # the nodes around the edit, outermost first
    indices: list[int] = []  # chain[i + 1] is chain[i]._named[indices[i]]
    node = document
    while node._named:
        named = node._named
        index = bisect.bisect_right(named, start, key=_start_of) - 1
        child = named[index] if index >= 0 else None
        if child is None or not (child.start_byte < start and end < child.end_byte):
            break
        if not isinstance(child, LightNode) or (child.type != "pair" and child._named is None):
            break  # a lazy value (or one tree-sitter reads): its container scans it again
        chain.append(child)
        indices.append(index)
        node = child
    delta = len(new_text) - (end - start)
    new = old.successor(old.source, start, end)
    # The deepest container first; when the new text there is no longer its members (a string's new text closes
    # it and opens a sibling), the next one out, whose touched member holds the whole of it.
    for depth in range(len(chain) - 1, 0, -1):
        if chain[depth].type in ("object", "array"):
            replaced = _rescanned(chain[depth], new, start, end, new_text)
            if replaced is not None:
                try:
                    return _rebuilt(replaced, chain[:depth], indices[:depth], new, delta)
                except _Reject:
                    return None
    return _broken_element(document, new, start, end, new_text, broken) if broken is not None else None


def _broken_element(
    document: LightNode, new: Outline, start: int, end: int, new_text: bytes, to_value: Callable[[Node], Any]
) -> LightNode | None:
    """The outline with the root array's element around the edit read by tree-sitter (see `edit_outline`)."""
    root = document._named[0] if document._named and len(document._named) == 1 else None
    if root is None or root.type != "array" or not root._named:
        return None
    elements = root._named
    index = bisect.bisect_right(elements, start, key=_start_of) - 1
    element = elements[index] if index >= 0 else None
    if element is None or not (element.start_byte < start and end < element.end_byte):
        return None
    if any(_broken(other) for other in elements if other is not element):
        return None
    source = document.outline.source
    low, high = element.start_byte, element.end_byte + len(new_text) - (end - start)
    raw = bytes(source[low:start]) + new_text + bytes(source[end : element.end_byte])
    node = new.parse_at(raw, low)
    if node is None or node.type != element.type or (node.start_byte, node.end_byte) != (low, high):
        return None  # tree-sitter did not read it as one value of its kind: the edit is not taken
    try:
        value = to_value(node)
        made = LightNode(new, "array", root.start_byte, root.end_byte + len(new_text) - (end - start))
        made._depth = root._depth
        delta = high - element.end_byte
        made._named = [
            *_adopted(elements[:index], made),
            cast(LightNode, node),
            *[_moved(n, delta, new, made) for n in elements[index + 1 :]],
        ]
        made.value = [*root.value[:index], value, *root.value[index + 1 :]]
        made._error = node.has_error  # a comment: no error, yet not strict JSON
        return _rebuilt(made, [document], [0], new, delta)
    except ValueError:  # a member that would move (_Reject), nesting too deep to read (jsontree.TooDeep)
        return None


def _rescanned(container: LightNode, new: Outline, start: int, end: int, new_text: bytes) -> LightNode | None:
    """container after the edit, with the members the edit touches scanned again; None when they do not scan."""
    named = container._named or []
    first = bisect.bisect_left(named, start, key=_end_of)  # the first member ending at or after start
    last = bisect.bisect_right(named, end, key=_start_of)  # past the last member starting at or before end
    low = named[first - 1].end_byte if first > 0 else container.start_byte + 1
    high = named[last].start_byte if last < len(named) else container.end_byte - 1
    delta = len(new_text) - (end - start)
    source = container.outline.source
    raw = bytes(source[low:start]) + new_text + bytes(source[end:high])
    replaced = LightNode(new, container.type, container.start_byte, container.end_byte + delta, container.parent)
    replaced._depth = container._depth
    try:
        scanner = _Scanner(new, raw.decode("utf-8"), raw.isascii(), low)
        run = scanner.run(replaced, first > 0, last < len(named))
        after = [_moved(n, delta, new, replaced) for n in named[last:]]
    except (ValueError, StopIteration, RecursionError, IndexError):
        return None
    replaced._named = [*_adopted(named[:first], replaced), *run, *after]
    replaced.value = _edited_value(container, first, last, run)
    replaced._error = container._error and any(n.has_error for n in named[:first])
    return replaced


def _rebuilt(child: LightNode, chain: list[LightNode], indices: list[int], new: Outline, delta: int) -> LightNode:
    """The nodes above a replaced one made anew (ends moved, members after it moved, values rebuilt)."""
    for holder, index in zip(reversed(chain), reversed(indices), strict=True):
        made = LightNode(new, holder.type, holder.start_byte, holder.end_byte + delta, holder.parent)
        made._depth = holder._depth
        siblings = holder._named or []
        if holder.type == "pair":
            key = siblings[0]
            made._named = [LightNode(new, "string", key.start_byte, key.end_byte, made, key.value), child]
        else:
            made._named = [
                *_adopted(siblings[:index], made),
                child,
                *[_moved(n, delta, new, made) for n in siblings[index + 1 :]],
            ]
            if holder.type != "document":
                made.value = _edited_value(holder, index, index + 1, [child])
        made._error = child.has_error or (holder._error and any(n.has_error for n in made._named if n is not child))
        child.parent = made
        child = made
    return child


def _edited_value(container: LightNode, first: int, last: int, run: list[LightNode]) -> Any:
    """The decoded value of container with members [first, last) replaced by run (a new list or dict)."""
    if container.type == "array":
        old: list[Any] = container.value
        return [*old[:first], *(child.value for child in run), *old[last:]]
    return _container_value("object", [*(container._named or [])[:first], *run, *(container._named or [])[last:]])


def _adopted(shared: list[LightNode], parent: LightNode) -> list[LightNode]:
    """Members before an edit, kept as they are but now of the new generation: children of its `parent`, and
    (with every node expanded below them) reading their text through its outline. Their bytes are the same in
    both generations, and a later edit that changes them makes new nodes in its own generation; so no current
    node leads back to an old generation, and each generation (its `Outline`, and through the links every later
    one) lives only as long as a report or snapshot holds nodes of its own.

    A member tree-sitter reads (a broken element) keeps its own parent: tree-sitter's nodes are read-only."""
    outline = parent.outline
    for node in shared:
        if type(node) is LightNode:
            node.parent = parent
            _rehomed(node, outline)
    return shared


def _rehomed(top: LightNode, outline: Outline) -> None:
    """Move `top` and the nodes expanded below it to `outline` (iteratively: nesting can be deep)."""
    stack = [top]
    while stack:
        node = stack.pop()
        if node.outline is outline:
            continue
        node.outline = outline
        named = node._named
        if named:
            stack.extend(child for child in named if type(child) is LightNode)


def _broken(node: LightNode) -> bool:
    """Whether a member is read by tree-sitter (an edit broke it, or left a comment in it)."""
    return type(node) is not LightNode


def _start_of(node: LightNode) -> int:
    return node.start_byte


def _end_of(node: LightNode) -> int:
    return node.end_byte


def _moved(node: LightNode, delta: int, outline: Outline, parent: LightNode) -> LightNode:
    """A member after an edit at its new offsets: a new node (lazy below it; a pair with its key and value).

    Runs for every member after the edit, on every keystroke: the slots are set without `__init__`. A member
    tree-sitter reads (a broken one) is not moved: the edit is not taken."""
    if type(node) is not LightNode:
        raise _Reject("a broken member would move")
    moved = _new(LightNode)
    moved.outline = outline
    kind = moved.type = node.type
    moved.start_byte = node.start_byte + delta
    moved.end_byte = node.end_byte + delta
    moved._parent = weakref.ref(parent)
    moved.id = next(_ids)
    moved.value = node.value
    moved._depth = node._depth
    moved._error = False
    if kind == "pair":
        assert node._named is not None  # a pair's key and value are made with it
        key, value = node._named
        moved._named = [
            LightNode(outline, "string", key.start_byte + delta, key.end_byte + delta, moved, key.value),
            _moved(value, delta, outline, moved),
        ]
    else:
        moved._named = None if kind in ("object", "array") else []
    return moved


_new = object.__new__
