"""What a rule may know besides its unit: settings and the workspace's tools. No positions, no I/O."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from ..document.jsontree import Pointer
from ..settings import Settings
from .catalog import Catalog
from .equality import json_equal
from .filefacts import NO_FACTS, FileFacts
from .memo import TextMemo
from .schemas import closest

if TYPE_CHECKING:
    from ..usermodels import ModelRegistry


@dataclass(frozen=True)
class ToolInfo:
    """A tool known to the workspace: where it is defined and what it accepts and returns."""

    name: str
    uri: str
    pointer: Pointer
    name_pointer: Pointer
    dialect: str
    input_schema: dict[str, Any] | None
    output_schema: dict[str, Any] | None = None
    description: str | None = None
    schema_pointer: Pointer = ()
    source: str = "workspace"


@dataclass
class ToolRegistry:
    """The tools an automation or a tool call may name: tool files (open or on disk) and extra registries.

    `version` changes whenever the set of tools changes, so cached results that depend on it are dropped.
    """

    by_uri: dict[str, list[ToolInfo]] = field(default_factory=dict)
    version: int = 0
    samples: dict[str, Any] = field(default_factory=dict)
    """Sample outputs (settings `samples`): tool name (or `webhook:<service>:<event_type>`) -> decoded JSON."""
    live: dict[str, Any] = field(default_factory=dict)
    """What the editor learnt by running something when asked (a live MCP server's check summary), by key."""
    changes_by_uri: dict[str, int] = field(default_factory=dict, repr=False)
    """How many of the `version` bumps came from each file's tools (see `version_excluding`)."""
    _by_name: dict[str, list[ToolInfo]] | None = field(default=None, repr=False)
    _by_name_uri: dict[str, dict[str, list[ToolInfo]]] | None = field(default=None, repr=False)
    _names: tuple[str, ...] | None = field(default=None, repr=False)
    _name_sets: dict[str, frozenset[str]] | None = field(default=None, repr=False)

    def set_file(self, uri: str, tools: Iterable[ToolInfo]) -> bool:
        """Replace the tools of one file; True when that changed anything."""
        new = list(tools)
        if self.by_uri.get(uri, []) == new:
            return False  # none before and none now is no change (two tool-less files re-checked each other forever)
        if new:
            self.by_uri[uri] = new
        else:
            self.by_uri.pop(uri, None)
        self.version += 1
        self.changes_by_uri[uri] = self.changes_by_uri.get(uri, 0) + 1
        self._by_name = None
        self._by_name_uri = None
        self._names = None
        self._name_sets = None
        return True

    def version_excluding(self, uri: str) -> int:
        """The registry's version ignoring changes made by one file's own tools.

        A file's units read their own tools from the file itself; only other files' tools are outside
        knowledge. So a keystroke in a tool file that updates its own registry entry must not invalidate the
        cached results of every other unit of that same file (each keystroke would re-check them all).
        """
        return self.version - self.changes_by_uri.get(uri, 0)

    def remove_file(self, uri: str) -> bool:
        return self.set_file(uri, [])

    def set_samples(self, samples: dict[str, Any]) -> bool:
        """Replace the sample outputs; True when that changed anything (cached results are then dropped)."""
        if samples == self.samples:
            return False
        self.samples = dict(samples)
        self.version += 1
        return True

    def set_live(self, key: str, value: Any) -> None:
        """Remember a live result (cached results are dropped: rules read it)."""
        self.live = {**self.live, key: value}
        self.version += 1

    def _index(self) -> dict[str, list[ToolInfo]]:
        if self._by_name is None:
            index: dict[str, list[ToolInfo]] = {}
            for uri in sorted(self.by_uri):
                for tool in self.by_uri[uri]:
                    index.setdefault(tool.name, []).append(tool)
            self._by_name = index
        return self._by_name

    def lookup(self, name: str) -> ToolInfo | None:
        found = self._index().get(name)
        return found[0] if found else None

    def definitions(self, name: str) -> list[ToolInfo]:
        return list(self._index().get(name, []))

    def elsewhere(self, name: str, uri: str, limit: int, dialect: str | None = None) -> tuple[list[ToolInfo], int]:
        """The first `limit` definitions of `name` outside the file `uri`, and how many there are in all. Costs
        O(files defining the name + limit), not O(definitions): a file of 1,000 tools sharing one name asks
        this for each of them.

        With the dialect of the definition in `uri`: only those a call, an automation or one request could take
        for it. Deliberate copies are left out: a definition of another dialect (the same tools kept once per
        provider: a request goes to one), one in a file that holds the same set of tools (kept once per language
        or variant), and one with the same input schema (either reading of a call is the same)."""
        by_uri = self._uri_index().get(name, {})
        shown: list[ToolInfo] = []
        total = 0
        own = by_uri.get(uri, [])
        for other_uri, tools in by_uri.items():
            if other_uri == uri:
                continue
            if dialect is not None:
                if self._copies(uri, other_uri):
                    continue
                tools = [t for t in tools if t.dialect == dialect and not _same_schema(t, own)]
                if not tools:
                    continue
            total += len(tools)
            if len(shown) < limit:
                shown.extend(tools[: limit - len(shown)])
        return shown, total

    def _copies(self, uri: str, other: str) -> bool:
        """Whether two files hold (nearly) the same set of tool names: one set kept once per language or variant
        (at least two names, and four in five of the larger set shared)."""
        sets = self._name_sets
        if sets is None:
            sets = self._name_sets = {u: frozenset(t.name for t in tools) for u, tools in self.by_uri.items()}
        mine, theirs = sets.get(uri, frozenset()), sets.get(other, frozenset())
        shared = len(mine & theirs)
        return shared >= 2 and shared * 5 >= 4 * max(len(mine), len(theirs))

    def _uri_index(self) -> dict[str, dict[str, list[ToolInfo]]]:
        if self._by_name_uri is None:
            index: dict[str, dict[str, list[ToolInfo]]] = {}
            for uri in sorted(self.by_uri):
                for tool in self.by_uri[uri]:
                    index.setdefault(tool.name, {}).setdefault(uri, []).append(tool)
            self._by_name_uri = index
        return self._by_name_uri

    def names(self) -> list[str]:
        # Sorted once per change: a tool call or automation asks on every check (40,000 names in a large workspace).
        if self._names is None:
            self._names = tuple(sorted(self._index()))
        return list(self._names)

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        return closest(name, self._index(), limit=limit, cutoff=0.5)

    def dialects(self) -> frozenset[str]:
        """The dialects of the tools the registry holds (a call is judged only against tools of its kind)."""
        return frozenset(tool.dialect for tools in self.by_uri.values() for tool in tools)

    def tools_by_dependents(self) -> dict[str, list[str]]:
        """uri -> tool names it defines (for re-checking dependents when a file changes)."""
        return {uri: [t.name for t in tools] for uri, tools in self.by_uri.items()}


def _same_schema(tool: ToolInfo, own: list[ToolInfo]) -> bool:
    """Whether a definition elsewhere has the input schema of one of this file's definitions of the name."""
    return tool.input_schema is not None and any(json_equal(tool.input_schema, mine.input_schema) for mine in own)


Question = tuple[str, tuple[Any, ...]]
"""A question asked of a registry: the method's name and its arguments."""


@dataclass
class RecordingRegistry(ToolRegistry):
    """A registry that remembers every question a check asks of it, with the answer. A check made against it
    is the check against any registry that gives the same answers (`answers_alike`): worker processes check a
    file speculatively while the workspace is still being indexed, and keep the result when it holds."""

    asked: dict[Question, Any] = field(default_factory=dict, repr=False)

    def _ask(self, method: str, *args: Any) -> Any:
        answer = getattr(ToolRegistry, method)(self, *args)
        self.asked[(method, args)] = answer
        return answer

    def lookup(self, name: str) -> ToolInfo | None:
        return self._ask("lookup", name)  # type: ignore[no-any-return]

    def definitions(self, name: str) -> list[ToolInfo]:
        return self._ask("definitions", name)  # type: ignore[no-any-return]

    def elsewhere(self, name: str, uri: str, limit: int, dialect: str | None = None) -> tuple[list[ToolInfo], int]:
        return self._ask("elsewhere", name, uri, limit, dialect)  # type: ignore[no-any-return]

    def names(self) -> list[str]:
        return self._ask("names")  # type: ignore[no-any-return]

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        return self._ask("suggest", name, limit)  # type: ignore[no-any-return]

    def dialects(self) -> frozenset[str]:
        return self._ask("dialects")  # type: ignore[no-any-return]


def answers_alike(asked: dict[Question, Any], registry: ToolRegistry) -> bool:
    """Whether registry answers every recorded question as recorded (and holds no samples or live results,
    which a recording registry never has and rules read as attributes)."""
    if registry.samples or registry.live:
        return False
    return all(getattr(registry, method)(*args) == answer for (method, args), answer in asked.items())


@dataclass(frozen=True)
class CheckContext:
    settings: Settings
    registry: ToolRegistry
    uri: str = ""
    trusted: bool = True
    models: ModelRegistry | None = None
    """Registered user models when loaded; None otherwise."""
    facts: FileFacts = NO_FACTS
    """What the file being checked says about all its units (MCP version, sent as it is); set by the checker."""
    root_uri: str = ""
    """The workspace folder (LSP) or the current directory (CLI), for naming other files in messages."""
    catalog: Catalog = field(kw_only=True)
    """The rules and checks to run (`toolsense.rules.CATALOG`): given, so the engine never imports the rules."""
    memo: TextMemo = field(default_factory=TextMemo, kw_only=True, compare=False, repr=False)
    """What rules computed from a string during this check (the same texts recur across a file's tools)."""

    def display_path(self, uri: str) -> str:
        """Another file as messages name it: relative to the workspace root; else relative to the folder this
        file and that one share (never the bare file name, which two folders may both have)."""
        root = self.root_uri.rstrip("/") + "/"
        if self.root_uri and uri.startswith(root):
            return unquote(uri[len(root) :])
        mine, other = self.uri.split("/"), uri.split("/")
        shared = 0
        while shared < min(len(mine), len(other)) - 1 and mine[shared] == other[shared]:
            shared += 1
        return unquote("/".join(other[shared:]))

    def fingerprint(self) -> Fingerprint:
        """Changes whenever something a cached unit result depends on changes.

        From content and revision counters only: an object's address is reused once it is freed, so a new
        configuration could otherwise be mistaken for the one whose findings are cached.
        """
        models = 0 if self.models is None else self.models.serial
        return (settings_digest(self.settings), self.registry.version_excluding(self.uri), models, self.facts)


Fingerprint = tuple[str, int, int, FileFacts]
"""(settings digest, registry version, model-registry serial, file facts): see `CheckContext.fingerprint`."""


def settings_digest(settings: Settings) -> str:
    """A stable digest of the settings' content: equal settings give equal digests, whatever object holds them.
    (A few microseconds: the settings are small and this runs once per check, not per unit.)"""
    return hashlib.blake2b(settings.model_dump_json().encode("utf-8"), digest_size=16).hexdigest()
