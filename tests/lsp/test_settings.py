"""Settings over LSP: initializationOptions, the workspace's toolsense.toml, workspace/configuration,
workspace/didChangeConfiguration, and invalid settings reported with window/showMessage (then defaults)."""

from __future__ import annotations

from lspkit import Session
from lsprotocol import types
from samples import WEATHER_TOOLS


def _codes(diagnostics: list[types.Diagnostic]) -> set[str]:
    return {str(d.code) for d in diagnostics}


async def test_invalid_initialization_option_shows_a_message_and_uses_the_default(session: Session) -> None:
    await session.start("neovim", {"diagnostics": {"debounce_ms": "soon"}, "severity": {"TS101": "loud"}})
    messages = await session.until(lambda: len(session.client.messages) >= 2 and session.client.messages, "messages")
    texts = sorted(m.message for m in messages)
    assert texts[0] == (
        "toolsense: invalid setting 'diagnostics.debounce_ms' in initializationOptions: expected an integer "
        "(found string). Using the default."
    )
    assert texts[1].startswith("toolsense: invalid setting 'severity.TS101' in initializationOptions: ")
    assert texts[1].endswith("(found string). Using the default.") and "'loud'" not in texts[1]  # never the value
    assert all(m.type == types.MessageType.Warning for m in messages)
    # The server works on with the defaults.
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    assert "TS101" in _codes(await session.diagnostics(uri, 1))


async def test_unknown_key_is_named(session: Session) -> None:
    await session.start("neovim", {"diagnostics": {"debounce": 5}})
    (message,) = await session.until(lambda: session.client.messages, "a message")
    assert message.message.startswith(
        "toolsense: invalid setting 'diagnostics.debounce' in initializationOptions: unknown key"
    )
    assert message.message.endswith("Using the default.")


async def test_severity_from_initialization_options(session: Session) -> None:
    await session.start("neovim", {"diagnostics": {"debounce_ms": 0}, "severity": {"TS101": "off"}})
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    assert "TS101" not in _codes(await session.diagnostics(uri, 1))


async def test_config_file_is_read_and_client_options_win(session: Session) -> None:
    session.write("toolsense.toml", '[severity]\nTS101 = "warning"\n\n[diagnostics]\ndebounce_ms = 5000\n')
    await session.start("neovim", {"diagnostics": {"debounce_ms": 0}})
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    diagnostics = await session.diagnostics(uri, 1)
    unknown = next(d for d in diagnostics if d.code == "TS101")
    assert unknown.severity == types.DiagnosticSeverity.Warning  # from the file
    version = session.change(uri, ((0, 0, 0, 0), " "))
    await session.diagnostics(uri, version, timeout=3)  # debounce 0 from the client, not 5000 from the file


async def test_invalid_config_file_value_names_the_file(session: Session) -> None:
    path = session.write("toolsense.toml", "[limits]\nmax_file_mb = -1\n")
    await session.start("neovim")
    (message,) = await session.until(lambda: session.client.messages, "a message")
    assert message.message.startswith(f"toolsense: invalid setting 'limits.max_file_mb' in {path}: ")


async def test_workspace_configuration_is_pulled(session: Session) -> None:
    await session.start("vscode", {}, configuration={"severity": {"TS101": "hint"}, "diagnostics": {"debounce_ms": 0}})
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    report = None
    for _ in range(100):
        report = await session.pull(uri)
        severities = {d.code: d.severity for d in report.items}
        if severities.get("TS101") == types.DiagnosticSeverity.Hint:
            break
        await session.until(lambda: True, "tick")
    assert report is not None
    assert {d.code: d.severity for d in report.items}["TS101"] == types.DiagnosticSeverity.Hint


async def test_did_change_configuration_rechecks_open_documents(session: Session) -> None:
    await session.start("neovim")
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    assert "TS101" in _codes(await session.diagnostics(uri, 1))
    before = len(session.published)
    session.client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"toolsense": {"severity": {"TS101": "off"}}})
    )
    await session.until(lambda: len(session.published) > before, "a re-check")
    assert "TS101" not in _codes(list(session.published[-1].diagnostics))


async def test_invalid_setting_in_did_change_configuration(session: Session) -> None:
    await session.start("neovim")
    session.client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"limits": {"max_file_mb": "big"}})
    )
    (message,) = await session.until(lambda: session.client.messages, "a message")
    assert message.message.startswith("toolsense: invalid setting 'limits.max_file_mb' in client settings")
    assert "expected a number (found string)" in message.message
