#!/usr/bin/env python3
"""One documentation page per rule, docs/rules/TSxxx.md, generated from the rule catalog and docs/rule-source/.

    python scripts/rule_pages.py            write the pages (and drop pages of rules that are gone)
    python scripts/rule_pages.py --check    exit 1 when a page is missing, stale or left over

The catalog (`toolsense.rules.CATALOG`) gives each rule's code, name, default severity, summary, family and quick
fix; docs/rule-source/<family>.toml gives what the catalog cannot: why a provider or client cares (with the
source), a wrong example and the right one (files and their names, as `toolsense check` reads them), and the
settings that change the rule. docs/accuracy.md gives the measured precision. tests/docs/test_rule_pages.py runs
every example through the checker and keeps the pages equal to this script's output.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomllib

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))

from toolsense.cli import main as toolsense  # noqa: E402
from toolsense.engine.catalog import Rule  # noqa: E402
from toolsense.rules import CATALOG  # noqa: E402

SOURCE = ROOT / "docs" / "rule-source"
PAGES = ROOT / "docs" / "rules"
ACCURACY = ROOT / "docs" / "accuracy.md"
OPT_IN_PROFILES = {"mcp-quality:": "mcp-quality", "mcp-security:": "mcp-security"}


@dataclass(frozen=True)
class Example:
    """Files checked together as one workspace; `file` is the one the page shows (and the finding is in)."""

    file: str
    json: str
    message: str = ""
    """Text the finding's message contains (the wrong example only)."""
    config: str = ""
    """A toolsense.toml for the check (passed with --config)."""
    extra: dict[str, str] = field(default_factory=dict)
    """Other files of the workspace, by name."""


@dataclass(frozen=True)
class RuleDoc:
    code: str
    why: str
    sources: tuple[str, ...] = ()
    settings: str = ""
    wrong: Example | None = None
    right: Example | None = None
    not_runnable: str = ""
    """Why the page has no example the test can run (a live server, a binary file, a bug in toolsense)."""


def _example(data: dict[str, Any] | None, base: Example | None = None) -> Example | None:
    if data is None:
        return None
    return Example(
        file=data.get("file", base.file if base else ""),
        json=data["json"].strip("\n"),
        message=data.get("message", ""),
        config=data.get("config", base.config if base else ""),
        extra=data.get("extra", base.extra if base else {}),
    )


def load_docs(source: Path = SOURCE) -> dict[str, RuleDoc]:
    """Every rule's documentation, by code, from the family files."""
    docs: dict[str, RuleDoc] = {}
    for path in sorted(source.glob("*.toml")):
        for code, entry in tomllib.loads(path.read_text(encoding="utf-8")).items():
            if code in docs:
                raise ValueError(f"{code} documented twice ({path.name})")
            wrong = _example(entry.get("wrong"))
            docs[code] = RuleDoc(
                code=code,
                why=entry["why"].strip(),
                sources=tuple(entry.get("sources", ())),
                settings=entry.get("settings", "").strip(),
                wrong=wrong,
                right=_example(entry.get("right"), wrong),
                not_runnable=entry.get("not_runnable", "").strip(),
            )
    return docs


def precision_rows(accuracy: str) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """From docs/accuracy.md: the row of each family's errors, and each security rule's benign and malicious rows."""
    family: dict[str, str] = {}
    benign: dict[str, str] = {}
    recall: dict[str, str] = {}
    section = ""
    for line in accuracy.splitlines():
        if line.startswith("#"):
            section = line.strip("# ").lower()
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 3 or set(cells[1]) <= {"-"}:
            continue
        if section == "errors by rule family":
            family[cells[0]] = (
                f"{cells[1]} errors on the wild corpus: {cells[2]} real, {cells[3]} false, {cells[4]} debatable; "
                f"precision {cells[7]} (strict {cells[6]}), recall {cells[8]}"
            )
        elif section.startswith("benign set") and re.fullmatch(r"TS\d{3}", cells[0]):
            benign[cells[0]] = f"{cells[1]} on ../shared/corpus, {cells[2]} on the wild corpus"
        elif section.startswith("malicious set") and re.fullmatch(r"TS\d{3}", cells[0]):
            recall[cells[0]] = f"{cells[2]} of {cells[1]} malicious rows"
    return family, benign, recall


