"""File and structure: the file-level codes the engine reports (syntax, shape, size), and the codes of a unit
validated against its pydantic model through `domain.validation`. Each family checks its own units with them
(`tools.structure`, `calls.structure`, `automations.structure`)."""

from __future__ import annotations

import dataclasses

from ..domain import validation as codes
from ..engine.findings import Finding, Severity
from ..engine.units import Unit
from ..jsonvalue import JsonObject
from .catalog import CATALOG

FAMILY = "File and structure"

SYNTAX = CATALOG.rule("TS001", "syntax-error", Severity.ERROR, "The JSON does not parse here.", FAMILY)
CATALOG.rule("TS002", "not-utf8", Severity.ERROR, "The file is not valid UTF-8.", FAMILY)
CATALOG.rule(
    "TS003",
    "file-too-large",
    Severity.WARNING,
    "The file is larger than `limits.max_file_mb` for live checks.",
    FAMILY,
)
CATALOG.rule("TS004", "unexpected-shape", Severity.ERROR, "The file is not an object or array of units.", FAMILY)
CATALOG.rule("TS005", "empty-file", Severity.WARNING, "The file is empty.", FAMILY)
CATALOG.rule("TS006", "too-deep", Severity.ERROR, "Nesting is too deep to check.", FAMILY)
CATALOG.rule(
    "TS007",
    "not-checked",
    Severity.INFORMATION,
    "A default glob (`**/tools/*.json`, `**/*.tools.json`) points at the file, but its content has the shape of no "
    "known dialect (or a wrapper's members do not); or the file does not parse as JSON and, although parts of it "
    "look like ours, nothing says it is (no setting, `$schema`, file name or earlier clean version in the editor): "
    "it is not checked (add it to `[tool.toolsense.files]` to force it).",
    FAMILY,
)
CATALOG.rule(
    "TS008",
    "unexpected-container",
    Severity.ERROR,
    "A request body or forced tool file whose `tools` (or `functions`) is not an array; a dataset record whose "
    "`tools` (or `functions`) JSON string does not parse.",
    FAMILY,
)
CATALOG.rule(
    "TS019",
    "baseline-entry-fixed",
    Severity.INFORMATION,
    "An entry of `toolsense check --baseline` no longer matches a finding: it was fixed (`--update-baseline` drops "
    "it).",
    FAMILY,
)
CATALOG.rule(
    "TS900",
    "internal-error",
    Severity.ERROR,
    "A check failed inside toolsense (a bug: please report).",
    FAMILY,
)

UNKNOWN = CATALOG.rule(
    codes.UNKNOWN,
    "unknown-property",
    Severity.ERROR,
    "A property the strict model does not define (`additionalProperties: false`). In a tool definition it is an "
    "error when the file is sent as it is (a request body, a tools/list result), the key is a misspelt known one, "
    "or a schema keyword sits beside the schema (`required` next to `parameters`); otherwise the app's own key, a "
    "warning, and information when every tool of the file has it (a catalogue's own key). MCP clients ignore "
    "unknown members: always a warning there.",
    FAMILY,
    "rename to the closest known property; move a schema keyword into the schema; remove the property",
)
MISSING = CATALOG.rule(
    codes.MISSING,
    "missing-property",
    Severity.ERROR,
    "A required property is missing (marked on the parent).",
    FAMILY,
    "insert the missing properties with placeholders",
)
WRONG_TYPE = CATALOG.rule(codes.WRONG_TYPE, "wrong-type", Severity.ERROR, "A value of the wrong JSON type.", FAMILY)
BAD_ENUM = CATALOG.rule(
    codes.BAD_ENUM,
    "invalid-enum-value",
    Severity.ERROR,
    "A value that is not one of the allowed values.",
    FAMILY,
    "replace with the closest allowed value; an enum member's name → its value (safe)",
)
FORMAT = CATALOG.rule(
    codes.FORMAT,
    "format-mismatch",
    Severity.WARNING,
    "A string that does not have the `format` its schema names, for the formats toolsense asserts (`date`, "
    "`date-time`, `ipv4`, `ipv6`, `uuid`, `regex`); reported under the family's own code (TS237, TS309, TS219).",
    FAMILY,
)
COERCIBLE = CATALOG.rule(
    codes.COERCIBLE,
    "coercible-value",
    Severity.WARNING,
    'A string that would be coerced to the expected type (`"80"`, `"true"`): an LLM mistake.',
    FAMILY,
    "write the value with its real type (safe)",
)
CONSTRAINT = CATALOG.rule(
    codes.CONSTRAINT,
    "constraint-violation",
    Severity.ERROR,
    "A value breaks a constraint (length, range, pattern…).",
    FAMILY,
)


_FILE_KEYS = frozenset({"$schema", "protocolVersion"})


def own_keys(unit: Unit) -> JsonObject:
    """The unit's members without a file-level `$schema` or `protocolVersion` (they say what the file is, not a
    property of the unit)."""
    value: JsonObject = unit.value
    if unit.pointer == () and not _FILE_KEYS.isdisjoint(value):
        return {key: member for key, member in value.items() if key not in _FILE_KEYS}
    return value


def own_text(unit: Unit) -> bytes | None:
    """The JSON text of `own_keys(unit)` when it is the unit's own text (`Unit.text`), else None."""
    if unit.pointer == () and isinstance(unit.value, dict) and not _FILE_KEYS.isdisjoint(unit.value):
        return None
    return unit.json_text


_LOWERED = ("Expected ", "Invalid ", "Unknown ", "Missing ", "Value ", "String ", "Input ")
"""First words of the validation wording that read on after `<unit>, '<field>': ` in lower case (a proper noun
or a quoted key keeps its case)."""


def located(finding: Finding, subject: str, codes: frozenset[str] | None = None) -> Finding:
    """The finding's message naming its unit and its field: `MCP tool 'x', 'properties.y.description': expected
    string, received null`. A message that names its unit already (a member missing from or unknown in the
    unit itself says `in <subject>`) is kept; so are codes outside `codes` (when given)."""
    message = finding.message
    if (codes is not None and finding.code not in codes) or subject in message:
        return finding
    pointer = finding.pointer
    field = ".".join(str(part) for part in pointer)
    if message.startswith(("Unknown property ", "Missing required ")) and pointer:
        # (whatever a family recoded it to: TS101/TS102, a call's TS303/TS304, an example's TS230/TS231)
        parent = pointer[:-1] if message.startswith("Unknown") else pointer
        where = ".".join(str(part) for part in parent)
        message = message.replace(f" at '{where}'", "", 1).replace(f" in '{where}'", "", 1)
        field = where
    if message.endswith("received null: null"):
        message = message[: -len(": null")]
    if message.startswith(_LOWERED):
        message = message[:1].lower() + message[1:]
    if len(pointer) == 1 and message.startswith(f"'{pointer[0]}'"):
        field = ""  # the message starts with the member's name already
    head = f"{subject}, '{field}'" if field else subject
    return dataclasses.replace(finding, message=f"{head}: {message}")
