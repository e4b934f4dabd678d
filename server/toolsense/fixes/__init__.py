"""Quick fixes: a finding's `Fix` (data) → formatting-preserving byte edits, one place for both front doors
(`toolsense check --fix` and the language server's code actions), so they cannot disagree.

- `text` — `TextEdit`, JSON and snippet literals, applying edits, whether the result still parses;
- `layout` — how the file is written (line endings, indentation step, spacing), so inserted text fits in;
- `edits` — one edit kind at a time (`ReplaceValue`, `RenameKey`, `RemoveMember`, `InsertMembers`, …) as byte
  edits, pointers placed by the document layer's locator;
- `plan` — `edits_for_fix` (None when a fix cannot apply or would break the JSON), `choose_fix`, and
  `fix_document`: every chosen fix of a file, non-overlapping ones together, re-checked to a fixed point;
- `close_objects` — the "add additionalProperties: false everywhere" source action.

Every result is re-parsed and refused when it would not be valid JSON.
"""

from .close_objects import CLOSE_OBJECTS_TITLE, close_objects_fix, open_object_schemas
from .plan import MAX_PASSES, Checker, Chooser, Composed, FixOutcome, choose_fix, edits_for_fix, fix_document
from .text import NotApplicable, TextEdit, apply_edits, json_string, snippet_escape

__all__ = [
    "CLOSE_OBJECTS_TITLE",
    "MAX_PASSES",
    "Checker",
    "Chooser",
    "Composed",
    "FixOutcome",
    "NotApplicable",
    "TextEdit",
    "apply_edits",
    "choose_fix",
    "close_objects_fix",
    "edits_for_fix",
    "fix_document",
    "json_string",
    "open_object_schemas",
    "snippet_escape",
]
