"""Issue 34 §2 on real history: pairs of tool definitions from github/github-mcp-server's `__toolsnaps__` (one
commit's parent and the commit; tests/corpus/diff/SOURCE.md), each change sorted as a reviewer of that pull request
would sort it."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolsense.cli import app as cli
from toolsense.cli.finding_keys import pointer_text
from toolsense.cli.surface_diff import build_report

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "diff" / "github-mcp-server"
P = "/inputSchema/properties"
CONFIDENCE = f"{P}/fields/items/properties/confidence"

EXPECTED: dict[str, tuple[str, list[tuple[str, str, str, str | None, str | None]]]] = {
    # #2601: a new optional parameter: every caller keeps working.
    "show-ui-added": (
        "minor",
        [("additive", "optional-parameter-added", "optional parameter 'show_ui' added", P, f"{P}/show_ui")],
    ),
    # #2774: the same parameter removed eleven days later: a caller that sends it may be refused.
    "show-ui-removed": (
        "major",
        [("breaking", "parameter-removed", "parameter 'show_ui' removed", f"{P}/show_ui", P)],
    ),
    # #1428 (the move to the Go SDK): `state` became required; `readOnlyHint: false` dropped is its default.
    "go-sdk-state-required": (
        "major",
        [
            (
                "breaking",
                "parameter-now-required",
                "parameter 'state' is now required",
                "/inputSchema/required",
                "/inputSchema/required",
            )
        ],
    ),
    # #1192: `method` went from any string to six values.
    "method-enum": (
        "major",
        [
            (
                "breaking",
                "enum-introduced",
                'parameter \'method\': now only "get", "get_diff", "get_status", "get_files", "get_review_comments" '
                "and 1 more",
                f"{P}/method",
                f"{P}/method/enum",
            )
        ],
    ),
    # #2715: the enum's values upper-cased: the old spelling is refused now.
    "confidence-uppercase": (
        "major",
        [
            (
                "breaking",
                "enum-value-removed",
                'parameter \'fields[].confidence\': enum values "low", "medium", "high" removed',
                f"{CONFIDENCE}/enum",
                f"{CONFIDENCE}/enum",
            ),
            (
                "risky",
                "parameter-text-changed",
                "parameter 'fields[].confidence': description changed",
                f"{CONFIDENCE}/description",
                f"{CONFIDENCE}/description",
            ),
            (
                "additive",
                "enum-value-added",
                'parameter \'fields[].confidence\': enum values "LOW", "MEDIUM", "HIGH" added',
                f"{CONFIDENCE}/enum",
                f"{CONFIDENCE}/enum",
            ),
        ],
    ),
    # "validate issue comment input modes": body or reaction now required (anyOf), ids integers.
    "comment-id-integer": (
        "major",
        [
            (
                "breaking",
                "constraint-tightened",
                "the input: anyOf added (a value must now also match one of its variants)",
                "/inputSchema",
                "/inputSchema/anyOf",
            ),
            (
                "breaking",
                "constraint-tightened",
                "parameter 'body': minLength 1 added",
                f"{P}/body",
                f"{P}/body/minLength",
            ),
            (
                "breaking",
                "type-narrowed",
                "parameter 'comment_id': type narrowed from number to integer",
                f"{P}/comment_id/type",
                f"{P}/comment_id/type",
            ),
            (
                "risky",
                "keyword-changed",
                'the input: dependentSchemas changed from (none) to {"comment_id": {"not": {"required": ["b…',
                "/inputSchema",
                "/inputSchema/dependentSchemas",
            ),
        ],
    ),
    # Three days later, "flatten issue comment input schema": that anyOf lifted again.
    "comment-schema-flattened": (
        "minor",
        [
            (
                "risky",
                "keyword-changed",
                'the input: dependentSchemas changed from {"comment_id": {"not": {"required": ["b… to (none)',
                "/inputSchema/dependentSchemas",
                "/inputSchema",
            ),
            (
                "additive",
                "constraint-loosened",
                "the input: anyOf removed (its variants no longer restrict a value)",
                "/inputSchema/anyOf",
                "/inputSchema",
            ),
        ],
    ),
    # #2664: only the title clients show changed.
    "title-pull-requests": (
        "patch",
        [
            (
                "risky",
                "annotation-changed",
                'annotation title changed from "Add comment to issue" to "Add comment to issue or pull request"',
                "/annotations/title",
                "/annotations/title",
            )
        ],
    ),
    # #2961: project views: a new method value, a new optional parameter, the description says so.
    "projects-get-description": (
        "minor",
        [
            ("risky", "description-changed", "description changed", "/description", "/description"),
            ("additive", "optional-parameter-added", "optional parameter 'view_id' added", P, f"{P}/view_id"),
            (
                "additive",
                "enum-value-added",
                "parameter 'method': enum value \"get_project_view\" added",
                f"{P}/method/enum",
                f"{P}/method/enum",
            ),
        ],
    ),
}


def test_every_pair_in_the_corpus_is_pinned() -> None:
    assert sorted(path.name for path in (CORPUS / "pairs").iterdir()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_real_change_is_sorted(name: str) -> None:
    report = build_report([CORPUS / "pairs" / name / "old.json", CORPUS / "pairs" / name / "new.json"], None)
    level, changes = EXPECTED[name]
    found = [
        (
            c.klass.value,
            c.kind,
            c.message,
            None if c.old is None else pointer_text(c.old),
            None if c.new is None else pointer_text(c.new),
        )
        for c in report.changes
    ]
    assert (report.bump.level, found) == (level, changes)


def test_a_real_snapshot_folder_end_to_end(capsys: pytest.CaptureFixture[str]) -> None:
    """#1192 consolidated four pull-request review tools into one: the folder of tool files before and after."""
    folders = CORPUS / "folders" / "review-tools"
    status = cli.main(["diff", str(folders / "old"), str(folders / "new")])
    out = capsys.readouterr().out
    assert status == 1
    assert out.splitlines()[1:] == [
        "breaking (5)",
        "  create_and_submit_pull_request_review.json: tool 'create_and_submit_pull_request_review' removed",
        "      old create_and_submit_pull_request_review.json#",
        "  create_pending_pull_request_review.json: tool 'create_pending_pull_request_review' removed",
        "      old create_pending_pull_request_review.json#",
        "  delete_pending_pull_request_review.json: tool 'delete_pending_pull_request_review' removed",
        "      old delete_pending_pull_request_review.json#",
        '  pull_request_read.json: pull_request_read: parameter \'method\': now only "get", "get_diff", '
        '"get_status", "get_files", "get_review_comments" and 1 more',
        "      old pull_request_read.json#/inputSchema/properties/method; "
        "new pull_request_read.json#/inputSchema/properties/method/enum",
        "  submit_pending_pull_request_review.json: tool 'submit_pending_pull_request_review' removed",
        "      old submit_pending_pull_request_review.json#",
        "additive (1)",
        "  pull_request_review_write.json: tool 'pull_request_review_write' added",
        "      new pull_request_review_write.json#",
        "suggested version bump: major (5 breaking changes: a caller that worked before may fail)",
    ]
