"""The acceptance oracle: will each target accept a tool definition as written, change it, or reject it?

Every verdict rests on evidence: a captured rejection (the schema and the target's message, kept as a fixture
under tests/corpus/compat/) or a documented limit, each with its source and date. No evidence, no verdict: the
oracle says "unknown" rather than guess. docs/compat.md lists the targets and the rules.
"""

from .model import Assessment, Finding, Rule, Source, Verdict
from .oracle import RULES, RULES_BY_ID, assess, assess_all, matches, message_matches, render, rules_for, verdict_of
from .targets import TARGET_IDS, TARGETS, Target

__all__ = [
    "RULES",
    "RULES_BY_ID",
    "TARGETS",
    "TARGET_IDS",
    "Assessment",
    "Finding",
    "Rule",
    "Source",
    "Target",
    "Verdict",
    "assess",
    "assess_all",
    "matches",
    "message_matches",
    "render",
    "rules_for",
    "verdict_of",
]
