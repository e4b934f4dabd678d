"""A pytest-lsp client for the MCP configuration tests: it also answers `window/showDocument` (recording what
the server asked to show), which the "Check this server's tools" command sends."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from lspstop import stop_server
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
from waiting import until_async

SERVER = [sys.executable, "-m", "toolsense", "serve"]


def _record_publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    client.published.append(params)  # type: ignore[attr-defined]


def _show_document(client: LanguageClient, params: types.ShowDocumentParams) -> types.ShowDocumentResult:
    client.shown.append(params)  # type: ignore[attr-defined]
    return types.ShowDocumentResult(success=True)


def _show_message(client: LanguageClient, params: types.ShowMessageParams) -> None:
    client.messages.append(params)


def make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    client.published = []  # type: ignore[attr-defined]
    client.shown = []  # type: ignore[attr-defined]
    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _record_publish
    features[types.WINDOW_SHOW_DOCUMENT] = _show_document
    features[types.WINDOW_SHOW_MESSAGE] = _show_message
    register_lsp_features(client, features)
    return client


class ConfigSession:
    def __init__(self, client: LanguageClient, root: Path) -> None:
        self.client = client
        self.root = root

    async def start(self, options: dict[str, Any] | None = None) -> None:
        caps = client_capabilities("neovim@v0.7.0")
        caps.window = types.WindowClientCapabilities(show_document=types.ShowDocumentClientCapabilities(support=True))
        await self.client.initialize_session(
            types.InitializeParams(
                capabilities=caps,
                root_uri=self.root.as_uri(),
                workspace_folders=[types.WorkspaceFolder(self.root.as_uri(), self.root.name)],
                initialization_options={"diagnostics": {"debounce_ms": 0}, **(options or {})},
            )
        )

    def open(self, name: str, text: str) -> str:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        uri = path.as_uri()
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "json", 1, text))
        )
        return uri

    @property
    def published(self) -> list[types.PublishDiagnosticsParams]:
        return self.client.published  # type: ignore[attr-defined, no-any-return]

    @property
    def shown(self) -> list[types.ShowDocumentParams]:
        return self.client.shown  # type: ignore[attr-defined, no-any-return]

    async def until(self, condition: Any, what: str, timeout: float = 60.0) -> Any:
        return await until_async(condition, what, timeout)

    async def diagnostics(self, uri: str, predicate: Any = None) -> list[types.Diagnostic]:
        def found() -> list[types.Diagnostic] | None:
            for params in reversed(self.published):
                if params.uri == uri and (predicate is None or predicate(params.diagnostics)):
                    return list(params.diagnostics) or [None]  # type: ignore[list-item]
            return None

        result = await self.until(found, f"diagnostics of {uri}")
        return [d for d in result if d is not None]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER, client_factory=make_client))
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    yield
    await stop_server(lsp_client)


@pytest.fixture
def session(client: LanguageClient, tmp_path: Path) -> ConfigSession:
    root = tmp_path / "ws"
    root.mkdir()
    return ConfigSession(client, root)
