"""The wheel's reader end to end: the real `showrunner-controller wheel` process reading a real
pseudo-terminal, a real controller with a Super 9 session running (as
tests/integration/test_super9_session.py sets one up), a device key named after table AR14.
"""

from __future__ import annotations

import asyncio
import re

from controller.access.keys import issue_key
from controller.application.settings import CONFIG_DIR_ENV
from controller.store.target import open_log
from tests.support.live import live_controller
from tests.support.tables import write_tables_config
from tests.wheel.night import events, game, ok, spins_logged, state_of
from tests.wheel.night import super9_session as session
from tests.wheel.processes import Pty, Watched, key_file, reader, wheel_sim


async def test_repeats_garbage_no_spin_and_a_restart_through_a_pty(tmp_path, monkeypatch,
                                                                  new_log_at):
    link = tmp_path / "wheel"
    async with session(tmp_path, monkeypatch, new_log_at) as (ctl, mc, key):
        pty = Pty(link)
        wheel = reader(ctl.url, key, link)
        try:
            await mc.wait_view("ops:devices", lambda d: state_of(d) == "reading")

            # super9 rule 12: the wheel's number is the spin; issue 24: once, however often
            # the wheel repeats its line
            pty.write(*game(101, 7, repeats=5))
            board = await mc.wait_view("board:super9", lambda d: d["spins"] == 1)
            assert board["called"] == [7]
            await wheel.wait_for(r"accepted wheel:AR14:\w+:101:number: Super9SpinEntered "
                                 r".*\*X;5;101;7;0;700;1")

            # super9 rule 8: only 0-36; noise and a number off the wheel change nothing and
            # the reader reads on
            logged = events(ctl.db_path)
            pty.write(b"\xfe\x13garbage\x07", "*X;5;102;37;0;700;1", "*X;9;102;;0;0;0",
                      "x" * 300, "*X;5;102")
            await wheel.wait_for(r"not a reading: the line is not plain text")
            await wheel.wait_for(r"not a reading: the number 37 is not on the wheel "
                                 r"\(0-36\) \(line '\*X;5;102;37;0;700;1'\)")
            await wheel.wait_for(r"not a reading: the line is longer than 200")
            await wheel.wait_for(r"not a reading: the line has 3 fields")
            assert events(ctl.db_path) == logged and wheel.running
            pty.write(*game(102, 12, last=7))
            board = await mc.wait_view("board:super9", lambda d: d["spins"] == 2)
            assert board["called"] == [7, 12]

            # super9 rule 19: a repeated number is a spin the board marks as a repeat
            pty.write(*game(103, 7, last=12))
            board = await mc.wait_view("board:super9", lambda d: d["spins"] == 3)
            assert board["called"] == [7, 12] and board["last"] == {
                **board["last"], "number": 7, "repeat": True}

            # super9 rules 18.2-18.3: the MC's no spin; the ball returned to the previous
            # number is read again under a new game number: held for the MC, never applied
            pty.write(*game(104, None, last=7, states=(1, 2, 3)))
            await wheel.wait_for(r"refused wheel:AR14:\w+:104:ball_in_track")  # the ack is in
            await ok(mc, "super9.no_spin", {"reason": "ball spun with the wheel"})
            pty.write(*game(105, None, last=7, states=(1,)), "*X;5;105;7;0;700;1")
            wheels = await mc.wait_view("ops:wheels", lambda d: d["tables"][0]["held"])
            assert wheels["tables"][0]["held"]["number"] == 7
            board = await mc.wait_view("board:super9", lambda d: d["no_spins"] == 1)
            assert board["spins"] == 3
            pty.write(*game(106, 20, last=7))
            board = await mc.wait_view("board:super9", lambda d: d["spins"] == 4)
            assert board["called"] == [7, 12, 20]

            # the reader killed mid-game and started again: what it sends again (game 107's
            # number, seen first by the new reader) is not applied twice
            pty.write(*game(107, 21, last=20))
            board = await mc.wait_view("board:super9", lambda d: d["spins"] == 5)
            wheel.kill()
            wheel = reader(ctl.url, key, link)
            await wheel.wait_for(r"open$")
            await mc.wait_view("ops:devices", lambda d: state_of(d) == "reading")
            pty.write(*game(107, 21, last=20, states=(5,)))
            # the new reader did not see game 107's ball spun, and the table read game 107
            await wheel.wait_for(r"refused wheel:AR14:\w+:107:number \[already_read\]")
            pty.write(*game(108, 22, last=21))
            board = await mc.wait_view("board:super9", lambda d: d["spins"] == 6)
            assert board["called"] == [7, 12, 20, 21, 22]

            # in the log: one spin a game, each with the line as read and the reader's name
            logged = spins_logged(ctl.db_path)
            assert [(command_id.split(":")[3], reading["raw"], reading["reader"])
                    for command_id, reading in logged] == [
                (str(g), f"*X;5;{g};{n};0;700;1", "AR14")
                for g, n in ((101, 7), (102, 12), (103, 7), (106, 20), (107, 21), (108, 22))]
            # a reader's run is in its command ids: the restarted reader began another
            runs = [command_id.split(":")[2] for command_id, _ in logged]
            assert len(set(runs[:5])) == 1 and runs[5] != runs[0]
            assert all(reading["run"] == run for (_, reading), run in zip(logged, runs,
                                                                          strict=True))
        finally:
            wheel.stop()
            pty.close()


