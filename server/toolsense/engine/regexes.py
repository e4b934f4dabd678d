"""User-supplied regular expressions, matched without ever hanging.

JSON Schema `pattern`, `patternProperties` and `propertyNames` come from files toolsense did not write, so
matching must be bounded whatever the pattern's shape:

1. Patterns in the common subset (no back-references, no lookaround) are translated from ECMA-262 syntax and
   run on RE2 (`google-re2`), whose matching time is linear in the text: no budget needed, the answer is exact
   (unless program size × text length is very large: see `_MAX_LINEAR_WORK`).
2. The rest (back-references, lookaround, atomic groups, possessive repeats, anything RE2 rejects) run on the
   `regex` module with a time budget (`timeout=`), releasing the GIL while they run (`concurrent=True`), so a
   pattern that backtracks catastrophically costs at most the budget and never freezes the event loop.
   `None` means "ran out of budget, not evaluated".

ECMA-262 versus what runs here (JSON Schema patterns are ECMA-262 regular expressions):
- RE2 path: `\\d`, `\\w`, `\\b` are ASCII as in ECMA; `$` is the end of the text (Python's `re` also matches
  before a final newline; ECMA and RE2 do not); `.` excludes `\\n`, `\\r`, U+2028 and U+2029 as in ECMA; `\\s`
  is ECMA's set (Unicode spaces and line terminators); `\\uXXXX` (surrogate pairs combined), `\\u{X}`, `\\cX`,
  `\\0`, `[\\b]`, `[^]` and `[]` mean what they mean in ECMA. Lone surrogates cannot occur in UTF-8 text and send
  the pattern to the budgeted path.
- Budgeted path: Python `re` syntax and semantics (the `regex` module's compatible version 0), as toolsense
  used before; it differs from ECMA in the points above.
- A pattern neither engine accepts is not evaluated here (the schema rules report that it does not compile).
"""

from __future__ import annotations

import functools
import re
from typing import Any

import re2  # type: ignore[import-untyped]
import regex  # type: ignore[import-untyped]

DEFAULT_BUDGET_MS = 200

_ECMA_SPACE = r"\t\n\x{0B}\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}"
_ECMA_DOT = r"[^\n\r\x{2028}\x{2029}]"
_ANY = r"\x{0}-\x{10FFFF}"
_LOOKAROUND = ("(?=", "(?!", "(?<=", "(?<!")
_HEX = frozenset("0123456789abcdefABCDEF")
_PASS_ESCAPES = frozenset("dDwWbBtnrfv")


class _Unsupported(Exception):
    """The pattern uses something RE2 cannot run (it goes to the budgeted engine)."""


def _hex_at(pattern: str, at: int, count: int) -> int | None:
    digits = pattern[at : at + count]
    if len(digits) == count and all(c in _HEX for c in digits):
        return int(digits, 16)
    return None


def _unicode_escape(pattern: str, at: int) -> tuple[str, int]:
    """`\\u` at pattern[at-2:at]: (the RE2 form, the index after it)."""
    if pattern.startswith("{", at):
        end = pattern.find("}", at)
        if end > at + 1 and all(c in _HEX for c in pattern[at + 1 : end]):
            point = int(pattern[at + 1 : end], 16)
            if 0xD800 <= point <= 0xDFFF or point > 0x10FFFF:
                raise _Unsupported
            return f"\\x{{{point:X}}}", end + 1
        return "u", at  # an identity escape outside the `u` flag
    code = _hex_at(pattern, at, 4)
    if code is None:
        return "u", at
    after = at + 4
    if 0xD800 <= code <= 0xDBFF and pattern.startswith("\\u", after):
        low = _hex_at(pattern, after + 2, 4)
        if low is not None and 0xDC00 <= low <= 0xDFFF:
            return f"\\x{{{0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00):X}}}", after + 6
    if 0xD800 <= code <= 0xDFFF:
        raise _Unsupported
    return f"\\x{{{code:X}}}", after


