#!/usr/bin/env python3
"""Recall at scale, by mutation (issue 30): realistic mistakes put into the corpus's valid files.

Real files are mostly right, so the few real defects of the wild corpus cannot measure recall. This script takes
the files that toolsense reads and finds no error in, puts one realistic mistake into each copy (a mutant), checks
it as the editor would, and counts how often a finding lands on the mutated place:

    python scripts/mutants.py                  the table, over every source (the wild corpus, examples/,
                                               ../shared/corpus where present)
    python scripts/mutants.py --sample 6       at most 6 mutants per operator, chosen with the seed
    python scripts/mutants.py --write-docs     replace the "Recall by mutation" section of docs/accuracy.md

A mutant is *found* when a finding that the unmutated file did not have (an error or a warning) points into the
mutated place: the JSON pointer of the place or anything under it. *Elsewhere* counts the mutants of files that
were clean (no finding at all) that get a new finding outside the place too: a mistake should be reported where
it is, not by noise around it. The test half of the blind split (tests/corpus/wild, `split` = test) is never
used. Each source file is rewritten with `json.dumps` before and after the mutation, so layout plays no part.
"""

from __future__ import annotations

import argparse
import copy
import csv
import itertools
import json
import random
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WILD = ROOT / "tests" / "corpus" / "wild"
EXAMPLES = ROOT / "examples"
SHARED = ROOT.parent / "shared" / "corpus"
ACCURACY = ROOT / "docs" / "accuracy.md"
MUTATION_MARK = "\n<!-- The mutation table below: scripts/mutants.py --write-docs. -->\n\n"
SEED = 30
GOAL = 0.95
PER_FILE = 2  # mutants per operator and file, so one large file does not make the figure

sys.path.insert(0, str(ROOT / "server"))

from toolsense.document.document import Document  # noqa: E402
from toolsense.engine.checker import FileReport, UnitCache, check_document  # noqa: E402
from toolsense.engine.context import CheckContext, ToolRegistry  # noqa: E402
from toolsense.engine.units import Unit, kind_from_path  # noqa: E402
from toolsense.rules import CATALOG  # noqa: E402
from toolsense.settings import Settings  # noqa: E402

Pointer = tuple[str | int, ...]
SCHEMA_PATHS: tuple[Pointer, ...] = (
    ("parameters",),
    ("function", "parameters"),
    ("input_schema",),
    ("inputSchema",),
    ("toolSpec", "inputSchema", "json"),
    ("parametersJsonSchema",),
)
MISSPELT = {"properties": "proprties", "required": "requried", "type": "tpye", "description": "descripton"}
PYTHON_TYPES = {
    "string": "str",
    "integer": "int",
    "object": "dict",
    "array": "list",
    "boolean": "bool",
    "number": "float",
}
WRONG_VALUE: dict[str, Any] = {"string": 12345, "integer": "12", "number": "1.5", "boolean": "yes", "array": "a"}
TEMPLATE = re.compile(r"\{\{\s*([A-Za-z_][\w.]*)\s*\}\}")


@dataclass(frozen=True)
class Source:
    name: str
    """Where the file comes from, for the report: corpus and path."""
    file_name: str
    """The name it is checked under (its own: claiming looks at names)."""
    value: Any


@dataclass(frozen=True)
class Mutant:
    operator: str
    source: Source
    value: Any
    places: tuple[Pointer, ...]
    """The mutated places (a duplicate name has two): a finding at one of them or under it is on the mistake."""


@dataclass
class Tally:
    mutants: int = 0
    found: int = 0
    clean: int = 0
    """Mutants of files that had no finding at all."""
    elsewhere: int = 0
    """Of those, the ones that got a new finding outside the mutated place."""
    missed: list[str] = field(default_factory=list)


def _get(value: Any, pointer: Pointer) -> Any:
    for part in pointer:
        in_object = isinstance(value, dict) and isinstance(part, str) and part in value
        in_array = isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value)
        if not (in_object or in_array):
            return None
        value = value[part]
    return value


def _schema(unit_value: Any) -> Pointer | None:
    for path in SCHEMA_PATHS:
        if isinstance(_get(unit_value, path), dict):
            return path
    return None


