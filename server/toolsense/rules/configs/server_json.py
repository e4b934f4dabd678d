"""The MCP registry's `server.json`, checked against the registry schema the file declares in `$schema` (every
released version is vendored in `server_schemas/`, MIT, with its source in `server_schemas/SOURCES.md`), as its
publisher checks it before accepting a server, and against what that schema does not say:

- TS950 what the schema rejects: the name's reverse-DNS format, a package version that is `latest` (or a range),
  the description's length, packages and remotes missing what they need;
- TS951 (a note) a `$schema` that is absent or names no released version: the newest released one is used;
- TS952 a member the schema does not name, at the top or in a package (where the schema leaves packages open):
  the registry decodes the file into its own types and drops it without a word (`icon` for `icons`);
- TS953 a server's own flag in `runtimeArguments`, which go to the runtime (`npx`, `uvx`, `docker`, `dnx`) before
  the package: the server never sees it; `packageArguments` is where it belongs.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping
from importlib import resources
from typing import Any

from jsonschema import Draft7Validator
from jsonschema.exceptions import ValidationError, best_match

from ...engine.context import CheckContext
from ...engine.findings import Finding, Fix, RenameKey, Severity
from ...engine.schemas import closest
from ...engine.units import Unit, mcp_config_dialect
from ...jsonvalue import short_repr
from ..catalog import CATALOG
from .runtime_flags import RUNTIME_FLAGS, RUNTIME_OF_REGISTRY, runtime_knows

FAMILY = "MCP configuration files"
SERVER_JSON = CATALOG.rule(
    "TS950",
    "mcp-server-json-invalid",
    Severity.ERROR,
    "An MCP registry `server.json` the registry rejects, by the schema version its `$schema` names: name not "
    "`namespace/name`, a package version `latest` or a range, a description over 100 characters, a package or "
    "remote missing what it needs.",
    FAMILY,
)
SCHEMA_VERSION = CATALOG.rule(
    "TS951",
    "mcp-server-json-schema-version",
    Severity.INFORMATION,
    "A `server.json` whose `$schema` is absent or names no released registry schema: it is checked against the "
    "newest released one (2025-12-11).",
    FAMILY,
)
UNKNOWN_MEMBER = CATALOG.rule(
    "TS952",
    "mcp-server-json-unknown-member",
    Severity.WARNING,
    "A `server.json` member its registry schema does not name, at the top or in a package (`icon` for `icons`): "
    "the registry drops it without a word.",
    FAMILY,
    "rename to the member meant",
)
RUNTIME_ARGUMENT = CATALOG.rule(
    "TS953",
    "mcp-server-json-runtime-argument",
    Severity.WARNING,
    "A flag in a package's `runtimeArguments` that its runtime (`npx`, `uvx`, `docker`, `dnx`) does not take: "
    "runtime arguments go to the runtime before the package; the server's own flags belong in `packageArguments`.",
    FAMILY,
)
_RANGE = re.compile(r"^[\^~<>=]|\.(x|\*)$|\s\|\|\s|^\*$")

RELEASED = ("2025-07-09", "2025-09-16", "2025-09-29", "2025-10-11", "2025-10-17", "2025-12-11")
"""Every released registry schema, oldest first (server_schemas/SOURCES.md)."""
NEWEST = RELEASED[-1]
"""The version a file is checked against when its `$schema` names none of `RELEASED`: the registry publishes
with the newest, so what it accepts today is the best guess for a file that does not say."""
SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/{}/server.schema.json"
_DECLARED = re.compile(
    r"^https?://static\.modelcontextprotocol\.io/schemas/(\d{4}-\d{2}-\d{2})/server\.schema\.json#?$"
)
_SNAKE_CASE = frozenset({"2025-07-09"})
"""The versions whose members are snake_case (`runtime_arguments`); the later ones are camelCase."""


@functools.cache
def _schema(version: str) -> Mapping[str, Any]:
    text = resources.files(__package__).joinpath("server_schemas", f"{version}.json").read_text(encoding="utf-8")
    schema: Mapping[str, Any] = json.loads(text)
    return schema


@functools.cache
def _validator(version: str) -> Draft7Validator:
    return Draft7Validator(_schema(version))


@functools.cache
def members_of(version: str, definition: str | None = None) -> frozenset[str] | None:
    """The members the version's schema names for a server (`definition` None: its `ServerDetail`, with what it
    `allOf`s) or for one of its definitions (`Package`); None when the schema closes the object itself
    (`additionalProperties: false`: what it does not name is already its error)."""
    schema = _schema(version)
    definitions = schema.get("definitions", {})

    def members(node: Mapping[str, Any]) -> set[str] | None:
        if node.get("additionalProperties") is False:
            return None
        ref = node.get("$ref")
        found: set[str] | None = set()
        if isinstance(ref, str):
            found = members(definitions[ref.rsplit("/", 1)[-1]])
        for part in node.get("allOf", ()):
            inner = members(part)
            found = None if found is None or inner is None else found | inner
        return None if found is None else found | set(node.get("properties", {}))

    found = members(schema if definition is None else definitions[definition])
    return frozenset(found) if found is not None else None


def declared_version(value: Mapping[str, Any]) -> tuple[str, Finding | None]:
    """The released schema version the file's `$schema` names, or the newest with a note saying so."""
    declared = value.get("$schema")
    match = _DECLARED.match(declared.strip()) if isinstance(declared, str) else None
    if match is not None and match.group(1) in RELEASED:
        return match.group(1), None
    newest = SCHEMA_URL.format(NEWEST)
    if declared is None:
        message = (
            f"No `$schema`: checked against the newest released registry schema, {NEWEST}; name the version the "
            f'file follows ("$schema": "{newest}")'
        )
        return NEWEST, Finding(SCHEMA_VERSION.code, message, (), "parent")
    released = ", ".join(RELEASED)
    message = (
        f"`$schema` {short_repr(declared, 120)} names no released registry schema ({released}): checked against the "
        f"newest, {NEWEST}"
    )
    return NEWEST, Finding(SCHEMA_VERSION.code, message, ("$schema",))


