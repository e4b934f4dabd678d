"""Fuzzing what the property tests (tests/property) do not: hostile *schemas* through the whole
engine, every fix of every valid corpus file, and the real server under random requests and out-of-range edits.

- Random JSON Schemas (nested, with local / remote / file / cyclic `$ref`s, evil patterns, patternProperties,
  huge bounds) with random examples and tool calls: no exception escapes the checker, every range lies inside the
  document, and no network connection is attempted.
- Every file of examples/ and ../shared/corpus/ that is valid JSON: every fix of every diagnostic, applied alone,
  leaves valid JSON (invariant 2's "every fix yields valid JSON" on real-world files).
- The server: random didChange edits (ranges past the end, inverted, mid-CRLF, mid-surrogate) and random
  completion / hover / symbol / code-action requests at any position: it never dies and answers every request.

Bounded by default; `TOOLSENSE_HYPOTHESIS_EXAMPLES=N` raises every example count here as in tests/property.
"""

from __future__ import annotations

import json
import os
import random
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from checking import CORPUS, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from propkit import assert_in_range
from rawrpc import ServerProcess

from toolsense.document.document import Document, new_parser
from toolsense.engine.checker import UnitCache, check_document
from toolsense.engine.context import CheckContext, ToolInfo, ToolRegistry
from toolsense.engine.units import kind_from_path
from toolsense.fixes import apply_edits, edits_for_fix
from toolsense.rules import CATALOG
from toolsense.settings import Settings

EXAMPLES = int(os.environ.get("TOOLSENSE_HYPOTHESIS_EXAMPLES", "0")) or None
SETTINGS = Settings()

# --- hostile schemas ---------------------------------------------------------------------------------------

PATTERNS = ["^[a-z]+$", "(a+)+$", "^(a|a?)+$", "(a{1,60}){1,60}b", "a*a*a*b", "[", "(?P<x>a)(?P=x)", "\\d{2,}"]
REFS = [
    "#",
    "#/$defs/a",
    "#/$defs/b",
    "#/$defs/missing",
    "#/properties/x",
    "#anchor",
    "http://127.0.0.1:9/x.json",
    "https://example.invalid/schema#/$defs/a",
    "file:///etc/passwd",
    "../../secret.json",
    "other.json#/a",
    "urn:x:y",
    "#/$defs/a/../../..",
    "#/%24defs/a",
]
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["a" * 40 + "!", "aaaa", "1" * 30 + "x", "é😀\u2028"]),
)
leaf_schemas = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["string", "integer", "number", "boolean", "null", "dict"])}),
    st.fixed_dictionaries({"type": st.just("string"), "pattern": st.sampled_from(PATTERNS)}),
    st.fixed_dictionaries({"enum": st.lists(scalars, max_size=5)}),
    st.fixed_dictionaries({"$ref": st.sampled_from(REFS)}),
    st.fixed_dictionaries({"minimum": scalars, "maximum": scalars, "multipleOf": st.sampled_from([0, 1e-300, 3])}),
    st.booleans(),
)


def _compound(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    names = st.sampled_from(["a", "b", "x", "city", "é", "", "$ref", "~1"])
    return st.one_of(
        st.fixed_dictionaries(
            {"type": st.just("object"), "properties": st.dictionaries(names, children, max_size=4)},
            optional={
                "required": st.lists(names, max_size=3),
                "additionalProperties": st.one_of(st.booleans(), children),
                "patternProperties": st.dictionaries(st.sampled_from(PATTERNS), children, max_size=2),
                "$defs": st.fixed_dictionaries({"a": children, "b": children}),
                "$anchor": st.just("anchor"),
            },
        ),
        st.fixed_dictionaries({"type": st.just("array"), "items": children}),
        st.tuples(st.sampled_from(["anyOf", "oneOf", "allOf"]), st.lists(children, max_size=3)).map(
            lambda pair: {pair[0]: pair[1]}
        ),
        st.fixed_dictionaries({"not": children}),
        st.fixed_dictionaries({"if": children, "then": children, "else": children}),
    )


schemas = st.recursive(leaf_schemas, _compound, max_leaves=20)
values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.sampled_from(["a", "b", "x", "city"]), children, max_size=4)
    ),
    max_leaves=12,
)

