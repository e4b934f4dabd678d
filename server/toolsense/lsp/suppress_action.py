"""The quick fix "Suppress TS220 for this tool": it writes the suppression the file allows.

- A file that takes comments (a `.jsonc` file, or one that has a comment already): a `// toolsense-ignore TS220`
  line above the tool, or the code added to such a line that is there.
- Plain JSON: `TS220` under the tool's name in the settings' `ignore` table for this file — in the
  configuration file the server reads (`toolsense.toml`, or `[tool.toolsense]` of `pyproject.toml`), else in a
  new `toolsense.toml` at the workspace root (a `CreateFile` for clients that can create files).
- A security rule (`Catalog.security_codes`): the settings, whatever the file takes, since a comment in the file
  does not suppress it (`engine.suppression`).

The TOML is edited as text (the standard library reads TOML but does not write it): one line inserted or one
array extended, and the result read back with `tomllib`, so an action is only offered when its edit is right.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from ..config_files import config_link_reason
from ..document.jsontree import locate
from ..document.outline import LightNode
from ..engine.suppression import IGNORE_MARK
from ..engine.units import root_value

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

if TYPE_CHECKING:
    from ..document.document import Document
    from ..engine.checker import Diagnostic
    from .edit_support import EditSupport

_CODES_AT_END = re.compile(r"toolsense-ignore(?:[\s,]+TS\d{3}\b)+")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_TABLE_HEADER = re.compile(r"^\s*\[([^\[\]]+)\]\s*(?:#.*)?$")
_COMMENT_STARTS = (b"//", b"/*")


def title(code: str) -> str:
    return f"Suppress {code} for this tool"


def takes_comments(document: Document, uri: str) -> bool:
    """A `.jsonc` file, or one whose text has a comment already (its readers accept them)."""
    if uri.lower().endswith(".jsonc"):
        return True
    if isinstance(document.outline, LightNode):
        return False  # read from its light outline: strict JSON (and no tree is parsed for a large file)
    data = document.data
    for start in _COMMENT_STARTS:
        at = data.find(start)
        for _ in range(50):  # a few occurrences inside strings ("https://…") before a real comment
            if at < 0:
                break
            node = document.root.descendant_for_byte_range(at, at + 2)
            if node is not None and node.type == "comment":
                return True
            at = data.find(start, at + 2)
    return False


def comment_edit(document: Document, diagnostic: Diagnostic) -> tuple[int, int, str] | None:
    """Bytes `[start, end)` to replace and the text: a comment line above the tool, or the code added to one."""
    subject, finding = diagnostic.subject, diagnostic.finding
    base = root_value(document.root)
    if subject is None or finding is None or base is None or not subject.name:
        return None
    unit_pointer = finding.pointer[: len(finding.pointer) - len(subject.pointer)]
    location = locate(base, unit_pointer)
    if not location.complete:
        return None
    start = (location.key if location.key is not None else location.value).start_byte
    data = bytes(document.data)
    line_start = max(data.rfind(b"\n", 0, start), data.rfind(b"\r", 0, start)) + 1
    if line_start > 0:  # a comment alone on the line above: add the code to it
        previous_start = max(data.rfind(b"\n", 0, line_start - 1), data.rfind(b"\r", 0, line_start - 1)) + 1
        previous = data[previous_start:line_start].decode("utf-8", "replace").rstrip("\r\n")
        listed = _CODES_AT_END.search(previous)
        if listed is not None and previous.lstrip().startswith(("//", "/*")):
            end = previous_start + len(previous[: listed.end()].encode("utf-8"))
            return end, end, f", {diagnostic.code}"
    indent = re.match(rb"[ \t]*", data[line_start:start])
    spaces = indent.group().decode() if indent is not None else ""
    newline = "\r\n" if b"\r\n" in data[:4096] else "\n"
    return line_start, line_start, f"{spaces}// {IGNORE_MARK} {diagnostic.code}{newline}"


@dataclass(frozen=True)
class TomlEdit:
    path: Path
    exists: bool
    line: int
    """Where the text goes: at the start of this line (0-based), or the end of the file when past its end."""
    start_character: int
    end_character: int
    text: str


def literal_glob(path: Path, folder: Path) -> str | None:
    """The file's path relative to the configuration's folder, as a glob matching only it (`*`, `?` and `[`
    in a name bracketed); None for a file outside that folder."""
    try:
        relative = path.resolve().relative_to(folder).as_posix()
    except ValueError:
        return None
    return re.sub(r"[*?\[]", lambda m: f"[{m.group()}]", relative)


def _key(text: str) -> str:
    return text if _BARE_KEY.fullmatch(text) else json.dumps(text, ensure_ascii=False)


def _ignore_of(data: dict[str, Any], pyproject: bool) -> Any:
    section = data.get("tool", {}).get("toolsense", {}) if pyproject else data
    return section.get("ignore") if isinstance(section, dict) else None


def settings_edit(config: Path, relative: str, tool: str, code: str) -> TomlEdit | None:
    """The edit that adds `code` for `tool` under `[ignore."<relative>"]` of the configuration file."""
    pyproject = config.name == "pyproject.toml"
    prefix = "tool.toolsense.ignore" if pyproject else "ignore"
    header = f"[{prefix}.{_key(relative)}]"
    entry = f"{_key(tool)} = [{json.dumps(code)}]"
    if config_link_reason(config) is not None:
        return None  # never an edit through a link: the editor would write wherever it leads
    if not config.exists():
        return TomlEdit(config, False, 0, 0, 0, f"{header}\n{entry}\n")
    try:
        text = config.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    lines = text.split("\n")
    table = (_ignore_of(data, pyproject) or {}).get(relative)
    edit: TomlEdit | None = None
    if isinstance(table, dict) and code in table.get(tool, ()):
        return None  # already there
    wanted = ["tool", "toolsense", "ignore", relative] if pyproject else ["ignore", relative]
    at = next((i for i, line in enumerate(lines) if _header_path(line) == wanted), None)
    if at is None:
        last = lines[-1]
        separator = "" if text.endswith("\n\n") or not text else ("\n" if text.endswith("\n") else "\n\n")
        edit = TomlEdit(config, True, len(lines) - 1, len(last), len(last), f"{separator}{header}\n{entry}\n")
    elif isinstance(table, dict) and tool in table:
        for i in range(at + 1, len(lines)):
            if _header_path(lines[i]) is not None:
                break
            match = re.match(rf"^\s*{re.escape(_key(tool))}\s*=\s*\[(.*)\]\s*(?:#.*)?$", lines[i])
            if match is not None:
                close = match.end(1)
                addition = f", {json.dumps(code)}" if match.group(1).strip() else json.dumps(code)
                edit = TomlEdit(config, True, i, close, close, addition)
                break
    else:
        edit = TomlEdit(config, True, at + 1, 0, 0, f"{entry}\n")
    return edit if edit is not None and _adds(text, edit, pyproject, relative, tool, code) else None


def _header_path(line: str) -> list[str] | None:
    match = _TABLE_HEADER.match(line)
    if match is None:
        return None
    try:
        parsed: Any = tomllib.loads(f"[{match.group(1)}]\n")
    except tomllib.TOMLDecodeError:
        return None
    path: list[str] = []
    while isinstance(parsed, dict) and len(parsed) == 1:
        key = next(iter(parsed))
        path.append(key)
        parsed = parsed[key]
    return path


def _adds(text: str, edit: TomlEdit, pyproject: bool, relative: str, tool: str, code: str) -> bool:
    """Whether the edited text is TOML and has `code` under the tool (the edit is checked, never trusted)."""
    lines = text.split("\n")
    if edit.line >= len(lines):
        return False
    line = lines[edit.line]
    lines[edit.line] = line[: edit.start_character] + edit.text + line[edit.end_character :]
    try:
        ignore = _ignore_of(tomllib.loads("\n".join(lines)), pyproject)
    except tomllib.TOMLDecodeError:
        return False
    table = ignore.get(relative) if isinstance(ignore, dict) else None
    return isinstance(table, dict) and code in table.get(tool, ())


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def toml_workspace_edit(edit: TomlEdit, support: EditSupport, create_files: bool) -> types.WorkspaceEdit | None:
    uri = edit.path.as_uri()
    if not edit.exists:
        if not (support.document_changes and create_files):
            return None
        insert = types.TextEdit(types.Range(types.Position(0, 0), types.Position(0, 0)), edit.text)
        identifier = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=None)
        return types.WorkspaceEdit(
            document_changes=[
                types.CreateFile(uri=uri, options=types.CreateFileOptions(ignore_if_exists=True)),
                types.TextDocumentEdit(identifier, [insert]),
            ]
        )
    line = edit.path.read_text(encoding="utf-8").split("\n")[edit.line]
    start = types.Position(edit.line, _utf16(line[: edit.start_character]))
    end = types.Position(edit.line, _utf16(line[: edit.end_character]))
    change = types.TextEdit(types.Range(start, end), edit.text)
    if support.document_changes:
        identifier = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=None)
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(identifier, [change])])
    return types.WorkspaceEdit(changes={uri: [change]})