def _properties(schema: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    props = schema.get("properties")
    return [(k, v) for k, v in props.items() if isinstance(v, dict)] if isinstance(props, dict) else []


# Each operator takes a source and the units toolsense read from it, and yields (place, mutate) pairs: `mutate`
# changes a deep copy of the whole file in place. A place is one pointer, or a tuple of them.
Edit = Callable[[Any], None]
Place = Pointer | tuple[Pointer, ...]
Operator = Callable[[Source, list[Unit]], Iterator[tuple[Place, Edit]]]


def _tools(units: list[Unit]) -> Iterator[tuple[Unit, Pointer, dict[str, Any]]]:
    for unit in units:
        if unit.kind == "tool":
            path = _schema(unit.value)
            schema = _get(unit.value, path) if path is not None else None
            if path is not None and isinstance(schema, dict):
                yield unit, tuple(unit.pointer) + path, schema


def misspelt_key(source: Source, units: list[Unit]) -> Iterator[tuple[Place, Edit]]:
    """A key of the schema's root spelt wrong: `proprties`, `requried`, `tpye`, `descripton` (the key turns with
    each tool of the file, so one file gives more than one kind)."""
    for index, (_, at, schema) in enumerate(_tools(units)):
        keys = [key for key in MISSPELT if key in schema and MISSPELT[key] not in schema]
        if not keys:
            continue
        key = keys[index % len(keys)]

        def edit(doc: Any, at: Pointer = at, key: str = key) -> None:
            holder = _get(doc, at)
            holder[MISSPELT[key]] = holder.pop(key)

        yield at, edit  # the schema that lost the key: a finding there (or on the misspelt key) is on it


def python_type(source: Source, units: list[Unit]) -> Iterator[tuple[Place, Edit]]:
    """A property typed with a Python name: `str`, `int`, `dict`, `list`, `bool`, `float`."""
    for _, at, schema in _tools(units):
        for name, prop in _properties(schema):
            if isinstance(prop.get("type"), str) and prop["type"] in PYTHON_TYPES:
                place = (*at, "properties", name)

                def edit(doc: Any, place: Pointer = place) -> None:
                    holder = _get(doc, place)
                    holder["type"] = PYTHON_TYPES[holder["type"]]

                yield place, edit
                break


def required_beside(source: Source, units: list[Unit]) -> Iterator[tuple[Place, Edit]]:
    """`required` written next to the schema (beside `parameters`) instead of inside it."""
    for _, at, schema in _tools(units):
        names = schema.get("required") or [name for name, _ in _properties(schema)[:1]]
        if not isinstance(names, list) or not names:
            continue
        parent = at[:-1]

        def edit(doc: Any, at: Pointer = at, parent: Pointer = parent, names: list[Any] = names) -> None:
            _get(doc, at).pop("required", None)
            _get(doc, parent)["required"] = list(names)

        yield (*parent, "required"), edit


def string_for_array(source: Source, units: list[Unit]) -> Iterator[tuple[Place, Edit]]:
    """A string where the schema wants an array: `"required": "city"`, or `"enum": "celsius"`."""
    for _, at, schema in _tools(units):
        required = schema.get("required")
        if isinstance(required, list) and required and isinstance(required[0], str):
            yield (*at, "required"), _setting((*at, "required"), required[0])
            continue
        for name, prop in _properties(schema):
            enum = prop.get("enum")
            if isinstance(enum, list) and enum and isinstance(enum[0], str):
                place = (*at, "properties", name, "enum")
                yield place, _setting(place, enum[0])
                break


def _set(doc: Any, pointer: Pointer, value: Any) -> None:
    _get(doc, pointer[:-1])[pointer[-1]] = value


def _setting(pointer: Pointer, value: Any) -> Edit:
    """The edit that writes `value` at `pointer` (a member added when the object lacks it)."""

    def edit(doc: Any) -> None:
        _set(doc, pointer, copy.deepcopy(value))

    return edit


def enum_not_in_list(source: Source, units: list[Unit]) -> Iterator[tuple[Place, Edit]]:
    """A value that is not in the enum's list: a property's `default`, or a call's argument."""
    for _, at, schema in _tools(units):
        for name, prop in _properties(schema):
            enum = prop.get("enum")
            if isinstance(enum, list) and enum and all(isinstance(e, str) for e in enum):
                place = (*at, "properties", name, "default")
                yield place, _setting(place, _outside(enum))
                break
    for key, args_at, arguments, prop in _call_arguments(units):
        enum = prop.get("enum")
        if isinstance(enum, list) and enum and all(isinstance(e, str) for e in enum):
            yield args_at, _argument_edit(args_at, arguments, key, _outside(enum))


def _outside(enum: list[str]) -> str:
    """A near miss: the first value with its case changed, or with a suffix when that is in the list too."""
    near = enum[0].swapcase() if enum[0].swapcase() != enum[0] else enum[0] + "_x"
    return near if near not in enum else enum[0] + "_other"


def _tool_schemas(units: list[Unit]) -> dict[str, dict[str, Any]]:
    schemas = {}
    for unit, _, schema in _tools(units):
        name = unit.value.get("name") or _get(unit.value, ("function", "name"))
        if isinstance(name, str):
            schemas[name] = schema
    return schemas


def _call_parts(call: Any) -> tuple[str, Pointer, Any] | None:
    """A call's tool name, where its arguments sit in the call, and the arguments (an object or its JSON text)."""
    if not isinstance(call, dict):
        return None
    for name_at, args_at in (
        (("function", "name"), ("function", "arguments")),
        (("name",), ("arguments",)),
        (("name",), ("input",)),
        (("name",), ("args",)),
    ):
        name, args = _get(call, name_at), _get(call, args_at)
        if isinstance(name, str) and args is not None:
            return name, args_at, args
    return None


def _call_arguments(units: list[Unit]) -> Iterator[tuple[str, Pointer, Any, dict[str, Any]]]:
    """Each call argument whose tool is defined in the same file: (name, arguments' pointer, arguments, schema)."""
    schemas = _tool_schemas(units)
    for unit in units:
        if unit.kind != "tool_call":
            continue
        parts = _call_parts(unit.value)
        if parts is None or parts[0] not in schemas:
            continue
        name, args_at, args = parts
        decoded = json.loads(args) if isinstance(args, str) else args
        if not isinstance(decoded, dict):
            continue
        props = dict(_properties(schemas[name]))
        for key in decoded:
            if key in props:
                yield key, tuple(unit.pointer) + args_at, args, props[key]
                break


def _argument_edit(args_at: Pointer, arguments: Any, key: str, value: Any) -> Edit:
    def edit(doc: Any) -> None:
        decoded = json.loads(arguments) if isinstance(arguments, str) else copy.deepcopy(arguments)
        decoded[key] = value
        _set(doc, args_at, json.dumps(decoded) if isinstance(arguments, str) else decoded)

    return edit


def wrong_argument_type(source: Source, units: list[Unit]) -> Iterator[tuple[Place, Edit]]:
    """A call's argument of the wrong JSON type for its tool's schema: `12345` for a string, `"12"` for a number."""
    for key, args_at, arguments, prop in _call_arguments(units):
        kind = prop.get("type")
        if isinstance(kind, str) and kind in WRONG_VALUE:
            yield args_at, _argument_edit(args_at, arguments, key, WRONG_VALUE[kind])


def template_missing_field(source: Source, units: list[Unit]) -> Iterator[tuple[Place, Edit]]:
    """An automation's template naming a field that nothing defines: `{{home_city}}` typed `{{home_cty}}`."""
    for unit in units:
        if unit.kind != "automation":
            continue
        for at, text in _strings(unit.value, tuple(unit.pointer)):
            match = TEMPLATE.search(text)
            if match:
                wrong = text[: match.start(1)] + _typo(match.group(1)) + text[match.end(1) :]
                yield at, _setting(at, wrong)
                break


def _typo(name: str) -> str:
    """Drop the last letter of the name's last part that has two (`home_city` -> `home_cit`)."""
    head, _, last = name.rpartition(".")
    last = last[:-1] if len(last) > 2 else last + "x"
    return f"{head}.{last}" if head else last


def _strings(value: Any, at: Pointer) -> Iterator[tuple[Pointer, str]]:
    if isinstance(value, str):
        yield at, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, (*at, index))