async def test_the_reader_comes_back_after_the_port_and_the_controller_go_away(
        tmp_path, monkeypatch, new_log_at):
    link = tmp_path / "wheel"
    async with session(tmp_path, monkeypatch, new_log_at) as (ctl, mc, key):
        pty = Pty(link)
        wheel = reader(ctl.url, key, link)
        try:
            await mc.wait_view("ops:devices", lambda d: state_of(d) == "reading")
            pty.write(*game(201, 11))
            await mc.wait_view("board:super9", lambda d: d["called"] == [11])

            # the cable pulled: the console shows the port closed (super9 rule 29: the MC
            # types the numbers meanwhile); plugged back, the reader reads on by itself
            pty.close()
            await mc.wait_view("ops:devices", lambda d: state_of(d) == "port_closed")
            await asyncio.sleep(2)  # a few reopening attempts, logged as one outage
            pty.open()
            await mc.wait_view("ops:devices", lambda d: state_of(d) == "reading")
            await wheel.wait_for(r"open again$")  # its output may be read after the console's
            assert wheel.seen("reopening until it opens") == 1
            assert wheel.seen("cannot open") <= 1 and wheel.seen(r"open again$") == 1
            pty.write(*game(202, 13, last=11))
            await mc.wait_view("board:super9", lambda d: d["called"] == [11, 13])

            # the controller killed: the readings made meanwhile wait and arrive in order
            ctl.kill()
            pty.write(*game(203, 14, last=13), *game(204, 15, last=14))
            await wheel.wait_for(r"wheel:AR14:\w+:204:number")
            await ctl.start()
            async with ctl.client() as again:
                board = await again.wait_view("board:super9", lambda d: d["spins"] == 4,
                                              timeout=20)
                assert board["called"] == [11, 13, 14, 15]
                pty.write(*game(205, 16, last=15))
                board = await again.wait_view("board:super9", lambda d: d["spins"] == 5)
                assert board["called"] == [11, 13, 14, 15, 16]
                await again.wait_view("ops:devices", lambda d: state_of(d) == "reading")
            # the board can show the spin before the reader has logged its ack
            await wheel.wait_for(r"accepted wheel:AR14:\w+:205:number")
            assert wheel.seen(r"accepted wheel:AR14:\w+:20[1-5]:number: Super9SpinEntered") == 5
        finally:
            wheel.stop()
            pty.close()


async def test_the_simulators_stream_gives_each_number_once(tmp_path, monkeypatch,
                                                           new_log_at):
    link = tmp_path / "wheel"
    async with session(tmp_path, monkeypatch, new_log_at) as (ctl, mc, key):
        # none of these is the ticket's 1-9, so no SUPER 9 call stops the game
        never = ",".join(str(n) for n in list(range(10, 37)) * 3)
        sim = wheel_sim(link, "--interval", "0.1", "--numbers", never)
        await sim.wait_for(r"wheel-sim: .* -> /dev/pts/")
        wheel = reader(ctl.url, key, link)
        try:
            await mc.wait_view("ops:devices", lambda d: state_of(d) == "reading")
            await mc.wait_view("board:super9", lambda d: d["spins"] >= 2, timeout=20)
            sim.send("g\nx\n")  # super9 rule 8: noise and a 37 are not readings
            await wheel.wait_for(r"not a reading: the line is not plain text")
            await wheel.wait_for(r"not a reading: the number 37 is not on the wheel")
            sim.send("n\n")  # the next game a no spin
            no_spin = int((await sim.wait_for(r"game \d+ is a no spin")).split()[2])
            await wheel.wait_for(rf"refused wheel:AR14:\w+:{no_spin}:ball_in_track")
            await ok(mc, "super9.no_spin", {"reason": "ball left the wheel"})
            # super9 rule 18.3: the ball returned to the previous number is read again under
            # the next game number: held for the MC, not applied
            previous = [line for line in sim.output if line.startswith("*X;5;")
                        and int(line.split(";")[2]) < no_spin][-1].split(";")[3]
            wheels = await mc.wait_view("ops:wheels", lambda d: d["tables"][0]["held"])
            assert wheels["tables"][0]["held"]["number"] == int(previous)
            await wheel.wait_for(
                rf"accepted wheel:AR14:\w+:{no_spin + 1}:number: WheelReadingHeld")
            board = await mc.wait_view("board:super9", lambda d: d["no_spins"] == 1)
            spins = board["spins"]
            await mc.wait_view("board:super9", lambda d: d["spins"] >= spins + 2, timeout=20)
            sim.send("q\n")
            sim.process.wait(10)
            await asyncio.sleep(0.5)
            wheel.stop()

            # each game's number once, though the wheel showed it several times; super9 rule
            # 19: a number seen again in a later game is a spin of its own, marked a repeat
            spun = r"accepted wheel:AR14:\w+:\d+:number: .*Super9SpinEntered"
            applied = [line.split("line '")[1].split(";") for line in wheel.output
                       if re.search(spun, line)]
            games = [int(fields[2]) for fields in applied]
            numbers = [int(fields[3]) for fields in applied]
            assert len(games) == len(set(games)) and no_spin + 1 not in games
            board = await mc.wait_view("board:super9", lambda d: d["spins"] == len(numbers))
            assert board["called"] == list(dict.fromkeys(numbers))
            for game_number in games[:-1]:  # the last may have been cut short by the quit
                assert sim.seen(rf"^\*X;5;{game_number};") > 1  # the wheel's repeats
        finally:
            wheel.stop()
            sim.stop()


