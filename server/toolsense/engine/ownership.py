"""The one decision whether content is ours: evidence for, evidence against, a threshold and vetoes.

The questions below are answered here and nowhere else (`detect`, `claim`, `recovery`, `records` and `units` ask
them); the readers gather the evidence (a few keys of each sampled object, never a walk of a whole file):

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

**Is an array, a wrapper's list or a file of JSON Lines ours?** (`members_claimed`, asked by
`claim.Claimer.elements`, `claim.conversation` and `records.claim_records`; the first 16 members are the sample,
so a large file of something else is never read line by line)

| evidence | |
|---|---|
| sampled members recognised (a tool, call or automation of a dialect; a record; a message with a `role`) | for |
| the other sampled objects | against |
| the list is known to hold units (`tools`, `functions`, `functionDeclarations`, `automations`) | one for: enough |
| a bare array, JSON Lines, a cassette's `interactions`, a chat transcript | for ≥ 1 and for ≥ against (half) |

Settings that force a kind claim every member without weighing. A name-keyed map (`{"get_weather": {…}}`,
`map_claimed`) is ours when every sampled value is a tool whose own keys name a dialect, all of them the same one.

**Vetoes of a whole object**, asked before any reading of it is weighed:

| veto | asked by |
|---|---|
| `type: "function"` beside `inputSchema` (`foreign_tool`): another framework's tool (the Vercel AI SDK's) | `detect` |
| a provider's response (`"object": "response"`, …; `provider_echo`): it echoes the tools it accepted | `claim` |

The framework converts its tool before any provider sees it; a provider's echo is proof the tools are valid, not
ours to judge (unless settings force the kind).

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
folders of that name hold all sorts of text. What a broken file holds (`broken_file_kind`, asked by
`recovery.recover`): what its fragments claim, else what its complete top-level members say, else the kind its
folder glob or the document's history gave.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import unquote, urlparse

from ..models.dialects import Dialect
from ..settings import DEFAULT_AUTOMATION_GLOBS, DEFAULT_TOOL_CALL_GLOBS, DEFAULT_TOOL_GLOBS
from .config_dialects import MCP_ONLY_FILE_NAMES, SERVER_JSON
from .regexes import glob_any
from .unit_kinds import UnitKind

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


def members_claimed(recognised: int, sampled: int, container: bool) -> bool:
    """Whether a list's sampled members make it ours (the third table): `recognised` of `sampled` objects;
    `container`: the list is one known to hold units, where one recognised member is enough."""
    if recognised == 0:
        return False
    return container or recognised >= sampled - recognised


def map_claimed(sampled: Iterable[Dialect | None], dialects: set[Dialect]) -> bool:
    """Whether a name-keyed map is ours: every sampled value a tool whose keys name a dialect (None: a value that
    is not), and all the map's tools of one dialect."""
    return all(dialect is not None for dialect in sampled) and len(dialects) == 1


def foreign_tool(value: Mapping[str, Any]) -> str | None:
    """The veto of an object with an MCP tool's `inputSchema` that says it is another framework's (None: none)."""
    if value.get("type") == "function" and isinstance(value.get("inputSchema"), Mapping):
        return "`type` is \"function\" beside `inputSchema`: another framework's tool (the Vercel AI SDK's)"
    return None


PROVIDER_OBJECTS = frozenset({"response", "assistant", "thread.run", "realtime.session"})
"""The `object` of what a provider sends back (a Responses `response`, an Assistants `assistant`, a run, a
Realtime session): the tools it echoes are the ones it accepted, proof that they are valid, so not ours to judge."""


def provider_echo(value: Mapping[str, Any]) -> bool:
    """Whether this object is a provider's response that echoes the tools it was given (a veto of its tools)."""
    return value.get("object") in PROVIDER_OBJECTS


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


def broken_file_kind(
    fragments: UnitKind | None, members: UnitKind | None, fallback: UnitKind | None
) -> UnitKind | None:
    """What a file that does not parse holds: what its complete fragments claim, else what its complete top-level
    members say, else the kind a folder glob or the document's history gave (None: nothing says)."""
    return fragments or members or fallback


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
