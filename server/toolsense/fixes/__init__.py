"""Quick fixes: a finding's `Fix` (data) turned into formatting-preserving byte edits, for both front doors."""

from .edits import (
    CLOSE_OBJECTS_TITLE,
    Composed,
    FixOutcome,
    NotApplicable,
    TextEdit,
    apply_edits,
    apply_fixes_to_workspace,
    choose_fix,
    close_objects_fix,
    edits_for_fix,
    fix_document,
    locate_pointer,
    open_object_schemas,
    unified_diff,
)

__all__ = [
    "CLOSE_OBJECTS_TITLE",
    "Composed",
    "FixOutcome",
    "NotApplicable",
    "TextEdit",
    "apply_edits",
    "apply_fixes_to_workspace",
    "choose_fix",
    "close_objects_fix",
    "edits_for_fix",
    "fix_document",
    "locate_pointer",
    "open_object_schemas",
    "unified_diff",
]
