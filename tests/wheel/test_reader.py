"""The reader between its port and its link (controller/wheel/reader.py): command ids that name
a reading for ever, a reopened port that is a gap in the stream, and a stalled reader whose
waiting lines are read blind. The clock is the test's."""

from __future__ import annotations

import asyncio
import logging

import pytest

from controller.wheel.link import ControllerLink
from controller.wheel.port import Port
from controller.wheel.reader import BACKLOG_S, STALL_S, Reader, ReaderStopped
from tests.wheel.night import game


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def a_reader(clock: Clock) -> Reader:
    return Reader("AR14", "cammegh", ControllerLink(("http://127.0.0.1:1",), "key"), clock)


def take(reader: Reader, lines: list[str], clock: Clock) -> list[tuple[str, dict]]:
    out = []
    for line in lines:
        clock.now += 0.01
        out += [(o.command_id, o.payload) for o in reader.take(line.encode())]
    return out


def test_command_ids_name_the_run_the_game_and_the_kind() -> None:
    clock = Clock()
    reader = a_reader(clock)
    ids = [command_id for command_id, _ in take(reader, game(7, 17), clock)]
    run = reader.tracker.run
    assert ids == [f"wheel:AR14:{run}:7:{kind}"
                   for kind in ("ball_in_track", "no_more_bets", "number")]


def test_a_reopened_port_is_a_gap_not_a_no_spin() -> None:
    clock = Clock()
    reader = a_reader(clock)
    take(reader, game(7, None, states=(1, 2, 3)), clock)
    reader.port_changed(False, "port failed")
    reader.port_changed(True, "port open")
    kinds = [payload["kind"] for _, payload in take(reader, game(8, 5), clock)]
    assert "no_spin" not in kinds and reader.link.port_status["port"] == "open"


def test_lines_read_after_the_reader_stalled_are_read_blind(caplog) -> None:
    caplog.set_level(logging.INFO, logger="controller.wheel")
    clock = Clock()
    reader = a_reader(clock)
    take(reader, game(7, 17), clock)
    reader.alive = clock.now  # its last tick
    clock.now += 40  # the process was stopped; the wheel played game 8 meanwhile
    assert STALL_S < 40
    sent = take(reader, game(8, 5, last=17), clock)
    assert [(p["kind"], p["number"], p["ball_unseen"]) for _, p in sent] == [("number", 5, True)]
    stalls = [m for m in caplog.messages if "did not run for" in m]
    assert len(stalls) == 1 and "did not run for 40 s" in stalls[0]
    clock.now += BACKLOG_S  # it runs again: fresh lines are seen as they come
    reader.alive = clock.now
    sent = take(reader, game(9, 6, last=5), clock)
    assert [(p["kind"], p["ball_unseen"]) for _, p in sent] == [
        ("ball_in_track", False), ("no_more_bets", False), ("number", False)]


async def test_a_stall_the_tick_notices_first_still_reads_the_waiting_lines_blind() -> None:
    # after a stop, the loop may run the reader's tick before the port's waiting lines
    clock = Clock()
    reader = a_reader(clock)
    take(reader, game(7, 17), clock)
    reader.alive = clock.now
    clock.now += 40
    ticks = asyncio.create_task(reader._tick())
    await asyncio.sleep(0)  # one tick: it notes the stall, then that the reader runs again
    ticks.cancel()
    assert reader.alive == clock.now
    sent = take(reader, game(8, 5, last=17), clock)
    assert [(p["kind"], p["ball_unseen"]) for _, p in sent] == [("number", True)]


class BrokenLink(ControllerLink):
    """A link whose loop fails past its own catching: the fault a bug would be."""

    async def run(self) -> None:
        await asyncio.sleep(0)
        raise RuntimeError("the link's loop broke")


def test_a_job_of_the_reader_that_ends_stops_the_reader_saying_which() -> None:
    # issue 47: no background task may die silently; the reader's link dying would leave it
    # reading the wheel with nothing sent, so the reader stops (its service starts it again)
    async def scenario() -> None:
        silent = asyncio.StreamReader()  # a port that stays open and says nothing

        async def opener():
            return silent, None

        reader = Reader("AR14", "cammegh", BrokenLink(("http://127.0.0.1:1",), "key"))
        with pytest.raises(ReaderStopped, match="sending to the controller ended") as stopped:
            await reader.run(Port(opener, "port test", reader.port_changed))
        assert isinstance(stopped.value.__cause__, RuntimeError)
        assert [t for t in asyncio.all_tasks() if t is not asyncio.current_task()] == []

    asyncio.run(scenario())
