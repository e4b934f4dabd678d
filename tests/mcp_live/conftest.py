"""The pytest-lsp `client` and the `session` around it (tests/support/lspkit.py) for the tests here."""

from lspkit import client, session

__all__ = ["client", "session"]
