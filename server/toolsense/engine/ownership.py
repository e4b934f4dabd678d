"""The one decision whether content is ours: evidence for, evidence against, a threshold and vetoes.

Two questions, answered here and nowhere else (`detect`, `claim`, `recovery`, `records` and `units` ask them):

**Is this object a tool of this dialect?** (`tool_verdict`, asked by `detect` once a dialect's keys matched)

| signal | weight | |
|---|---|---|
| the dialect's schema key holds an object (`parameters`, `input_schema`, `inputSchema`, …) | +2 | for |
| `name` is a string | +1 | for |
| `description` is a string | +1 | for |
| `description` or `name` present with another JSON type (the dialect fixes it to a string) | −1 each | against |
| `id` (no tool dialect has one; a record of some other program does) | −1 | against |
| `type` names something else (`"guardrail"`; not the dialect's own value, nor a near miss of it) | veto | |

The object is a tool of the dialect when nothing vetoes it and the evidence for outweighs the evidence against
(`for > against`). A near miss (`"functon"`) is a typo in a tool, reported, not a veto.

**May a file that does not parse be claimed?** (`broken_file_owner`, asked by `units.split`)

Error recovery finds tool-shaped fragments in anything (a pasted chat transcript, a Python `repr` of a
`tools/list` result, a Go template), so fragments alone never claim a file. A file with syntax errors is ours
only when one of these says so; without one it gets at most one note (TS007), and only when its fragments look
like ours:

| authority | where it comes from |
|---|---|
| settings | a glob of `[tool.toolsense.files]` forces a kind (the caller's `kind_hint`) |
| `$schema` | the root object's `$schema` names one of our schemas (`units.schema_kind`) |
| file name | a name only our formats use: the default file-name globs (`*.tools.json`, …), an MCP configuration's |
| history | the same open document parsed cleanly and was claimed before (`Document.claimed_kind`) |

A default *folder* glob (`**/tools/*.json`) lowers the bar for a clean file but is no authority for a broken one:
folders of that name hold all sorts of text.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import unquote, urlparse

from ..models.dialects import Dialect
from ..settings import DEFAULT_AUTOMATION_GLOBS, DEFAULT_TOOL_CALL_GLOBS, DEFAULT_TOOL_GLOBS
from .config_dialects import MCP_ONLY_FILE_NAMES, SERVER_JSON
from .regexes import glob_any

SCHEMA_KEYS: dict[Dialect, tuple[str, ...]] = {
    Dialect.OPENAI_FLAT: ("parameters",),
    Dialect.GEMINI: ("parameters", "parametersJsonSchema", "parameters_json_schema"),
    Dialect.ANTHROPIC: ("input_schema",),
    Dialect.MCP: ("inputSchema",),
}
"""The dialects whose own keys `tool_verdict` weighs, with the key that holds each one's input schema."""

OWN_TYPES: dict[Dialect, frozenset[str | None]] = {
    Dialect.OPENAI_FLAT: frozenset({None, "function"}),
    Dialect.GEMINI: frozenset({None, "function"}),
    Dialect.ANTHROPIC: frozenset({None, "custom", "function"}),
    Dialect.MCP: frozenset({None}),
}
"""The values of `type` each dialect's tool may carry (`function` beside `input_schema` is a mistake reported in
a tool, not another thing)."""

_NEAR_MISS = 0.75
"""How alike a `type` must be to one of the dialect's own values to be a typo of it rather than another thing."""


@dataclass(frozen=True)
class Verdict:
    """Evidence for and against one reading of an object, and what vetoed it (None: nothing)."""

    evidence_for: int
    evidence_against: int
    veto: str | None = None

    @property
    def claimed(self) -> bool:
        return self.veto is None and self.evidence_for > self.evidence_against


def tool_verdict(value: Mapping[str, Any], dialect: Dialect) -> Verdict:
    """Whether `value` (a decoded object or a `detect.skeleton`) is a tool of `dialect`, by the table above."""
    keys = SCHEMA_KEYS.get(dialect)
    if keys is None:
        return Verdict(1, 0)  # a dialect whose keys are unambiguous (`toolSpec`, `function`): nothing to weigh
    for_ = against = 0
    if any(isinstance(value.get(key), Mapping) for key in keys):
        for_ += 2
    for member in ("name", "description"):
        if member in value:
            if isinstance(value[member], str):
                for_ += 1
            else:
                against += 1
    if "id" in value:
        against += 1
    kind = value.get("type")
    own = OWN_TYPES[dialect]
    if kind not in own and not _near_miss(kind, own):
        return Verdict(for_, against, f"`type` is {kind!r}")
    return Verdict(for_, against)


def _near_miss(kind: Any, own: frozenset[str | None]) -> bool:
    """A `type` that is a misspelling of one of the dialect's own values (a typo to report, not another thing)."""
    if not isinstance(kind, str):
        return False
    lowered = kind.lower()
    return any(
        isinstance(value, str) and difflib.SequenceMatcher(None, lowered, value).ratio() >= _NEAR_MISS for value in own
    )


Authority = Literal["settings", "$schema", "file name", "history"]


def broken_file_owner(forced: bool, schema_named: bool, name_says: bool, claimed_before: bool) -> Authority | None:
    """What may claim a file that does not parse (the second table above); None: nothing, the file is not ours."""
    if forced:
        return "settings"
    if schema_named:
        return "$schema"
    if name_says:
        return "file name"
    if claimed_before:
        return "history"
    return None


_KIND_WORDS = {
    "tool": "tool definitions",
    "automation": "an automation",
    "tool_call": "tool calls",
    "mcp_config": "an MCP configuration",
}
_NAME_GLOBS = tuple(
    g for g in (*DEFAULT_TOOL_GLOBS, *DEFAULT_AUTOMATION_GLOBS, *DEFAULT_TOOL_CALL_GLOBS) if g.startswith("**/*.")
)
"""The default globs by file name (`**/*.tools.json`), not by folder (`**/tools/*.json`)."""


def uri_path(uri: str) -> str | None:
    """The file system path of a `file:` URI (settings globs match paths); None for other schemes (a buffer)."""
    if not uri.startswith("file:"):
        return None
    return unquote(urlparse(uri).path)


def name_says(path: str | None) -> bool:
    """Whether the file's name is one only our formats use (a default file-name glob, an MCP configuration's
    name): an authority for a file that does not parse, where a folder glob is not."""
    if path is None:
        return False
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return name in MCP_ONLY_FILE_NAMES or name == SERVER_JSON or glob_any("/" + name, _NAME_GLOBS)


def broken_note(kind: str) -> str:
    """The one note a file that does not parse gets when its fragments look like ours but nothing says it is."""
    return (
        f"Not checked: the file does not parse as JSON, and although parts of it look like {_KIND_WORDS[kind]}, "
        "nothing "
        "says it is ours (no setting, no `$schema`, no earlier clean version in the editor); fix its syntax, or add "
        "its path to [tool.toolsense.files] to have its errors reported"
    )
