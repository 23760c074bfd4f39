"""A long Super 9 night at the wheel, end to end: the real `showrunner-controller wheel`
process reading a real pseudo-terminal (lines the test writes, or the real `wheel-sim`), the
real controller process with a Super 9 game playing at table AR14. Its edges: the wheel's
counter restarting, the wheel's own no spin, the controller away for a dozen games, and the
MC typing numbers while the reader is cut off.
"""

from __future__ import annotations

import asyncio
import re
import signal

from controller.wheel.reader import BACKLOG_S, STALL_S
from tests.wheel.night import (
    ROLL_S,
    Cable,
    game,
    games,
    logged,
    ok,
    reading,
    spins_logged,
    sqlite_logs,
    state_of,
    super9_session,
    table_row,
)
from tests.wheel.processes import Pty, reader, wheel_sim


async def test_a_counter_restart_mid_night_loses_no_game_and_counts_none_twice(
        tmp_path, monkeypatch):
    link = tmp_path / "wheel"
    async with super9_session(tmp_path, monkeypatch, sqlite_logs(tmp_path)) as (ctl, mc, key):
        pty = Pty(link)
        wheel = reader(ctl.url, key, link)
        try:
            await mc.wait_view("ops:devices", reading)
            # super9 rule 12: every game of the wheel is a spin; 11-34, so the ticket's 1-9
            # never complete and the game plays on
            first = list(range(11, 35))
            pty.write(*games(first, first=1))
            await mc.wait_view("board:super9", lambda d: d["spins"] == 24, timeout=30)

            # a power cycle: the wheel counts from game 1 again. Tabs between fields are
            # whitespace (docs/wheel-reader.md); game 3's lines then disagree about its number
            again = [35, 36, 0]
            lines = [line.replace(";", ";\t") for line in games(again[:2], first=1, last=34)]
            lines += [*game(3, 0, last=36), "*X;5;3;10;0;700;1"]
            pty.write(*lines)
            board = await mc.wait_view("board:super9", lambda d: d["spins"] == 27)
            await wheel.wait_for(r"went back from game 24 to game 1 .*run \w+ begins")
            await wheel.wait_for(r"game 3's winning-number lines disagree: 0 was sent, this "
                                 r"line shows 10")

            # the reader restarted while the wheel still shows game 3: that game is read once
            wheel.kill()
            wheel = reader(ctl.url, key, link)
            await mc.wait_view("ops:devices", reading)
            await wheel.wait_for(r"open$")
            pty.write(*game(3, 0, last=36, states=(5,)))
            await wheel.wait_for(r"refused wheel:AR14:\w+:3:number \[already_read\]: Game 3 "
                                 r"of table AR14 was already read as 0")
            pty.write(*game(4, 10, last=0))
            board = await mc.wait_view("board:super9", lambda d: d["spins"] == 28)
            assert board["called"] == [*first, *again, 10]  # none a repeat (rule 19)

            spins = spins_logged(ctl.db_path)
            assert [int(cid.split(":")[3]) for cid, _ in spins] == [
                *range(1, 25), 1, 2, 3, 4]
            runs = [cid.split(":")[2] for cid, _ in spins]
            assert len(set(runs[:24])) == 1 and len(set(runs[24:27])) == 1
            assert len({runs[0], runs[24], runs[27]}) == 3  # a run each: none reuses an id
        finally:
            wheel.stop()
            pty.close()


