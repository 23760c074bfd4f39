"""A Roulette Spin-Off heat at the wheel, end to end: the real `showrunner-controller wheel`
process reading a real pseudo-terminal the test writes to, the real controller process with
Heat 1 of qualifying at table AR14 (roulette rule 4). Its edges: the wheel's counter
restarting between spins, the wheel's own no spin (rule 25), the controller stopped while the
wheel plays on, and the MC typing numbers while the reader is cut off.
"""

from __future__ import annotations

import asyncio

from tests.wheel.night import (
    HEAT,
    ROLL_S,
    Cable,
    game,
    games,
    heat,
    logged,
    ok,
    reading,
    roulette_heat,
    state_of,
    table_row,
)
from tests.wheel.processes import Pty, reader


def spun(db) -> list[tuple[int, int | None, int | None]]:
    """Every roulette spin in the log: (spin, number, the wheel's game or None if typed)."""
    return [(d["spin"], d["number"], (d["reading"] or {}).get("game"))
            for _, d in logged(db, "RouletteSpun")]


async def test_a_counter_restart_between_spins_gives_each_spin_its_own_game(
        tmp_path, monkeypatch):
    link = tmp_path / "wheel"
    async with roulette_heat(tmp_path, monkeypatch) as (ctl, mc, key):
        pty = Pty(link)
        wheel = reader(ctl.url, key, link)
        try:
            await mc.wait_view("ops:devices", reading)
            # roulette rule 7: three spins a heat, each the wheel's number of its own game
            pty.write(*game(24, 14, last=5))
            await mc.wait_view("spins:roulette", lambda d: heat(d)["number"] == 14)
            await ok(mc, "roulette.open_betting", HEAT)
            pty.write(*game(1, 7))  # a power cycle: the wheel counts from game 1 again
            await mc.wait_view("spins:roulette", lambda d: heat(d)["number"] == 7)
            await wheel.wait_for(r"went back from game 24 to game 1")
            # the reader restarted while the wheel still shows game 1: read once
            wheel.kill()
            wheel = reader(ctl.url, key, link)
            await mc.wait_view("ops:devices", reading)
            await wheel.wait_for(r"open$")
            pty.write(*game(1, 7, states=(5,)))
            await wheel.wait_for(r"refused wheel:AR14:\w+:1:number \[already_read\]")
            await ok(mc, "roulette.open_betting", HEAT)
            pty.write(*game(2, 9, last=7))
            await wheel.wait_for(r"accepted wheel:AR14:\w+:2:number: RouletteSpun")
            assert spun(ctl.db_path) == [(1, 14, 24), (2, 7, 1), (3, 9, 2)]
            runs = [d["reading"]["run"] for _, d in logged(ctl.db_path, "RouletteSpun")]
            assert len(set(runs)) == 3  # the counter's restart began a run, as did the reader
        finally:
            wheel.stop()
            pty.close()


async def test_the_wheels_own_no_spin_holds_the_returned_ball_and_the_mc_keeps_rule_25(
        tmp_path, monkeypatch):
    link = tmp_path / "wheel"
    async with roulette_heat(tmp_path, monkeypatch) as (ctl, mc, key):
        pty = Pty(link)
        wheel = reader(ctl.url, key, link)
        try:
            await mc.wait_view("ops:devices", reading)
            pty.write(*game(300, 14, last=5))
            await mc.wait_view("spins:roulette", lambda d: heat(d)["number"] == 14)
            await ok(mc, "roulette.open_betting", HEAT)
            closes = heat(await mc.wait_view("spins:roulette",
                                             lambda d: heat(d)["betting"]))["betting_closes_at"]
            # super9 rule 18.3 at the Spin-Off's wheel: game 301's ball in the track, game 302
            # begins without its number, the ball back on 14
            pty.write(*game(301, None, last=14, states=(1, 2, 3)),
                      *game(302, None, last=14, states=(1,)), "*X;5;302;14;0;700;1")
            wheels = await mc.wait_view("ops:wheels", lambda d: table_row(d)["held"])
            row = table_row(wheels)
            assert row["armed_by"] == "wheel" and row["held"]["number"] == 14
            assert row["held"]["why"] == "no_spin" and row["held"]["promotion"] == "roulette"
            await wheel.wait_for(r"accepted wheel:AR14:\w+:301:no_spin: WheelNoSpinRead")
            # rule 25: the 30 s more to change bets come with the MC's No spin only
            spins = heat(mc.views["spins:roulette"])
            assert spins["betting_closes_at"] == closes and not spins["no_spin"]
            await ok(mc, "roulette.no_spin", HEAT)
            spins = heat(await mc.wait_view("spins:roulette", lambda d: heat(d)["no_spin"]))
            assert spins["betting_closes_at"] >= closes + 30_000
            await ok(mc, "wheel.discard_held", {"table": "AR14", "reason": "ball returned"})
            pty.write(*game(303, 9, last=14))
            await mc.wait_view("spins:roulette", lambda d: heat(d)["number"] == 9)
            assert spun(ctl.db_path) == [(1, 14, 300), (2, 9, 303)]
        finally:
            wheel.stop()
            pty.close()


