"""The wheel's line protocols (docs/wheel-reader.md): Cammegh's status line and the plain line.

Super 9 rule 12: "the Roulette Wheel will be used as the mechanism" to select a number, so the
reader takes the wheel's own numbers; rule 8's 0-36 are the only numbers on it.
"""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.wheel.protocols import (
    MAX_LINE,
    LineError,
    Status,
    parse_cammegh,
    parse_plain,
    raw_text,
)


@pytest.mark.parametrize("line", [b"*X;5;1234;17;0;743;1\r\n", b"*X:5:1234:17:0:743:1\r\n",
                                  b"  *X ; 5 ; 1234 ; 17 ; 0 ; 743 ; 1 \n", "*X;5;1234;17;0;743;1"])
def test_both_separators_and_whitespace(line: bytes | str) -> None:
    # super9 rule 12: the wheel's winning number, whichever separator the wheel prints
    status = parse_cammegh(line)
    assert (status.state, status.game, status.number, status.warnings) == (5, 1234, 17, "0")


def test_states_before_the_number_may_have_none() -> None:
    status = parse_cammegh(b"*X;1;1235;;0;0;0")
    assert (status.state, status.number) == (1, None)


@pytest.mark.parametrize(("line", "words"), [
    (b"*X;5;1234;37;0;743;1", "not on the wheel"),  # super9 rule 8: the numbers run from 0 to 36
    (b"*X;5;1234;-1;0;743;1", "not a number"),
    (b"*X;7;1234;17;0;743;1", "state"),
    (b"*X;0;1234;17;0;743;1", "state"),
    (b"*X;5;12a4;17;0;743;1", "game"),
    (b"*X;5;1234;17;0;743", "6 fields"),
    (b"*X;5;1234;17;0;743;1;9", "8 fields"),
    (b"*X;5;1234;;0;743;1", "no number"),
    (b"#X;5;1234;17;0;743;1", "does not start with"),
    (b"*X;5:1234;17;0;743;1", "fields"),  # mixed separators
    (b"\xff\xfe*X;5;1;1;0;0;0", "not plain text"),
    (b"*X;5;1;1;\x07;0;0", "control characters"),
    (b"", "empty"),
    (b"*" * (MAX_LINE + 1), "longer than"),
])
def test_garbage_is_a_line_error_in_words(line: bytes, words: str) -> None:
    # super9 rules 8, 12: only the wheel's 0-36 are spins; noise is never one
    with pytest.raises(LineError, match=words):
        parse_cammegh(line)


@pytest.mark.parametrize(("line", "number"), [(b"17", 17), (b"0\r\n", 0), (b" 36 ", 36),
                                              (b"07", 7)])
def test_plain_line(line: bytes, number: int) -> None:
    assert parse_plain(line) == number


@pytest.mark.parametrize("line", [b"37", b"-1", b"17a", b"1 7", b"", b"\x80", b"4" * 300])
def test_plain_line_garbage(line: bytes) -> None:
    # super9 rule 8: the numbers run from 0 to 36
    with pytest.raises(LineError):
        parse_plain(line)


def test_raw_text_escapes_and_cuts() -> None:
    assert raw_text(b"*X;5;1;\x07;0\r\n") == "*X;5;1;\\x07;0"
    assert len(raw_text(b"9" * 500)) == MAX_LINE


@given(st.binary(max_size=300))
def test_parsing_bytes_never_raises_anything_but_line_error(data: bytes) -> None:
    for parse in (parse_cammegh, parse_plain):
        with contextlib.suppress(LineError):
            parse(data)
    assert len(raw_text(data)) <= MAX_LINE


@given(st.text(max_size=300))
def test_parsing_text_never_raises_anything_but_line_error(text: str) -> None:
    for parse in (parse_cammegh, parse_plain):
        with contextlib.suppress(LineError):
            parse(text)


@given(state=st.integers(1, 6), game=st.integers(0, 999_999_999),
       number=st.one_of(st.none(), st.integers(0, 36)), separator=st.sampled_from(";:"),
       speed=st.integers(0, 999), direction=st.integers(0, 1), crlf=st.booleans())
def test_valid_lines_round_trip(state: int, game: int, number: int | None, separator: str,
                                speed: int, direction: int, crlf: bool) -> None:
    if state == 5 and number is None:
        number = 0
    fields = ["*X", str(state), str(game), "" if number is None else str(number), "0",
              str(speed), str(direction)]
    text = separator.join(fields)
    line = (text + ("\r\n" if crlf else "")).encode()
    assert parse_cammegh(line) == Status(state, game, number, "0", text)


@given(st.integers(0, 36))
def test_plain_numbers_round_trip(number: int) -> None:
    assert parse_plain(f"{number}\r\n".encode()) == number
