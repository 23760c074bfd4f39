"""The wheel's two line protocols, parsed without I/O.

Cammegh's automatic wheels print a status line about every 500 ms,
`*X;state;game;number;warnings;rotor_speed;direction` (both `;` and `:` are seen as
separators, whitespace (spaces, tabs) around a field ignored); the plain line protocol is one
winning number a line (`17`). Whatever arrives, a parser returns a value or raises `LineError`
with a sentence for the log: a reader fed noise by a loose cable must log it and read on, never
stop.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_LINE = 200  # bytes; a longer "line" is noise, and the controller keeps `raw` this short
FIELDS = 7
STATES = {1: "game start", 2: "rotor turning", 3: "ball in track", 4: "no more bets",
          5: "winning number", 6: "table closed"}
MAX_GAME = 999_999_999  # nine digits: the game number travels as a JSON integer


class LineError(ValueError):
    """Why a line is not a reading, in words for the log."""


@dataclass(frozen=True)
class Status:
    """One Cammegh status line. `number` is None when the field is empty (no number yet)."""

    state: int
    game: int
    number: int | None
    warnings: str
    raw: str


def raw_text(line: bytes | str) -> str:
    """The line as read, for logs and the event: printable ASCII kept, anything else escaped
    (`\\x07`), line ends dropped, at most MAX_LINE characters."""
    if isinstance(line, bytes):
        text = "".join(chr(b) if 32 <= b < 127 else f"\\x{b:02x}" for b in line.rstrip(b"\r\n"))
    else:
        text = "".join(c if " " <= c <= "~" else repr(c)[1:-1] for c in line.rstrip("\r\n"))
    return text[:MAX_LINE]


def _text(line: bytes | str) -> str:
    if len(line) > MAX_LINE:
        raise LineError(f"the line is longer than {MAX_LINE} characters")
    if isinstance(line, bytes):
        try:
            line = line.decode("ascii")
        except UnicodeDecodeError:
            raise LineError("the line is not plain text (a wrong baud rate or a loose "
                            "cable?)") from None
    text = line.replace("\t", " ").strip()  # a tab is whitespace like a space
    if not text:
        raise LineError("the line is empty")
    if not text.isprintable():
        raise LineError("the line holds control characters (a wrong baud rate or a loose "
                        "cable?)")
    return text


def _number(field: str, what: str) -> int:
    """A wheel number 0-36 from its field, or a LineError naming `what`."""
    if not (field.isascii() and field.isdigit()):
        raise LineError(f"{what} {field!r} is not a number")
    number = int(field)
    if not 0 <= number <= 36:
        raise LineError(f"{what} {number} is not on the wheel (0-36)")
    return number


def parse_cammegh(line: bytes | str) -> Status:
    """A Cammegh status line, or LineError: malformed, wrong field count, state not 1-6,
    game not a number, number outside 0-36 (or missing in state 5)."""
    text = _text(line)
    if not text.startswith("*X"):
        raise LineError("the line does not start with *X (not a Cammegh status line)")
    separator = ";" if ";" in text else ":"
    fields = [field.strip() for field in text.split(separator)]
    if len(fields) != FIELDS:
        raise LineError(f"the line has {len(fields)} fields, not {FIELDS} "
                        f"(*X;state;game;number;warnings;rotor speed;direction)")
    if fields[0] != "*X":
        raise LineError(f"the line starts with {fields[0]!r}, not *X")
    state_field, game_field, number_field, warnings = fields[1:5]
    if not (state_field.isascii() and state_field.isdigit()) or int(state_field) not in STATES:
        raise LineError(f"the state {state_field!r} is not one of 1-6")
    state = int(state_field)
    if not (game_field.isascii() and game_field.isdigit()) or int(game_field) > MAX_GAME:
        raise LineError(f"the game {game_field!r} is not a number")
    number = _number(number_field, "the number") if number_field else None
    if state == 5 and number is None:
        raise LineError("the winning-number line has no number")
    return Status(state, int(game_field), number, warnings, raw_text(line))


def parse_plain(line: bytes | str) -> int:
    """The plain line protocol: one number 0-36 a line, or LineError."""
    return _number(_text(line), "the line")
