"""The one way a rule or a validator says no, and the one shape a refusal is answered in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class NextStep:
    """The step a refusal names as missing, offered beside it on the page that was refused: the
    command to send and its payload, the words of its button, the confirmation that says in
    words what it does, and what to say once it is done (docs/protocol.md, "Commands"). The
    page offers it only to a role that may send it; the command is checked by its own rules
    when it comes."""

    type: str
    payload: dict[str, Any]
    button: str
    question: str
    detail: str
    yes: str
    done: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "payload": dict(self.payload), "button": self.button,
                "confirm": {"question": self.question, "detail": self.detail, "yes": self.yes},
                "done": self.done}


class Rejected(Exception):
    """A command that breaks a rule or is malformed.

    `code` is stable and machine-readable (see docs/protocol.md); `message` is a sentence an MC
    understands; `next_step` the missing step the message names, when there is one to offer.
    Raising it before any event is produced guarantees nothing changes.
    """

    def __init__(self, code: str, message: str, next_step: NextStep | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.next_step = next_step

    def refusal(self, **details: Any) -> dict[str, Any]:
        answer = refusal(self.code, self.message, **details)
        if self.next_step is not None:
            answer["error"]["next"] = self.next_step.to_json()
        return answer


def refusal(code: str, message: str, /, **details: Any) -> dict[str, Any]:
    """The ack of anything refused on a socket (a command, a query, a packet):
    `{"ok": False, "error": {"code", "message"}}` (and `next`, see `NextStep`), with what else
    the refusal tells."""
    return {"ok": False, "error": {"code": code, "message": message}, **details}
