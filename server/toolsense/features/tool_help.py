"""Editor help for tool definitions and tool calls, plugged into `features.providers.PROVIDERS`:

- hover on a tool's name (in a tool definition): its budget — properties, nesting depth, enum values,
  characters, optional and union parameters — against each profile that applies (`domain.providers`);
- completion and hover inside a tool call's input from the tool's *registered* pydantic model (when the
  workspace is trusted and the model is loaded: the server puts the `ModelRegistry` in `query.models`),
  so property names, enum values and descriptions come from the very model that validates the call. Without
  a model the built-in completion answers from the tool's `input_schema`.
"""

from __future__ import annotations

from ..document.jsontree import Pointer
from ..domain.compat import TARGET_IDS, assess_all
from ..domain.providers import AS_OF, active_profiles, profile_limits, tool_budget
from ..domain.tool import ToolView, tool_view
from ..engine.token_costs import document_costs, total
from ..engine.units import Unit
from ..models.definitions import NAME_KEY
from ..settings import Settings
from ..tokens import count_tool
from . import completion, hover, markdown
from .providers import PROVIDERS, CompletionCandidate, CursorQuery, HoverAnswer
from .sites import Site, call_tool_name
from .symbols import MAX_UNITS_WITH_CHILDREN

_CALL_INPUT: dict[str, Pointer] = {
    "anthropic-call": ("input",),
    "openai-call": ("function", "arguments"),
    "openai-flat-call": ("arguments",),
    "input": (),
}


def _as_unit(query: CursorQuery) -> Unit | None:
    ref = query.unit
    if ref is None:
        return None
    return Unit(ref.kind, ref.pointer, ref.value, ref.dialect, ref.start, ref.start, True)


def _hovered(query: CursorQuery) -> tuple[Pointer, str] | None:
    context = query.cursor
    if context.replace_start == context.replace_end or query.unit is None:
        return None
    if context.slot == "key":
        return (*query.relative, query.token_text()), "key"
    if context.slot == "value":
        return query.relative, "value"
    return None


def budget_hover(query: CursorQuery) -> HoverAnswer | None:
    """On a tool definition's name (key or value): the tool's budget against the profiles that apply."""
    unit = _as_unit(query)
    if unit is None or unit.kind != "tool":
        return None
    hovered = _hovered(query)
    view = tool_view(unit)
    if hovered is None or view is None or hovered[0] != NAME_KEY.get(view.dialect):
        return None
    span = (query.cursor.replace_start, query.cursor.replace_end)
    parts = (budget_markdown(view, query.settings), compat_markdown(view, query.settings), tokens_markdown(query, view))
    return HoverAnswer("\n\n".join(parts), span)


def compat_markdown(view: ToolView, settings: Settings) -> str:
    """One line: which targets (the chosen ones, else all) accept, change or reject the tool, and at which keyword
    (the target's message is TS264's, for the targets chosen in settings)."""
    assessments = assess_all(view, settings.targets or TARGET_IDS)
    groups: dict[str, list[str]] = {"rejected": [], "changed": [], "accepted": [], "unknown": []}
    for assessment in assessments:
        label = f"`{assessment.target}`"
        shown = assessment.first("rejected") or assessment.first("changed")
        if shown is not None and assessment.verdict in ("rejected", "changed"):
            inside = shown.pointer[: len(view.schema_pointer)] == view.schema_pointer
            where = "/".join(str(part) for part in shown.pointer[len(view.schema_pointer) if inside else 0 :])
            label += f" at `{where or 'schema'}`"
        groups[assessment.verdict].append(label)
    words = {"rejected": "rejected by", "changed": "changed by", "accepted": "accepted by", "unknown": "unknown for"}
    said = [f"{words[v]} {', '.join(names)}" for v, names in groups.items() if names]
    return "Targets (docs/compat.md): " + "; ".join(said) + "."


