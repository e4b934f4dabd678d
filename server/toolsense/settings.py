"""Typed settings, validated once.

The same keys come from `[tool.toolsense]` in `pyproject.toml`, from `toolsense.toml`, and from an LSP client's
`initializationOptions` / `workspace/configuration`. A bad value never crashes anything: `load_settings`
returns the defaults for the keys that failed plus one readable problem per key.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from .config_files import read_config_section
from .jsonvalue import json_type_name

SeverityName = Literal["error", "warning", "information", "hint", "off"]
McpVersionName = Literal["2025-06-18", "2025-11-25", "2026-07-28"]
ProfileName = Literal[
    "anthropic", "anthropic-strict", "openai", "openai-strict", "gemini", "mcp", "mcp-quality", "mcp-security"
]
DialectName = Literal["openai", "openai-flat", "anthropic", "mcp", "gemini", "bedrock"]
TargetName = Literal[
    "anthropic",
    "anthropic-strict",
    "claude-code",
    "openai-chat",
    "openai-chat-strict",
    "openai-responses",
    "openai-responses-strict",
    "gemini-api",
    "vertex-ai",
    "gemini-cli",
    "copilot-claude",
    "copilot-gemini",
    "copilot-gpt",
    "cursor",
    "vscode-mcp",
]
"""The compat oracle's targets (`domain.compat.TARGETS`, docs/compat.md), in its order."""
RuleCode = Annotated[str, StringConstraints(pattern=r"^TS[0-9]{3}$")]

DEFAULT_TOOL_GLOBS = ("**/*.tool.json", "**/*.tools.json", "**/tools/*.json")
DEFAULT_AUTOMATION_GLOBS = ("**/*.automation.json", "**/automations/*.json")
DEFAULT_TOOL_CALL_GLOBS = (
    "**/*.toolcall.json",
    "**/*.tool-call.json",
    "**/tool_calls/*.json",
    "**/calls/*.json",
)


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DiagnosticsSettings(_Section):
    debounce_ms: int = Field(default=100, ge=0, le=10_000, description="Delay after a keystroke before checking.")


class LimitsSettings(_Section):
    max_file_mb: float = Field(
        default=10.0,
        gt=0,
        description="Files larger than this are not checked live (the CLI still checks them).",
    )
    regex_timeout_ms: int = Field(
        default=200,
        ge=1,
        description="Time budget for one pattern match (a tool or a call shares 5 times it, a file 25 times).",
    )
    max_schema_depth: int = Field(default=64, ge=1, description="Deepest schema nesting that is analysed.")
    max_subschemas: int = Field(default=20_000, ge=1, description="Most subschemas analysed per tool.")
    model_import_timeout_s: float = Field(
        default=10.0, gt=0, description="Longest a registered model's module may take to import."
    )


class DescriptionSettings(_Section):
    max_length: int = Field(default=1024, ge=1, description="Longest tool description before a warning.")


class McpSettings(_Section):
    protocol_version: McpVersionName = Field(
        default="2026-07-28", description="MCP protocol version for files that do not state one."
    )


class TokenSettings(_Section):
    """Token budgets (o200k_base counts of the compact JSON; an estimate outside OpenAI): set one to turn the
    budget rules on (TS296-TS298)."""

    max_tool_tokens: int | None = Field(default=None, ge=1, description="Most tokens one tool definition may cost.")
    max_file_tokens: int | None = Field(default=None, ge=1, description="Most tokens a file's tools may cost.")


class ProfileLimits(_Section):
    max_properties: int | None = None
    max_depth: int | None = None
    max_enum_values: int | None = None
    max_total_chars: int | None = None
    max_large_enum_chars: int | None = None
    max_optional_parameters: int | None = None
    max_union_parameters: int | None = None
    max_tools: int | None = None
    max_strict_tools: int | None = None


class FilesSettings(_Section):
    tool_definitions: tuple[str, ...] = Field(default=(), description="Extra globs for tool-definition files.")
    automations: tuple[str, ...] = Field(default=(), description="Extra globs for automation files.")
    tool_calls: tuple[str, ...] = Field(default=(), description="Extra globs for tool-call files.")
    dialects: dict[str, DialectName] = Field(
        default_factory=dict, description="Glob -> dialect: the matching files are tool definitions of that dialect."
    )
    exclude: tuple[str, ...] = Field(default=("**/node_modules/**", "**/.git/**", "**/.venv/**"))


