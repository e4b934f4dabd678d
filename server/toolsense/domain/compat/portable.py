"""The "make portable" rewrite: edits that turn a tool's schema into what every chosen target accepts.

Each rejection the oracle finds has at most one rewrite, as fix edits (one keyword at a time, so a fix stays a
few lines). A rewrite is exact when every input the schema accepted before is accepted after and nothing more
(a draft-07 tuple as `prefixItems`, a draft-04 boolean bound as a number, `items: {}` for an array that said
nothing of its items, `const` as a one-value enum); otherwise it is lossy and says what it gives up (a dropped
`maxItems`). The rewritten tool is assessed again: when a chosen target still rejects it, there is no fix.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ...document.jsontree import Pointer
from ...engine.findings import FixEdit, InsertMembers, RemoveMember, RenameKey, ReplaceValue
from ...engine.units import Unit
from ...jsonvalue import JsonValue
from ..tool import ToolView, tool_view, value_at
from .model import Finding
from .oracle import assess
from .rules_gemini import ANNOTATIONS

GEMINI_FAMILY = frozenset({"gemini-api", "vertex-ai", "gemini-cli"})


@dataclass(frozen=True)
class Rewrite:
    edits: tuple[FixEdit, ...]
    lost: str = ""
    """What an inexact rewrite gives up ("drops 'maxItems'"); "" when exact."""


@dataclass(frozen=True)
class Portable:
    edits: tuple[FixEdit, ...]
    lost: tuple[str, ...]

    @property
    def exact(self) -> bool:
        return not self.lost

    def title(self, targets: Sequence[str]) -> str:
        base = f"Make portable for {', '.join(targets)}"
        return base if self.exact else f"{base} (lossy: {'; '.join(self.lost)})"


def make_portable(view: ToolView, targets: Sequence[str]) -> Portable | None:
    """The rewrite that makes every target accept the tool, or None (nothing rejected, or no rewrite suffices)."""
    rejected = [f for target in targets for f in assess(view, target).findings if f.verdict == "rejected"]
    if not rejected:
        return None
    edits: list[FixEdit] = []
    lost: list[str] = []
    done: set[Pointer] = set()
    for finding in rejected:
        if finding.pointer in done:
            continue
        done.add(finding.pointer)
        rewrite = _rewrite(view, finding, targets)
        if rewrite is None:
            return None
        edits.extend(e for e in rewrite.edits if e not in edits)
        if rewrite.lost and rewrite.lost not in lost:
            lost.append(rewrite.lost)
    merged = tuple(_merge_inserts(edits))
    after = _apply(view, merged)
    if after is None or any(assess(after, target).verdict == "rejected" for target in targets):
        return None
    return Portable(merged, tuple(lost))


def _rewrite(view: ToolView, finding: Finding, targets: Sequence[str]) -> Rewrite | None:
    pointer = finding.pointer
    keyword = pointer[-1] if pointer else None
    value = value_at(view.value, pointer)
    parent = value_at(view.value, pointer[:-1]) if pointer else None
    rule = finding.rule
    if rule in ("anthropic-draft-2020-12", "openai-meta-schema", "vscode-draft-07"):
        return _meta_schema_rewrite(pointer, keyword, value, parent)
    if rule in ("openai-array-items", "gemini-array-items", "vscode-array-items"):
        return Rewrite((InsertMembers(pointer, (("items", "{}"),)),))
    if rule == "copilot-gemini-boolean-schema" and value is True:
        return Rewrite((ReplaceValue(pointer, "{}"),))
    if rule == "gemini-unknown-keyword" and isinstance(keyword, str) and isinstance(parent, dict):
        return _gemini_keyword(pointer, keyword, parent)
    if rule == "gemini-type-list" and isinstance(value, list) and len(value) == 2 and "null" in value:
        other = value[1 - value.index("null")]
        edits = (ReplaceValue(pointer, json.dumps(other)), InsertMembers(pointer[:-1], (("nullable", "true"),)))
        exact = set(targets) <= GEMINI_FAMILY
        return Rewrite(edits, "" if exact else "null is no longer valid for the JSON Schema targets")
    if rule in ("anthropic-strict-max-items", "anthropic-strict-subset", "openai-strict-subset"):
        if isinstance(keyword, str) and isinstance(parent, dict) and keyword in parent and keyword != "properties":
            return Rewrite((RemoveMember(pointer),), f"drops '{keyword}'")
        return None
    if rule == "gemini-empty-enum-value":
        return Rewrite((RemoveMember(pointer),), 'drops the enum value ""')
    return None


def _meta_schema_rewrite(pointer: Pointer, keyword: object, value: JsonValue, parent: JsonValue) -> Rewrite | None:
    if not isinstance(parent, dict):
        return None
    if keyword == "items" and isinstance(value, list):
        # draft-07's tuple is `prefixItems` in 2020-12; `items: {}` says as it did that items past the tuple are free
        # (and satisfies the clients that want every array to say what its items are).
        moved = json.dumps(value, ensure_ascii=False)
        return Rewrite((ReplaceValue(pointer, "{}"), InsertMembers(pointer[:-1], (("prefixItems", moved),))))
    if keyword in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, bool):
        bound = "minimum" if keyword == "exclusiveMinimum" else "maximum"
        if value is False:
            return Rewrite((RemoveMember(pointer),))
        limit = parent.get(bound)
        if isinstance(limit, (int, float)) and not isinstance(limit, bool):
            return Rewrite((ReplaceValue(pointer, json.dumps(limit)), RemoveMember((*pointer[:-1], bound))))
        return None
    if keyword == "required" and value in (None, False):
        return Rewrite((RemoveMember(pointer),))
    return None


def _gemini_keyword(pointer: Pointer, keyword: str, node: dict[str, JsonValue]) -> Rewrite | None:
    if keyword in ANNOTATIONS:
        return Rewrite((RemoveMember(pointer),))
    if keyword == "const" and isinstance(node["const"], str):
        members: tuple[tuple[str, str], ...] = (("enum", json.dumps([node["const"]])),)
        if "type" not in node:
            members = (("type", '"string"'), *members)
        return Rewrite((RemoveMember(pointer), InsertMembers(pointer[:-1], members)))
    if keyword in ("$ref", "$defs", "definitions", "const"):
        return None
    return Rewrite((RemoveMember(pointer),), f"drops '{keyword}'")


def _merge_inserts(edits: list[FixEdit]) -> Iterator[FixEdit]:
    """One insertion per object (two rewrites may add to the same subschema)."""
    inserts: dict[Pointer, list[tuple[str, str]]] = {}
    for edit in edits:
        if isinstance(edit, InsertMembers):
            inserts.setdefault(edit.pointer, []).extend(
                m for m in edit.members if m not in inserts.get(edit.pointer, [])
            )
    emitted: set[Pointer] = set()
    for edit in edits:
        if isinstance(edit, InsertMembers):
            if edit.pointer not in emitted:
                emitted.add(edit.pointer)
                yield InsertMembers(edit.pointer, tuple(inserts[edit.pointer]))
        else:
            yield edit


def _apply(view: ToolView, edits: Sequence[FixEdit]) -> ToolView | None:
    """The tool as the edits leave it (removals last, so earlier pointers stay valid)."""
    value = copy.deepcopy(view.value)
    ordered = [e for e in edits if not isinstance(e, RemoveMember)] + [e for e in edits if isinstance(e, RemoveMember)]
    for edit in ordered:
        holder = value_at(value, edit.pointer[:-1]) if edit.pointer else None
        last = edit.pointer[-1] if edit.pointer else None
        if isinstance(edit, InsertMembers):
            target = value_at(value, edit.pointer)
            if not isinstance(target, dict):
                return None
            for key, text in edit.members:
                target[key] = json.loads(text)
        elif isinstance(edit, ReplaceValue) and isinstance(holder, (dict, list)):
            holder[last] = json.loads(edit.json_text)  # type: ignore[index]
        elif isinstance(edit, RenameKey) and isinstance(holder, dict) and isinstance(last, str):
            holder[edit.new_key] = holder.pop(last)
        elif isinstance(edit, RemoveMember) and isinstance(holder, dict) and isinstance(last, str):
            holder.pop(last, None)
        elif isinstance(edit, RemoveMember) and isinstance(holder, list) and isinstance(last, int):
            del holder[last]
        else:
            return None
    return tool_view(Unit("tool", (), value, view.dialect, 0, 0, True))