FUZZ = settings(
    max_examples=EXAMPLES or 40,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,  # the network tripwire is the same for every example, on purpose
    ],
)


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    attempts: list[Any] = []

    def refuse(self: socket.socket, address: Any) -> None:
        attempts.append(address)
        raise ConnectionRefusedError("no network in the hostile fuzz")

    def refuse_lookup(*args: Any, **kwargs: Any) -> Any:
        attempts.append(args[:1])
        raise socket.gaierror("no name resolution in the hostile fuzz")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse_lookup)
    yield attempts


@pytest.mark.timeout(600)
@FUZZ
@given(schema=schemas, example=values, arguments=values, dialect=st.sampled_from(["anthropic", "mcp", "openai"]))
def test_hostile_schemas_never_crash_the_engine(
    no_network: list[Any], schema: Any, example: Any, arguments: Any, dialect: str
) -> None:
    if dialect == "anthropic":
        tool: dict[str, Any] = {"name": "t", "description": "d", "input_schema": schema, "input_examples": [example]}
        name = "x.tool.json"
    elif dialect == "mcp":
        tool = {"name": "t", "description": "d", "inputSchema": schema, "outputSchema": schema}
        name = "x.mcp.tools.json"
    else:
        tool = {"type": "function", "function": {"name": "t", "description": "d", "parameters": schema}}
        name = "x.tool.json"
    text = json.dumps(tool, indent=1, ensure_ascii=False)
    document = Document(f"file:///w/{name}", bytearray(text.encode("utf-8", "surrogatepass")))
    ctx = CheckContext(SETTINGS, ToolRegistry(), document.uri, catalog=CATALOG)
    report = check_document(document, ctx, kind_from_path(f"/w/{name}", SETTINGS), UnitCache())
    assert_in_range(document, report.diagnostics)
    assert not [d for d in report.diagnostics if d.code == "TS900"], [d.message for d in report.diagnostics]

    # The same schema as a registered tool, and a call of it.
    registry = ToolRegistry()
    input_schema = schema if isinstance(schema, dict) else None
    registry.set_file(
        "file:///w/tools.json", [ToolInfo("t", "file:///w/tools.json", (), ("name",), "anthropic", input_schema)]
    )
    call = json.dumps({"type": "tool_use", "id": "toolu_1", "name": "t", "input": arguments}, ensure_ascii=False)
    call_document = Document("file:///w/calls/c.json", bytearray(call.encode("utf-8", "surrogatepass")))
    call_ctx = CheckContext(SETTINGS, registry, call_document.uri, catalog=CATALOG)
    call_report = check_document(call_document, call_ctx, "tool_call", UnitCache())
    assert_in_range(call_document, call_report.diagnostics)
    assert not [d for d in call_report.diagnostics if d.code == "TS900"], [d.message for d in call_report.diagnostics]
    assert no_network == []


# --- every fix of every valid real-world file ------------------------------------------------------------


def _valid_files() -> list[Path]:
    found: list[Path] = []
    for folder in (ROOT / "examples", CORPUS):
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*.json")):
            if path.stat().st_size > 300_000:
                continue
            try:
                json.loads(path.read_text(encoding="utf-8"))
            except (ValueError, UnicodeDecodeError):
                continue
            found.append(path)
    return found


VALID_FILES = _valid_files()


def _valid_json(data: bytes) -> bool:
    try:
        json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return False
    return not new_parser().parse(data).root_node.has_error


@pytest.mark.timeout(600)
@pytest.mark.corpus
@settings(max_examples=EXAMPLES or 40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(VALID_FILES or [ROOT / "pyproject.toml"]), kind=st.sampled_from(["tool", "path", None]))
def test_every_fix_of_a_valid_file_yields_valid_json(path: Path, kind: str | None) -> None:
    if not VALID_FILES:
        pytest.skip("no JSON files")
    data = path.read_bytes().removeprefix(b"\xef\xbb\xbf")
    document = Document(path.resolve().as_uri(), bytearray(data))
    hint = kind_from_path(str(path), SETTINGS) if kind == "path" else kind
    report = check_document(
        document, CheckContext(SETTINGS, ToolRegistry(), document.uri, catalog=CATALOG), hint, UnitCache()
    )  # type: ignore[arg-type]
    assert_in_range(document, report.diagnostics)
    for diagnostic in report.diagnostics:
        for fix in diagnostic.finding.fixes if diagnostic.finding is not None else ():
            edits = edits_for_fix(document, fix, snippets=False)
            if edits is None:
                continue
            fixed = apply_edits(document.data, edits)
            assert _valid_json(fixed), (path.name, diagnostic.code, fix.title)


