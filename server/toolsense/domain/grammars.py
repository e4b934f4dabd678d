"""An OpenAI custom tool's grammar, compiled as the provider would: a Lark grammar read by a real Lark parser, with
the limits of OpenAI's engine (llguidance) on top; a regex grammar compiled by RE2, whose syntax is that of the Rust
`regex` crate llguidance uses (no lookaround, no backreference). The facts are in `models.feature_facts`
(`OPENAI_GRAMMAR_SYNTAXES`, with its sources)."""

from __future__ import annotations

import re

import re2  # type: ignore[import-untyped]

_LLGUIDANCE_ONLY = re.compile(r"%json\b|%llguidance\b|<\[|<\||(^|\s)@[\w-]+|^\s*[\w]+\[[^\]\n]*\]\s*:", re.M)
"""llguidance's own extensions of Lark (`%json`, `@subgrammar`, `<|special token|>`, `rule[max_tokens=…]:`): Lark
cannot read them, so a grammar that uses them is not judged by Lark."""
_COMMENT = re.compile(r"(^|[ \t])//[^\n]*", re.M)
_PRIORITY = re.compile(r"^\s*[\w]+\.-?\d+\s*:", re.M)
_IMPORT = re.compile(r"^\s*%import\s+(?!common\b)(\S+)", re.M)
_TEMPLATE = re.compile(r"^\s*_?\w+\{[\w\s,]+\}\s*:", re.M)
MAX_GRAMMAR = 100_000
"""Characters of a grammar Lark is asked to read (a larger one is not judged)."""


def grammar_error(syntax: str, definition: str) -> str | None:
    """Why the grammar does not compile, or None."""
    return lark_error(definition) if syntax == "lark" else regex_error(definition)


def regex_error(definition: str) -> str | None:
    problem = _re2_problem(definition)
    return None if problem is None else f"The regex grammar does not compile ({problem}): OpenAI reads it as Rust regex"


def _re2_problem(pattern: str) -> str | None:
    options = re2.Options()
    options.log_errors = False
    try:
        re2.compile(pattern, options)
    except Exception as error:  # re2.error
        detail = error.args[0] if error.args else error
        return detail.decode("utf-8", "replace") if isinstance(detail, bytes) else str(detail)
    return None


def lark_error(definition: str) -> str | None:
    if len(definition) > MAX_GRAMMAR or _LLGUIDANCE_ONLY.search(_COMMENT.sub("", definition)):
        return None
    for pattern, what in ((_PRIORITY, "rule and terminal priorities"), (_TEMPLATE, "templates")):
        found = pattern.search(definition)
        if found is not None:
            return f"OpenAI's grammar engine (llguidance) does not support {what}: {_where(definition, found.start())}"
    imported = _IMPORT.search(definition)
    if imported is not None:
        return (
            f"OpenAI's grammar engine (llguidance) imports only `%import common`, not {imported.group(1)!r}: "
            f"{_where(definition, imported.start(1))}"
        )
    # Imported here: Lark loads the `regex` module, which a check without a custom tool never needs.
    from lark.exceptions import LarkError, UnexpectedInput
    from lark.lexer import PatternRE
    from lark.load_grammar import load_grammar

    try:
        # The grammar as Lark reads and compiles it (rules defined, terminals resolved), without building a parser:
        # a parser's own limits (LALR conflicts, zero-width terminals of the Earley lexer) are not llguidance's.
        grammar, _ = load_grammar(definition, "<grammar>", [], False)  # type: ignore[no-untyped-call]
        terminals, _rules, _ignore = grammar.compile(["start"], set())
    except UnexpectedInput as error:
        return f"The Lark grammar does not parse at line {error.line}, column {error.column}: {_first_line(error)}"
    except (LarkError, ValueError, KeyError, re.error) as error:
        return f"The Lark grammar does not compile: {_first_line(error)}"
    for terminal in terminals:
        if isinstance(terminal.pattern, PatternRE):
            failed = _re2_problem(terminal.pattern.value)
            if failed is not None:
                shown = terminal.name if not terminal.name.startswith("__") else f"/{terminal.pattern.value}/"
                return f"Terminal {shown} is no valid regular expression ({failed}): llguidance reads it as Rust regex"
    return None


def _first_line(error: Exception) -> str:
    text = str(error).strip().splitlines()
    return text[0].strip() if text else type(error).__name__


def _where(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return f"line {line}: {text[start : end if end >= 0 else len(text)].strip()!r}"