class Settings(_Section):
    """Everything toolsense can be told; the defaults are what a new user gets."""

    files: FilesSettings = FilesSettings()
    diagnostics: DiagnosticsSettings = DiagnosticsSettings()
    limits: LimitsSettings = LimitsSettings()
    description: DescriptionSettings = DescriptionSettings()
    mcp: McpSettings = McpSettings()
    tokens: TokenSettings = TokenSettings()
    profiles: tuple[ProfileName, ...] = Field(default=(), description="Provider profiles whose rules apply.")
    targets: tuple[TargetName, ...] = Field(
        default=(), description="Clients and APIs that must accept every tool: a rejection by one is an error (TS264)."
    )
    profile_limits: dict[str, ProfileLimits] = Field(default_factory=dict)
    severity: dict[str, SeverityName] = Field(default_factory=dict, description="Rule code -> severity or off.")
    models: dict[str, str] = Field(default_factory=dict, description='Tool name -> "package.module:Model".')
    enums: dict[str, str] = Field(default_factory=dict, description='Schema pointer/name -> "pkg.mod:Enum".')
    python_path: tuple[str, ...] = Field(default=(), description="Extra import paths for registered models.")
    registry: str | None = Field(default=None, description="A JSON file of extra tool definitions.")
    samples: dict[str, str] = Field(default_factory=dict, description="Tool name -> sample output JSON file.")
    tool_call_tool: dict[str, str] = Field(
        default_factory=dict, description="Glob -> tool name, for bare tool-input files."
    )
    trusted: bool = Field(default=True, description="Whether user code (registered models) may be imported.")
    ignore: dict[str, dict[str, tuple[RuleCode, ...]]] = Field(
        default_factory=dict,
        description='File glob -> tool name ("*": every finding of the file) -> rule codes not reported there.',
    )


@dataclass(frozen=True)
class SettingsProblem:
    """One invalid setting: where it came from, which key, what was expected."""

    source: str
    key: str
    message: str

    def __str__(self) -> str:
        return f"{self.source}: setting '{self.key}': {self.message}"


REPOSITORY_LIMIT_CAPS: dict[str, float] = {
    "max_file_mb": 50.0,
    "regex_timeout_ms": 1000,
    "max_schema_depth": 256,
    "max_subschemas": 100_000,
    "model_import_timeout_s": 60.0,
}
"""The highest value a repository's own configuration file (the `toolsense.toml` or `pyproject.toml` toolsense
finds) may give each `[limits]` bound, trusted or not: a pull request must not be able to lift the bounds that
keep `toolsense check` and the editor answering. Higher values take the user's own settings: `--config FILE`
for the CLI, the editor's settings for the language server."""


def cap_repository_limits(settings: Settings, source: str) -> tuple[Settings, list[SettingsProblem]]:
    """`settings` read from a repository's configuration file, each `[limits]` value above its cap lowered to
    the cap, with one problem per lowered value (saying where a higher value may be set)."""
    lowered: dict[str, Any] = {}
    problems: list[SettingsProblem] = []
    for name, cap in REPOSITORY_LIMIT_CAPS.items():
        value = getattr(settings.limits, name)
        if value > cap:
            kept = type(value)(cap)
            lowered[name] = kept
            problems.append(
                SettingsProblem(
                    source,
                    f"limits.{name}",
                    f"{value!r} is above what a repository's configuration may set; using {kept!r} (a higher "
                    "value takes your own settings: `toolsense check --config FILE`, or the editor's settings)",
                )
            )
    if not lowered:
        return settings, []
    return settings.model_copy(update={"limits": settings.limits.model_copy(update=lowered)}), problems


def _drop(data: dict[str, Any], loc: tuple[int | str, ...]) -> None:
    """Remove the offending key so the rest of the settings still apply."""
    node: Any = data
    for part in loc[:-1]:
        if isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return
    if isinstance(node, dict):
        node.pop(loc[-1], None)
    elif isinstance(node, list) and isinstance(loc[-1], int) and loc[-1] < len(node):
        node.pop(loc[-1])


_TOML_NAMES = {"number": "float", "object": "table"}


def toml_type_name(value: object) -> str:
    """A value's type as TOML names it (a float, a table)."""
    name = json_type_name(value)
    return _TOML_NAMES.get(name, name)


