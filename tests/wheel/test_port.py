"""The port's line splitting (controller/wheel/port.py) on a real asyncio stream."""

from __future__ import annotations

import asyncio
import contextlib

from controller.wheel.port import Port, split_lines, tcp_opener
from controller.wheel.protocols import MAX_LINE, LineError, parse_cammegh


async def lines_of(*chunks: bytes) -> list[bytes]:
    reader = asyncio.StreamReader()
    for chunk in chunks:
        reader.feed_data(chunk)
    reader.feed_eof()
    return [line async for line in split_lines(reader)]


async def test_cr_lf_and_crlf_end_lines_and_chunks_join() -> None:
    assert await lines_of(b"*X;1;1;;0", b";0;0\r\n*X;2;1;;0;700;1\r", b"\n17\n\n\r\n5\r") == [
        b"*X;1;1;;0;0;0", b"*X;2;1;;0;700;1", b"17", b"5"]


async def test_an_over_long_line_is_cut_for_the_parser_to_refuse_and_the_rest_skipped() -> None:
    # a wrong baud rate or noise: never a crash, and the next good line is read
    lines = await lines_of(b"9" * 150, b"9" * 150, b"9" * 150, b"\r\n*X;5;1;17;0;0;0\r\n")
    assert len(lines) == 2 and len(lines[0]) == MAX_LINE + 1
    try:
        parse_cammegh(lines[0])
    except LineError as exc:
        assert "longer than" in str(exc)
    else:
        raise AssertionError("an over-long line was parsed")
    assert parse_cammegh(lines[1]).number == 17


async def test_an_over_long_line_in_one_chunk() -> None:
    lines = await lines_of(b"x" * 500 + b"\n17\n")
    assert [len(line) for line in lines] == [MAX_LINE + 1, 2]


def test_reopening_backs_off_from_half_a_second_to_five() -> None:
    port = Port(tcp_opener("127.0.0.1", 1), "tcp 127.0.0.1:1", lambda is_open, detail: None)
    assert [port.backoff(n) for n in range(1, 8)] == [0.5, 1.0, 2.0, 4.0, 5.0, 5.0, 5.0]


async def test_a_port_that_will_not_open_is_reported_closed_once_per_reason() -> None:
    told: list[tuple[bool, str]] = []
    port = Port(tcp_opener("127.0.0.1", 1), "tcp 127.0.0.1:1",
                lambda is_open, detail: told.append((is_open, detail)),
                backoff_first_s=0.001, backoff_max_s=0.001)
    lines = port.lines()
    reading = asyncio.ensure_future(lines.__anext__())
    while len(told) < 1:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)  # many more attempts, the same reason
    reading.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await reading
    assert len(told) == 1 and told[0][0] is False and "cannot open tcp 127.0.0.1:1" in told[0][1]