def duplicate_tool_name(source: Source, units: list[Unit]) -> Iterator[tuple[Place, Edit]]:
    """Two tools of one list with the same name: the second copies the first's (both are the mutated place)."""
    tools = [u for u in units if u.kind == "tool" and u.pointer and isinstance(u.pointer[-1], int)]
    for first, second in itertools.pairwise(tools):
        if tuple(first.pointer[:-1]) != tuple(second.pointer[:-1]):
            continue
        for name_at in (("name",), ("function", "name"), ("toolSpec", "name")):
            name = _get(first.value, name_at)
            if isinstance(name, str) and isinstance(_get(second.value, name_at), str):
                place = tuple(second.pointer) + name_at
                both = (tuple(second.pointer), tuple(first.pointer))
                yield both, _setting(place, name)
                return


def top_level_one_of(source: Source, units: list[Unit]) -> Iterator[tuple[Place, Edit]]:
    """A `oneOf` at the top of the schema: two argument shapes. Put only where it is a documented mistake: in
    Anthropic tools ("input_schema does not support oneOf, allOf, or anyOf at the top level") and MCP tools, which
    clients forward to Anthropic; OpenAI (outside strict mode) and Gemini document no such refusal."""
    for unit, at, schema in _tools(units):
        if unit.dialect not in ("anthropic", "mcp"):
            continue
        names = [name for name, _ in _properties(schema)]
        if len(names) >= 2:
            alternatives = [{"required": [names[0]]}, {"required": [names[1]]}]
            yield at, _setting((*at, "oneOf"), alternatives)


