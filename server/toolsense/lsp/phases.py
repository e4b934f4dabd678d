"""The phases of an open document's check, the events that move them, and how long a check waits.

Each open document is in one `Phase` (`state.py`); events move it, and nothing else does (`advance`; R_ stands
for RUNNING_):

    phase \\ event EDIT       INVALIDATE CONTEXT     FAST        CHECKED STARTED FINISHED    DROPPED  FAILED
    OUTDATED      OUTDATED   OUTDATED   OUTDATED    -           CURRENT RUNNING -           -        -
    EDITED        EDITED     OUTDATED   EDITED      PROVISIONAL CURRENT RUNNING -           -        -
    PROVISIONAL   EDITED     OUTDATED   PROVISIONAL -           CURRENT RUNNING -           -        -
    CURRENT       EDITED     OUTDATED   PROVISIONAL -           CURRENT RUNNING -           -        -
    FAILED        EDITED     OUTDATED   OUTDATED    -           CURRENT RUNNING -           -        -
    RUNNING       R_EDITED   R_OUTDATED R_STALE     -           -       -       CURRENT     OUTDATED FAILED
    R_EDITED      R_EDITED   R_OUTDATED R_EDITED    R_EDITED    -       -       -           EDITED   EDITED
    R_OUTDATED    R_OUTDATED R_OUTDATED R_OUTDATED  -           -       -       OUTDATED    OUTDATED OUTDATED
    R_STALE       R_EDITED   R_OUTDATED R_STALE     -           -       -       PROVISIONAL OUTDATED OUTDATED

- EDIT: ranged edits moved the text, the unit index and the diagnostics (`DocumentStore.change`);
- INVALIDATE: the whole text was replaced, or the settings or models changed;
- CONTEXT: the registry changed (another file's tools): the text and the diagnostics' positions did not, so the
  keystroke fast path may still answer (with the new registry) while the full check is due;
- FAST: the keystroke fast path checked the one unit the edits touched and published (`check_units`);
- CHECKED: a full check ran in place; STARTED: one started in the background (large documents);
- FINISHED: the background result was adopted (it was for the current version); DROPPED: it was for an older
  text (never published); FAILED: the background check failed (a crash is logged; nothing more is tried until
  the text or the context changes, so a pull never waits on a check that cannot succeed).

A check is due whenever the phase is not CURRENT (or FAILED); a debounce timer (`schedule`) runs it. Its delay
comes from one formula (`delay_ms`): the configured debounce after an edit (longer during an edit storm), at
least `SETTLE_MS` before the full check that follows a fast one, at least `REGISTRY_SETTLE_MS` before re-checking
documents that read a changed registry, at once otherwise. When a background check ends in any phase but
CURRENT, the check runs again.
"""

from __future__ import annotations

import enum
import logging

from .state import OpenDocument, Phase

log = logging.getLogger(__name__)

SETTLE_MS = 300
"""The full check follows the last fast check after at least this long (or the debounce, if longer)."""
REGISTRY_SETTLE_MS = 250
"""Documents that depend on a changed tool are checked again this long after the last change at the earliest."""
MAX_ADAPTIVE_DEBOUNCE_MS = 1000.0
"""The debounce after an edit is at least the last keystroke check's duration, up to this."""


class Event(enum.Enum):
    EDIT = "edit"
    INVALIDATE = "invalidate"
    CONTEXT = "context"
    FAST = "fast"
    CHECKED = "checked"
    STARTED = "started"
    FINISHED = "finished"
    DROPPED = "dropped"
    FAILED = "failed"


_P, _E = Phase, Event
_IDLE = {_E.EDIT: _P.EDITED, _E.INVALIDATE: _P.OUTDATED, _E.CHECKED: _P.CURRENT, _E.STARTED: _P.RUNNING}
TRANSITIONS: dict[Phase, dict[Event, Phase]] = {
    _P.OUTDATED: {**_IDLE, _E.EDIT: _P.OUTDATED, _E.CONTEXT: _P.OUTDATED},
    _P.EDITED: {**_IDLE, _E.FAST: _P.PROVISIONAL, _E.CONTEXT: _P.EDITED},
    _P.PROVISIONAL: {**_IDLE, _E.CONTEXT: _P.PROVISIONAL},
    _P.CURRENT: {**_IDLE, _E.CONTEXT: _P.PROVISIONAL},
    _P.FAILED: {**_IDLE, _E.CONTEXT: _P.OUTDATED},
    _P.RUNNING: {
        _E.EDIT: _P.RUNNING_EDITED,
        _E.INVALIDATE: _P.RUNNING_OUTDATED,
        _E.CONTEXT: _P.RUNNING_STALE,
        _E.FINISHED: _P.CURRENT,
        _E.DROPPED: _P.OUTDATED,
        _E.FAILED: _P.FAILED,
    },
    _P.RUNNING_EDITED: {
        _E.EDIT: _P.RUNNING_EDITED,
        _E.INVALIDATE: _P.RUNNING_OUTDATED,
        _E.CONTEXT: _P.RUNNING_EDITED,
        _E.FAST: _P.RUNNING_EDITED,
        _E.DROPPED: _P.EDITED,
        _E.FAILED: _P.EDITED,
    },
    _P.RUNNING_OUTDATED: {
        _E.EDIT: _P.RUNNING_OUTDATED,
        _E.INVALIDATE: _P.RUNNING_OUTDATED,
        _E.CONTEXT: _P.RUNNING_OUTDATED,
        _E.FINISHED: _P.OUTDATED,
        _E.DROPPED: _P.OUTDATED,
        _E.FAILED: _P.OUTDATED,
    },
    _P.RUNNING_STALE: {_E.EDIT: _P.RUNNING_EDITED, _E.INVALIDATE: _P.RUNNING_OUTDATED, _E.CONTEXT: _P.RUNNING_STALE}
    | {_E.FINISHED: _P.PROVISIONAL, _E.DROPPED: _P.OUTDATED, _E.FAILED: _P.OUTDATED},
}
"""The table in the module docstring."""
RUNNING_PHASES = (Phase.RUNNING, Phase.RUNNING_EDITED, Phase.RUNNING_OUTDATED, Phase.RUNNING_STALE)


def advance(od: OpenDocument, event: Event) -> Phase:
    """Move the document to its next phase; an event its phase does not expect forces a full check."""
    following = TRANSITIONS[od.phase].get(event)
    if following is None:
        log.error("unexpected %s in phase %s of %s", event.name, od.phase.name, od.uri)
        following = Phase.OUTDATED
    od.phase = following
    return following


def delay_ms(reason: str, od: OpenDocument, debounce_ms: float) -> float:
    """How long a check for this reason waits (the one debounce formula)."""
    if reason == "edit":
        if od.edit_gap_ms < od.edit_check_ms:
            # Edits arrive faster than a check takes (an edit storm on a large file): wait at least as long as
            # the last keystroke check took (bounded), so the burst is checked once rather than once per edit
            # while requests queue behind the checks. Ordinary typing keeps the configured debounce.
            return max(debounce_ms, min(od.edit_check_ms, MAX_ADAPTIVE_DEBOUNCE_MS))
        return debounce_ms
    if reason == "settle":
        return max(debounce_ms, SETTLE_MS)
    if reason == "registry":
        # Typing in a tool file changes the registry on every keystroke: let dependents settle first.
        return max(debounce_ms, REGISTRY_SETTLE_MS)
    return 0.0
