"""The one way a rule or a validator says no, and the one shape a refusal is answered in."""

from __future__ import annotations

from typing import Any


class Rejected(Exception):
    """A command that breaks a rule or is malformed.

    `code` is stable and machine-readable (see docs/protocol.md); `message` is a sentence an MC
    understands. Raising it before any event is produced guarantees nothing changes.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def refusal(self, **details: Any) -> dict[str, Any]:
        return refusal(self.code, self.message, **details)


def refusal(code: str, message: str, /, **details: Any) -> dict[str, Any]:
    """The ack of anything refused on a socket (a command, a query, a packet):
    `{"ok": False, "error": {"code", "message"}}`, with what else the refusal tells."""
    return {"ok": False, "error": {"code": code, "message": message}, **details}
