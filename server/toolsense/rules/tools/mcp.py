"""MCP specifics, by protocol version (2025-06-18, 2025-11-25, 2026-07-28): behaviour hints that contradict or
cannot apply, a `title` that disagrees with `annotations.title`, property schemas the official schema rejects,
`x-mcp-header` annotations (2026-07-28), the members of a list result beside `tools` (`ttlMs`, `cacheScope`,
`resultType`), and a stated version toolsense does not know. (`outputSchema` validity — any JSON Schema since
2026-07-28, an object root before — is checked by the JSON Schema rules; the name pattern by the name rules.)

The version is the one the file states (`protocolVersion`, an MCP `$schema` URL), else `mcp.protocol_version`
when the user sets it, else the one the tools' own members imply (`execution`: 2025-11-25), else the setting's
default (`engine.filefacts.mcp_version`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from ...document.jsontree import Pointer
from ...domain.tool import tool_view, walk_schema
from ...engine.context import CheckContext
from ...engine.filefacts import checked_mcp_version
from ...engine.findings import Finding, Fix, RemoveMember, Severity
from ...engine.units import Unit
from ...jsonvalue import JsonObject, json_type_name, short_repr
from ...models.definitions import MCP_VERSIONS
from ..catalog import CATALOG

FAMILY = "Tool definitions: MCP"

IGNORED_HINT = CATALOG.rule(
    "TS250",
    "mcp-ignored-hint",
    Severity.HINT,
    "`destructiveHint`/`idempotentHint` mean nothing when `readOnlyHint` is true.",
    FAMILY,
    "remove the hint (safe)",
)
CONTRADICTION = CATALOG.rule(
    "TS251",
    "mcp-contradictory-hints",
    Severity.WARNING,
    "`readOnlyHint: true` with `destructiveHint: true`: a read-only tool cannot be destructive.",
    FAMILY,
)
TITLE = CATALOG.rule(
    "TS252",
    "mcp-title-mismatch",
    Severity.INFORMATION,
    "`title` and `annotations.title` differ; clients show `title`.",
    FAMILY,
)


PROPERTY_SCHEMA = CATALOG.rule(
    "TS253",
    "mcp-property-schema-not-object",
    Severity.ERROR,
    "MCP 2025-06-18 and 2025-11-25: each schema under the input (or output) schema's `properties` must be an "
    "object (the official schema rejects `true`/`false` there).",
    FAMILY,
)
HEADER = CATALOG.rule(
    "TS254",
    "mcp-invalid-header-annotation",
    Severity.ERROR,
    "MCP 2026-07-28: an `x-mcp-header` annotation breaks the spec's rules (a non-empty HTTP token, unique "
    "ignoring case, on a string/integer/boolean property reached through `properties` only); clients on "
    "Streamable HTTP drop the whole tool.",
    FAMILY,
)
LIST_RESULT = CATALOG.rule(
    "TS255",
    "mcp-list-result",
    Severity.ERROR,
    "A `tools/list` result's own members: `ttlMs` (an integer ≥ 0), `cacheScope` (`public`/`private`) and "
    "`resultType` (required in 2026-07-28, when the file states that version); before 2026-07-28 they mean "
    "nothing (a warning).",
    FAMILY,
)
UNKNOWN_VERSION = CATALOG.rule(
    "TS256",
    "mcp-unknown-protocol-version",
    Severity.INFORMATION,
    "The file states an MCP protocol version toolsense does not know: its tools are checked as the latest.",
    FAMILY,
)

_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_HEADER_TYPES = frozenset({"string", "integer", "boolean"})
_NEW_IN_2026 = {"ttlMs": "an integer ≥ 0", "cacheScope": '"public" or "private"', "resultType": "a string"}


def version_of(ctx: CheckContext) -> str:
    return checked_mcp_version(ctx.facts, ctx.settings)


def _before(version: str, other: str) -> bool:
    return MCP_VERSIONS.index(version) < MCP_VERSIONS.index(other)


@CATALOG.unit_check("tool")
def mcp_schemas(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    view = tool_view(unit)
    if view is None or view.dialect != "mcp":
        return
    version = version_of(ctx)
    if _before(version, "2026-07-28"):
        for key in ("inputSchema", "outputSchema"):
            schema = view.value.get(key)
            properties = schema.get("properties") if isinstance(schema, dict) else None
            if not isinstance(properties, dict):
                continue
            for name, sub in properties.items():
                if not isinstance(sub, dict):
                    yield Finding(
                        PROPERTY_SCHEMA.code,
                        f"MCP tool ({version}): the schema of property '{name}' must be an object, found "
                        f"{json_type_name(sub)} {short_repr(sub)}",
                        (key, "properties", name),
                    )
    elif isinstance(view.schema, dict):
        limits = ctx.settings.limits
        yield from _headers(view.schema, limits.max_schema_depth, limits.max_subschemas)


def _reachable(pointer: Pointer) -> bool:
    """Reached from the root through `properties` keys only."""
    return len(pointer) >= 2 and len(pointer) % 2 == 0 and all(p == "properties" for p in pointer[::2])


def _headers(schema: JsonObject, max_depth: int, max_nodes: int) -> Iterator[Finding]:
    seen: dict[str, str] = {}
    for entry in walk_schema(schema, max_depth, max_nodes).nodes:
        if "x-mcp-header" not in entry.node:
            continue
        value = entry.node["x-mcp-header"]
        pointer = ("inputSchema", *entry.pointer, "x-mcp-header")
        where = "/".join(str(p) for p in entry.pointer) or "the root"
        if not isinstance(value, str):
            problem = f"must be a string, found {json_type_name(value)} {short_repr(value)}"
        elif not value:
            problem = "must not be empty"
        elif not _TOKEN.fullmatch(value):
            bad = sorted({c for c in value if not _TOKEN.fullmatch(c)})
            shown = ", ".join("space" if c == " " else repr(c) for c in bad[:5])
            problem = f"must be an HTTP header token (letters, digits and !#$%&'*+-.^_`|~), found {shown}"
        elif not _reachable(entry.pointer):
            problem = (
                f"is on '{where}', which is not reached through `properties` alone (not through items, "
                "composition, conditions or $ref)"
            )
        elif (kinds := _header_kinds(entry.node)) is not None:
            problem = kinds
        elif value.lower() in seen:
            problem = f"repeats {short_repr(seen[value.lower()])} (header names ignore case)"
        else:
            seen[value.lower()] = value
            continue
        yield Finding(
            HEADER.code,
            f"x-mcp-header {problem}: MCP 2026-07-28 clients on Streamable HTTP drop this tool",
            pointer,
        )


def _header_kinds(node: JsonObject) -> str | None:
    """Why the property's type cannot be mirrored into a header, or None when it can."""
    kind = node.get("type")
    kinds = [kind] if isinstance(kind, str) else kind if isinstance(kind, list) else None
    if kinds is None:
        return "is on a property without a type: it must be a string, integer or boolean"
    wrong = [k for k in kinds if k not in _HEADER_TYPES and k != "null"]
    if not wrong and [k for k in kinds if k != "null"]:
        return None
    shown = ", ".join(str(k) for k in wrong) or "null"
    return f"is on a property of type {shown}: only string, integer and boolean (not number) may be mirrored"