async def test_the_simulators_no_spin_is_held_without_the_mc_and_its_restart_loses_nothing(
        tmp_path, monkeypatch):
    link = tmp_path / "wheel"
    async with super9_session(tmp_path, monkeypatch, sqlite_logs(tmp_path)) as (ctl, mc, key):
        # none of these is the ticket's 1-9, so no SUPER 9 call stops the game
        never = ",".join(str(n) for n in list(range(10, 37)) * 3)
        sim = wheel_sim(link, "--interval", "0.1", "--numbers", never)
        await sim.wait_for(r"wheel-sim: .* -> /dev/pts/")
        wheel = reader(ctl.url, key, link)
        try:
            await mc.wait_view("ops:devices", reading)
            await mc.wait_view("board:super9", lambda d: d["spins"] >= 2, timeout=20)
            sim.send("n\n")  # the next game a no spin; the MC presses nothing
            no_spin = int((await sim.wait_for(r"game \d+ is a no spin")).split()[2])
            # super9 rules 18.2-18.3: the stream shows the game ending without a number, then
            # the ball back on the previous number: held for the MC, never applied by itself
            await wheel.wait_for(rf"accepted wheel:AR14:\w+:{no_spin}:no_spin: WheelNoSpinRead")
            previous = [line for line in sim.output if line.startswith("*X;5;")
                        and int(line.split(";")[2]) < no_spin][-1].split(";")[3]
            wheels = await mc.wait_view("ops:wheels", lambda d: table_row(d)["held"])
            assert table_row(wheels)["held"] == {**table_row(wheels)["held"],
                                                 "number": int(previous), "why": "no_spin"}
            await wheel.wait_for(
                rf"accepted wheel:AR14:\w+:{no_spin + 1}:number: WheelReadingHeld")
            board = await mc.wait_view("board:super9", lambda d: d["spins"] >= 2)
            assert board["no_spins"] == 0  # rule 18: the No spin on the board is the MC's
            # the next game's ball is seen spun: its number is the spin, the hold is over
            spins = board["spins"]
            await mc.wait_view("board:super9", lambda d: d["spins"] >= spins + 1, timeout=20)
            wheels = await mc.wait_view("ops:wheels", lambda d: not table_row(d)["held"])
            assert not table_row(wheels)["armed"]
            # the wheel power-cycled: its counter starts again at game 1, the reader a new run
            sim.send("r\n")
            await sim.wait_for(r"the wheel restarted; game 1 is next")
            began = await wheel.wait_for(r"went back from game \d+ to game 1 .* run \w+ begins")
            restarted = re.findall(r"run (\w+) begins", began)[-1]
            await wheel.wait_for(rf"accepted wheel:AR14:{restarted}:2:number: "
                                 "Super9SpinEntered", timeout=20)
            sim.send("q\n")
            sim.process.wait(10)
            held = [(d["game"], d["why"]) for _, d in logged(ctl.db_path, "WheelReadingHeld")]
            assert (no_spin + 1, "no_spin") in held  # (a reader that came in mid-game also
            # holds the first number it sees: it did not see that ball spun)
            spun = r"accepted (wheel:AR14:\w+:\d+):number: .*Super9SpinEntered"
            applied = [re.search(spun, line)[1].split(":")[2:] for line in wheel.output
                       if re.search(spun, line)]
            games = [int(game) for _, game in applied]
            assert len({tuple(a) for a in applied}) == len(applied)  # each game once
            assert no_spin not in games and no_spin + 1 not in games
            assert len({run for run, _ in applied}) == 2
            assert applied[-2:] == [[restarted, "1"], [restarted, "2"]]
            await mc.wait_view("board:super9", lambda d: d["spins"] == len(applied))
        finally:
            wheel.stop()
            sim.stop()


async def test_a_dozen_games_while_the_controller_is_killed_are_a_dozen_spins_in_order(
        tmp_path, monkeypatch):
    link = tmp_path / "wheel"
    async with super9_session(tmp_path, monkeypatch, sqlite_logs(tmp_path)) as (ctl, mc, key):
        pty = Pty(link)
        wheel = reader(ctl.url, key, link)
        try:
            await mc.wait_view("ops:devices", reading)
            pty.write(*game(100, 36))
            await mc.wait_view("board:super9", lambda d: d["called"] == [36])
            ctl.kill()
            # super9 rule 12: the wheel plays on; 12 games, each read and kept
            numbers = list(range(10, 22))
            pty.write(*games(numbers, first=101, last=36))
            await wheel.wait_for(r"read wheel:AR14:\w+:112:number")
            await ctl.start()
            async with ctl.client() as again:
                board = await again.wait_view("board:super9", lambda d: d["spins"] == 13,
                                              timeout=30)
                assert board["called"] == [36, *numbers]  # every number once, in order
            await wheel.wait_for(r"accepted wheel:AR14:\w+:112:number: Super9SpinEntered")
            for g in range(101, 113):
                assert wheel.seen(rf"accepted wheel:AR14:\w+:{g}:number: Super9SpinEntered") \
                    == 1
            assert wheel.seen(r"dropped the waiting ball in track of game 101") == 1
            assert [int(cid.split(":")[3]) for cid, _ in spins_logged(ctl.db_path)] == [
                *range(100, 113)]
        finally:
            wheel.stop()
            pty.close()


