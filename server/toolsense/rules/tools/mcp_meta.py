"""An MCP tool's `_meta` and schema references, by the spec's 2026 rules: `_meta` key names (the prefix and name
format, the prefixes reserved for MCP: TS257), MCP Apps' `_meta.ui` (a `ui://` resource, `visibility`, and the
resource's own `csp`/`permissions` misplaced on the tool: TS258), and a `$ref` that resolves to a network URI,
which clients of 2026-07-28 must not fetch and should reject (TS259). The facts and their sources are in
`models.feature_facts`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

from ...document.jsontree import Pointer
from ...domain.validation import model_findings
from ...engine.context import CheckContext
from ...engine.filefacts import user_set_version
from ...engine.findings import Finding, Severity
from ...engine.units import Unit
from ...jsonvalue import short_repr
from ...models.dialects import Dialect
from ...models.feature_facts import (
    MCP_APPS_RESOURCE_KEYS,
    MCP_APPS_UI_SCHEME,
    MCP_META_RESERVED_LABELS,
    MCP_REMOTE_REF_VERSION,
    META_LABEL,
    META_NAME,
)
from ...models.tool_features import McpUiToolMeta
from ..catalog import CATALOG

FAMILY = "Tool definitions: MCP"

META_KEY = CATALOG.rule(
    "TS257",
    "mcp-meta-key",
    Severity.WARNING,
    "A `_meta` key the spec's key format forbids (prefix labels: a letter first, a letter or digit last; name: "
    "alphanumeric at both ends), or one under a prefix reserved for MCP (second label `modelcontextprotocol` or "
    "`mcp`, such as `dev.mcp/`).",
    FAMILY,
)
APPS_UI = CATALOG.rule(
    "TS258",
    "mcp-apps-ui",
    Severity.ERROR,
    "MCP Apps: a tool's `_meta.ui.resourceUri` that is no `ui://` URI (hosts render only UI resources); as "
    "warnings, the deprecated flat `ui/resourceUri`, and the UI resource's own `csp`, `permissions`, `domain` or "
    "`prefersBorder` written on the tool, where hosts do not read them.",
    FAMILY,
)
REMOTE_REF = CATALOG.rule(
    "TS259",
    "mcp-remote-ref",
    Severity.ERROR,
    "MCP 2026-07-28: a `$ref` in a tool's schema that resolves to a network URI; clients must not fetch it and "
    "should reject the schema (reported when the file states 2026-07-28, or the settings choose it).",
    FAMILY,
)


def _mcp_tool(unit: Unit) -> dict[str, Any] | None:
    return unit.value if unit.dialect == Dialect.MCP and isinstance(unit.value, dict) else None


# --- _meta key names -------------------------------------------------------------------------------------


@CATALOG.unit_check("tool")
def meta_keys(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    value = _mcp_tool(unit)
    meta = value.get("_meta") if value is not None else None
    if not isinstance(meta, dict):
        return
    for key in meta:
        problem = meta_key_problem(key)
        if problem is not None:
            hint = _FASTMCP if key == "_fastmcp" else ""
            yield Finding(META_KEY.code, f"_meta key {short_repr(key)}: {problem}{hint}", ("_meta", key), "key")


_FASTMCP = "; FastMCP wrote it so and now writes 'fastmcp' (PrefectHQ/fastmcp#2895): upgrade FastMCP"


def meta_key_problem(key: str) -> str | None:
    """What is wrong with a `_meta` key name, or None."""
    prefix, slash, name = key.rpartition("/")
    if slash and "/" in prefix:
        return "a key has at most one '/', between its prefix and its name"
    if not META_NAME.fullmatch(name):
        return "the name must start and end with a letter or digit, with only - _ . inside"
    if not slash:
        return None
    labels = prefix.split(".")
    bad = next((label for label in labels if not META_LABEL.fullmatch(label)), None)
    if bad is not None:
        return f"prefix label {short_repr(bad)} must start with a letter and end with a letter or digit"
    if len(labels) > 1 and labels[1] in MCP_META_RESERVED_LABELS.values and prefix != "io.modelcontextprotocol":
        return (
            f"the prefix '{prefix}/' is reserved for MCP (its second label is '{labels[1]}'); use your own "
            "reverse-DNS prefix (com.example/)"
        )
    return None


# --- MCP Apps --------------------------------------------------------------------------------------------


@CATALOG.unit_check("tool")
def apps_ui(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    value = _mcp_tool(unit)
    meta = value.get("_meta") if value is not None else None
    if not isinstance(meta, dict):
        return
    flat = meta.get("ui/resourceUri")
    if "ui/resourceUri" in meta:
        yield Finding(
            APPS_UI.code,
            "MCP Apps: the flat `ui/resourceUri` is deprecated (to be removed before GA); use `_meta.ui.resourceUri`",
            ("_meta", "ui/resourceUri"),
            "key",
            severity=Severity.WARNING,
        )
        yield from _resource_uri(flat, ("_meta", "ui/resourceUri"))
    ui = meta.get("ui")
    if "ui" not in meta:
        return
    base: Pointer = ("_meta", "ui")
    for finding in model_findings(McpUiToolMeta, ui, "MCP Apps _meta.ui"):
        yield finding.under(base) if finding.severity is not None else _warning(finding.under(base))
    if not isinstance(ui, dict):
        return
    yield from _resource_uri(ui.get("resourceUri"), (*base, "resourceUri"))
    for key in MCP_APPS_RESOURCE_KEYS.values:
        if key in ui:
            yield Finding(
                APPS_UI.code,
                f"MCP Apps: `{key}` belongs in the UI resource's `_meta.ui` (its resources/read contents), not the "
                "tool's: hosts read it from the resource only",
                (*base, key),
                "key",
                severity=Severity.WARNING,
            )


def _warning(finding: Finding) -> Finding:
    """A member of `_meta.ui` a host cannot use is a warning: MCP clients ignore what they do not understand."""
    return Finding(
        finding.code,
        finding.message,
        finding.pointer,
        finding.target,
        Severity.WARNING,
        finding.span,
        finding.fixes,
        finding.related,
        finding.data,
    )


def _resource_uri(uri: Any, pointer: Pointer) -> Iterator[Finding]:
    if isinstance(uri, str) and not uri.startswith(MCP_APPS_UI_SCHEME):
        yield Finding(
            APPS_UI.code,
            f"MCP Apps: resourceUri {short_repr(uri)} must be a {MCP_APPS_UI_SCHEME} URI (a UI resource the server "
            "lists); hosts render nothing else",
            pointer,
        )


# --- remote $ref -----------------------------------------------------------------------------------------

_NETWORK = frozenset({"http", "https", "ftp", "ws", "wss"})
_MAX_NODES = 20_000


@CATALOG.unit_check("tool")
def remote_refs(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    value = _mcp_tool(unit)
    if value is None:
        return
    stated = ctx.facts.mcp_version == MCP_REMOTE_REF_VERSION
    chosen = user_set_version(ctx.settings) and ctx.settings.mcp.protocol_version == MCP_REMOTE_REF_VERSION
    if not stated and not chosen:
        return
    for key in ("inputSchema", "outputSchema"):
        schema = value.get(key)
        if isinstance(schema, (dict, list)):
            for pointer, ref in network_refs(schema):
                yield Finding(
                    REMOTE_REF.code,
                    f"$ref {short_repr(ref)} resolves to a network URI: MCP {MCP_REMOTE_REF_VERSION} clients must "
                    "not fetch it and should reject the schema; put the definition in `$defs` and point at it "
                    "with '#/$defs/…'",
                    (key, *pointer),
                )


def network_refs(schema: Any) -> Iterator[tuple[Pointer, str]]:
    """Each `$ref`/`$dynamicRef` of a schema that resolves (against the `$id`s around it) to a network URI other
    than a resource the schema itself holds."""
    own = {urldefrag(found)[0] for found in _ids(schema, "")}
    stack: list[tuple[Any, Pointer, str]] = [(schema, (), "")]
    seen = 0
    while stack and seen < _MAX_NODES:
        node, pointer, base = stack.pop()
        seen += 1
        if isinstance(node, dict):
            here = urljoin(base, node["$id"]) if isinstance(node.get("$id"), str) else base
            for keyword in ("$ref", "$dynamicRef"):
                ref = node.get(keyword)
                if isinstance(ref, str) and not ref.startswith("#"):
                    target = urldefrag(urljoin(here, ref))[0]
                    parts = urlsplit(target)
                    if parts.scheme in _NETWORK and parts.netloc and target not in own:
                        yield (*pointer, keyword), ref
            for key, child in node.items():
                if key not in ("enum", "const", "default", "examples") and isinstance(child, (dict, list)):
                    stack.append((child, (*pointer, key), here))
        elif isinstance(node, list):
            stack.extend((child, (*pointer, index), base) for index, child in enumerate(node))


def _ids(schema: Any, base: str) -> Iterator[str]:
    stack: list[tuple[Any, str]] = [(schema, base)]
    seen = 0
    while stack and seen < _MAX_NODES:
        node, here = stack.pop()
        seen += 1
        if isinstance(node, dict):
            if isinstance(node.get("$id"), str):
                here = urljoin(here, node["$id"])
                yield here
            stack.extend((child, here) for child in node.values() if isinstance(child, (dict, list)))
        elif isinstance(node, list):
            stack.extend((child, here) for child in node)
