"""User-supplied regular expressions, matched as ECMA-262 reads them, without ever hanging.

JSON Schema `pattern`, `patternProperties` and `propertyNames` come from files toolsense did not write, so
matching must be bounded whatever the pattern's shape. Each pattern is read once as ECMA-262 (`ecma_regex`:
JSON Schema's dialect, as V8 runs it) and spelled for one of two engines:

1. Patterns in the common subset (no back-references, no lookaround) run on RE2 (`google-re2`), whose matching
   time is linear in the text: no budget needed, the answer is exact (unless program size × text length is very
   large: see `_MAX_LINEAR_WORK`).
2. The rest (back-references, lookaround, a negated escape in a class, anything RE2 rejects) run on the `regex`
   module, spelled so that it gives ECMA's answers too (`$` only at the very end, `.` excluding line
   terminators, ASCII `\\d` `\\w` `\\b`, ECMA's `\\s`), with a time budget (`timeout=`), releasing the GIL
   while they run (`concurrent=True`): a pattern that backtracks catastrophically costs at most the budget and
   never freezes the event loop. `None` means "ran out of budget, not evaluated".

The budget is per match, and the matches of one unit and of one file also share a budget (`time_budget`): a
tool holding 400 strings that each exhaust the per-match budget costs the unit's budget once, not 400 times the
per-match one; when a shared budget is spent, the matches that remain are not run (`None`).

A pattern that is not ECMA-262 (`(?i)`, `(?P<n>…)`, `(?>…)`, `a++`) or that neither engine can run is not
evaluated: `compiles` says False, `search` None; the schema rules report the pattern, the value checks that
they were cut short. Where toolsense and V8 still differ is listed in tests/data/pattern_differential.json.
"""

from __future__ import annotations

import contextlib
import functools
import re
import time
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

import re2  # type: ignore[import-untyped]

from .ecma_regex import BACKTRACKING, RE2, Invalid, Unsupported, translate

DEFAULT_BUDGET_MS = 200


_SPENT_S = 1e-6
"""Left below a microsecond is spent (five charges of 20 ms leave 1e-17 of 100 ms, not nothing, in floats)."""


class RegexClock:
    """The time the backtracking engine may still spend on the matches that share this budget (a unit's, within
    its file's: `parent`). Charged with the time each match took; spent, it lets no further match run."""

    def __init__(self, total_ms: float, scope: str, parent: RegexClock | None = None) -> None:
        self.total_ms = total_ms
        self.scope = scope
        """What shares the budget, as messages name it ("this tool", "this file")."""
        self.parent = parent
        self._left = total_ms / 1000
        self._announced = False
        self._timed_out: set[tuple[str, str]] = set()
        """(pattern, text) pairs that ran out of time: asked again (the same key for `patternProperties` and
        `additionalProperties`), not run again."""

    def seconds_left(self) -> float:
        own = max(self._left, 0.0)
        return own if self.parent is None else min(own, self.parent.seconds_left())

    def charge(self, seconds: float) -> None:
        self._left -= seconds
        if self.parent is not None:
            self.parent.charge(seconds)

    def spent_by(self) -> RegexClock | None:
        """The clock (this one or an enclosing one) whose budget is spent; None while time is left."""
        if self.parent is not None and (outer := self.parent.spent_by()) is not None:
            return outer
        return self if self._left <= _SPENT_S else None

    def timed_out(self, pattern: str, text: str) -> bool:
        return (pattern, text) in self._timed_out or (self.parent is not None and self.parent.timed_out(pattern, text))

    def note_timeout(self, pattern: str, text: str) -> None:
        self._timed_out.add((pattern, text))

    def announce(self) -> bool:
        """True the first time it is asked: that the budget is spent is said once per budget."""
        first, self._announced = not self._announced, True
        return first


UNIT_BUDGET_MATCHES = 5
FILE_BUDGET_MATCHES = 25
"""A unit's matches share the time of this many per-match budgets, and a file's units this many: with the
default 200 ms, one second per tool and five per file, however many strings and examples they hold."""

CLOCK: ContextVar[RegexClock | None] = ContextVar("toolsense_regex_clock", default=None)