def tokens_markdown(query: CursorQuery, view: ToolView) -> str:
    """What the tool costs in tokens with every request, and the file's tools together."""
    lines = [f"Tokens: {count_tool(view.value, view.dialect).label()} with every request."]
    costs = document_costs(query.document, query.kind, max_units=MAX_UNITS_WITH_CHILDREN)
    if len(costs) > 1:
        lines.append(f"The file's {len(costs)} tools: {total(costs).label()}.")
    return "\n\n".join(lines)


def model_site(query: CursorQuery, pointer: Pointer | None = None, *, inside: bool = False) -> Site | None:
    """The registered model's schema for a place inside a tool call's input; None when there is no model."""
    unit = query.unit
    models = query.models
    if unit is None or unit.kind != "tool_call" or models is None:
        return None
    dialect = unit.dialect or "anthropic-call"
    input_key = _CALL_INPUT.get(dialect)
    pointer = query.relative if pointer is None else pointer
    if input_key is None or pointer[: len(input_key)] != input_key:
        return None
    if len(pointer) == len(input_key) and not inside:
        return None
    name = call_tool_name(dialect, unit.value, query.settings, query.uri)
    loaded = models.model_for(name) if name else None
    if loaded is None:
        return None
    subject = f"input of {name} — registered model {loaded.location}"
    return Site("instance", loaded.schema, pointer[len(input_key) :], input_key, subject, loaded.model, None)


def model_completion(query: CursorQuery) -> list[CompletionCandidate] | None:
    context = query.cursor
    if context.container == "none":
        return None
    if context.slot == "key":
        site = model_site(query, inside=True)
        return completion._property_candidates(query, site) if site is not None else None
    if context.slot == "value":
        site = model_site(query)
        return completion._value_candidates(query, site) if site is not None else None
    return None


def model_hover(query: CursorQuery) -> HoverAnswer | None:
    hovered = _hovered(query)
    if hovered is None:
        return None
    pointer, part = hovered
    site = model_site(query, pointer)
    if site is None:
        return None
    text = hover._field_text(query, site, pointer, part)
    if not text:
        return None
    return HoverAnswer(text, (query.cursor.replace_start, query.cursor.replace_end))


def tool_help_hover(query: CursorQuery) -> HoverAnswer | None:
    return budget_hover(query) or model_hover(query)


PROVIDERS.hover(tool_help_hover)
PROVIDERS.completion(model_completion)


def budget_markdown(view: ToolView, settings: Settings) -> str:
    """Hover text for a tool's name: its budget against each profile that applies (or the dialect's own)."""
    if not isinstance(view.schema, dict):
        return f"**{markdown.text(view.name or 'tool')}**: no input schema"
    budget = tool_budget(view.schema, settings.limits.max_schema_depth, settings.limits.max_subschemas)
    names = active_profiles(view, settings)
    if not names:
        names = [{"anthropic": "anthropic", "mcp": "mcp"}.get(view.dialect, "openai")]
    rows = [
        ("properties", budget.properties, "max_properties"),
        ("nesting depth", budget.depth, "max_depth"),
        ("enum values", budget.enum_values, "max_enum_values"),
        ("characters (names + enum values)", budget.total_chars, "max_total_chars"),
        ("optional parameters", budget.optional_parameters, "max_optional_parameters"),
        ("union (anyOf / type-array) parameters", budget.union_parameters, "max_union_parameters"),
    ]
    header = "| | this tool | " + " | ".join(names) + " |"
    lines = [f"**{markdown.text(view.name or 'tool')}** — budget (limits as of {AS_OF})", "", header]
    lines.append("|---|---:|" + "---:|" * len(names))
    for label, count, key in rows:
        cells = []
        for name in names:
            limit = getattr(profile_limits(name, settings), key)
            if limit is None:
                cells.append("—")
            else:
                mark = " ⚠" if count > limit else ""
                cells.append(f"{limit}{mark}")
        lines.append(f"| {label} | {count} | " + " | ".join(cells) + " |")
    if budget.largest_enum:
        lines.append("")
        lines.append(f"Largest enum: {budget.largest_enum} values, {budget.largest_enum_chars} characters.")
    if budget.recursive:
        lines.append("")
        lines.append("The schema is recursive (a `$ref` cycle).")
    return "\n".join(lines)
