"""`toolsense serve` over stdio with pytest-lsp: the one recording client, and a session around it.

`make_client` is pytest-lsp's client that also records every `publishDiagnostics` (with its version), every
capability registration and every `window/showDocument`; `CONFIG` starts a fresh server with it. `Session`
initializes with a capability profile, a workspace folder and initialization options, opens and edits
documents, and waits for what the server sends (diagnostics for a given version, messages, progress) without
racing it.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from lspstop import stop_server
from positions import locate, lsp_position
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
from waiting import until_async

SERVER = [sys.executable, "-m", "toolsense", "serve"]
TIMEOUT = 30.0


def vscode_capabilities() -> types.ClientCapabilities:
    """VS Code as vscode-languageclient 11 presents it: snippets, markdown, pull diagnostics with refresh,
    work-done progress, configuration, dynamic file watching, UTF-16 positions."""
    caps = client_capabilities("visual-studio-code")
    assert caps.text_document is not None and caps.workspace is not None
    caps.text_document.diagnostic = types.DiagnosticClientCapabilities(related_document_support=True)
    caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    caps.general = types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf16])
    return caps


def neovim_capabilities() -> types.ClientCapabilities:
    """Neovim 0.7: no snippets, push diagnostics only, no workspace/configuration, no file watching."""
    return client_capabilities("neovim@v0.7.0")


def encoding_capabilities(encoding: str) -> types.ClientCapabilities:
    caps = neovim_capabilities()
    caps.general = types.GeneralClientCapabilities(position_encodings=[encoding, types.PositionEncodingKind.Utf16])
    return caps


PROFILES: dict[str, Callable[[], types.ClientCapabilities]] = {
    "vscode": vscode_capabilities,
    "neovim": neovim_capabilities,
}


def _record_publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    client.diagnostic_versions[params.uri] = params.version  # type: ignore[attr-defined]
    client.published.append(params)  # type: ignore[attr-defined]


def _record_registration(client: LanguageClient, params: types.RegistrationParams) -> None:
    client.registrations.extend(params.registrations)  # type: ignore[attr-defined]


def _show_document(client: LanguageClient, params: types.ShowDocumentParams) -> types.ShowDocumentResult:
    client.shown.append(params)  # type: ignore[attr-defined]
    return types.ShowDocumentResult(success=True)


def _code_lens_refresh(client: LanguageClient, params: None) -> None:
    client.lens_refreshes += 1  # type: ignore[attr-defined]


def make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    client.published = []  # type: ignore[attr-defined]
    client.diagnostic_versions = {}  # type: ignore[attr-defined]
    client.registrations = []  # type: ignore[attr-defined]
    client.shown = []  # type: ignore[attr-defined]
    client.lens_refreshes = 0  # type: ignore[attr-defined]
    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _record_publish
    features[types.CLIENT_REGISTER_CAPABILITY] = _record_registration
    features[types.WINDOW_SHOW_DOCUMENT] = _show_document
    features[types.WORKSPACE_CODE_LENS_REFRESH] = _code_lens_refresh
    register_lsp_features(client, features)
    return client


CONFIG = ClientServerConfig(server_command=SERVER, client_factory=make_client)


class Session:
    """One client talking to one server."""

    def __init__(self, client: LanguageClient, root: Path) -> None:
        self.client = client
        self.root = root
        self.versions: dict[str, int] = {}
        self.result: types.InitializeResult | None = None

    @property
    def published(self) -> list[types.PublishDiagnosticsParams]:
        return self.client.published  # type: ignore[attr-defined, no-any-return]

    @property
    def shown(self) -> list[types.ShowDocumentParams]:
        return self.client.shown  # type: ignore[attr-defined, no-any-return]

    async def start(
        self,
        profile: str | types.ClientCapabilities = "neovim",
        options: dict[str, Any] | None = None,
        *,
        configuration: dict[str, Any] | None = None,
    ) -> types.InitializeResult:
        caps = PROFILES[profile]() if isinstance(profile, str) else profile
        if configuration is not None:
            self.client.set_configuration(configuration, section="toolsense")
        self.result = await self.client.initialize_session(
            types.InitializeParams(
                capabilities=caps,
                root_uri=self.root.as_uri(),
                workspace_folders=[types.WorkspaceFolder(self.root.as_uri(), self.root.name)],
                initialization_options=options if options is not None else {"diagnostics": {"debounce_ms": 0}},
            )
        )
        return self.result

    def uri(self, name: str) -> str:
        return (self.root / name).as_uri()

    def write(self, name: str, text: str) -> Path:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        return path

    def open(self, name: str, text: str, *, write: bool = False) -> str:
        if write:
            self.write(name, text)
        uri = self.uri(name)
        self.versions[uri] = 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "json", 1, text))
        )
        return uri

    def change(self, uri: str, *edits: tuple[tuple[int, int, int, int] | None, str]) -> int:
        """Apply edits `((start line, start char, end line, end char) | None for full text, new text)`."""
        self.versions[uri] += 1
        changes: list[types.TextDocumentContentChangeEvent] = []
        for span, text in edits:
            if span is None:
                changes.append(types.TextDocumentContentChangeWholeDocument(text=text))
            else:
                rng = types.Range(types.Position(span[0], span[1]), types.Position(span[2], span[3]))
                changes.append(types.TextDocumentContentChangePartial(range=rng, text=text))
        version = self.versions[uri]
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(types.VersionedTextDocumentIdentifier(version, uri), changes)
        )
        return version

    def close(self, uri: str) -> None:
        self.client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))

    async def until(self, condition: Callable[[], Any], what: str, timeout: float = TIMEOUT) -> Any:
        return await until_async(condition, what, timeout)

    async def settle(self) -> None:
        """Have the server run every pending check now and wait for its background work: once this returns,
        everything those checks publish has arrived (a "nothing more was published" assertion comes after it)."""
        await asyncio.wait_for(self.client.protocol.send_request_async("toolsense/settle", None), 2 * TIMEOUT)

    async def diagnostics(
        self,
        uri: str,
        version: int | None = None,
        timeout: float = TIMEOUT,
        *,
        predicate: Callable[[Sequence[types.Diagnostic]], bool] | None = None,
    ) -> list[types.Diagnostic]:
        """The diagnostics published for uri (for this version, default: the latest version sent); with a
        predicate, the latest such publication it accepts (e.g. one that carries a summary a command added)."""
        wanted = self.versions.get(uri) if version is None else version

        def found() -> list[types.Diagnostic] | None:
            for params in reversed(self.published):
                if (
                    params.uri == uri
                    and params.version == wanted
                    and (predicate is None or predicate(params.diagnostics))
                ):
                    return list(params.diagnostics) or [None]  # type: ignore[list-item]
            return None

        result = await self.until(found, f"diagnostics of {uri} v{wanted}", timeout)
        return [d for d in result if d is not None]

    async def pull(self, uri: str, previous: str | None = None) -> Any:
        return await self.client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(types.TextDocumentIdentifier(uri), previous_result_id=previous)
        )

    async def completion(self, uri: str, line: int, character: int) -> list[types.CompletionItem]:
        result = await self.client.text_document_completion_async(
            types.CompletionParams(types.TextDocumentIdentifier(uri), types.Position(line, character))
        )
        if result is None:
            return []
        return list(result.items if isinstance(result, types.CompletionList) else result)

    async def hover(self, uri: str, line: int, character: int) -> types.Hover | None:
        return await self.client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(line, character))
        )


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    yield
    await stop_server(lsp_client)


@pytest.fixture
def session(client: LanguageClient, tmp_path: Path) -> Session:
    root = tmp_path / "ws"
    root.mkdir()
    return Session(client, root)


def at(text: str, marker: str = "|") -> tuple[str, int, int]:
    """Text without the marker, and the marker's (line, UTF-16 character)."""
    index = text.index(marker)
    return (text[:index] + text[index + len(marker) :], *lsp_position(text, index))


def find(text: str, needle: str, shift: int = 0, occurrence: int = 0) -> tuple[int, int]:
    """(line, UTF-16 character) of `needle` in text (its `occurrence`-th match), moved `shift` characters."""
    return lsp_position(text, locate(text, needle, occurrence) + shift)


def span(text: str, needle: str, shift: int = 0, length: int | None = None) -> types.Range:
    """The LSP range of `needle` (or `length` characters of it from `shift`)."""
    line, character = find(text, needle, shift)
    size = len(needle) - shift if length is None else length
    end_line, end_character = find(text, needle, shift + size)
    return types.Range(types.Position(line, character), types.Position(end_line, end_character))