@CATALOG.file_check("tool")
def mcp_file(units: list[Unit], ctx: CheckContext) -> Iterator[Finding]:
    if not any(unit.dialect == "mcp" for unit in units):
        return
    facts = ctx.facts
    if facts.mcp_version is not None and facts.mcp_version not in MCP_VERSIONS:
        yield Finding(
            UNKNOWN_VERSION.code,
            f"Unknown MCP protocol version {short_repr(facts.mcp_version)}: checked as {MCP_VERSIONS[-1]} (known: "
            + ", ".join(MCP_VERSIONS)
            + ")",
            facts.mcp_version_pointer,
        )
    if facts.list_result is None:
        return
    version = version_of(ctx)
    members = {key: json.loads(text) for key, text in facts.list_members}
    base = facts.list_result
    if _before(version, "2026-07-28"):
        for key in _NEW_IN_2026:
            if key in members:
                yield Finding(
                    LIST_RESULT.code,
                    f"'{key}' is new in MCP 2026-07-28: clients of {version} ignore it",
                    (*base, key),
                    "key",
                    severity=Severity.WARNING,
                )
        return
    for key, expected in _NEW_IN_2026.items():
        if key not in members:
            continue
        value = members[key]
        if key == "ttlMs":
            valid = type(value) is int and value >= 0
        elif key == "cacheScope":
            valid = value in ("public", "private")
        else:
            valid = isinstance(value, str)
        if not valid:
            yield Finding(
                LIST_RESULT.code,
                f"'{key}' must be {expected} (MCP {version}), found {json_type_name(value)} {short_repr(value)}",
                (*base, key),
            )
    missing = [key for key in _NEW_IN_2026 if key not in members]
    if missing and facts.mcp_version == version and facts.sent_as_is:
        names = ", ".join(f"'{key}'" for key in missing)
        yield Finding(
            LIST_RESULT.code,
            f"An MCP {version} tools/list result must have {names}",
            base,
            "key" if base else "parent",
        )


@CATALOG.unit_check("tool")
def mcp_specifics(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    view = tool_view(unit)
    if view is None or view.dialect != "mcp":
        return
    annotations = view.value.get("annotations")
    if not isinstance(annotations, dict):
        return
    if annotations.get("readOnlyHint") is True:
        if annotations.get("destructiveHint") is True:
            yield Finding(
                CONTRADICTION.code,
                "destructiveHint is true but readOnlyHint is true: a read-only tool does not modify anything",
                ("annotations", "destructiveHint"),
                "member",
            )
        for hint in ("destructiveHint", "idempotentHint"):
            if hint in annotations and not (hint == "destructiveHint" and annotations[hint] is True):
                fix = Fix(f"Remove {hint}", (RemoveMember(("annotations", hint)),), safe=True, preferred=True)
                yield Finding(
                    IGNORED_HINT.code,
                    f"{hint} has no meaning when readOnlyHint is true",
                    ("annotations", hint),
                    "key",
                    fixes=(fix,),
                )
    title, inner = view.value.get("title"), annotations.get("title")
    if isinstance(title, str) and isinstance(inner, str) and title != inner:
        yield Finding(
            TITLE.code,
            f"annotations.title {short_repr(inner)} differs from title {short_repr(title)}; clients show title",
            ("annotations", "title"),
        )