# --- the real server under random requests ------------------------------------------------------------------


def _version_is(version: int) -> Callable[[dict[str, Any]], bool]:
    return lambda params: params.get("version") == version


_SERVER_ROUNDS = EXAMPLES or 300


@pytest.mark.timeout(600)
def test_the_server_survives_random_requests_and_edits(tmp_path: Path) -> None:
    _server_fuzz(tmp_path, _SERVER_ROUNDS, int(os.environ.get("TOOLSENSE_FUZZ_SEED", "8")))


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_server_survives_a_long_random_session(tmp_path: Path, seed: int) -> None:
    _server_fuzz(tmp_path, max(_SERVER_ROUNDS, 5000), seed)


def _server_fuzz(tmp_path: Path, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    seeds = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").rglob("*.json"))][:12]
    server = ServerProcess(tmp_path, log_level="WARNING")
    pieces = ["{", "}", "[", "]", '"', ":", ",", "\r\n", "\r", "\n", "\u2028", "😀", "é", "null", '"name": ', "//"]
    pieces += ["\ud800", "\udfff", "\x00", "\ufeff"]  # lone surrogates (JSON-RPC allows them), NUL, a BOM
    try:
        server.initialize(tmp_path, {"diagnostics": {"debounce_ms": 0}})
        docs: dict[str, tuple[str, int]] = {}
        for index, text in enumerate(seeds):
            name = ["tools/t{}.json", "automations/a{}.json", "calls/c{}.json", "x{}.tool.json"][index % 4]
            path = tmp_path / name.format(index)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            docs[server.open(path, text)] = (text, 1)
        pending: list[int] = []
        for _ in range(rounds):
            uri = rng.choice(list(docs))
            text, version = docs[uri]
            lines = max(text.count("\n"), 1)

            def position(lines: int = lines) -> dict[str, int]:
                return {"line": rng.randint(0, lines + 3), "character": rng.choice([0, 1, 2, 5, 40, 10_000])}

            action = rng.random()
            if action < 0.5:
                start, end = position(), position()
                if rng.random() < 0.8 and (end["line"], end["character"]) < (start["line"], start["character"]):
                    start, end = end, start
                new_text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 4)))
                server.change(uri, version + 1, [{"range": {"start": start, "end": end}, "text": new_text}])
                docs[uri] = (text, version + 1)  # the server's text is now its own; positions stay random anyway
            elif action < 0.6:
                server.change(uri, version + 1, [{"text": rng.choice(seeds) + rng.choice(pieces)}])
                docs[uri] = (text, version + 1)
            else:
                method = rng.choice(
                    [
                        "textDocument/completion",
                        "textDocument/hover",
                        "textDocument/definition",
                        "textDocument/references",
                        "textDocument/documentSymbol",
                        "textDocument/foldingRange",
                        "textDocument/codeAction",
                        "textDocument/diagnostic",
                    ]
                )
                params: dict[str, Any] = {"textDocument": {"uri": uri}}
                if method in ("textDocument/completion", "textDocument/hover", "textDocument/definition"):
                    params["position"] = position()
                elif method == "textDocument/references":
                    params["position"] = position()
                    params["context"] = {"includeDeclaration": True}
                elif method == "textDocument/codeAction":
                    params["range"] = {"start": position(), "end": position()}
                    params["context"] = {"diagnostics": []}
                pending.append(server.request_async(method, params))
        for ident in pending:
            answer = server.response(ident, 120)
            assert "error" not in answer or answer["error"].get("code") in (-32601, -32602), answer
        assert server.process.poll() is None, server.stderr_text()[-3000:]
        for uri, (_, version) in docs.items():
            server.wait_diagnostics(uri, 120, _version_is(version))
    finally:
        server.close()
    assert "Traceback" not in server.stderr_text(), server.stderr_text()[-5000:]