def family_anchor(family: str) -> str:
    """The anchor of a family's heading in rules.md (as GitHub and MkDocs both make it)."""
    return re.sub(r"[^\w\- ]", "", family.lower()).replace(" ", "-")


def _fence(example: Example) -> list[str]:
    lines = [f"`{example.file}`:", "", "```json", example.json, "```", ""]
    for name, text in example.extra.items():
        language = "python" if name.endswith(".py") else "json"
        lines += [f"with `{name}` in the same workspace:", "", f"```{language}", text.strip("\n"), "```", ""]
    if example.config:
        lines += ["and this `toolsense.toml`:", "", "```toml", example.config.strip("\n"), "```", ""]
    return lines


def _run(example: Example, options: list[str], config_before: str = "") -> str:
    """What `toolsense check . OPTIONS` prints on stdout, run inside a folder holding the example's files and its
    toolsense.toml (`config_before` + the example's configuration)."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder).resolve()
        for name, text in {example.file: example.json, **example.extra}.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text.strip("\n") + "\n", encoding="utf-8")
        args = ["check", ".", "--jobs", "1", *options]
        if example.config or config_before:
            (root / "toolsense.toml").write_text(config_before + example.config, encoding="utf-8")
            args += ["--config", "toolsense.toml"]
        out = io.StringIO()
        # From inside the folder, as a user runs it: messages name files relative to it.
        with contextlib.chdir(root), contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            try:
                code = toolsense(args)
            finally:
                _forget_imports(root)
        if code not in (0, 1):
            raise RuntimeError(f"toolsense check of {example.file} exited {code}")
        return out.getvalue()


def check(example: Example) -> list[dict[str, Any]]:
    """The diagnostics `toolsense check --format json` gives the example's files (paths relative to its folder)."""
    found: list[dict[str, Any]] = json.loads(_run(example, ["--format", "json"]))
    for diagnostic in found:
        diagnostic["path"] = Path(os.path.normpath(diagnostic["path"])).as_posix()
    return found


def fix_diff(code: str, example: Example, unsafe: bool) -> list[str]:
    """The diff `toolsense check --diff` (with `--unsafe-fixes` when `unsafe`) shows for this rule's findings alone
    (every other rule off)."""
    others = ", ".join(f'{other} = "off"' for other in sorted(CATALOG.rules) if other != code)
    printed = _run(example, ["--diff", *(["--unsafe-fixes"] if unsafe else [])], f"severity = {{ {others} }}\n")
    return [line for line in printed.splitlines() if line[:1] in ("-", "+", "@", " ")]


def _forget_imports(root: Path) -> None:
    """Drop the example's registered models from this process (sys.modules, sys.path), so that the next example
    with a module of the same name imports its own."""
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if file and Path(file).resolve().is_relative_to(root):
            del sys.modules[name]
    sys.path[:] = [p for p in sys.path if not Path(p or ".").resolve().is_relative_to(root)]


def reported(code: str, example: Example) -> list[str]:
    """The rule's findings in the example's file, as `toolsense check` prints them."""
    return [
        f"{d['path']}:{d['range']['start']['line'] + 1}:{d['range']['start']['character'] + 1}: "
        f"{d['severity']} {d['code']} {d['message']}"
        for d in check(example)
        if d["code"] == code and d["path"] == example.file
    ]


def _fix_section(rule: Rule, doc: RuleDoc) -> list[str]:
    """The quick fix, and whether `--fix` applies it, shown as the diff it makes to the wrong example."""
    if not rule.fix:
        return ["No automatic fix: the change needs a decision only the author can make (see the example).", ""]
    lines = [f"Quick fix (an editor code action; `toolsense check --fix` applies the safe ones): {rule.fix}.", ""]
    if doc.wrong is None:
        return lines
    safe = fix_diff(rule.code, doc.wrong, unsafe=False)
    if safe:
        return [
            *lines,
            "Safe here: `toolsense check --fix` applies it to the wrong example:",
            "",
            "```diff",
            *safe,
            "```",
            "",
        ]
    unsafe = fix_diff(rule.code, doc.wrong, unsafe=True)
    if unsafe:
        return [
            *lines,
            "Not safe here (it may change what the file means): offered in the editor, and applied by "
            "`toolsense check --fix --unsafe-fixes`:",
            "",
            "```diff",
            *unsafe,
            "```",
            "",
        ]
    return [*lines, "The wrong example above gets no automatic fix.", ""]


