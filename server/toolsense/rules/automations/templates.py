"""Automations: templates (TS501–TS509) and every path's resolution (with TS610/TS611 from preflight).

Templates are read in every string the runtime resolves: action `parameters` (nested too), condition `value`s
and a polling trigger's `tool_params`. Each finding is placed on the template inside the string (`Finding.span`),
not on the whole string. Condition `path`s are resolved exactly like template paths and reported with the same
codes.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...document.jsontree import Pointer
from ...domain.automation import AutomationView, Reference, condition_references, string_sites, template_references
from ...domain.scope import Resolution, resolve
from ...domain.shapes import Env
from ...domain.templates import Token, parse_path, scan
from ...engine.context import CheckContext
from ...engine.findings import Finding, Fix, Related, ReplaceInString, Severity
from ...engine.schemas import json_types
from ...engine.units import Unit
from ...jsonvalue import JsonObject
from ..catalog import CATALOG
from .preflight import OUTPUT_PATH, TRIGGER_PATH

FAMILY = "Automations: templates"

UNSUPPORTED = CATALOG.rule(
    "TS501",
    "unsupported-template-syntax",
    Severity.ERROR,
    "Handlebars blocks (`{{#if}}`, `{{/if}}`, `{{else}}`), partials (`{{> x}}`), comments, triple braces or Jinja "
    "tags: only `{{path}}` is replaced.",
    FAMILY,
    "`{{{x}}}` → `{{x}}` (safe)",
)
EVENT_DATA = CATALOG.rule(
    "TS502",
    "event-data-template",
    Severity.ERROR,
    "`event_data` does not exist: the trigger's data is `trigger_data`.",
    FAMILY,
    "`event_data` → `trigger_data` (safe)",
)
WEBHOOK_ARRAY = CATALOG.rule(
    "TS503",
    "webhook-array-path",
    Severity.ERROR,
    "An index in a webhook automation's trigger path (`trigger_data.0.subject`): webhook data is one object.",
    FAMILY,
    "drop the index",
)
UNKNOWN_VARIABLE = CATALOG.rule(
    "TS504",
    "unknown-template-variable",
    Severity.ERROR,
    "A path whose first name is not `trigger_data`, `user`, a built-in, a variable or an earlier action's "
    "`output_as` (a warning when it may be a field of trigger data of unknown shape).",
    FAMILY,
    "replace with a similar name",
)
LATER_OUTPUT = CATALOG.rule(
    "TS505",
    "output-not-yet-available",
    Severity.ERROR,
    "A path uses the `output_as` of a later action (or of the action itself): it is not set yet.",
    FAMILY,
)
UNBALANCED = CATALOG.rule(
    "TS506",
    "unbalanced-template-braces",
    Severity.ERROR,
    "A `{{` without `}}`, or a `}}` closing a template that was opened with one brace.",
    FAMILY,
    "add the missing brace",
)
MALFORMED = CATALOG.rule(
    "TS507",
    "malformed-template",
    Severity.ERROR,
    "Something other than a dotted path inside `{{ }}`: empty, filters, helpers, operators.",
    FAMILY,
)
UNAVAILABLE = CATALOG.rule(
    "TS508",
    "not-available-here",
    Severity.ERROR,
    "A name that exists but not at this place: trigger data or outputs in `tool_params`, trigger data in a "
    "schedule or manual automation (a warning), a built-in as a condition path.",
    FAMILY,
)
TEMPLATE_TYPE = CATALOG.rule(
    "TS509",
    "template-in-non-string-parameter",
    Severity.WARNING,
    "A template in a parameter whose schema does not accept a string: templates always produce text.",
    FAMILY,
)

_CONDITIONAL_HINT = "use separate actions, each with a 'condition'"


@CATALOG.unit_check("automation")
def automation_templates(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    view = AutomationView.of(unit.value)
    if view is None:
        return
    env = Env.of(ctx)
    for site in string_sites(view):
        if "{" not in site.text and "}}" not in site.text:
            continue
        tokens = scan(site.text)
        for token in tokens:
            finding = syntax_finding(token, site.pointer)
            if finding is not None:
                yield finding
        for ref in template_references(site, tokens):
            yield from reference_findings(view, ref, resolve(view, env, ref.where, ref.segments))
    for ref in condition_references(view):
        yield from reference_findings(view, ref, resolve(view, env, ref.where, ref.segments))


def syntax_finding(token: Token, pointer: Pointer) -> Finding | None:
    span = (token.start, token.end)
    text = token.text
    kind = token.kind
    if kind == "block_open":
        helper, _, argument = token.inner[1:].partition(" ")
        argument = argument.strip()
        if helper in ("if", "unless") and argument:
            op = "exists" if helper == "if" else "not_exists"
            advice = (
                f"for conditional content {_CONDITIONAL_HINT}, e.g. "
                f'{{"condition": {{"path": "{argument}", "op": "{op}"}}, "parameters": {{…}}}}'
            )
        elif helper == "each":
            advice = (
                f"lists cannot be looped over: pass the whole value ('{{{{{argument or 'items'}}}}}' is sent as JSON) "
                "or use a polling trigger that runs once per item"
            )
        elif helper == "with" and argument:
            advice = f"write full paths instead ('{{{{{argument}.field}}}}')"
        else:
            advice = f"for conditional content {_CONDITIONAL_HINT}"
        message = f"Handlebars block '{text}' is not supported (templates only substitute values): {advice}"
        return UNSUPPORTED.finding(message, pointer, span=span)
    if kind == "block_close":
        return UNSUPPORTED.finding(
            f"Handlebars closing tag '{text}' is not supported: remove the block and {_CONDITIONAL_HINT}",
            pointer,
            span=span,
        )
    if kind == "else":
        return UNSUPPORTED.finding(
            f"Handlebars '{text}' is not supported: put the other branch in a second action with the opposite "
            "condition",
            pointer,
            span=span,
        )
    if kind == "inverse":
        argument = token.inner[1:].strip()
        return UNSUPPORTED.finding(
            f"Handlebars inverse block '{text}' is not supported: {_CONDITIONAL_HINT} "
            f'(e.g. {{"path": "{argument}", "op": "not_exists"}})',
            pointer,
            span=span,
        )
    if kind == "partial":
        return UNSUPPORTED.finding(
            f"Handlebars partial '{text}' is not supported: write the text inline", pointer, span=span
        )
    if kind == "comment":
        return UNSUPPORTED.finding(
            f"Handlebars comment '{text}' is not supported: it would be sent as literal text; remove it",
            pointer,
            span=span,
        )
    if kind == "jinja":
        return UNSUPPORTED.finding(
            f"Jinja tag '{text}' is not supported: only '{{{{path}}}}' placeholders are replaced; for conditional "
            f"content {_CONDITIONAL_HINT}",
            pointer,
            span=span,
        )
    if kind == "raw":
        if token.segments:
            path = ".".join(s.text for s in token.segments)
            replacement = f"{{{{{path}}}}}"
            return UNSUPPORTED.finding(
                f"Triple braces / raw output '{text}' are not supported and leave stray braces: use '{replacement}'",
                pointer,
                span=span,
                fixes=(
                    Fix(
                        f"Change to '{replacement}'",
                        (ReplaceInString(pointer, token.start, token.end, replacement),),
                        safe=True,
                        preferred=True,
                    ),
                ),
            )
        return UNSUPPORTED.finding(f"Triple braces / raw output '{text}' are not supported", pointer, span=span)
    if kind == "empty":
        return MALFORMED.finding(
            f"Empty template '{text}': put a path inside, e.g. '{{{{trigger_data.subject}}}}'", pointer, span=span
        )
    if kind == "expression":
        return MALFORMED.finding(
            f"Only a dotted path can go inside '{{{{ }}}}' (e.g. '{{{{trigger_data.subject}}}}'): '{text}' is not one;"
            " filters, helpers and operators are not evaluated",
            pointer,
            span=span,
        )
    if kind == "unclosed":
        return _unclosed(token, pointer)
    if kind == "stray_close":
        return _stray(token, pointer)
    return None


def _unclosed(token: Token, pointer: Pointer) -> Finding:
    span = (token.start, token.end)
    inner = token.inner
    valid = parse_path(inner) is not None
    if token.single_brace:
        message = f"Template '{token.text}' is missing a closing brace: write '{{{{{inner}}}}}'"
    else:
        message = f"Unclosed template '{token.text}': add '}}}}' after the path"
    fixes: tuple[Fix, ...] = ()
    if valid:
        replacement = f"{{{{{inner}}}}}"
        fixes = (
            Fix(
                f"Close as '{replacement}'",
                (ReplaceInString(pointer, token.start, token.end, replacement),),
                False,
                True,
            ),
        )
    return UNBALANCED.finding(message, pointer, span=span, fixes=fixes)


def _stray(token: Token, pointer: Pointer) -> Finding:
    span = (token.start, token.end)
    word = token.text.lstrip("{")[:-2]
    replacement = f"{{{{{word}}}}}"
    if token.single_brace:
        message = f"Template '{token.text}' is missing an opening brace: write '{replacement}'"
    else:
        message = f"'}}}}' after '{word}' closes no template: write '{replacement}' or remove the braces"
    fix = Fix(
        f"Change to '{replacement}'", (ReplaceInString(pointer, token.start, token.end, replacement),), False, True
    )
    return UNBALANCED.finding(message, pointer, span=span, fixes=(fix,))


# --- references -------------------------------------------------------------------------------------------


def _where_label(ref: Reference) -> str:
    if ref.token is not None:
        return f"'{ref.token.text}'"
    return f"Condition path '{ref.path}'"


def _subject(ref: Reference) -> str:
    return f"Template '{ref.token.text}'" if ref.token is not None else f"Condition path '{ref.path}'"


def reference_findings(view: AutomationView, ref: Reference, res: Resolution) -> Iterator[Finding]:
    span = ref.span if ref.token is not None else None
    pointer = ref.pointer
    segments = ref.segments
    status = res.status
    if status == "ok":
        return
    if status == "event_data":
        first = segments[0]
        fixed = ".".join(["trigger_data", *(s.text for s in segments[1:])])
        shown = f"{{{{{fixed}}}}}" if ref.token is not None else fixed
        yield EVENT_DATA.finding(
            f"{_subject(ref)}: there is no 'event_data'; the trigger's data is 'trigger_data' ('{shown}')",
            pointer,
            span=span,
            fixes=(
                Fix(
                    "Change 'event_data' to 'trigger_data'",
                    (ReplaceInString(pointer, first.start, first.end, "trigger_data"),),
                    safe=True,
                    preferred=True,
                ),
            ),
        )
        return
    if status == "webhook_array":
        index = res.missing_at or 0
        kept = [s.text for i, s in enumerate(segments) if i != index]
        fixed = ".".join(kept)
        bare = ".".join(kept[1:]) if kept and kept[0] == "trigger_data" else fixed
        if ref.token is None:
            shown = f"'{fixed}'"
        elif bare != fixed:
            shown = f"'{{{{{fixed}}}}}' (or '{{{{{bare}}}}}')"
        else:
            shown = f"'{{{{{fixed}}}}}'"
        start, end = _index_span(ref, index)
        yield WEBHOOK_ARRAY.finding(
            f"{_subject(ref)}: webhook trigger data is one object, not a list; use {shown}",
            pointer,
            span=span,
            fixes=(
                Fix(
                    f"Remove the index '{segments[index].text}'",
                    (ReplaceInString(pointer, start, end, ""),),
                    False,
                    True,
                ),
            ),
        )
        return
    if status == "unknown":
        yield _unknown(view, ref, res)
        return
    if status in ("later_output", "own_output") and res.action is not None:
        action = res.action
        place = _subject(ref)
        if status == "own_output":
            message = (
                f"{place} uses '{res.root}', the output_as of this same action: it is set only after the action runs"
            )
        else:
            message = (
                f"{place} uses '{res.root}', the output of action {action.label} (#{action.index + 1}), which runs "
                "later: only the output_as of earlier actions can be used. Move that action before this one"
            )
        yield LATER_OUTPUT.finding(
            message,
            pointer,
            span=span,
            related=(Related(f"'{res.root}' is set here", ("actions", action.index, "output_as")),),
        )
        return
    if status == "not_found":
        yield _not_found(ref, res)
        return
    if status == "no_trigger_data":
        yield UNAVAILABLE.finding(
            f"{_subject(ref)}: {view.trigger_type} automations have no trigger data; fetch the data with an action "
            "and use its output_as",
            pointer,
            span=span,
            severity=Severity.WARNING,
        )
        return
    if status == "unavailable":
        if ref.where.area == "tool_params":
            message = (
                f"{_subject(ref)} cannot be used in tool_params: they are resolved before the source tool runs, "
                f"when there {'is no trigger data' if res.kind == 'trigger_data' else 'are no action outputs'} yet "
                "(built-ins, user and variables can be used)"
            )
        else:
            message = (
                f"{_subject(ref)}: built-ins such as '{res.root}' are replaced only inside '{{{{ }}}}' templates; "
                f'a condition path cannot use them (compare with a value such as "{{{{{res.root}}}}}" instead)'
            )
        yield UNAVAILABLE.finding(message, pointer, span=span)


def _index_span(ref: Reference, index: int) -> tuple[int, int]:
    """The characters to delete to drop segment `index` with its dot (`.0`) or brackets (`[0]`)."""
    segments = ref.segments
    seg = segments[index]
    if seg.start > 0 and ref.text[seg.start - 1 : seg.start] == "[":
        return seg.start - 1, seg.end + 1
    if index > 0:
        return segments[index - 1].end, seg.end
    if len(segments) > 1:
        return seg.start, segments[1].start
    return seg.start, seg.end


def _unknown(view: AutomationView, ref: Reference, res: Resolution) -> Finding:
    span = ref.span if ref.token is not None else None
    root = res.root
    first = ref.segments[0]
    if ref.token is not None:
        message = f"Unknown template variable '{root}' in '{ref.token.text}'."
    else:
        message = f"Condition path '{ref.path}' does not resolve: '{root}' is unknown."
    severity: Severity | None = None
    if res.suggestions:
        message += f" Did you mean '{res.suggestions[0]}'?"
    if res.shorthand_guess:
        severity = Severity.WARNING
        message += (
            f" ('{root}' is not a variable, built-in or earlier output, so it would be read from the trigger data as "
            f"'trigger_data.{root}')"
        )
    elif not res.suggestions:
        message += " " + _available_names(view, ref, res)
    fixes = tuple(
        Fix(f"Change to '{name}'", (ReplaceInString(ref.pointer, first.start, first.end, name),), preferred=i == 0)
        for i, name in enumerate(res.suggestions)
    )
    return UNKNOWN_VARIABLE.finding(message, ref.pointer, span=span, severity=severity, fixes=fixes)


def _available_names(view: AutomationView, ref: Reference, res: Resolution) -> str:
    if ref.where.area == "tool_params":
        return "In tool_params only built-ins (today, yesterday, now, …), user and variables can be used"
    parts = ["trigger_data", "user", "a built-in (today, yesterday, now, …)"]
    if view.variables:
        parts.append("a variable (" + ", ".join(list(view.variables)[:6]) + ")")
    outputs = [name for name in res.known if view.output_definers(name)]
    if outputs:
        parts.append("the output_as of an earlier action (" + ", ".join(outputs[:6]) + ")")
    else:
        parts.append("the output_as of an earlier action (none before this one)")
    text = "A path starts with " + ", ".join(parts[:-1]) + " or " + parts[-1]
    if res.available:
        text += f"; trigger data fields ({res.origin}): " + ", ".join(res.available[:12])
    elif view.trigger_type in ("schedule_recurring", "schedule_once", "manual"):
        text += f"; {view.trigger_type} automations have no trigger data"
    return text


def _not_found(ref: Reference, res: Resolution) -> Finding:
    span = ref.span if ref.token is not None else None
    index = res.missing_at if res.missing_at is not None else len(ref.segments) - 1
    missing = ref.segments[index]
    path_text = ref.path
    parent = ".".join(s.text for s in ref.segments[:index])
    trigger = res.kind in ("trigger_data", "trigger_field")
    rule = TRIGGER_PATH if trigger else OUTPUT_PATH
    message = f"Path '{path_text}' not found in {res.origin}."
    own = [f.name for f in res.fields if f.via is None]
    copied = [f.name for f in res.fields if f.via is not None]
    if own or copied:
        level = f"Fields of '{parent}'" if res.nested else "Available fields"
        message += f" {level}: " + ", ".join(own[:20]) + (", …" if len(own) > 20 else "")
        if copied:
            message += (
                "; also readable at the top level: " + ", ".join(copied[:12]) + (", …" if len(copied) > 12 else "")
            )
    else:
        message += f" '{parent or res.root}' ({res.shape.type}) has no fields"
    fixes = tuple(
        Fix(f"Change to '{name}'", (ReplaceInString(ref.pointer, missing.start, missing.end, name),), preferred=i == 0)
        for i, name in enumerate(res.suggestions)
    )
    return rule.finding(message, ref.pointer, span=span, fixes=fixes, data={"field": missing.text})


def template_type_finding(
    value: str, schemas: list[JsonObject], tool: str, key: str, pointer: Pointer
) -> Finding | None:
    """TS509: a templated string in a parameter that does not accept strings."""
    kinds = json_types(schemas)
    if not kinds or "string" in kinds:
        return None
    tokens = [t for t in scan(value) if t.kind == "path"]
    if not tokens:
        return None
    wanted = " or ".join(sorted(kinds))
    first = tokens[0]
    whole = len(tokens) == 1 and not value[: first.start].strip() and not value[first.end :].strip()
    shown = f"'{first.text}'" if whole else "the text"
    return TEMPLATE_TYPE.finding(
        f"Parameter '{key}' of tool '{tool}' expects {wanted}, but templates always produce text: {shown} is sent as "
        "a string, so the tool must accept one here",
        pointer,
        span=(first.start, first.end) if whole else None,
    )
