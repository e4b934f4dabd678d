"""ECMA-262 regular expressions (JSON Schema's dialect) spelled for the engines that run them: RE2 (linear time)
and the `regex` module (backtracking, under a time budget). One reading of the pattern, two spellings, so both
engines give ECMA's answers:

- `^` and `$` are the ends of the text (no flags: `$` never matches before a final `\\n`); `.` excludes `\\n`,
  `\\r`, U+2028 and U+2029; `\\d`, `\\w`, `\\b` are ASCII; `\\s` is ECMA's WhiteSpace and LineTerminator set;
- `\\uXXXX` (a surrogate pair is one character), `\\u{X}`, `\\xHH`, `\\cX`, `\\0`, `[\\b]`, `[^]` (anything),
  `[]` (nothing), `\\p{…}` / `\\P{…}` (as the `u` flag reads them), `(?<name>…)` and `\\k<name>`, back-references
  (`\\1`; one to a group that has not matched matches the empty text), lookaround;
- what ECMA-262 without the `u` flag (Annex B) also accepts, as V8 does: an identity escape of any letter (`\\e` is
  `e`), a `{` or `]` that does not close anything is itself.

A pattern V8 rejects with and without the `u` flag (`(?i)`, `(?P<n>…)`, `(?>…)`, `a++`, `(`, `\\`, `{2,1}`…) is
`Invalid`; one RE2 cannot express (lookaround, back-references, a negated escape in a class, lone surrogates) is
`Unsupported` there and goes to the backtracking engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

RE2 = "re2"
BACKTRACKING = "regex"

_SPACES = (0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, (0x2000, 0x200A), 0x2028, 0x2029, 0x202F, 0x205F, 0x3000)
_SPACES_END = 0xFEFF
_LINE_ENDS = (0x0A, 0x0D, 0x2028, 0x2029)
_WORD = "A-Za-z0-9_"
_HEX = frozenset("0123456789abcdefABCDEF")
_CONTROL_ESCAPES = {"t": 0x09, "n": 0x0A, "r": 0x0D, "f": 0x0C, "v": 0x0B}
_SET_ESCAPES = frozenset("dDwWsS")
_SET_ESCAPE_TEXTS = frozenset("\\" + char for char in _SET_ESCAPES)
_QUANTIFIER = re.compile(r"\{(\d+)(,(\d*))?\}")
_GROUP_NAME = re.compile(r"<([^>]+)>")


class Invalid(Exception):
    """Not an ECMA-262 pattern (V8 rejects it with and without the `u` flag)."""


class Unsupported(Exception):
    """A valid pattern the target engine cannot express."""


def _char(point: int, target: str) -> str:
    if target == RE2:
        return f"\\x{{{point:X}}}"
    return f"\\U{point:08X}" if point > 0xFFFF else f"\\u{point:04X}"


def _set_body(points: tuple[int | tuple[int, int], ...], target: str) -> str:
    parts = []
    for item in points:
        if isinstance(item, tuple):
            parts.append(f"{_char(item[0], target)}-{_char(item[1], target)}")
        else:
            parts.append(_char(item, target))
    return "".join(parts)


def _spaces(target: str) -> str:
    return _set_body((*_SPACES, _SPACES_END), target)


@dataclass
class _Class:
    """A character class being read: its positive members (class-body text) and the complements of negated
    escapes in it (`\\D`, `\\W`, `\\S`: each a class body whose complement is a member)."""

    negated: bool
    members: list[str] = field(default_factory=list)
    complements: list[str] = field(default_factory=list)


_CATEGORIES = {
    "Letter": "L", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll", "Titlecase_Letter": "Lt",
    "Modifier_Letter": "Lm", "Other_Letter": "Lo", "Mark": "M", "Combining_Mark": "M", "Nonspacing_Mark": "Mn",
    "Spacing_Mark": "Mc", "Enclosing_Mark": "Me", "Number": "N", "Decimal_Number": "Nd", "digit": "Nd",
    "Letter_Number": "Nl", "Other_Number": "No", "Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc",
    "Dash_Punctuation": "Pd", "Open_Punctuation": "Ps", "Close_Punctuation": "Pe", "Initial_Punctuation": "Pi",
    "Final_Punctuation": "Pf", "Other_Punctuation": "Po", "Symbol": "S", "Math_Symbol": "Sm",
    "Currency_Symbol": "Sc", "Modifier_Symbol": "Sk", "Other_Symbol": "So", "Separator": "Z",
    "Space_Separator": "Zs", "Line_Separator": "Zl", "Paragraph_Separator": "Zp", "Other": "C", "Control": "Cc",
    "cntrl": "Cc", "Format": "Cf", "Unassigned": "Cn", "Private_Use": "Co", "Surrogate": "Cs",
}  # fmt: skip
"""ECMA's long General_Category names → RE2's short ones (RE2 knows only those, and full script names)."""


def _re2_property(name: str) -> str:
    """An ECMA `\\p{…}` name as RE2 spells it (`Letter` → `L`, `Script=Greek` → `Greek`); RE2 rejects what it
    does not know (binary properties, `Script_Extensions`), and the pattern goes to the other engine."""
    key, _, value = name.partition("=")
    if value and key in ("General_Category", "gc"):
        name = value
    elif value and key in ("Script", "sc"):
        return value
    return _CATEGORIES.get(name, name)


_INFINITY = 2**31 - 1
"""V8's largest repeat count (`RegExpTree::kInfinity`): a larger bound is read as it, and an upper bound that
large means no upper bound."""

_RE2_MAX_REPEAT = 1000
"""RE2 rejects a repeat count above 1,000, and reads one too large to parse (`a{99999999999}`) as literal text."""

_MAX_UNROLLED = 20_000
"""The `regex` module writes out a lower bound's repeats when it compiles (`a{1000000}`: 5 s and 270 MB,
`a{2147483647}` all the memory there is); a pattern needing more repeats than this, nested bounds multiplied, is
not run there."""


def _count(digits: str) -> int:
    """A decimal repeat count or group number, at most `_INFINITY` (without `int()` on 5,000 digits, which
    Python refuses)."""
    digits = digits.lstrip("0") or "0"
    return _INFINITY if len(digits) > len(str(_INFINITY)) else min(int(digits), _INFINITY)


def _hex_at(pattern: str, at: int, count: int) -> int | None:
    digits = pattern[at : at + count]
    if len(digits) == count and all(c in _HEX for c in digits):
        return int(digits, 16)
    return None


@dataclass
class _Reader:
    pattern: str
    target: str
    groups: int = 0
    names: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._count_groups()

    def _count_groups(self) -> None:
        """Capture groups and their names, read before the pattern (ECMA allows a reference before its group)."""
        pattern, i, in_class = self.pattern, 0, False
        while i < len(pattern):
            char = pattern[i]
            if char == "\\":
                i += 2
                continue
            if in_class:
                in_class = char != "]"
            elif char == "[":
                in_class = True
            elif char == "(":
                named = _GROUP_NAME.match(pattern, i + 2) if pattern.startswith("(?<", i) else None
                if named is not None and not pattern.startswith(("(?<=", "(?<!"), i):
                    if named.group(1) in self.names:
                        raise Invalid  # a duplicate group name
                    self.groups += 1
                    self.names[named.group(1)] = f"g{self.groups}"
                elif not pattern.startswith("(?", i):
                    self.groups += 1
            i += 1

    # --- escapes ---------------------------------------------------------------------------------------------

    def _code_point_escape(self, at: int) -> tuple[int | None, int]:
        """`\\u…` at pattern[at-2:at]: (the code point, or None for an identity escape `u`; the index after it)."""
        pattern = self.pattern
        if pattern.startswith("{", at):
            end = pattern.find("}", at)
            if end > at + 1 and all(c in _HEX for c in pattern[at + 1 : end]):
                point = int(pattern[at + 1 : end], 16)
                if point > 0x10FFFF:
                    raise Invalid
                return point, end + 1
            return None, at
        code = _hex_at(pattern, at, 4)
        if code is None:
            return None, at
        after = at + 4
        if 0xD800 <= code <= 0xDBFF and pattern.startswith("\\u", after):
            low = _hex_at(pattern, after + 2, 4)
            if low is not None and 0xDC00 <= low <= 0xDFFF:
                return 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00), after + 6
        return code, after

    def _literal(self, point: int) -> str:
        if 0xD800 <= point <= 0xDFFF and self.target == RE2:
            raise Unsupported  # a lone surrogate: not in UTF-8 text, which RE2 matches
        return _char(point, self.target)

    def escape(self, at: int, klass: _Class | None) -> tuple[str, int]:
        """The escape at pattern[at] == '\\\\' (in a class when klass is given): (its spelling, the index after)."""
        pattern, target = self.pattern, self.target
        if at + 1 >= len(pattern):
            raise Invalid  # a trailing backslash
        char = pattern[at + 1]
        after = at + 2
        if char == "u":
            point, after = self._code_point_escape(after)
            return ("u", after) if point is None else (self._literal(point), after)
        if char == "x":
            code = _hex_at(pattern, after, 2)
            return (self._literal(code), after + 2) if code is not None else ("x", after)
        if char == "c":
            if after < len(pattern) and pattern[after].isascii() and pattern[after].isalpha():
                return self._literal(ord(pattern[after]) % 32), after + 1
            return "\\\\", at + 1  # Annex B: a backslash, then the `c` read as itself
        if char in _CONTROL_ESCAPES:
            return self._literal(_CONTROL_ESCAPES[char]), after
        if char == "0" and not (after < len(pattern) and pattern[after].isdigit()):
            return self._literal(0), after
        if char in "dDwWsS":
            return self._class_escape(char, klass), after
        if char in "bB":
            if klass is not None:
                return (self._literal(8), after) if char == "b" else ("B", after)
            if target == RE2:
                return "\\" + char, after
            word, other = f"(?<=[{_WORD}])", f"(?<![{_WORD}])"
            ahead, no = f"(?=[{_WORD}])", f"(?![{_WORD}])"
            if char == "b":
                return f"(?:{word}{no}|{other}{ahead})", after
            return f"(?:{word}{ahead}|{other}{no})", after
        if char in "pP" and pattern.startswith("{", after):
            end = pattern.find("}", after)
            if end < 0:
                raise Invalid
            name = pattern[after + 1 : end]
            return f"\\{char}{{{_re2_property(name) if target == RE2 else name}}}", end + 1
        if char.isdigit() and char != "0":
            return self._back_reference(at, klass)
        if char == "k" and self.names and klass is None:
            named = _GROUP_NAME.match(pattern, after)
            if named is None or named.group(1) not in self.names:
                raise Invalid
            if target == RE2:
                raise Unsupported
            name = self.names[named.group(1)]
            return f"(?({name})(?P={name}))", named.end()
        if char.isascii() and char.isalnum():
            return char, after  # Annex B's identity escape (`\e` is "e")
        return re.escape(char) if char != " " else " ", after

    def _class_escape(self, char: str, klass: _Class | None) -> str:
        body = {"d": "0-9", "w": _WORD, "s": _spaces(self.target)}[char.lower()]
        if char.islower():
            return body if klass is not None else f"[{body}]"
        if klass is None:
            return f"[^{body}]"
        if self.target == RE2 and char != "S":
            return "\\" + char  # RE2's \D and \W are ASCII, as ECMA's
        if self.target == RE2:
            raise Unsupported  # "not a space" cannot be one member of an RE2 class
        klass.complements.append(body)
        return ""

    def _back_reference(self, at: int, klass: _Class | None) -> tuple[str, int]:
        pattern = self.pattern
        end = at + 1
        while end < len(pattern) and pattern[end].isdigit():
            end += 1
        number = _count(pattern[at + 1 : end])
        if klass is None and number <= self.groups:
            if self.target == RE2:
                raise Unsupported
            return f"(?({number})\\{number})", end  # ECMA: a group that has not matched matches the empty text
        # Annex B: no such group, so an octal escape (`\1` is U+0001) or the digit itself (`\8` is "8").
        octal = re.match(r"[0-3][0-7]{0,2}|[4-7][0-7]?", pattern[at + 1 :])
        if octal is None:
            return pattern[at + 1], at + 2
        return self._literal(int(octal.group(0), 8)), at + 1 + len(octal.group(0))

    # --- the pattern -----------------------------------------------------------------------------------------

    def _class(self, at: int) -> tuple[str, int]:
        """The class at pattern[at] == '[': (its spelling, the index after its `]`)."""
        pattern, target = self.pattern, self.target
        negated = pattern.startswith("[^", at)
        i = at + (2 if negated else 1)
        any_char = _set_body(((0, 0x10FFFF),), target)
        if pattern.startswith("]", i):
            return (f"[{any_char}]" if negated else f"[^{any_char}]"), i + 1  # `[^]` anything, `[]` nothing
        klass = _Class(negated)
        after_set = False  # whether the last member was a set escape (`\\w`)
        while True:
            if i >= len(pattern):
                raise Invalid  # an unterminated class
            char = pattern[i]
            if char == "]":
                break
            if char == "\\":
                set_escape = pattern[i + 1 : i + 2] in _SET_ESCAPES
                text, i = self.escape(i, klass)
                klass.members.append(text)
                after_set = set_escape
                continue
            if char == "-" and (after_set or pattern[i + 1 : i + 3] in _SET_ESCAPE_TEXTS):
                # Annex B: a set escape cannot end a range, so `[\\w-.]` and `[.-\\w]` hold a `-` itself.
                klass.members.append("\\-")
            else:
                klass.members.append("\\[" if char == "[" else "\\\\" if char == "\\" else char)
            after_set = False
            i += 1
        members = "".join(klass.members)
        if not klass.complements:
            return f"[{'^' if negated else ''}{members}]", i + 1
        # A negated escape in a class (`[a\S]`): the class as an alternation (a lookaround when negated).
        if not negated:
            options = ([f"[{members}]"] if members else []) + [f"[^{body}]" for body in klass.complements]
            return "(?:" + "|".join(options) + ")", i + 1
        checks = ([f"(?![{members}])"] if members else []) + [f"(?=[{body}])" for body in klass.complements]
        return f"(?:{''.join(checks)}[{any_char}])", i + 1

    def _group(self, at: int) -> tuple[str, int]:
        pattern = self.pattern
        if not pattern.startswith("(?", at):
            return "(", at + 1
        if pattern.startswith("(?:", at):
            return "(?:", at + 3
        for look in ("(?=", "(?!", "(?<=", "(?<!"):
            if pattern.startswith(look, at):
                if self.target == RE2:
                    raise Unsupported
                return look, at + len(look)
        named = _GROUP_NAME.match(pattern, at + 2) if pattern.startswith("(?<", at) else None
        if named is not None:
            return f"(?P<{self.names[named.group(1)]}>", named.end()
        raise Invalid  # `(?i)`, `(?P<…>`, `(?>…)`, `(?#…)`: not ECMA-262

    def translate(self) -> str:
        pattern, target = self.pattern, self.target
        out: list[str] = []
        i = 0
        quantifiable = False  # whether a quantifier may follow (an atom, not a quantifier or an assertion)
        depth = 0
        sizes = [0]  # the atoms of each open group, repeats written out (the `regex` module's compiled size)
        last = 0  # the size of the atom a quantifier would repeat
        while i < len(pattern):
            char = pattern[i]
            if char in "*+?{":
                bounds = _QUANTIFIER.match(pattern, i) if char == "{" else None
                if char == "{" and bounds is None:
                    out.append("\\{")  # Annex B: a `{` that is no quantifier is itself
                    quantifiable = True
                    i += 1
                    continue
                if not quantifiable:
                    raise Invalid  # nothing to repeat (`a++`, `*a`, `(?=a)*`)
                if bounds is not None:
                    low = _count(bounds.group(1))
                    high = None if bounds.group(2) is None else _count(bounds.group(3) or str(_INFINITY))
                    if high is not None and high < low:
                        raise Invalid
                    if target == RE2 and max(low, 0 if high in (None, _INFINITY) else high) > _RE2_MAX_REPEAT:
                        raise Unsupported  # RE2 would read a larger count as literal text
                    if high is None:
                        out.append(f"{{{low}}}")
                    else:
                        out.append(f"{{{low},}}" if high == _INFINITY else f"{{{low},{high}}}")
                    sizes[-1] += last * (max(low, 1) - 1)
                    i = bounds.end()
                else:
                    out.append(char)
                    i += 1
                if pattern.startswith("?", i):
                    out.append("?")
                    i += 1
                quantifiable = False
                continue
            quantifiable = True
            last = 1
            sizes[-1] += 1
            if char == "\\":
                quantifiable = pattern[i + 1 : i + 2] not in ("b", "B")  # `\b` is an assertion
                text, i = self.escape(i, None)
                out.append(text)
            elif char == "[":
                text, i = self._class(i)
                out.append(text)
            elif char == "(":
                text, i = self._group(i)
                depth += 1
                sizes.append(0)
                out.append(text)
                quantifiable = False
            elif char == ")":
                if depth == 0:
                    raise Invalid
                depth -= 1
                last = sizes.pop()
                sizes[-1] += last
                out.append(")")
                i += 1
            else:
                if char == ".":
                    out.append(f"[^{_set_body(_LINE_ENDS, target)}]")
                elif char == "$":
                    out.append("$" if target == RE2 else "\\Z")
                    quantifiable = False
                elif char == "^":
                    out.append("^")
                    quantifiable = False
                elif char == "|":
                    out.append("|")
                    quantifiable = False
                elif char in "]}":
                    out.append("\\" + char)  # Annex B: a bracket that closes nothing is itself
                else:
                    out.append(char)
                i += 1
        if depth:
            raise Invalid  # an unclosed group
        if target == BACKTRACKING and sizes[0] > _MAX_UNROLLED:
            raise Unsupported
        return "".join(out)


def translate(pattern: str, target: str) -> str:
    """The pattern spelled for target (`RE2` or `BACKTRACKING`). Raises `Invalid` for a pattern that is not
    ECMA-262, `Unsupported` when the target cannot express it."""
    return _Reader(pattern, target).translate()