async def test_numbers_typed_while_the_reader_was_cut_off_are_checked_not_spun_again(
        tmp_path, monkeypatch):
    link = tmp_path / "wheel"
    async with super9_session(tmp_path, monkeypatch, sqlite_logs(tmp_path)) as (ctl, mc, key):
        cable = Cable(ctl.port)
        await cable.mend()
        pty = Pty(link)
        wheel = reader(cable.url, key, link)
        try:
            await mc.wait_view("ops:devices", reading)
            pty.write(*game(101, 17))
            await mc.wait_view("board:super9", lambda d: d["called"] == [17])
            await cable.cut()
            await mc.wait_view("ops:devices", lambda d: state_of(d) == "offline")
            # super9 rule 29: the console says to type; the MC types each number as the ball
            # lands: game 102 shows 20 and the MC types 20; game 103 shows 21, the MC types 22
            for g, shown, typed in ((102, 20, 20), (103, 21, 22)):
                pty.write(*game(g, None, last=shown - 1, states=(1, 2, 3)))
                await wheel.wait_for(rf"read wheel:AR14:\w+:{g}:ball_in_track")
                await asyncio.sleep(ROLL_S)  # the ball rolls; no MC types before it lands
                pty.write(*game(g, shown, last=shown - 1, states=(4, 5)))
                await wheel.wait_for(rf"read wheel:AR14:\w+:{g}:number")
                await ok(mc, "super9.spin", {"number": typed})
            await cable.mend()
            # the reader's queued readings of those games are late: one agrees, one does not
            wheels = await mc.wait_view("ops:wheels", lambda d: len(table_row(d)["late"]) == 2,
                                        timeout=20)
            assert [(r["spin"], r["recorded"], r["number"], r["agrees"], r["typed"])
                    for r in table_row(wheels)["late"]] == [
                ("spin 2", 20, 20, True, True), ("spin 3", 22, 21, False, True)]
            await wheel.wait_for(r"accepted wheel:AR14:\w+:103:number: WheelReadingLate")
            board = await mc.wait_view("board:super9", lambda d: d["spins"] == 3)
            assert board["called"] == [17, 20, 22]  # a spin has one number
            pty.write(*game(104, 23, last=21))
            board = await mc.wait_view("board:super9", lambda d: d["spins"] == 4)
            assert board["called"] == [17, 20, 22, 23]
        finally:
            wheel.stop()
            pty.close()
            await cable.cut()


async def test_lines_that_waited_while_the_reader_was_stopped_never_spin_again(
        tmp_path, monkeypatch):
    link = tmp_path / "wheel"
    async with super9_session(tmp_path, monkeypatch, sqlite_logs(tmp_path)) as (ctl, mc, key):
        pty = Pty(link)
        wheel = reader(ctl.url, key, link)
        try:
            await mc.wait_view("ops:devices", reading)
            pty.write(*game(101, 17))
            await mc.wait_view("board:super9", lambda d: d["called"] == [17])
            # the reader's process is stopped (its PC asleep); the wheel plays on, its lines
            # waiting in the port, and the MC types the numbers (super9 rule 29): 20, then 22
            # where the wheel shows 21
            wheel.process.send_signal(signal.SIGSTOP)
            try:
                for g, shown, typed in ((102, 20, 20), (103, 21, 22)):
                    pty.write(*game(g, shown, last=shown - 1))
                    await ok(mc, "super9.spin", {"number": typed})
                await asyncio.sleep(STALL_S + 1)  # stopped longer than the reader's guard
            finally:
                wheel.process.send_signal(signal.SIGCONT)
            await wheel.wait_for(r"the reader did not run for \d+ s")
            await wheel.wait_for(r"accepted wheel:AR14:\w+:103:number: .*WheelReadingHeld")
            # each number that waited is held for the MC (the last one shown), none applied
            wheels = await mc.wait_view(
                "ops:wheels", lambda d: (table_row(d)["held"] or {}).get("number") == 21)
            assert table_row(wheels)["held"]["why"] == "ball_unseen"
            assert [d["number"] for _, d in logged(ctl.db_path, "WheelReadingHeld")] == [20, 21]
            board = await mc.wait_view("board:super9", lambda d: d["spins"] == 3)
            assert board["called"] == [17, 20, 22]  # nothing spun twice
            await ok(mc, "wheel.discard_held", {"table": "AR14", "reason": "spin 3, typed"})
            # the next game comes later than what the port gave at once after the stop (a
            # game lasts a minute): its ball is seen spun
            await asyncio.sleep(BACKLOG_S)
            pty.write(*game(104, 23, last=21))
            board = await mc.wait_view("board:super9", lambda d: d["spins"] == 4)
            assert board["called"] == [17, 20, 22, 23]
        finally:
            wheel.process.send_signal(signal.SIGCONT)
            wheel.stop()
            pty.close()
