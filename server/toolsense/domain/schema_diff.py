"""Two versions of a tool's JSON Schema compared keyword by keyword, each difference sorted by what it breaks.

An input schema says what a caller may send: a change that rejects a call that was valid breaks (a parameter
removed or newly required, a type narrowed, an enum value removed, a constraint tightened, `additionalProperties`
closed); one that accepts more is additive. An output schema says what a caller reads back, so the direction turns
round: the output breaks its promise when it gives less (a property removed or no longer required) or may return
what a caller did not expect (a type widened, an enum value added); a narrower output is additive, a looser
constraint on it risky. Texts a model reads (descriptions, titles, defaults, examples) are risky either way, and so
is a keyword this module does not judge (`allOf`, `not`, `patternProperties`, …): it is shown for review.

Recursive over `properties`, `items`, `additionalProperties`, `anyOf`/`oneOf` and local `$ref`s (`#/$defs/…`),
bounded in depth and guarded against reference cycles. Position-free: changes carry absolute JSON pointers into
each version (the parent's where a version has no such place).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from ..document.jsontree import Pointer
from ..engine.equality import json_equal, value_key
from ..jsonvalue import JsonValue, short_repr
from ..textsafety import escape
from .changes import Change, ChangeClass
from .schema_reading import (
    EXACT,
    HANDLED,
    IMPLY_TYPE,
    LOWER,
    MAX_DEPTH,
    TEXTS,
    UPPER,
    allowed_types,
    allowed_values,
    alternatives_of,
    as_number,
    as_schema,
    has_ref,
    indexed,
    keyword_at,
    keyword_shown,
    member_map,
    name_list,
    pairs_by_type,
    resolve_local,
    same_place,
    type_text,
    types_within,
    values_text,
)

Role = Literal["input", "output"]
BREAKING, RISKY, ADDITIVE = ChangeClass.BREAKING, ChangeClass.RISKY, ChangeClass.ADDITIVE


@dataclass
class SchemaDiff:
    """Compare `old` with `new` (the tool's schemas at `old_at` and `new_at` in their files)."""

    tool: str
    role: Role
    old: JsonValue
    new: JsonValue
    old_at: Pointer
    new_at: Pointer
    changes: list[Change] = field(default_factory=list)
    _seen: set[tuple[Pointer | None, Pointer | None]] = field(default_factory=set)

    def run(self) -> list[Change]:
        self._compare(self.old, self.new, (), (), (), 0)
        return self.changes

    # --- how a change is said ---------------------------------------------------------------------------------

    def _add(
        self,
        klass: ChangeClass,
        kind: str,
        message: str,
        op: Pointer,
        np: Pointer,
        was: JsonValue = None,
        now: JsonValue = None,
    ) -> None:
        old = (*self.old_at, *op)
        new = (*self.new_at, *np)
        self.changes.append(Change(klass, kind, self.tool, message, old, new, was, now))

    def _where(self, path: tuple[str, ...]) -> str:
        if not path:
            return f"the {self.role}"
        text = "".join(p if p == "[]" else f".{p}" for p in path).lstrip(".")
        noun = "parameter" if self.role == "input" else "output property"
        return f"{noun} '{escape(text)}'"

    def _by_role(
        self, input_class: ChangeClass, input_kind: str, output_class: ChangeClass, output_kind: str
    ) -> tuple[ChangeClass, str]:
        return (input_class, input_kind) if self.role == "input" else (output_class, output_kind)

    # --- the walk ---------------------------------------------------------------------------------------------

    def _deref(
        self, node: dict[str, JsonValue], at: Pointer, root: JsonValue
    ) -> tuple[dict[str, JsonValue], Pointer, bool]:
        followed = False
        for _ in range(8):  # a chain of references, bounded
            ref = node.get("$ref")
            target = resolve_local(root, ref) if isinstance(ref, str) else None
            if target is None or not isinstance(target[0], (dict, bool)):
                break
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            node, at, followed = {**as_schema(target[0]), **siblings}, target[1], True
        return node, at, followed

    def _compare(
        self, old_value: JsonValue, new_value: JsonValue, op: Pointer, np: Pointer, path: tuple[str, ...], depth: int
    ) -> None:
        if depth > MAX_DEPTH or (json_equal(old_value, new_value) and not has_ref(old_value)):
            return  # equal, and no reference in it whose target may have changed
        old, op, old_ref = self._deref(as_schema(old_value), op, self.old)
        new, np, new_ref = self._deref(as_schema(new_value), np, self.new)
        if old_ref or new_ref:
            key = (op if old_ref else None, np if new_ref else None)
            if key in self._seen:
                return
            self._seen.add(key)
        if json_equal(old, new) and not has_ref(old):
            return
        self._texts(old, new, op, np, path)
        if self._alternatives(old, new, op, np, path, depth):
            return
        self._type(old, new, op, np, path)
        self._values(old, new, op, np, path)
        self._constraints(old, new, op, np, path)
        self._object(old, new, op, np, path, depth)
        self._items(old, new, op, np, path, depth)
        self._others(old, new, op, np, path)

    def _texts(
        self, old: dict[str, JsonValue], new: dict[str, JsonValue], op: Pointer, np: Pointer, path: tuple[str, ...]
    ) -> None:
        where = self._where(path)
        for keyword in TEXTS:
            a, b = old.get(keyword), new.get(keyword)
            if not json_equal(a, b):
                self._add(
                    RISKY,
                    "parameter-text-changed",
                    f"{where}: {keyword} changed",
                    keyword_at(op, old, keyword),
                    keyword_at(np, new, keyword),
                    a,
                    b,
                )
        for keyword, kind in (("default", "default-changed"), ("examples", "keyword-changed")):
            if keyword in old or keyword in new:
                a, b = old.get(keyword), new.get(keyword)
                if not json_equal(a, b) or (keyword in old) != (keyword in new):
                    was, now = keyword_shown(old, keyword), keyword_shown(new, keyword)
                    said = f"{where}: {keyword} changed from {was} to {now}"
                    self._add(RISKY, kind, said, keyword_at(op, old, keyword), keyword_at(np, new, keyword), a, b)

    def _alternatives(
        self,
        old: dict[str, JsonValue],
        new: dict[str, JsonValue],
        op: Pointer,
        np: Pointer,
        path: tuple[str, ...],
        depth: int,
    ) -> bool:
        """anyOf / oneOf: branches matched by value, a lone changed branch compared in depth. True when one side
        has alternatives and the other is a plain schema (the plain side then stands for one branch, and nothing
        else at this level is compared)."""
        a, b = alternatives_of(old), alternatives_of(new)
        if a is None and b is None:
            return False
        if a is not None and b is not None:
            if a[0] != b[0]:
                said = f"{self._where(path)}: {a[0]} changed to {b[0]}"
                self._add(RISKY, "keyword-changed", said, (*op, a[0]), (*np, b[0]))
            self._branches(a[1], b[1], (*op, a[0]), (*np, b[0]), path, depth, indexed, indexed)
            return False
        with_them = new if a is None else old
        if any(keyword in with_them for keyword in ("type", "properties", "items")):
            # Alternatives beside the schema's own type: one more condition a value must meet (at least one of
            # `body` or `reaction`), added or lifted; the rest of the level is compared as usual.
            keyword = (b or a or ("anyOf", []))[0]
            if a is None:
                klass, kind = self._by_role(BREAKING, "constraint-tightened", ADDITIVE, "output-narrowed")
                said = f"{self._where(path)}: {keyword} added (a value must now also match one of its variants)"
                self._add(klass, kind, said, op, (*np, keyword), None, new.get(keyword))
            else:
                klass, kind = self._by_role(ADDITIVE, "constraint-loosened", RISKY, "output-constraint-loosened")
                said = f"{self._where(path)}: {keyword} removed (its variants no longer restrict a value)"
                self._add(klass, kind, said, (*op, keyword), np, old.get(keyword), None)
            return False
        skip = (*TEXTS, "default", "examples")
        if a is None and b is not None:
            plain: list[JsonValue] = [{k: v for k, v in old.items() if k not in skip}]
            self._branches(plain, b[1], op, (*np, b[0]), path, depth, same_place, indexed)
        elif a is not None:
            plain = [{k: v for k, v in new.items() if k not in skip}]
            self._branches(a[1], plain, (*op, a[0]), np, path, depth, indexed, same_place)
        return True

    def _branches(
        self,
        old: list[JsonValue],
        new: list[JsonValue],
        op: Pointer,
        np: Pointer,
        path: tuple[str, ...],
        depth: int,
        old_place: Callable[[Pointer, int], Pointer],
        new_place: Callable[[Pointer, int], Pointer],
    ) -> None:
        old_keys = [value_key(v) for v in old]
        new_keys = [value_key(v) for v in new]
        gone = [i for i, k in enumerate(old_keys) if k not in new_keys]
        came = [i for i, k in enumerate(new_keys) if k not in old_keys]
        if not gone and not came:
            return
        if len(gone) == 1 and len(came) == 1:
            i, j = gone[0], came[0]
            self._compare(old[i], new[j], old_place(op, i), new_place(np, j), path, depth + 1)
            return
        same_type = pairs_by_type(old, new, gone, came)
        for i, j in same_type:
            self._compare(old[i], new[j], old_place(op, i), new_place(np, j), path, depth + 1)
        gone = [i for i in gone if i not in {p[0] for p in same_type}]
        came = [j for j in came if j not in {p[1] for p in same_type}]
        where = self._where(path)
        for i in gone:
            klass, kind = self._by_role(BREAKING, "variant-removed", ADDITIVE, "output-narrowed")
            said = f"{where}: variant {short_repr(old[i], 50)} removed"
            self._add(klass, kind, said, old_place(op, i), np, old[i], None)
        for j in came:
            klass, kind = self._by_role(ADDITIVE, "variant-added", BREAKING, "output-variant-added")
            said = f"{where}: variant {short_repr(new[j], 50)} added"
            self._add(klass, kind, said, op, new_place(np, j), None, new[j])

    def _type(
        self, old: dict[str, JsonValue], new: dict[str, JsonValue], op: Pointer, np: Pointer, path: tuple[str, ...]
    ) -> None:
        a, b = allowed_types(old), allowed_types(new)
        if a == b:
            return
        for side, side_types in ((old, a), (new, b)):
            if side_types is None and any(k in side for k in IMPLY_TYPE):
                return  # no `type`, but its other keywords say what it is: not "any"
        if a is not None and b is not None and types_within(a, b) and types_within(b, a):
            return  # number|integer and number: the same values
        wider = a is not None and (b is None or types_within(a, b))
        narrower = b is not None and (a is None or types_within(b, a))
        if wider:
            klass, kind = self._by_role(ADDITIVE, "type-widened", BREAKING, "output-type-widened")
            verb = "widened"
        elif narrower:
            klass, kind = self._by_role(BREAKING, "type-narrowed", ADDITIVE, "output-narrowed")
            verb = "narrowed"
        else:
            klass, kind = self._by_role(BREAKING, "type-changed", BREAKING, "output-type-changed")
            verb = "changed"
        self._add(
            klass,
            kind,
            f"{self._where(path)}: type {verb} from {type_text(a)} to {type_text(b)}",
            keyword_at(op, old, "type"),
            keyword_at(np, new, "type"),
            old.get("type"),
            new.get("type"),
        )

    def _values(
        self, old: dict[str, JsonValue], new: dict[str, JsonValue], op: Pointer, np: Pointer, path: tuple[str, ...]
    ) -> None:
        a, b = allowed_values(old), allowed_values(new)
        if a is None and b is None:
            return
        where = self._where(path)
        at_old = keyword_at(op, old, "enum" if "enum" in old else "const")
        at_new = keyword_at(np, new, "enum" if "enum" in new else "const")
        if a is None and b is not None:
            klass, kind = self._by_role(BREAKING, "enum-introduced", ADDITIVE, "output-narrowed")
            self._add(klass, kind, f"{where}: now only {values_text(b)}", at_old, at_new, None, b)
            return
        if b is None and a is not None:
            klass, kind = self._by_role(ADDITIVE, "enum-lifted", BREAKING, "output-values-widened")
            self._add(klass, kind, f"{where}: no longer only {values_text(a)}", at_old, at_new, a, None)
            return
        assert a is not None and b is not None
        old_keys, new_keys = {value_key(v) for v in a}, {value_key(v) for v in b}
        removed = [v for v in a if value_key(v) not in new_keys]
        added = [v for v in b if value_key(v) not in old_keys]
        if removed:
            klass, kind = self._by_role(BREAKING, "enum-value-removed", ADDITIVE, "output-narrowed")
            noun = "value" if len(removed) == 1 else "values"
            self._add(
                klass, kind, f"{where}: enum {noun} {values_text(removed)} removed", at_old, at_new, removed, None
            )
        if added:
            klass, kind = self._by_role(ADDITIVE, "enum-value-added", BREAKING, "output-values-widened")
            noun = "value" if len(added) == 1 else "values"
            self._add(klass, kind, f"{where}: enum {noun} {values_text(added)} added", at_old, at_new, None, added)

    def _constraints(
        self, old: dict[str, JsonValue], new: dict[str, JsonValue], op: Pointer, np: Pointer, path: tuple[str, ...]
    ) -> None:
        where = self._where(path)
        for keyword in (*LOWER, *UPPER, *EXACT):
            a, b = old.get(keyword), new.get(keyword)
            present = (keyword in old, keyword in new)
            if present == (False, False) or (all(present) and json_equal(a, b)):
                continue
            x, y = as_number(a), as_number(b)
            if not present[0]:
                tighter, said = keyword != "uniqueItems" or b is True, f"{keyword} {short_repr(b, 40)} added"
            elif not present[1]:
                tighter, said = False, f"{keyword} {short_repr(a, 40)} removed"
            elif x is not None and y is not None and keyword in (*UPPER, *LOWER):
                tighter = y < x if keyword in UPPER else y > x
                said = f"{keyword} {'tightened' if tighter else 'loosened'} from {short_repr(a)} to {short_repr(b)}"
            else:
                tighter, said = b is not False, f"{keyword} changed from {short_repr(a, 40)} to {short_repr(b, 40)}"
            if tighter:
                klass, kind = self._by_role(BREAKING, "constraint-tightened", ADDITIVE, "output-narrowed")
            else:
                klass, kind = self._by_role(ADDITIVE, "constraint-loosened", RISKY, "output-constraint-loosened")
            self._add(klass, kind, f"{where}: {said}", keyword_at(op, old, keyword), keyword_at(np, new, keyword), a, b)

    def _object(
        self,
        old: dict[str, JsonValue],
        new: dict[str, JsonValue],
        op: Pointer,
        np: Pointer,
        path: tuple[str, ...],
        depth: int,
    ) -> None:
        a_props, b_props = member_map(old.get("properties")), member_map(new.get("properties"))
        a_req, b_req = name_list(old.get("required")), name_list(new.get("required"))
        a_at, b_at = keyword_at(op, old, "properties"), keyword_at(np, new, "properties")
        for name in a_props:
            if name in b_props:
                continue
            klass, kind = self._by_role(BREAKING, "parameter-removed", BREAKING, "output-property-removed")
            self._add(klass, kind, f"{self._where((*path, name))} removed", (*a_at, name), b_at, a_props[name], None)
        for name in b_props:
            if name in a_props:
                continue
            where = self._where((*path, name))
            if self.role == "output":
                self._add(ADDITIVE, "output-property-added", f"{where} added", a_at, (*b_at, name), None, b_props[name])
            elif name in b_req:
                said = f"required {where} added"
                self._add(BREAKING, "required-parameter-added", said, a_at, (*b_at, name), None, b_props[name])
            else:
                said = f"optional {where} added"
                self._add(ADDITIVE, "optional-parameter-added", said, a_at, (*b_at, name), None, b_props[name])
        for name in [*a_req, *b_req]:
            if (name in a_req) == (name in b_req) or (name in a_props) != (name in b_props):
                continue  # unchanged, or the property itself came or went (said above)
            where = self._where((*path, name))
            now_required = name in b_req
            if self.role == "input":
                klass, kind = (
                    (BREAKING, "parameter-now-required") if now_required else (ADDITIVE, "parameter-now-optional")
                )
                said = f"{where} is now {'required' if now_required else 'optional'}"
            else:
                klass, kind = (ADDITIVE, "output-narrowed") if now_required else (BREAKING, "output-property-optional")
                said = f"{where} is {'now always present' if now_required else 'no longer required'}"
            self._add(klass, kind, said, keyword_at(op, old, "required"), keyword_at(np, new, "required"))
        for name in a_props:
            if name in b_props:
                self._compare(a_props[name], b_props[name], (*a_at, name), (*b_at, name), (*path, name), depth + 1)
        self._additional(old, new, op, np, path, depth)

    def _additional(
        self,
        old: dict[str, JsonValue],
        new: dict[str, JsonValue],
        op: Pointer,
        np: Pointer,
        path: tuple[str, ...],
        depth: int,
    ) -> None:
        keyword = "additionalProperties"
        a, b = old.get(keyword, True), new.get(keyword, True)
        if json_equal(a, b):
            return
        where = self._where(path)
        at_old, at_new = keyword_at(op, old, keyword), keyword_at(np, new, keyword)
        if isinstance(a, dict) and isinstance(b, dict):
            self._compare(a, b, at_old, at_new, (*path, "*"), depth + 1)
        elif b is False:
            klass, kind = self._by_role(BREAKING, "additional-properties-closed", ADDITIVE, "output-narrowed")
            said = f"{where}: additionalProperties closed (properties it does not list are now refused)"
            self._add(klass, kind, said, at_old, at_new, a, b)
        elif a is False or b is True:
            said = f"{where}: additionalProperties opened"
            self._add(ADDITIVE, "additional-properties-opened", said, at_old, at_new, a, b)
        else:  # anything to a schema: tighter
            klass, kind = self._by_role(BREAKING, "constraint-tightened", ADDITIVE, "output-narrowed")
            said = f"{where}: additionalProperties now limited to {short_repr(b, 40)}"
            self._add(klass, kind, said, at_old, at_new, a, b)

    def _items(
        self,
        old: dict[str, JsonValue],
        new: dict[str, JsonValue],
        op: Pointer,
        np: Pointer,
        path: tuple[str, ...],
        depth: int,
    ) -> None:
        a, b = old.get("items"), new.get("items")
        if (a is None and b is None) or isinstance(a, list) or isinstance(b, list):
            return  # tuple-form items (draft 4–2019) are compared as a keyword
        self._compare(a, b, keyword_at(op, old, "items"), keyword_at(np, new, "items"), (*path, "[]"), depth + 1)

    def _others(
        self, old: dict[str, JsonValue], new: dict[str, JsonValue], op: Pointer, np: Pointer, path: tuple[str, ...]
    ) -> None:
        where = self._where(path)
        tuple_items = isinstance(old.get("items"), list) or isinstance(new.get("items"), list)
        keys = [k for k in old if k not in HANDLED] + [k for k in new if k not in HANDLED and k not in old]
        if tuple_items:
            keys.append("items")
        for keyword in keys:
            if (keyword in old) == (keyword in new) and json_equal(old.get(keyword), new.get(keyword)):
                continue
            said = f"{where}: {keyword} changed from {keyword_shown(old, keyword)} to {keyword_shown(new, keyword)}"
            self._add(
                RISKY,
                "keyword-changed",
                said,
                keyword_at(op, old, keyword),
                keyword_at(np, new, keyword),
                old.get(keyword),
                new.get(keyword),
            )
