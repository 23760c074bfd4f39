"""The reader's queue while the controller is away (controller/wheel/waiting.py): every number
kept, stale moments dropped first, memory bounded, every drop logged; and each send's ages."""

from __future__ import annotations

import logging

from controller.wheel.link import ControllerLink
from controller.wheel.waiting import Outgoing, Waiting


def reading(game: int, kind: str = "number", run: str = "a1") -> Outgoing:
    raw = f"*X;{5 if kind == 'number' else 3};{game};;0;743;1"
    return Outgoing(f"wheel:AR14:{run}:{game}:{kind}", {"kind": kind, "game": game}, raw,
                    read_at=float(game), ball_at=float(game) - 0.5 if kind == "number" else None,
                    game=f"{run}:{game}", moment=kind != "number")


def a_night(games: int) -> list[Outgoing]:
    """What a reader reads of `games` games: ball in track, no more bets, the number."""
    return [reading(g, kind) for g in range(1, games + 1)
            for kind in ("ball_in_track", "no_more_bets", "number")]


def test_every_number_waits_however_long_the_controller_is_away(caplog) -> None:
    # super9 rule 12: each spin's number is the wheel's; 200 games away lose none of them
    caplog.set_level(logging.INFO, logger="controller.wheel")
    link = ControllerLink(("http://127.0.0.1:1",), "key")
    for outgoing in a_night(200):
        link.submit(outgoing)
    ids = [o.command_id for o in link.queue]
    assert [i for i in ids if i.endswith(":number")] == [
        f"wheel:AR14:a1:{g}:number" for g in range(1, 201)]
    # the moments of games already past are stale and went first; the last game's stay
    assert [i for i in ids if not i.endswith(":number")] == [
        "wheel:AR14:a1:200:ball_in_track", "wheel:AR14:a1:200:no_more_bets"]
    dropped = [m for m in caplog.messages if m.startswith("dropped the waiting")]
    assert len(dropped) == 2 * 199
    assert "dropped the waiting ball in track of game 1 (wheel:AR14:a1:1:ball_in_track)" in \
        dropped[0] and "*X;3;1;" in dropped[0]


def test_a_moment_in_flight_is_never_dropped() -> None:
    queue = Waiting()
    first = reading(1, "no_more_bets")
    queue.add(first)
    queue.in_flight = first
    queue.add(reading(2, "ball_in_track"))
    assert [o.command_id for o in queue] == ["wheel:AR14:a1:1:no_more_bets",
                                             "wheel:AR14:a1:2:ball_in_track"]


def test_past_the_limit_the_oldest_goes_and_it_is_said_loudly(caplog) -> None:
    caplog.set_level(logging.INFO, logger="controller.wheel")
    queue = Waiting(limit=5)
    first = reading(1)
    queue.add(first)
    queue.in_flight = first
    for game in range(2, 9):
        queue.add(reading(game))
    assert [o.payload["game"] for o in queue] == [1, 5, 6, 7, 8]  # the one in flight stays
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 3 and "dropped the oldest, the number of game 2" in \
        errors[0].getMessage()


def test_a_plain_line_is_never_stale() -> None:
    queue = Waiting()
    for n in range(30):
        queue.add(Outgoing(f"wheel:AR14:line:{n}", {"kind": "number", "game": None}, str(n)))
    assert len(queue) == 30


def test_each_send_carries_the_readings_ages_then() -> None:
    outgoing = reading(10)  # read at 10.0 s, its ball seen at 9.5 s (monotonic)
    first = outgoing.envelope(12.0)
    again = outgoing.envelope(75.25)
    assert (first["payload"]["age_ms"], first["payload"]["ball_age_ms"]) == (2000, 2500)
    assert (again["payload"]["age_ms"], again["payload"]["ball_age_ms"]) == (65250, 65750)
    assert outgoing.sent == [first["payload"], again["payload"]]  # asked again if needed
    assert first["command_id"] == again["command_id"] == "wheel:AR14:a1:10:number"


def test_the_port_status_is_sent_as_the_interface_says() -> None:
    link = ControllerLink(("http://127.0.0.1:1",), "key")
    link.set_port(True, "port /dev/ttyUSB0 open")
    assert link.port_status == {"port": "open", "detail": "port /dev/ttyUSB0 open"}
    link.set_port(False, "x" * 500)
    assert link.port_status["port"] == "closed" and len(link.port_status["detail"]) == 200