OPERATORS: dict[str, Operator] = {
    "misspelt key": misspelt_key,
    "Python type name": python_type,
    "`required` beside the schema": required_beside,
    "string where an array belongs": string_for_array,
    "enum value not in the list": enum_not_in_list,
    "call argument of the wrong type": wrong_argument_type,
    "template naming a missing field": template_missing_field,
    "duplicate tool name": duplicate_tool_name,
    "top-level `oneOf`": top_level_one_of,
}


def _check(file_name: str, value: Any) -> FileReport:
    settings = Settings()
    text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    uri = "file:///mutants/" + file_name
    document = Document.from_text(uri, text)
    ctx = CheckContext(settings, ToolRegistry(), uri, True, None, catalog=CATALOG)
    return check_document(document, ctx, kind_from_path("/mutants/" + file_name, settings), UnitCache())


def _json_files(folder: Path) -> Iterator[Path]:
    yield from sorted(p for p in folder.rglob("*.json") if p.is_file())


def sources(shared: bool = True) -> list[Source]:
    """The files mutated: the wild corpus's files of ours (never its test half), examples/ (not examples/wrong),
    and ../shared/corpus where present."""
    found: list[tuple[str, Path, str]] = []
    with (WILD / "MANIFEST.tsv").open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if row["kind"] == "ours" and row.get("split", "seen") != "test":
                found.append((f"wild/{row['local_file']}", WILD / row["local_file"], Path(row["path"]).name))
    for path in _json_files(EXAMPLES):
        if "wrong" not in path.relative_to(EXAMPLES).parts:
            found.append((f"examples/{path.relative_to(EXAMPLES).as_posix()}", path, path.name))
    if shared and SHARED.is_dir():
        for path in _json_files(SHARED):
            found.append((f"shared/{path.relative_to(SHARED).as_posix()}", path, path.name))
    result = []
    for name, path, file_name in found:
        try:
            value = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue  # JSON with comments, JSON Lines, not JSON: their layout is part of them
        result.append(Source(name, file_name, value))
    return result


def _at(pointer: Pointer, places: tuple[Pointer, ...]) -> bool:
    """Whether a finding's pointer is one of the places or under one."""
    return any(tuple(pointer[: len(place)]) == tuple(place) for place in places)


def mutants(corpus: list[Source]) -> Iterator[tuple[Mutant, FileReport]]:
    """Every mutant of every valid source (no error before the mutation), with the unmutated file's report."""
    for source in corpus:
        base = _check(source.file_name, source.value)
        if not base.units or any(d.severity.label == "error" for d in base.diagnostics):
            continue
        for operator, make in OPERATORS.items():
            for count, (place, edit) in enumerate(make(source, base.units)):
                if count >= PER_FILE:
                    break
                value = copy.deepcopy(source.value)
                edit(value)
                places = place if place and isinstance(place[0], tuple) else (place,)
                yield Mutant(operator, source, value, places), base  # type: ignore[arg-type]