def _words(error: ValidationError) -> str:
    where = ".".join(str(p) for p in error.absolute_path) or "the file"
    value = error.instance
    if error.validator == "pattern" and list(error.absolute_path) == ["name"]:
        return (
            f"The name {short_repr(value)} is not reverse-DNS `namespace/name` with one slash (io.github.user/weather)"
        )
    if error.validator == "not":
        return f"`{where}` is {short_repr(value)}: a package needs a specific version"
    if error.validator == "maxLength" and isinstance(value, str):
        return f"`{where}` has {len(value)} characters; the registry accepts at most {error.validator_value}"
    if error.validator == "anyOf" and error.context:
        names = " or ".join(f"'{e.message.split(' is a required')[0].strip(chr(39))}'" for e in error.context)
        return f"`{where}` needs {names}"
    if error.validator == "required":
        return f"`{where}` lacks {error.message.split(' is a required')[0]}"
    if error.validator == "additionalProperties":
        return f"`{where}`: {error.message}"
    return f"`{where}`: {short_repr(error.message, 120)[1:-1]}"


def _errors(errors: Any) -> Iterator[ValidationError]:
    """The errors worth reading: of `anyOf` branches, those of the branch the value meant (the one whose `type`
    it has), else the best match; an `anyOf` of `required` sets as one error."""
    for error in errors:
        if error.validator not in ("anyOf", "oneOf") or not error.context:
            yield error
            continue
        if all(e.validator == "required" for e in error.context):
            yield error
            continue
        branches: dict[Any, list[ValidationError]] = {}
        for inner in error.context:
            branches.setdefault(inner.relative_schema_path[0], []).append(inner)
        meant = [
            branch
            for branch in branches.values()
            if not any(e.validator in ("enum", "const") and list(e.relative_path)[-1:] == ["type"] for e in branch)
        ]
        yield from _errors(meant[0]) if len(meant) == 1 else [best_match(error.context)]


