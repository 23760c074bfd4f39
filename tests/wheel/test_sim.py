"""The simulator's stream is a Cammegh wheel's: states in order, each repeated, game numbers
increasing, CRLF, `;` separators (controller/wheel/sim.py), here over its TCP port."""

from __future__ import annotations

import asyncio
import socket

from controller.wheel.protocols import parse_cammegh
from controller.wheel.sim import REPEATS, Wheel
from tests.wheel.processes import Watched


def test_a_game_goes_through_its_states_in_order_with_repeats() -> None:
    lines = list(Wheel([17, 5]).games(2))
    statuses = [parse_cammegh(line) for line in lines]
    first = [s.state for s in statuses if s.game == 1]
    assert first == [state for state in (1, 2, 3, 4, 5) for _ in range(REPEATS[state])]
    assert [s.number for s in statuses if s.state == 5] == [17] * REPEATS[5] + [5] * REPEATS[5]
    assert {s.number for s in statuses if s.game == 2 and s.state < 5} == {17}  # the last one
    assert all(";" in line and ":" not in line for line in lines)


def test_the_table_shows_closed_before_its_first_game() -> None:
    statuses = [parse_cammegh(line) for line in Wheel([17]).games(1, closed=3)]
    assert [s.state for s in statuses[:4]] == [6, 6, 6, 1]
    assert [s.number for s in statuses if s.state == 5] == [17] * REPEATS[5]


def test_a_no_spin_returns_the_ball_to_the_previous_number_once() -> None:
    # super9 rule 18.3: "the Dealer will return the ball to the previous winning number"
    wheel = Wheel([17, 5])
    list(wheel.games(1))
    wheel.ask_no_spin()
    statuses = [parse_cammegh(line) for line in wheel.games(2)]
    assert [s.state for s in statuses if s.game == 2] == [1, 1, 2, 2, 3, 3, 3]
    assert [(s.state, s.number) for s in statuses if s.game == 3][-1] == (5, 17)
    assert sum(1 for s in statuses if s.game == 3 and s.state == 5) == 1
    assert next(s.number for s in statuses if s.game == 4 and s.state == 5) == 5


async def test_the_stream_over_tcp() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    sim = Watched(["wheel-sim", "--tcp-listen", str(port), "--interval", "0.05", "--numbers",
                   "17,5", "--games", "2"])
    try:
        await sim.wait_for(f"listening on 127.0.0.1:{port}")
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        data = await asyncio.wait_for(reader.read(), 20)  # until the simulator ends
        writer.close()
        lines = data.split(b"\r\n")
        assert lines[-1] == b"" and all(b"\n" not in line for line in lines)
        statuses = [parse_cammegh(line) for line in lines[:-1]]
        assert [s.game for s in statuses] == sorted(s.game for s in statuses)
        assert [s.number for s in statuses if s.state == 5][-1] == 5
    finally:
        sim.stop()


def test_a_restart_counts_from_game_1_again_after_the_game_in_play() -> None:
    # a power cycle (docs/wheel-reader.md, `r`): the reader must begin a new run
    wheel = Wheel([17, 5], game=24)
    list(wheel.games(1))
    wheel.ask_restart()
    statuses = [parse_cammegh(line) for line in wheel.games(1)]
    assert {s.game for s in statuses} == {1}
    assert statuses[0].number is None and statuses[-1].number == 5