async def test_the_plain_line_protocol_over_tcp(tmp_path, monkeypatch, new_log_at):
    async with session(tmp_path, monkeypatch, new_log_at) as (ctl, mc, key):
        connected: asyncio.Queue[asyncio.StreamWriter] = asyncio.Queue()

        async def accept(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            connected.put_nowait(writer)

        server = await asyncio.start_server(accept, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        wheel = Watched(["wheel", "--url", ctl.url, "--key-file", str(key), "--table", "AR14",
                         "--tcp", f"127.0.0.1:{port}", "--protocol", "line"])
        try:
            link = await asyncio.wait_for(connected.get(), 15)
            await mc.wait_view("ops:devices", lambda d: state_of(d) == "reading")
            # the line protocol has no game number: every line is a spin; super9 rule 19: the
            # same number twice is two spins, the second marked a repeat; rule 8: 37 is noise
            link.write(b"17\r\n37\r\n17\r\n")
            board = await mc.wait_view("board:super9", lambda d: d["spins"] == 2)
            assert board["called"] == [17] and board["last"]["repeat"] is True
            await wheel.wait_for(r"not a reading: the line 37 is not on the wheel")

            # the serial server restarted: the reader connects again and reads on
            link.close()
            await mc.wait_view("ops:devices", lambda d: state_of(d) == "port_closed")
            link = await asyncio.wait_for(connected.get(), 15)
            await mc.wait_view("ops:devices", lambda d: state_of(d) == "reading")
            link.write(b"4\n")
            board = await mc.wait_view("board:super9", lambda d: d["spins"] == 3)
            assert board["called"] == [17, 4]
            link.close()
        finally:
            wheel.stop()
            server.close()


async def test_a_roulette_heats_spin_closes_at_no_more_bets_and_takes_the_number(
        tmp_path, log_at, monkeypatch):
    write_tables_config(tmp_path)  # roulette qualifying today, the table open now
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))
    db = log_at
    link = tmp_path / "wheel"
    async with live_controller(db) as ctl, ctl.client() as mc:
        log = open_log(db)
        try:
            key = key_file(tmp_path, issue_key(log, "device", "AR14", 0))
        finally:
            log.close()
        await ok(mc, "register_member", {"card": "1234567", "display_name": "Thandi Mokoena"})
        await ok(mc, "roulette.enter", {"card": "1234567", "heat": "Heat 1"})
        await ok(mc, "roulette.open_betting", {"stage": "qualifying", "heat": "Heat 1"})
        pty = Pty(link)
        wheel = reader(ctl.url, key, link)
        try:
            await mc.wait_view("ops:devices", lambda d: state_of(d) == "reading")
            pty.write(*game(301, None, states=(1, 2, 3, 4)))
            # roulette rule 7: at most 120 s a spin to place bets; the wheel's no more bets
            # ends the window (the countdown on the screens stops)
            heat = (await mc.wait_view("spins:roulette",
                                       lambda d: d["heats"][0]["bets_closed"]))["heats"][0]
            assert heat["number"] is None
            pty.write(*game(301, 23, states=(5,)))
            heat = (await mc.wait_view("spins:roulette",
                                       lambda d: d["heats"][0]["number"] == 23))["heats"][0]
            assert (heat["colour"], heat["betting"]) == ("red", False)
            await wheel.wait_for(r"accepted wheel:AR14:\w+:301:number: RouletteSpun")
            assert wheel.seen(r"accepted wheel:AR14:\w+:301:no_more_bets: RouletteBetsClosed") == 1
        finally:
            wheel.stop()
            pty.close()
