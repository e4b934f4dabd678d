"""Opt-in profiles for what a reviewer of an MCP server cares about beyond validity (`profiles = ["mcp-quality",
"mcp-security"]`).

- `mcp-quality` (TS270–TS276): descriptions that say what the tool does, parameter descriptions that add to the
  name, one naming style per server, annotations present and consistent with the name, `outputSchema` when the
  description promises structured results, no parameterless tool that accepts any argument.
- `mcp-security` (TS280–TS286): identifiers without bounds, arrays without `maxItems`, paths without a
  `pattern`, URLs without `format: uri`, secrets with a `default` or mirrored into an HTTP header
  (`x-mcp-header`), icons with unsafe URL schemes.

Heuristics by name are kept narrow on purpose: each rule's precision on the corpus is measured by
`bench/mcp_profiles_precision.py` and listed in docs/live-mcp-servers.md; a rule under 80% is reworked or dropped.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from ...document.jsontree import Pointer
from ...domain.tool import ToolView, tool_view
from ...engine.context import CheckContext
from ...engine.findings import Finding, Severity
from ...engine.units import Unit
from ...jsonvalue import JsonObject, JsonValue, short_repr
from ...models.definitions import NAME_KEY
from ...textsafety import visible
from ..catalog import CATALOG

QUALITY = "mcp-quality"
SECURITY = "mcp-security"
FAMILY_QUALITY = "Tool definitions: MCP quality profile (opt-in)"
FAMILY_SECURITY = "Tool definitions: MCP security profile (opt-in)"

VAGUE = CATALOG.rule(
    "TS270",
    "mcp-description-too-short",
    Severity.WARNING,
    "mcp-quality: a tool description too short to say what the tool does and when to use it (under 4 words, "
    "or only its name again).",
    FAMILY_QUALITY,
)
PARAM_ECHO = CATALOG.rule(
    "TS271",
    "mcp-parameters-undescribed",
    Severity.WARNING,
    "mcp-quality: most of a tool's parameters (at least two, and half) have no description (each one: TS241).",
    FAMILY_QUALITY,
)
NAMING = CATALOG.rule(
    "TS272",
    "mcp-mixed-naming-style",
    Severity.WARNING,
    "mcp-quality: tool names of one server in more than one style (snake_case, camelCase, kebab-case, …).",
    FAMILY_QUALITY,
)
NO_ANNOTATIONS = CATALOG.rule(
    "TS273",
    "mcp-annotations-missing",
    Severity.WARNING,
    "mcp-quality: an MCP tool without `annotations` (readOnlyHint, destructiveHint…): clients cannot tell a "
    "safe tool from a destructive one.",
    FAMILY_QUALITY,
)
ANNOTATION_NAME = CATALOG.rule(
    "TS274",
    "mcp-annotations-contradict-name",
    Severity.WARNING,
    "mcp-quality: annotations that disagree with the name: `delete_*` without `destructiveHint: true`, "
    "`get_*` / `list_*` not read-only.",
    FAMILY_QUALITY,
)
NO_OUTPUT_SCHEMA = CATALOG.rule(
    "TS275",
    "mcp-output-schema-missing",
    Severity.INFORMATION,
    "mcp-quality: the description promises structured results (JSON, an object, a list of …) but the tool has "
    "no `outputSchema`.",
    FAMILY_QUALITY,
)
OPEN_PARAMETERLESS = CATALOG.rule(
    "TS276",
    "mcp-parameterless-accepts-anything",
    Severity.WARNING,
    "mcp-quality: a tool without parameters whose schema still accepts any argument "
    "(`additionalProperties` not false).",
    FAMILY_QUALITY,
)
UNBOUNDED_ID = CATALOG.rule(
    "TS280",
    "mcp-unbounded-identifier",
    Severity.WARNING,
    "mcp-security: an identifier parameter (`id`, `*_id`, `sha`, `slug`…) as an unbounded string: no "
    "`pattern`, `maxLength`, `enum` or `format`; it often ends up in a URL path.",
    FAMILY_SECURITY,
)
UNBOUNDED_ARRAY = CATALOG.rule(
    "TS281",
    "mcp-unbounded-array",
    Severity.INFORMATION,
    "mcp-security: an array of identifiers (`ids`, `*_ids`) without `maxItems`: one call can ask for unbounded work.",
    FAMILY_SECURITY,
)
PATH_PATTERN = CATALOG.rule(
    "TS282",
    "mcp-path-without-pattern",
    Severity.WARNING,
    "mcp-security: a file path parameter without a `pattern` (nothing keeps `../` or absolute paths out).",
    FAMILY_SECURITY,
)
URL_FORMAT = CATALOG.rule(
    "TS283",
    "mcp-url-without-format",
    Severity.WARNING,
    "mcp-security: a URL parameter without `format: uri` (or a `pattern`).",
    FAMILY_SECURITY,
)
SECRET_DEFAULT = CATALOG.rule(
    "TS284",
    "mcp-secret-with-default",
    Severity.ERROR,
    "mcp-security: a secret-like parameter (password, token, API key…) with a `default`: the secret is in the "
    "tool definition every client and model sees.",
    FAMILY_SECURITY,
)
SECRET_HEADER = CATALOG.rule(
    "TS285",
    "mcp-secret-in-header",
    Severity.WARNING,
    "mcp-security: `x-mcp-header` on a secret-like parameter: its value is copied into an HTTP header that "
    "proxies and logs see.",
    FAMILY_SECURITY,
)
ICON_SCHEME = CATALOG.rule(
    "TS286",
    "mcp-icon-unsafe-scheme",
    Severity.WARNING,
    "mcp-security: an icon URL with an unsafe scheme (`javascript:`, `file:`, plain `http:`).",
    FAMILY_SECURITY,
)


def _profiles(ctx: CheckContext) -> set[str]:
    return {str(name) for name in ctx.settings.profiles} & {QUALITY, SECURITY}


# --- words of a name ------------------------------------------------------------------------------------------


def words(name: str) -> list[str]:
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name)
    return [w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w]


def naming_style(name: str) -> str | None:
    """The style of a multi-word name; None when a single word fits every style."""
    if re.fullmatch(r"[a-z][a-z0-9]*", name):
        return None
    if re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)+", name):
        return "snake_case"
    if re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)+", name):
        return "kebab-case"
    if re.fullmatch(r"[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*", name):
        return "camelCase"
    if re.fullmatch(r"[A-Z][A-Za-z0-9]*", name) and re.search(r"[a-z]", name):
        return "PascalCase"
    if re.fullmatch(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)+", name):
        return "SCREAMING_CASE"
    if re.fullmatch(r"[a-z][a-z0-9]*(\.[a-z0-9_]+)+", name):
        return "dot.case"
    return "mixed"


_PAGINATION = frozenset(
    {"page", "next", "continuation", "cursor", "max", "count", "limit", "num", "total", "min", "budget"}
)


def is_secret(name: str) -> bool:
    parts = words(name)
    joined = "".join(parts)
    if any(p in ("password", "passwd", "passphrase", "secret", "credential", "credentials", "apikey") for p in parts):
        return True
    if any(k in joined for k in ("apikey", "accesskey", "privatekey", "clientsecret", "secretkey")):
        return True
    if "token" in parts and not (set(parts) & _PAGINATION):
        return True
    return parts in (["auth"], ["authorization"], ["bearer"])


def _is_identifier(name: str) -> bool:
    parts = words(name)
    if not parts:
        return False
    last = parts[-1]
    return last in ("id", "ids", "uuid", "guid", "sha", "slug") or name.endswith(("Id", "ID", "Ids"))


def _is_path(name: str, schema: JsonObject) -> bool:
    parts = words(name)
    if not parts:
        return False
    if parts[-1] in ("path", "paths", "filepath", "filename", "dir", "directory", "folder"):
        return True
    return parts == ["file"] or (parts[-1] == "file" and len(parts) > 1 and parts[-2] in ("source", "target", "input"))


def _is_url(name: str) -> bool:
    parts = words(name)
    return bool(parts) and parts[-1] in ("url", "uri", "urls", "endpoint", "href", "webhook")


# --- the unit checks -----------------------------------------------------------------------------------------


def _parameters(view: ToolView) -> Iterator[tuple[str, JsonObject, Pointer]]:
    """Properties of the input schema, nested ones too (not through $ref), with their pointers."""
    schema = view.schema
    if not isinstance(schema, dict):
        return
    stack: list[tuple[JsonObject, Pointer, int]] = [(schema, view.schema_pointer, 0)]
    while stack:
        node, pointer, depth = stack.pop()
        properties = node.get("properties")
        if isinstance(properties, dict) and depth < 8:
            for name, sub in reversed(list(properties.items())):
                if isinstance(sub, dict):
                    where = (*pointer, "properties", name)
                    yield name, sub, where
                    stack.append((sub, where, depth + 1))
        items = node.get("items")
        if isinstance(items, dict) and depth < 8:
            stack.append((items, (*pointer, "items"), depth + 1))


def _types(node: JsonObject) -> set[str]:
    kind = node.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {k for k in kind if isinstance(k, str)}
    found: set[str] = set()
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list):
            for branch in branches:
                if isinstance(branch, dict):
                    found |= _types(branch)
    return found


@CATALOG.unit_check("tool")
def mcp_profile_rules(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    enabled = _profiles(ctx)
    if not enabled:
        return
    view = tool_view(unit)
    if view is None or view.dialect != "mcp":
        return  # the profiles are about MCP servers; other dialects have their own
    if QUALITY in enabled:
        yield from _quality(view, ctx)
    if SECURITY in enabled:
        yield from _security(view)


def _quality(view: ToolView, ctx: CheckContext) -> Iterator[Finding]:
    description = view.description
    if isinstance(description, str) and description.strip():
        text = description.strip()
        count = _word_count(text)
        same = view.name is not None and words(text) == words(view.name)
        if count < MIN_WORDS or same:
            why = "only repeats the name" if same else f"{count} word{'s' if count != 1 else ''}"
            yield Finding(
                VAGUE.code,
                f"The description {visible(text, 40)} ({why}) does not say what the tool does and when to use it",
                view.description_pointer,
            )
    yield from _undescribed(view)
    if view.dialect == "mcp":
        yield from _annotations(view)
        output = view.value.get("outputSchema")
        if output is None and isinstance(description, str) and _promises_structure(description):
            yield Finding(
                NO_OUTPUT_SCHEMA.code,
                "The description promises structured results but the tool has no `outputSchema`: declare it so "
                "clients can validate and use `structuredContent`",
                view.name_pointer,
            )
    schema = view.schema
    if isinstance(schema, dict) and not schema.get("properties") and not schema.get("patternProperties"):
        extra = schema.get("additionalProperties", None)
        combinators = any(k in schema for k in ("anyOf", "oneOf", "allOf", "$ref"))
        if (
            extra is not False
            and not combinators
            and (extra is not None or ctx.settings.severity.get("TS220") == "off")
        ):
            yield Finding(
                OPEN_PARAMETERLESS.code,
                "The tool takes no parameters but its schema accepts any argument: set `additionalProperties: false`",
                (*view.schema_pointer, "additionalProperties") if extra is not None else view.schema_pointer,
                "value" if extra is not None else "key",
            )


MIN_WORDS = 4
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def _word_count(text: str) -> int:
    """Words separated by spaces; in Chinese, Japanese or Korean text, about two characters make a word."""
    cjk = len(_CJK.findall(text))
    return len(_CJK.sub(" ", text).split()) + (cjk + 1) // 2


def _undescribed(view: ToolView) -> Iterator[Finding]:
    schema = view.schema
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict) or len(properties) < 2:
        return
    missing = [
        name
        for name, sub in properties.items()
        if not (isinstance(sub, dict) and isinstance(text := sub.get("description"), str) and text.strip())
    ]
    if len(missing) >= 2 and len(missing) * 2 >= len(properties):
        shown = ", ".join(missing[:6]) + (", …" if len(missing) > 6 else "")
        yield Finding(
            PARAM_ECHO.code,
            f"{len(missing)} of {len(properties)} parameters have no description ({shown}): the model guesses "
            "what they mean",
            view.schema_pointer,
            "key",
        )


_STRUCTURE = re.compile(r"\breturns?\b[^.]{0,60}\b(json|object|objects|list of|array of|dictionary)\b", re.IGNORECASE)


def _promises_structure(description: str) -> bool:
    return _STRUCTURE.search(description) is not None


_DESTRUCTIVE = frozenset(
    {"delete", "remove", "drop", "destroy", "purge", "erase", "wipe", "truncate", "kill", "terminate"}
)
_READING = frozenset({"get", "list", "search", "read", "fetch", "find", "describe", "show", "view", "lookup"})


def _annotations(view: ToolView) -> Iterator[Finding]:
    annotations = view.value.get("annotations")
    if not isinstance(annotations, dict):
        yield Finding(
            NO_ANNOTATIONS.code,
            f"{view.label} has no `annotations`: say at least readOnlyHint (and destructiveHint when it changes "
            "things) so clients can ask before running it",
            view.name_pointer,
        )
        return
    verb = words(view.name)[0] if view.name and words(view.name) else ""
    read_only, destructive = annotations.get("readOnlyHint"), annotations.get("destructiveHint")
    if verb in _DESTRUCTIVE:
        if read_only is True:
            yield Finding(
                ANNOTATION_NAME.code,
                f"'{view.name}' sounds destructive but says readOnlyHint: true",
                ("annotations", "readOnlyHint"),
            )
        elif destructive is not True:
            where: Pointer = (
                ("annotations", "destructiveHint") if "destructiveHint" in annotations else ("annotations",)
            )
            yield Finding(
                ANNOTATION_NAME.code,
                f"'{view.name}' sounds destructive: say destructiveHint: true"
                + (f" (found {short_repr(destructive)})" if "destructiveHint" in annotations else ""),
                where,
                "value" if "destructiveHint" in annotations else "key",
            )
    elif verb in _READING and read_only is not True:
        where = ("annotations", "readOnlyHint") if "readOnlyHint" in annotations else ("annotations",)
        yield Finding(
            ANNOTATION_NAME.code,
            f"'{view.name}' sounds read-only: say readOnlyHint: true"
            + (f" (found {short_repr(read_only)})" if "readOnlyHint" in annotations else ""),
            where,
            "value" if "readOnlyHint" in annotations else "key",
        )


def _bounded_string(node: JsonObject) -> bool:
    return any(k in node for k in ("maxLength", "pattern", "enum", "const", "format"))


_BOUNDARY = re.compile(
    r"\b(allowed director|within|relative to|inside|repositor|repo\b|sandbox|workspace|project root)", re.IGNORECASE
)


def _states_boundary(*texts: JsonValue) -> bool:
    """Whether a description says where paths may lead (the server checks it, or they name files in a remote
    repository, where `../` reaches nothing)."""
    return any(isinstance(text, str) and _BOUNDARY.search(text) for text in texts)


def _security(view: ToolView) -> Iterator[Finding]:
    for name, sub, pointer in _parameters(view):
        bounded = _states_boundary(view.description, sub.get("description"))
        kinds = _types(sub)
        if "string" in kinds and _is_identifier(name) and not _bounded_string(sub):
            yield Finding(
                UNBOUNDED_ID.code,
                f"Identifier '{name}' is an unbounded string: give it a `pattern` (or `maxLength`/`format`) so "
                "`../`, `?` or `/` cannot reach the URL or path it is used in",
                pointer,
                "key",
            )
        if "array" in kinds and "maxItems" not in sub and _is_identifier(name):
            yield Finding(
                UNBOUNDED_ARRAY.code,
                f"Array '{name}' has no `maxItems`: one call can ask for any number of items",
                pointer,
                "key",
            )
        if "string" in kinds and _is_path(name, sub) and "pattern" not in sub and "enum" not in sub and not bounded:
            yield Finding(
                PATH_PATTERN.code,
                f"Path '{name}' has no `pattern`: nothing keeps `../` or absolute paths out",
                pointer,
                "key",
            )
        if "string" in kinds and _is_url(name) and "pattern" not in sub and "enum" not in sub:
            fmt = sub.get("format")
            if fmt not in ("uri", "url", "iri", "uri-reference", "iri-reference"):
                yield Finding(
                    URL_FORMAT.code,
                    f"URL '{name}' has no `format: uri` (or `pattern`)"
                    + (f"; format is {short_repr(fmt)}" if fmt is not None else ""),
                    (*pointer, "format") if fmt is not None else pointer,
                    "value" if fmt is not None else "key",
                )
        if is_secret(name):
            if "default" in sub:
                yield Finding(
                    SECRET_DEFAULT.code,
                    f"Secret-like parameter '{name}' has a default: the value is in the definition every client "
                    "and model sees",
                    (*pointer, "default"),
                    "key",
                )
            if "x-mcp-header" in sub:
                yield Finding(
                    SECRET_HEADER.code,
                    f"Secret-like parameter '{name}' is mirrored into an HTTP header (x-mcp-header "
                    f"{short_repr(sub['x-mcp-header'])}) that proxies and logs see",
                    (*pointer, "x-mcp-header"),
                    "key",
                )
    icons = view.value.get("icons") if view.dialect == "mcp" else None
    if isinstance(icons, list):
        for index, icon in enumerate(icons):
            source = icon.get("src") if isinstance(icon, dict) else None
            if isinstance(source, str):
                scheme = source.split(":", 1)[0].strip().lower() if ":" in source else ""
                if scheme in ("javascript", "vbscript", "file", "http"):
                    why = "plain http can be changed in transit" if scheme == "http" else "clients must not load it"
                    yield Finding(
                        ICON_SCHEME.code,
                        f"Icon URL with scheme '{scheme}:': {why}; use https: or data:",
                        ("icons", index, "src"),
                    )


@CATALOG.file_check("tool")
def mcp_naming(units: list[Unit], ctx: CheckContext) -> Iterator[Finding]:
    if QUALITY not in _profiles(ctx):
        return
    styled: list[tuple[Unit, str, str]] = []
    for unit in units:
        if unit.kind != "tool" or unit.dialect != "mcp" or not isinstance(unit.value, dict):
            continue
        view = tool_view(unit)
        if view is None or view.name is None:
            continue
        style = naming_style(view.name)
        if style is not None:
            styled.append((unit, view.name, style))
    counts = Counter(style for _, _, style in styled)
    if len(counts) < 2:
        return
    majority, seen = counts.most_common(1)[0]
    for unit, name, style in styled:
        if style != majority:
            yield Finding(
                NAMING.code,
                f"'{name}' is {style}; {seen} of this server's {len(styled)} multi-word tool names are {majority}",
                (*unit.pointer, *NAME_KEY[unit.dialect or "mcp"]),
            )