async def test_games_played_while_the_controller_is_stopped_never_become_a_later_spin(
        tmp_path, monkeypatch):
    link = tmp_path / "wheel"
    async with roulette_heat(tmp_path, monkeypatch) as (ctl, mc, key):
        pty = Pty(link)
        wheel = reader(ctl.url, key, link)
        try:
            await mc.wait_view("ops:devices", reading)
            ctl.stop()
            # spin 1 takes bets; the wheel plays 11 games while the controller is away. Only
            # the first is spin 1's ball: the others had no spin taking bets (roulette rule 7:
            # the MC opens each spin), and each is refused in words, never saved for later
            pty.write(*games([23, *range(10, 20)], first=401, last=5))
            await wheel.wait_for(r"read wheel:AR14:\w+:411:number")
            await ctl.start()
            async with ctl.client() as again:
                await again.wait_view("spins:roulette", lambda d: heat(d)["number"] == 23,
                                      timeout=30)
                await wheel.wait_for(r"refused wheel:AR14:\w+:411:number \[no_game_live\]")
                for g in range(402, 412):  # ("was live when the wheel read it" once it is
                    # older than a fresh reading by the time the controller is back)
                    assert wheel.seen(rf"refused wheel:AR14:\w+:{g}:number \[no_game_live\]: "
                                      r"No Super 9 game or roulette spin (is|was) live") == 1
                await ok(again, "roulette.open_betting", HEAT)
                pty.write(*game(412, 31, last=19))
                await again.wait_view("spins:roulette", lambda d: heat(d)["number"] == 31)
            assert spun(ctl.db_path) == [(1, 23, 401), (2, 31, 412)]
        finally:
            wheel.stop()
            pty.close()


async def test_numbers_typed_while_the_reader_was_cut_off_are_checked_not_spun_again(
        tmp_path, monkeypatch):
    link = tmp_path / "wheel"
    async with roulette_heat(tmp_path, monkeypatch) as (ctl, mc, key):
        cable = Cable(ctl.port)
        await cable.mend()
        pty = Pty(link)
        wheel = reader(cable.url, key, link)
        try:
            await mc.wait_view("ops:devices", reading)
            await cable.cut()
            await mc.wait_view("ops:devices", lambda d: state_of(d) == "offline")
            # the MC types spins 1 and 2 as the balls land (spin 2 typed wrong: 22), and opens
            # spin 3
            for g, shown, typed in ((501, 14, 14), (502, 23, 22)):
                pty.write(*game(g, None, last=5, states=(1, 2, 3)))
                await wheel.wait_for(rf"read wheel:AR14:\w+:{g}:ball_in_track")
                await asyncio.sleep(ROLL_S)  # the ball rolls; no MC types before it lands
                pty.write(*game(g, shown, last=5, states=(4, 5)))
                await wheel.wait_for(rf"read wheel:AR14:\w+:{g}:number")
                await ok(mc, "roulette.spin", {**HEAT, "number": typed})
                await ok(mc, "roulette.open_betting", HEAT)
            await cable.mend()
            # the late readings are checks of spins 1 and 2, and spin 3 takes no old number
            wheels = await mc.wait_view("ops:wheels", lambda d: len(table_row(d)["late"]) == 2,
                                        timeout=20)
            assert [(r["spin"], r["recorded"], r["number"], r["agrees"])
                    for r in table_row(wheels)["late"]] == [
                ("Heat 1 spin 1", 14, 14, True), ("Heat 1 spin 2", 22, 23, False)]
            spins = heat(mc.views["spins:roulette"])
            assert spins["spin"] == 3 and spins["betting"] and spins["number"] == 22
            pty.write(*game(503, 8, last=23))
            await wheel.wait_for(r"accepted wheel:AR14:\w+:503:number: RouletteSpun")
            assert spun(ctl.db_path) == [(1, 14, None), (2, 22, None), (3, 8, 503)]
        finally:
            wheel.stop()
            pty.close()
            await cable.cut()
