"""The one way a rule or a validator says no."""


class Rejected(Exception):
    """A command that breaks a rule or is malformed.

    `code` is stable and machine-readable (see docs/protocol.md); `message` is a sentence an MC
    understands. Raising it before any event is produced guarantees nothing changes.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def as_error(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}
