"""MCP configuration files written in TOML (Codex's `config.toml`, `[mcp_servers.<name>]`): the value from
`tomllib` (what Codex reads), and where each key and value is from tree-sitter-toml's tree, so findings land on the
exact key or value like in a JSON file. Only a file whose path is a TOML client's (`models.mcp_clients`) and which
has a servers table is read; everything else in it is left alone."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..models.mcp_clients import CLIENT_FILES, ClientFile, path_matches
from .findings import Finding
from .units import Split, Unit

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

Pointer = tuple[str | int, ...]
Span = tuple[int, int]


TOML_NAMES = frozenset(name for spec in CLIENT_FILES if spec.toml for name in spec.names)
"""A folder walk reads a file of these names only when its path is a TOML client's (`toml_client`)."""


def toml_client(path: str) -> ClientFile | None:
    """The TOML client whose configuration file this path is (by path only: the content decides next)."""
    if path.rsplit("/", 1)[-1] not in TOML_NAMES:
        return None
    return next((spec for spec in CLIENT_FILES if spec.toml and path_matches(spec, path)), None)


@dataclass
class Places:
    """Where each pointer's key and value are, in bytes (a table header's last key is its key)."""

    keys: dict[Pointer, Span]
    values: dict[Pointer, Span]

    def place(self, pointer: Pointer, target: str, span: tuple[int, int] | None) -> Span:
        """A finding's range: its key, its value (or a span inside a string value), else the nearest parent's."""
        for end in range(len(pointer), -1, -1):
            at = pointer[:end]
            if end == len(pointer) and target == "key" and at in self.keys:
                return self.keys[at]
            if at in self.values:
                start, stop = self.values[at]
                if end == len(pointer) and span is not None and stop - start >= 2:
                    return start + 1 + span[0], start + 1 + span[1]  # inside the quotes (a basic string)
                return (start, stop) if end == len(pointer) else self.keys.get(at, (start, stop))
            if at in self.keys:
                return self.keys[at]
        return 0, 0


@dataclass
class TomlConfig:
    unit: Unit | None
    """The whole file as one configuration unit; None when it is not a configuration (or does not parse)."""
    syntax: tuple[int, int, str] | None
    places: Places

    @property
    def units(self) -> list[Unit]:
        return [self.unit] if self.unit is not None else []

    @property
    def split(self) -> Split:
        return Split("mcp_config" if self.unit is not None else None, "object", [], None)


_AT = re.compile(r"at line (\d+), column (\d+)")


def read_toml_config(data: bytes, spec: ClientFile) -> TomlConfig:
    places = Places({}, {})
    try:
        value = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        if not _mentions_servers(data, spec):
            return TomlConfig(None, None, places)
        return TomlConfig(None, _syntax_error(data, str(error)), places)
    if not any(isinstance(value.get(path[0]), dict) for path in spec.servers):
        return TomlConfig(None, None, places)
    _walk_document(data, places)
    unit = Unit("mcp_config", (), value, spec.dialect, 0, len(data), True, container_dialect=spec.dialect)
    return TomlConfig(unit, None, places)


def toml_findings(config: TomlConfig, run: Callable[[Unit], list[Finding]]) -> list[tuple[Finding, int, int]]:
    """Each finding of the unit's checks with its byte range (a syntax error as TS001), in the file's order."""
    return sorted(_placed(config, run), key=lambda found: (found[1], found[0].code))


def _placed(config: TomlConfig, run: Callable[[Unit], list[Finding]]) -> Iterator[tuple[Finding, int, int]]:
    if config.syntax is not None:
        start, end, message = config.syntax
        yield Finding("TS001", message), start, end
    if config.unit is None:
        return
    for finding in run(config.unit):
        start, end = config.places.place(finding.pointer, finding.target, finding.span)
        yield finding, start, end


def _mentions_servers(data: bytes, spec: ClientFile) -> bool:
    return any(path[0].encode() in data for path in spec.servers)


def _syntax_error(data: bytes, message: str) -> tuple[int, int, str]:
    found = _AT.search(message)
    offset = len(data)
    if found is not None:
        lines = data.split(b"\n")
        line, column = int(found.group(1)) - 1, int(found.group(2)) - 1
        prefix = sum(len(text) + 1 for text in lines[:line])
        text = lines[line].decode("utf-8", "replace") if line < len(lines) else ""
        offset = min(prefix + len(text[:column].encode("utf-8")), len(data))
    words = _AT.sub("", message).strip().rstrip("()").strip()
    return offset, min(offset + 1, len(data)), f"Syntax error (TOML): {words[:1].lower()}{words[1:]}"


def _parser() -> Any:
    import tree_sitter
    import tree_sitter_toml

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_toml.language()))


def _walk_document(data: bytes, places: Places) -> None:
    root = _parser().parse(data).root_node
    arrays: dict[Pointer, int] = {}
    for node in root.named_children:
        if node.type == "pair":
            _pair(node, (), places)
        elif node.type in ("table", "table_array_element"):
            key = next((c for c in node.named_children if c.type in _KEYS), None)
            if key is None:
                continue
            path: Pointer = _key_path(key)
            if node.type == "table_array_element":
                index = arrays.get(path, 0)
                arrays[path] = index + 1
                path = (*path, index)
            _record_key(key, (), places)
            places.values.setdefault(path, (node.start_byte, node.end_byte))
            for child in node.named_children:
                if child.type == "pair":
                    _pair(child, path, places)


_KEYS = frozenset({"bare_key", "quoted_key", "dotted_key"})


def _key_parts(key: Any) -> list[Any]:
    """The simple keys of a (dotted) key node, in order."""
    if key.type == "dotted_key":
        return [part for child in key.named_children for part in _key_parts(child)]
    return [key]


def _key_text(key: Any) -> str:
    text = str(key.text.decode("utf-8"))
    if key.type == "quoted_key":
        try:
            return str(next(iter(tomllib.loads(f"{text} = 0"))))
        except (tomllib.TOMLDecodeError, StopIteration):
            return text.strip("\"'")
    return text


def _key_path(key: Any) -> tuple[str, ...]:
    return tuple(_key_text(part) for part in _key_parts(key))


def _record_key(key: Any, base: Pointer, places: Places) -> None:
    """Each prefix of a dotted key is where that table is said first (`mcp_servers` of `[mcp_servers.docs]`)."""
    parts = _key_parts(key)
    for index, part in enumerate(parts):
        at = (*base, *(_key_text(p) for p in parts[: index + 1]))
        places.keys.setdefault(at, (part.start_byte, part.end_byte))


def _pair(pair: Any, base: Pointer, places: Places) -> None:
    named = pair.named_children
    if len(named) < 2:
        return
    key, value = named[0], named[-1]
    path = (*base, *_key_path(key))
    _record_key(key, base, places)
    _value(value, path, places)


def _value(node: Any, path: Pointer, places: Places) -> None:
    places.values[path] = (node.start_byte, node.end_byte)
    if node.type == "inline_table":
        for child in node.named_children:
            if child.type == "pair":
                _pair(child, path, places)
    elif node.type == "array":
        elements = [child for child in node.named_children if child.type != "comment"]
        for index, child in enumerate(elements):
            _value(child, (*path, index), places)