@contextlib.contextmanager
def time_budget(total_ms: float, scope: str) -> Iterator[RegexClock]:
    """Within the block, backtracking matches share `total_ms` (within any enclosing block's budget)."""
    clock = RegexClock(total_ms, scope, CLOCK.get())
    token = CLOCK.set(clock)
    try:
        yield clock
    finally:
        CLOCK.reset(token)


def ecma_to_re2(pattern: str) -> str | None:
    """The RE2 spelling of an ECMA-262 pattern; None when RE2 cannot express it or it is not ECMA-262."""
    try:
        return translate(pattern, RE2)
    except (Invalid, Unsupported, RecursionError):
        return None


@functools.lru_cache(maxsize=1024)
def _linear(pattern: str) -> Any:
    """The compiled RE2 program, or None when the pattern needs the budgeted engine."""
    translated = ecma_to_re2(pattern)
    if translated is None:
        return None
    options = re2.Options()
    options.log_errors = False  # RE2 logs rejected patterns to stderr; rejection is an expected outcome here
    try:
        return re2.compile(translated, options)
    except Exception:  # re2.error, and OverflowError-like failures for huge repeat counts
        return None


@functools.lru_cache(maxsize=1024)
def _backtracking(pattern: str) -> Any:
    """The pattern spelled for the `regex` module and compiled, or None when it is not ECMA-262 or does not
    compile there."""
    import regex  # type: ignore[import-untyped]  # only for patterns RE2 cannot run: most checks never load it

    try:
        return regex.compile(translate(pattern, BACKTRACKING), regex.V0)
    except Exception:  # Invalid, regex.error, RecursionError, OverflowError on hostile patterns
        return None


_MAX_LINEAR_WORK = 20_000_000
"""RE2 is linear in the text, but when its DFA gives up (`[ab]{0,1000}[ab]{0,1000}c`) the factor is the program's
size: 4,000 instructions × 100,000 characters took 14 s. Above this product (about half a second at worst) the
match runs on the budgeted engine instead."""


def runs_in_linear_time(pattern: str) -> bool:
    """True when the pattern runs on RE2 (exact answer, time linear in the text, no budget needed)."""
    return _linear(pattern) is not None


def compiles(pattern: str) -> bool:
    """Whether the pattern is ECMA-262 that toolsense can run (the `regex` format, TS210)."""
    return _linear(pattern) is not None or _backtracking(pattern) is not None  # one reading: both agree on validity


@functools.lru_cache(maxsize=1024)
def is_ecma(pattern: str) -> bool:
    """Whether V8 accepts the pattern (the `regex` format, TS210): one toolsense can run, or one too large to
    run (`a{99999999999}`: a repeat count beyond what the backtracking engine can write out), whose matches are
    reported as not evaluated."""
    if compiles(pattern):
        return True
    try:
        translate(pattern, BACKTRACKING)
    except Unsupported:
        return True
    except (Invalid, RecursionError):
        return False
    return False


def search(pattern: str, text: str, budget_ms: int = DEFAULT_BUDGET_MS) -> bool | None:
    """Whether the pattern matches somewhere in text (ECMA `RegExp.prototype.test`). None when it was not
    evaluated: the pattern needs the backtracking engine and ran out of `budget_ms` or of the shared budget
    (`CLOCK`), or no engine can run it (`compiles` tells the two apart). A pattern is never taken as matching
    without being run."""
    linear = _linear(pattern)
    if linear is not None and linear.programsize * len(text) <= _MAX_LINEAR_WORK:
        try:
            return linear.search(text) is not None
        except UnicodeEncodeError:
            pass  # a lone surrogate (valid in JSON text, not in UTF-8): only the budgeted engine can take it
    compiled = _backtracking(pattern)
    if compiled is None:
        return None
    clock = CLOCK.get()
    timeout = max(budget_ms, 1) / 1000
    if clock is not None:
        if clock.spent_by() is not None or clock.timed_out(pattern, text):
            return None
        timeout = min(timeout, clock.seconds_left())
    started = time.monotonic()
    try:
        return compiled.search(text, timeout=timeout, concurrent=True) is not None
    except TimeoutError:
        if clock is not None:
            clock.note_timeout(pattern, text)
        return None
    except (RecursionError, MemoryError):
        return None
    finally:
        if clock is not None:
            # At most what the match was granted: past its timeout the time is the machine's load, not the
            # pattern's, and a loaded machine must not change which patterns a file gets matched.
            clock.charge(min(time.monotonic() - started, timeout))


