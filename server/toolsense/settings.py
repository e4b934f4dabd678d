"""Typed settings, validated once.

The same keys come from `[tool.toolsense]` in `pyproject.toml`, from `toolsense.toml`, and from an LSP client's
`initializationOptions` / `workspace/configuration`. A bad value never crashes anything: `load_settings`
returns the defaults for the keys that failed plus one readable problem per key.
"""

from __future__ import annotations

import difflib
import json
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from .jsonvalue import json_type_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

SeverityName = Literal["error", "warning", "information", "hint", "off"]
McpVersionName = Literal["2025-06-18", "2025-11-25", "2026-07-28"]
ProfileName = Literal[
    "anthropic", "anthropic-strict", "openai", "openai-strict", "gemini", "mcp", "mcp-quality", "mcp-security"
]
DialectName = Literal["openai", "openai-flat", "anthropic", "mcp", "gemini", "bedrock"]
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
    """'unknown key' (with the valid keys) or 'expected <type> (found <type>: <value>)'."""
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
    value = err.get("input")
    found = "found null" if value is None else f"found {toml_type_name(value)}: {value!r}"
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


CONFIG_NAMES = ("toolsense.toml", "pyproject.toml")


@dataclass(frozen=True)
class ConfigSearch:
    """Where configuration was found, and what was deliberately not read (each with the reason)."""

    path: Path | None
    skipped: tuple[str, ...] = ()
    outside_workspace: bool = False
    """Found above the workspace folder (inside the same repository): its settings apply, but it does not make
    toolsense import user code."""


def _config_in(folder: Path) -> Path | None:
    """`toolsense.toml`, or a `pyproject.toml` with a `[tool.toolsense]` table, in folder."""
    candidate = folder / "toolsense.toml"
    if candidate.is_file():
        return candidate
    pyproject = folder / "pyproject.toml"
    if pyproject.is_file():
        try:
            data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            return None
        if isinstance(data.get("tool"), dict) and "toolsense" in data["tool"]:
            return pyproject
    return None


def untrusted_reason(path: Path) -> str | None:
    """Why a folder or configuration file must not be obeyed: writable by every user (a sticky bit does not
    help: anyone may still create a file there), or owned by another user (root excepted: root can change
    anything anyway). None when it is ours."""
    if not hasattr(os, "geteuid"):  # pragma: no cover - no POSIX ownership (Windows)
        return None
    try:
        st = path.stat()
    except OSError as error:
        return f"cannot be inspected ({error.strerror})"
    kind = "folder" if stat.S_ISDIR(st.st_mode) else "file"
    if st.st_mode & stat.S_IWOTH:
        return f"the {kind} {path} is writable by every user"
    if st.st_uid not in (os.geteuid(), 0):
        return f"the {kind} {path} belongs to another user (uid {st.st_uid})"
    return None


def repository_root(start: Path) -> Path | None:
    """The nearest folder at or above start that holds `.git` (a folder, or a worktree's file), reached through
    folders that are ours only (a `.git` planted in /tmp makes nothing a repository)."""
    for folder in (start, *start.parents):
        if untrusted_reason(folder) is not None:
            return None
        if (folder / ".git").exists():
            return folder
    return None


def discover_config(start: Path, workspace: Path | None = None) -> ConfigSearch:
    """The configuration for start (a file or folder), searched upward from its resolved folder.

    The search never leaves the project: it stops at the repository root (a folder holding `.git`) when start
    is inside one, else at `workspace` (the folder the server was given) or, without one (the CLI), at the home
    folder. A configuration file that belongs to another user or lies in or is writable by every
    user, or a folder of that kind on the way, ends the search: it is reported in `skipped`, never read.
    A `toolsense.toml` further up that was not read is reported too, so nothing is ignored silently."""
    here = start.resolve()
    if not here.is_dir():
        here = here.parent
    own = workspace.resolve() if workspace is not None else None
    boundary = repository_root(here) or (own if own is not None and own in (here, *here.parents) else _top(here))
    skipped: list[str] = []
    for folder in (here, *here.parents):
        reason = untrusted_reason(folder)
        candidate = _config_in(folder)
        if reason is None and candidate is not None:
            reason = untrusted_reason(candidate)
        if reason is not None:
            if candidate is not None:
                skipped.append(f"{candidate} is not read: {reason}")
            return ConfigSearch(None, tuple(skipped))
        if candidate is not None:
            outside = own is not None and folder != own and folder in own.parents
            return ConfigSearch(candidate, tuple(skipped), outside)
        if folder == boundary:
            break
    skipped.extend(_beyond(boundary))
    return ConfigSearch(None, tuple(skipped))


def _top(here: Path) -> Path:
    """Where a search outside any repository and workspace ends: the home folder when here lies in it, else the
    file-system root. Folders on the way are still checked one by one (`untrusted_reason`), so a world-writable
    or foreign folder ends the search before that."""
    home = Path.home().resolve()
    return home if home in (here, *here.parents) else Path(here.anchor)


def _beyond(boundary: Path) -> list[str]:
    """A `toolsense.toml` above the search's boundary (up to the home folder), named with the reason it is not
    read, so that nothing is ignored silently."""
    home = Path.home().resolve()
    if boundary == home:
        return []
    for folder in boundary.parents:
        if folder == folder.parent:
            return []
        reason = untrusted_reason(folder)
        candidate = folder / "toolsense.toml"
        if candidate.is_file():
            why = reason or (
                f"it is above {boundary}, outside the project (the search stops at the repository root, or "
                "without one at the folder checked); check or open that folder, or pass --config, to use it"
            )
            return [f"{candidate} is not read: {why}"]
        if reason is not None or folder == home:
            return []
    return []


def find_config_file(start: Path, workspace: Path | None = None) -> Path | None:
    """The configuration file for start (see `discover_config`), or None."""
    return discover_config(start, workspace).path


class ConfigFileError(Exception):
    """The configuration file cannot be read or parsed at all."""


def load_config_file(path: Path) -> tuple[Settings, list[SettingsProblem]]:
    """Read settings from a toolsense.toml or pyproject.toml; unreadable files raise ConfigFileError."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigFileError(f"{path}: cannot read configuration: {error}") from error
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigFileError(f"{path}: invalid TOML: {error}") from error
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        section = tool.get("toolsense", {}) if isinstance(tool, dict) else {}
    else:
        section = data
    return settings_from_mapping(section, str(path))