def render(rule: Rule, doc: RuleDoc, accuracy: str) -> str:
    family_rows, benign, recall = precision_rows(accuracy)
    profile = next((p for prefix, p in OPT_IN_PROFILES.items() if rule.summary.startswith(prefix)), "")
    lines = [
        f"# {rule.code} `{rule.name}`",
        "",
        f"**Default severity:** {rule.severity.label} · **Family:** "
        f"[{rule.family}](../rules.md#{family_anchor(rule.family)})"
        + (f" · **Runs under the `{profile}` profile only**" if profile else ""),
        "",
        "<!-- Generated by `python scripts/rule_pages.py` from the rule catalog and docs/rule-source/; "
        "do not edit by hand. -->",
        "",
        "## What it finds",
        "",
        rule.summary,
        "",
        "## Why it matters",
        "",
        doc.why,
        "",
    ]
    if doc.sources:
        lines += ["Sources:", ""] + [f"- <{s}>" for s in doc.sources] + [""]
    lines += ["## Example", ""]
    if doc.wrong is not None and doc.right is not None:
        lines += ["Wrong:", "", *_fence(doc.wrong)]
        lines += ["`toolsense check` reports:", "", "```text", *reported(rule.code, doc.wrong), "```", ""]
        lines += ["Right:", "", *_fence(doc.right)]
        lines += [f"No {rule.code}.", ""]
    else:
        lines += [f"No example the test suite can run: {doc.not_runnable}", ""]
    lines += ["## Fix", "", *_fix_section(rule, doc)]
    lines += [
        "## Settings and profiles",
        "",
        f'- Severity: `severity = {{ {rule.code} = "warning" }}` in toolsense.toml (`[tool.toolsense.severity]` in '
        'pyproject.toml); `"off"` turns it off.',
        f'- Not reported for some files or tools: `ignore = {{ "tools/*.json" = {{ "*" = ["{rule.code}"] }} }}`; in a '
        f"file that allows comments, `// toolsense-ignore {rule.code}` above the member.",
    ]
    if profile:
        lines.append(f'- Off unless the profile is enabled: `profiles = ["{profile}"]`.')
    if doc.settings:
        lines += [f"- {doc.settings}"]
    lines += ["", "## Measured precision", ""]
    measured = []
    if rule.family in family_rows:
        measured.append(f"- Family ({rule.family}): {family_rows[rule.family]}.")
    if rule.code in benign:
        measured.append(f"- Benign set (`mcp-security` on): {benign[rule.code]}.")
    if rule.code in recall:
        measured.append(f"- Malicious set: found {recall[rule.code]}.")
    lines += measured or ["Not measured separately in [accuracy](../accuracy.md)."]
    if measured:
        lines += ["", "From [accuracy](../accuracy.md)."]
    return "\n".join(lines) + "\n"


def pages(source: Path = SOURCE) -> dict[str, str]:
    """Every rule's page, by file name; a rule without documentation is an error."""
    docs = load_docs(source)
    missing = sorted(set(CATALOG.rules) - set(docs))
    unknown = sorted(set(docs) - set(CATALOG.rules))
    if missing or unknown:
        raise ValueError(f"rules without documentation: {missing}; documentation of no rule: {unknown}")
    accuracy = ACCURACY.read_text(encoding="utf-8")
    return {f"{code}.md": render(CATALOG.rules[code], docs[code], accuracy) for code in sorted(CATALOG.rules)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only report pages that differ")
    args = parser.parse_args()
    wanted = pages()
    present = {p.name for p in PAGES.glob("TS*.md")}
    stale = sorted(n for n, t in wanted.items() if not (PAGES / n).is_file() or (PAGES / n).read_text("utf-8") != t)
    extra = sorted(present - set(wanted))
    if args.check:
        for name in stale + extra:
            print(f"docs/rules/{name}: stale")
        return 1 if stale or extra else 0
    PAGES.mkdir(exist_ok=True)
    for name in stale:
        (PAGES / name).write_text(wanted[name], encoding="utf-8")
    for name in extra:
        (PAGES / name).unlink()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
