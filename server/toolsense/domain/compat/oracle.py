"""The acceptance oracle: one tool definition and a target in, a verdict per keyword out (position-free).

`assess(view, target)` runs every rule that speaks for the target. Its verdict is the worst finding's: rejected,
unknown, changed; with no finding it is accepted when the target has a documented contract, else unknown (the
evidence covers the failures seen, not the rest). Messages are the target's own words, request positions shown
as `N` and what the oracle cannot know (the MCP server's name a client prefixes) as `<server>`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..tool import ToolView
from . import rules_anthropic, rules_clients, rules_gemini, rules_names, rules_openai
from .model import POSITION, SEVERITY, Assessment, Finding, Hit, Message, Rule
from .targets import TARGET_IDS, TARGETS

RULES: tuple[Rule, ...] = (
    *rules_names.RULES,
    *rules_anthropic.RULES,
    *rules_openai.RULES,
    *rules_gemini.RULES,
    *rules_clients.RULES,
)
RULES_BY_ID: dict[str, Rule] = {rule.id: rule for rule in RULES}


def rules_for(target: str) -> tuple[Rule, ...]:
    return tuple(rule for rule in RULES if target in rule.targets)


def render(message: Message, view: ToolView, hit: Hit) -> str:
    fields = {"i": POSITION, "name": view.name or "", **hit.fields}
    return message.template.format_map(_Missing(fields))


class _Missing(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return f"<{key}>"


def assess(view: ToolView, target: str) -> Assessment:
    """The tool at one target."""
    findings: list[Finding] = []
    for rule in rules_for(target):
        for hit in rule.check(view, target):
            findings.append(
                Finding(
                    target,
                    rule.verdict,
                    hit.pointer,
                    render(rule.message, view, hit),
                    rule.id,
                    rule.sources,
                    rule.message.documented,
                    hit.change,
                )
            )
    if findings:
        worst = max(findings, key=lambda f: SEVERITY[f.verdict]).verdict
        return Assessment(target, worst, tuple(findings))
    contract = TARGETS[target].contract
    if contract is None:
        return Assessment(target, "unknown", (), "no evidence about this tool's schema at this target either way")
    return Assessment(target, "accepted", (), f"documented contract: {contract.url} (read {contract.date})")


def assess_all(view: ToolView, targets: Sequence[str] | None = None) -> list[Assessment]:
    return [assess(view, target) for target in (targets or TARGET_IDS)]


def matches(rendered: str, quoted: str) -> bool:
    """Whether a source's quote of a target's message is this message: whitespace as wrapped in a terminal, request
    positions (`tools.7.`, `[5]`, `N`) any number, `<server>`-style unknowns anything, and a quote cut short after
    a sentence or at least half of the words counts (issues paste a message's first lines)."""
    words = _normalise(rendered).split(" ")
    quote = _normalise(quoted)
    shortest = max(1, (len(words) + 1) // 2)
    cuts = [n for n in range(len(words), 0, -1) if n == len(words) or n >= shortest or words[n - 1].endswith(".")]
    return any(re.fullmatch(_pattern(" ".join(words[:n]).rstrip(".")), quote) for n in cuts)


def message_matches(rule: Rule, view: ToolView, hit: Hit, quoted: str, date: str) -> bool:
    """Whether the quote is one of the messages the rule's target gave on that date, for this hit."""
    return any(matches(render(message, view, hit), quoted) for message in rule.message_at(date))


def _normalise(text: str) -> str:
    # A terminal wraps long messages, also before a path's next `.segment`.
    return re.sub(r"\s+", " ", re.sub(r"\s+(?=\.\w)", "", text)).strip().rstrip(".")


def _pattern(text: str) -> str:
    out: list[str] = []
    for token in re.split(r"(<[^<>\s][^<>]*>|tools\.(?:\d+|N)\.|\[(?:\d+|N)\])", text):
        if not token:
            continue
        if re.fullmatch(r"<[^<>\s][^<>]*>", token):
            out.append(".+?")
        elif token.startswith("tools."):
            out.append(r"tools\.(?:\d+|N)\.")
        elif re.fullmatch(r"\[(?:\d+|N)\]", token):
            out.append(r"\[(?:\d+|[A-Z])\]")
        else:
            out.append(re.escape(token))
    return "".join(out)


def verdict_of(assessments: Iterable[Assessment]) -> str:
    """The worst verdict of several (a tool for several targets)."""
    return max((a.verdict for a in assessments), key=lambda v: SEVERITY[v], default="accepted")