def _key(d: Any) -> tuple[str, Pointer | None]:
    return (d.code, tuple(d.finding.pointer) if d.finding is not None else None)


def judge(mutant: Mutant, base: FileReport, tally: Tally) -> None:
    before = {_key(d) for d in base.diagnostics}
    after = _check(mutant.source.file_name, mutant.value).diagnostics
    new = [d for d in after if _key(d) not in before]
    at_place = [
        d
        for d in new
        if d.finding is not None and _at(d.finding.pointer, mutant.places) and d.severity.label in ("error", "warning")
    ]
    tally.mutants += 1
    tally.found += bool(at_place)
    if not at_place:
        tally.missed.append(f"{mutant.source.name} /{'/'.join(map(str, mutant.places[0]))}")
    if not base.diagnostics:
        tally.clean += 1
        tally.elsewhere += any(d.finding is None or not _at(d.finding.pointer, mutant.places) for d in new)


def measure(corpus: list[Source], sample: int | None = None, seed: int = SEED) -> dict[str, Tally]:
    """Per operator, the tally of its mutants: all of them, or `sample` per operator drawn with `seed`."""
    by_operator: dict[str, list[tuple[Mutant, FileReport]]] = {name: [] for name in OPERATORS}
    for mutant, base in mutants(corpus):
        by_operator[mutant.operator].append((mutant, base))
    result = {}
    rng = random.Random(seed)
    for name, items in by_operator.items():
        chosen = rng.sample(items, min(sample, len(items))) if sample is not None else items
        tally = Tally()
        for mutant, base in chosen:
            judge(mutant, base, tally)
        result[name] = tally
    return result


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "—"


def markdown(result: dict[str, Tally], files: int) -> str:
    lines = [
        "## Recall by mutation",
        "",
        "Generated by `python scripts/mutants.py --write-docs`. Each operator puts one realistic mistake into a copy "
        f"of a valid file ({files} files read: the wild corpus's files of ours without its test half, `examples/` "
        f"and `../shared/corpus`; at most {PER_FILE} mutants per operator and file). *Found*: a new error or "
        "warning points at the mutated place or under it. *Elsewhere*: of the mutants of files that had no finding "
        f"at all, those that also get a new finding somewhere else. Goal: {GOAL:.0%} found per operator.",
        "",
        "| operator | mutants | found | share | mutants of clean files | elsewhere |",
        "|---|---|---|---|---|---|",
    ]
    for name, t in result.items():
        lines.append(
            f"| {name} | {t.mutants} | {t.found} | {_percent(t.found, t.mutants)} | {t.clean} | "
            f"{t.elsewhere} ({_percent(t.elsewhere, t.clean)}) |"
        )
    total = Tally(*(sum(getattr(t, f) for t in result.values()) for f in ("mutants", "found", "clean", "elsewhere")))
    lines.append(
        f"| **all** | {total.mutants} | {total.found} | {_percent(total.found, total.mutants)} | {total.clean} | "
        f"{total.elsewhere} ({_percent(total.elsewhere, total.clean)}) |"
    )
    below = [(name, t) for name, t in result.items() if t.mutants and t.found < GOAL * t.mutants]
    if below:
        lines += ["", "Below the goal (the first mutant nothing found, as `source /place`):", ""]
        lines += [f"- {name}: {len(t.missed)} missed, e.g. `{t.missed[0]}`" for name, t in below]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", type=int, help="at most this many mutants per operator (seeded)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--no-shared", action="store_true", help="leave ../shared/corpus out")
    parser.add_argument("--missed", action="store_true", help="list the mutants nothing found")
    parser.add_argument("--write-docs", action="store_true", help='replace docs/accuracy.md\'s "Recall by mutation"')
    args = parser.parse_args(argv)
    corpus = sources(shared=not args.no_shared)
    result = measure(corpus, args.sample, args.seed)
    text = markdown(result, len(corpus))
    print(text)
    if args.missed:
        for name, tally in result.items():
            for where in tally.missed:
                print(f"MISSED {name}: {where}")
    if args.write_docs:
        written = ACCURACY.read_text(encoding="utf-8")
        ACCURACY.write_text(written.split(MUTATION_MARK)[0] + MUTATION_MARK + text, encoding="utf-8")
        print(f"wrote {ACCURACY.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