def _escape(pattern: str, at: int, in_class: bool) -> tuple[str, int]:
    """The escape starting at pattern[at] == '\\\\': (its RE2 form, the index after it)."""
    if at + 1 >= len(pattern):
        raise _Unsupported  # a trailing backslash: not a valid pattern
    char = pattern[at + 1]
    after = at + 2
    if char == "u":
        return _unicode_escape(pattern, after)
    if char == "x":
        code = _hex_at(pattern, after, 2)
        return (f"\\x{{{code:X}}}", after + 2) if code is not None else ("x", after)
    if char == "c":
        if after < len(pattern) and pattern[after].isascii() and pattern[after].isalpha():
            return f"\\x{{{ord(pattern[after]) % 32:X}}}", after + 1
        raise _Unsupported
    if char == "s":
        return (_ECMA_SPACE if in_class else f"[{_ECMA_SPACE}]"), after
    if char == "S":
        if in_class:
            raise _Unsupported  # "not a space" cannot be one member of a larger RE2 class
        return f"[^{_ECMA_SPACE}]", after
    if char == "0" and not (after < len(pattern) and pattern[after].isdigit()):
        return r"\x{0}", after
    if char.isdigit() or char == "k":
        raise _Unsupported  # back-references
    if in_class and char == "b":
        return r"\x{8}", after
    if char in _PASS_ESCAPES or char in "pP":
        return "\\" + char, after
    if char.isascii() and char.isalnum():
        return char, after  # ECMA's identity escape (`\e` is "e")
    return re.escape(char) if char != " " else " ", after


def ecma_to_re2(pattern: str) -> str | None:
    """The RE2 spelling of an ECMA-262 pattern; None when RE2 cannot express it (back-references,
    lookaround, lone surrogates)."""
    out: list[str] = []
    i = 0
    in_class = False
    try:
        while i < len(pattern):
            char = pattern[i]
            if char == "\\":
                text, i = _escape(pattern, i, in_class)
                out.append(text)
                continue
            if in_class:
                if char == "]":
                    in_class = False
                    out.append("]")
                elif char == "[":
                    out.append(r"\[")
                else:
                    out.append(char)
                i += 1
                continue
            if char == "[":
                if pattern.startswith("[^]", i):
                    out.append(f"[{_ANY}]")
                    i += 3
                elif pattern.startswith("[]", i):
                    out.append(f"[^{_ANY}]")
                    i += 2
                else:
                    in_class = True
                    negated = pattern.startswith("[^", i)
                    out.append("[^" if negated else "[")
                    i += 2 if negated else 1
                    if pattern.startswith("]", i):  # `[]a]` is "empty class, then a]" in ECMA: rare, not ours
                        raise _Unsupported
                continue
            if char == "(" and pattern.startswith(_LOOKAROUND, i):
                raise _Unsupported
            if char == ".":
                out.append(_ECMA_DOT)
            else:
                out.append(char)
            i += 1
    except _Unsupported:
        return None
    return "".join(out)


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
    """The pattern compiled by the `regex` module (Python `re` semantics), or None when it does not compile."""
    try:
        return regex.compile(pattern, regex.V0)
    except Exception:  # regex.error, RecursionError, OverflowError on hostile patterns
        return None


_MAX_LINEAR_WORK = 20_000_000
"""RE2 is linear in the text, but when its DFA gives up (`[ab]{0,1000}[ab]{0,1000}c`) the factor is the program's
size: 4,000 instructions × 100,000 characters took 14 s. Above this product (about half a second at worst) the
match runs on the budgeted engine instead."""


def runs_in_linear_time(pattern: str) -> bool:
    """True when the pattern runs on RE2 (exact answer, time linear in the text, no budget needed)."""
    return _linear(pattern) is not None


def compiles(pattern: str) -> bool:
    return _linear(pattern) is not None or _backtracking(pattern) is not None


def search(pattern: str, text: str, budget_ms: int = DEFAULT_BUDGET_MS) -> bool | None:
    """Whether the pattern matches somewhere in text (ECMA `RegExp.prototype.test`). None when the pattern needs
    the backtracking engine and ran out of `budget_ms`. A pattern that does not compile anywhere counts as a
    match: nothing is reported that was not checked (the schema rules report the pattern itself)."""
    linear = _linear(pattern)
    if linear is not None and linear.programsize * len(text) <= _MAX_LINEAR_WORK:
        try:
            return linear.search(text) is not None
        except UnicodeEncodeError:
            pass  # a lone surrogate (valid in JSON text, not in UTF-8): only the budgeted engine can take it
    compiled = _backtracking(pattern)
    if compiled is None:
        return True
    try:
        return compiled.search(text, timeout=max(budget_ms, 1) / 1000, concurrent=True) is not None
    except TimeoutError:
        return None
    except (RecursionError, MemoryError):
        return None


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