# --- file globs ------------------------------------------------------------------------------------------


def _glob_class(body: str) -> str:
    """A glob's `[...]` body as an RE2 class body: `!` or `^` first negates, every other character is literal
    (a `-` between two characters is a range)."""
    negated = body[:1] in ("!", "^")
    if negated:
        body = body[1:]
    parts = []
    for index, char in enumerate(body):
        if char == "-" and 0 < index < len(body) - 1:
            parts.append("-")
        else:
            parts.append(re.escape(char) if not char.isalnum() else char)
    return ("^/" if negated else "") + "".join(parts)  # a negated class never matches the separator


def _glob_to_re2(pattern: str) -> str:
    if not pattern.startswith(("/", "**")):
        pattern = "**/" + pattern
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and (end := pattern.find("]", i + 2)) > i:
            out.append(f"[{_glob_class(pattern[i + 1 : end])}]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "(?s)" + "".join(out)


@functools.lru_cache(maxsize=256)
def _glob_program(pattern: str) -> Any:
    options = re2.Options()
    options.log_errors = False
    try:
        return re2.compile(_glob_to_re2(pattern), options)
    except Exception:  # a glob RE2 cannot take (too large): matched as a literal path
        return re2.compile(re2.escape(pattern), options)


def glob_match(path: str, pattern: str) -> bool:
    """Whether a posix path matches a glob with `**` (any folders), `*`, `?` and `[...]` (`[!...]` negated). RE2
    matches in time linear in the path whatever the glob (a backtracking engine takes minutes on `**e` × 12 and a
    long file name)."""
    try:
        return _glob_program(pattern).fullmatch(path) is not None
    except UnicodeEncodeError:  # a file name that is not UTF-8 (its bytes decoded with surrogateescape)
        readable = path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        return _glob_program(pattern).fullmatch(readable) is not None


@functools.lru_cache(maxsize=64)
def _globs_program(patterns: tuple[str, ...]) -> Any:
    options = re2.Options()
    options.log_errors = False
    try:
        return re2.compile("|".join(f"(?:{_glob_to_re2(p)})" for p in patterns), options)
    except Exception:  # too large together: each on its own
        return None


@functools.lru_cache(maxsize=64)
def _group_set(groups: tuple[tuple[str, ...], ...]) -> tuple[Any, tuple[int, ...]] | None:
    """An RE2 set of one pattern per non-empty group of globs (matched together, by one automaton), and each
    pattern's group index."""
    options = re2.Options()
    options.log_errors = False
    indexes = tuple(i for i, group in enumerate(groups) if group)
    try:
        found = re2.Set.FullMatchSet(options)
        for i in indexes:
            found.Add("|".join(f"(?:{_glob_to_re2(p)})" for p in groups[i]))
        found.Compile()
    except Exception:  # too large together: group by group
        return None
    return found, indexes


def glob_first(path: str, groups: tuple[tuple[str, ...], ...]) -> int | None:
    """The index of the first group holding a glob the path matches (None: no glob matches): every group in
    one pass (a workspace of 20,000 files asks this of every file), as `glob_any` of each group in turn."""
    compiled = _group_set(groups)
    if compiled is not None:
        found, indexes = compiled
        try:
            matched = found.Match(path)
        except UnicodeEncodeError:
            pass
        else:
            return None if not matched else indexes[min(matched)]
    return next((i for i, group in enumerate(groups) if glob_any(path, group)), None)


def glob_any(path: str, patterns: tuple[str, ...]) -> bool:
    """Whether the path matches any of the globs (one RE2 program for all of them: a workspace of 20,000 files
    asks this of every file)."""
    if not patterns:
        return False
    program = _globs_program(patterns)
    if program is None:
        return any(glob_match(path, pattern) for pattern in patterns)
    try:
        return program.fullmatch(path) is not None
    except UnicodeEncodeError:
        return any(glob_match(path, pattern) for pattern in patterns)
