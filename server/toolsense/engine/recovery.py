"""Units of a file tree-sitter could not parse as a whole (a string or bracket left open while typing): the
complete values among the fragments of its document-level ERROR node, and where each sits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from tree_sitter import Node

from ..document.jsontree import VALUE_TYPES, Pointer, pair_key, string_value, value_children
from .claim import Claimer, UnitSpan
from .detect import detect
from .ownership import broken_file_kind
from .unit_kinds import UnitKind

Shape = Literal["object", "array", "wrapper", "lines", "none"]

_WRAPPERS = ("tools", "functions", "functionDeclarations", "automations")
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


def recover(error_root: Node, claimer: Claimer, weak: UnitKind | None) -> tuple[UnitKind | None, Shape, list[UnitSpan]]:
    """The kind, shape and units of a file tree-sitter could not parse as a whole, from its complete fragments."""
    top, found = fragments(error_root)
    candidates: list[tuple[Pointer, Node]] = []
    prefix: Pointer = ()
    if top == "array":
        candidates = [(p, n) for p, n in found if len(p) == 1]
    elif top == "object":
        for wrapper in _WRAPPERS:
            whole = next((n for p, n in found if p == (wrapper,) and n.type == "array"), None)
            if whole is not None:
                candidates = [((wrapper, i), n) for i, n in enumerate(value_children(whole))]
            else:
                candidates = [(p, n) for p, n in found if len(p) == 2 and p[0] == wrapper]
            if candidates:
                prefix = (wrapper,)
                break
        if not candidates:
            candidates = [(p, n) for p, n in found if len(p) == 3 and p[:2] == ("result", "tools")]
            prefix = ("result", "tools")
    objects = [(p, n) for p, n in candidates if n.type == "object"]
    if claimer.forced is None:
        claim = claimer.elements(objects, "file", container=bool(prefix))
        # A file broken while typed: what its complete top-level members say, else what its folder suggests.
        members = {p[0]: _summary(n) for p, n in found if len(p) == 1 and isinstance(p[0], str)}
        single = detect(members, relaxed=True) if top == "object" and not candidates else None
        guess = broken_file_kind(claim.kind, single.kind if single is not None else None, weak)
        if guess is None:
            return None, "none", []
        kind: UnitKind = guess
    else:
        kind = claimer.forced
    if not candidates:
        return kind, "none", []
    shape: Shape = "array" if top == "array" else "wrapper"
    spans = [UnitSpan(kind, p, n, claimer.dialect if kind == "tool" else None) for p, n in candidates]
    return kind, shape, spans


def _summary(node: Node) -> Any:
    """Enough of a value for `detect`: strings decoded, containers as empty ones of their kind."""
    if node.type == "string":
        return string_value(node)
    return {"object": {"": None}, "array": []}.get(node.type, 0)