@CATALOG.unit_check("mcp_config")
def server_json_rules(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    value = unit.value
    if not isinstance(value, dict) or mcp_config_dialect(value) != "server-json":
        return
    version, note = declared_version(value)
    if note is not None:
        yield note
    for error in _errors(_validator(version).iter_errors(value)):
        pointer = tuple(error.absolute_path)
        target = "parent" if error.validator in ("required", "anyOf") else "value"
        yield Finding(SERVER_JSON.code, _words(error), pointer, target)  # type: ignore[arg-type]
    packages = value.get("packages")
    for index, package in enumerate(packages if isinstance(packages, list) else []):
        version_value = package.get("version") if isinstance(package, dict) else None
        if isinstance(version_value, str) and _RANGE.search(version_value.strip()):
            yield Finding(
                SERVER_JSON.code,
                f"`packages.{index}.version` is the range {short_repr(version_value)}: the registry rejects ranges; "
                "give the exact version",
                ("packages", index, "version"),
            )
        if isinstance(package, dict):
            yield from _runtime_arguments(package, index, version)
    yield from _unknown_members(value, version)


def _unknown_members(value: Mapping[str, Any], version: str) -> Iterator[Finding]:
    """The members the registry drops: at the top, and in each package where the schema leaves packages open."""
    places: list[tuple[Mapping[str, Any], tuple[str | int, ...], str, frozenset[str] | None]] = [
        (value, (), "server.json", members_of(version))
    ]
    packages = value.get("packages")
    if isinstance(packages, list):
        known = members_of(version, "Package")
        places.extend(
            (package, ("packages", i), "package", known)
            for i, package in enumerate(packages)
            if isinstance(package, dict)
        )
    for where, prefix, what, known in places:
        if known is None:
            continue
        for key in where:
            if key in known:
                continue
            named = ".".join(str(p) for p in (*prefix, key))
            head = f"`{named}` is not a member of the registry's {what} (schema {version}): the registry drops it"
            meant = _meant(key, known, where)
            if meant is None:
                yield Finding(UNKNOWN_MEMBER.code, f"{head} without a word", (*prefix, key), "key")
                continue
            fix = Fix(f"Rename to `{meant}`", (RenameKey((*prefix, key), meant),))
            message = f"{head} without a word; did you mean `{meant}`?"
            yield Finding(UNKNOWN_MEMBER.code, message, (*prefix, key), "key", fixes=(fix,))


def _meant(key: str, known: frozenset[str], value: Mapping[str, Any]) -> str | None:
    """The member a key most likely stands for (none already in the file): the same name in the other case style
    (`website_url` → `websiteUrl`), else the closest spelling (`icon` → `icons`)."""
    free = sorted(k for k in known if k not in value)
    folded = key.replace("_", "").replace("-", "").lower()
    same = [k for k in free if k.replace("_", "").lower() == folded]
    if same:
        return same[0]
    close = closest(key, free, limit=1)
    return close[0] if close else None


def _runtime_arguments(package: Mapping[str, Any], index: int, version: str) -> Iterator[Finding]:
    """The flags in `runtimeArguments` that the package's runtime does not take: a server's own flag put there
    reaches the runtime (`npx --port 8080 pkg`), never the server."""
    snake = version in _SNAKE_CASE
    key = "runtime_arguments" if snake else "runtimeArguments"
    arguments = package.get(key)
    hint = package.get("runtime_hint" if snake else "runtimeHint")
    registry = package.get("registry_type" if snake else "registryType")
    runtime = hint if isinstance(hint, str) and hint else RUNTIME_OF_REGISTRY.get(str(registry))
    if not isinstance(arguments, list) or runtime not in RUNTIME_FLAGS:
        return
    packaged = "package_arguments" if snake else "packageArguments"
    for position, argument in enumerate(arguments):
        if not isinstance(argument, dict):
            continue
        member = "name" if argument.get("type") == "named" else "value"
        flag = argument.get(member)
        if not isinstance(flag, str) or not flag.startswith("-") or runtime_knows(runtime, flag.strip()):
            continue
        message = (
            f"{short_repr(flag.strip())} is not an option of `{runtime}`: `{key}` go to `{runtime}` before the "
            f"package, so the server never sees it; a flag of the server belongs in `{packaged}`"
        )
        yield Finding(RUNTIME_ARGUMENT.code, message, ("packages", index, key, position, member))