def _annotation_at(loc: tuple[int | str, ...]) -> Any:
    """The type annotation the settings model declares at loc (None when unknown)."""
    annotation: Any = Settings
    for part in loc:
        annotation = _strip_optional(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            field = annotation.model_fields.get(str(part))
            if field is None:
                return None
            annotation = field.annotation
            continue
        args = get_args(annotation)
        origin = get_origin(annotation)
        if origin is tuple and args:
            annotation = args[0]
        elif origin is dict and len(args) == 2:
            annotation = args[1]
        else:
            return None
    return _strip_optional(annotation)


def _strip_optional(annotation: Any) -> Any:
    args = get_args(annotation)
    if args and type(None) in args and get_origin(annotation) is not Literal:
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return annotation


def _describe_type(annotation: Any) -> str | None:
    """A TOML-worded description of an annotation: "an array of strings", "one of 'error', 'warning'"."""
    annotation = _strip_optional(annotation)
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in args)
    simple = {str: "a string", int: "an integer", float: "a number", bool: "true or false"}
    if annotation in simple:
        return simple[annotation]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "a table"
    if origin is tuple and args:
        inner = _describe_type(args[0])
        plural = {"a string": "strings", "an integer": "integers", "a number": "numbers", "a table": "tables"}
        if inner in plural:
            return f"an array of {plural[inner]}"
        return f"an array whose items are {inner}" if inner else "an array"
    if origin is dict and len(args) == 2:
        inner = _describe_type(args[1])
        return f"a table whose values are {inner}" if inner else "a table"
    return None


def _expected(err: Any) -> str:
    """'unknown key' (with the valid keys) or 'expected <type> (found <type>)'."""
    kind = str(err.get("type", ""))
    loc = tuple(err.get("loc", ()))
    if kind == "extra_forbidden":
        parent = _annotation_at(loc[:-1])
        known = list(parent.model_fields) if isinstance(parent, type) and issubclass(parent, BaseModel) else []
        message = "unknown key"
        close = difflib.get_close_matches(str(loc[-1]), known, n=1) if loc else []
        if close:
            message += f"; did you mean '{close[0]}'?"
        if known:
            message += " (valid keys: " + ", ".join(known) + ")"
        return message
    # The type found, never the value: a configuration may hold what is not toolsense's to print (a token in a
    # file someone made the project's configuration), and messages reach CI logs and the editor.
    value = err.get("input")
    found = "found null" if value is None else f"found {toml_type_name(value)}"
    described = _describe_type(_annotation_at(loc))
    if kind.endswith("_type") or kind.endswith("_parsing") or kind in ("literal_error", "enum") or described is None:
        if described is not None:
            return f"expected {described} ({found})"
        return f"{err.get('msg', 'invalid value')} ({found})"
    message = str(err.get("msg", "invalid value"))
    return f"expected {described}, {message[:1].lower()}{message[1:]} ({found})"


def settings_from_mapping(data: Any, source: str) -> tuple[Settings, list[SettingsProblem]]:
    """Validate a raw mapping; invalid keys fall back to defaults and are reported, never raised."""
    if data is None:
        return Settings(), []
    if not isinstance(data, dict):
        return Settings(), [SettingsProblem(source, "<root>", f"expected a table/object, got {type(data).__name__}")]
    working: dict[str, Any] = _deep_copy(data)
    problems: list[SettingsProblem] = []
    settings = Settings()
    for _attempt in range(50):
        try:
            # Strict JSON-mode validation: TOML and LSP settings are typed, so `trusted = "yes"` or
            # `debounce_ms = "100"` is a wrong type to report, not a string to coerce.
            settings = Settings.model_validate_json(json.dumps(working, default=str), strict=True)
            break
        except ValidationError as error:
            for err in error.errors():
                loc = tuple(err["loc"])
                key = ".".join(str(p) for p in loc)
                message = _expected(err)
                if loc == ("trusted",):
                    message += "; treated as false (not trusted)"
                problems.append(SettingsProblem(source, key, message))
                if loc:
                    _drop(working, loc)
                else:
                    return Settings(), problems
    if "trusted" in data and data["trusted"] is not True:
        # Trust fails closed: `"false"`, `0`, `null` or `"yes"` are not the boolean true.
        settings = settings.model_copy(update={"trusted": False})
    return settings, problems


def client_trust(options: Any) -> bool | None:
    """A client's `trusted` option: None when it sends none (the client does not manage trust), True only for
    the boolean true; anything else (false, `"false"`, `0`, `null`) is not trusted."""
    if not isinstance(options, dict) or "trusted" not in options:
        return None
    return options["trusted"] is True


def _deep_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value


def load_config_file(path: Path) -> tuple[Settings, list[SettingsProblem]]:
    """Read settings from a toolsense.toml or pyproject.toml; unreadable or refused files raise ConfigFileError."""
    return settings_from_mapping(read_config_section(path), str(path))
