"""A whole Super 9 session through the real controller: real Socket.IO clients, real SQLite.

The controller runs on the wall clock, so the test gives it a Super 9 config (through
SHOWRUNNER_CONFIG_DIR) with a session a few seconds from now, every day, in a time zone where
it is about noon, and no sales or hand-in margins; every rule is otherwise the shipped one.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time

import yaml

from controller.application.settings import CONFIG_DIR_ENV
from controller.promotions.super9.config import WEEKDAYS
from tests.support.live import live_controller
from tests.support.stores import by_hand
from tests.support.zones import noon_zone

A = [1, 2, 3, 4, 5, 6, 7, 8, 9]
B = [0, 2, 3, 4, 5, 6, 7, 8, 10]
C = [20, 21, 22, 23, 24, 25, 26, 27, 28]
LEAD_S = 8  # controller start-up and ticket entry happen before the session


def write_config(path, start: dt.datetime, zone: str) -> None:
    at = start.strftime("%H:%M:%S")
    config = {
        "timezone": zone, "sessions": {day: [at] for day in WEEKDAYS},
        "skip_last_sunday_of_month": False, "sales_open": "00:00", "sales_close_minutes": 0,
        "hand_in_minutes": 0, "ticket_price_cents": 5000, "numbers_per_ticket": 9,
        "highest_number": 36, "jackpot_seed_cents": 500000, "jackpot_growth_percent": 75,
        "jackpot_counted_spins": 18, "consolation_percent": 25,
    }
    path.write_text(yaml.safe_dump(config))


def event_count(db_path) -> int:
    with by_hand(db_path) as db:
        return db.execute("SELECT COUNT(*) FROM events").fetchone()[0]


async def ok(mc, command: str, payload: dict | None = None) -> dict:
    ack = await mc.send(command, payload or {})
    assert ack["ok"], ack
    return ack


async def refused(mc, db_path, command: str, payload: dict, code: str) -> str:
    before = event_count(db_path)
    ack = await mc.send(command, payload)
    assert ack["ok"] is False and ack["error"]["code"] == code, ack
    assert event_count(db_path) == before
    return ack["error"]["message"]


async def test_a_whole_session_over_socketio(tmp_path, log_at, monkeypatch):
    zone, offset = noon_zone()
    start = (dt.datetime.now(dt.UTC) + dt.timedelta(hours=offset, seconds=LEAD_S))
    write_config(tmp_path / "super9.yaml", start.replace(microsecond=0), zone)
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))
    db = log_at
    async with live_controller(db) as ctl, ctl.client() as mc, ctl.client("display") as screen:
        await ok(mc, "register_member", {"card": "1234567", "display_name": "Thandi Mokoena"})
        for serial, card in (("0421", "1234567"), ("0422", None), ("0423", None)):
            await ok(mc, "super9.sell_ticket", {"ticket": serial, "card": card})
        # rule 9: a duplicate that differs from the original is refused; nothing is logged
        message = await refused(mc, db, "super9.enter_ticket", {
            "ticket": "0421", "original": A, "duplicate": [*A[:8], 19]}, "duplicate_mismatch")
        assert "rule 9" in message
        # rule 8: exactly nine numbers
        await refused(mc, db, "super9.enter_ticket", {
            "ticket": "0421", "original": A[:8], "duplicate": A[:8]}, "bad_numbers")
        for serial, numbers in (("0421", A), ("0422", B), ("0423", C)):
            await ok(mc, "super9.enter_ticket",
                     {"ticket": serial, "original": numbers, "duplicate": numbers[::-1]})
        await refused(mc, db, "super9.spin", {"number": 5}, "no_session")
        jackpot = await screen.wait_view("schedule:super9", lambda d: d["events"])
        session = jackpot["events"][0]
        await asyncio.sleep(max(0.0, session["starts_at"] / 1000 - time.time()) + 0.3)
        await ok(mc, "super9.start_session", {"session": session["id"]})
        await screen.wait_view("board:super9", lambda d: d["status"] == "playing")

        # rule 19: repeats do not count; rule 18.2: a no spin records no number
        for n in (11, 1, 11, 2, 3):
            await ok(mc, "super9.spin", {"number": n})
        await ok(mc, "super9.no_spin", {"reason": "ball left the wheel"})
        await ok(mc, "super9.spin", {"number": 14})
        await refused(mc, db, "super9.undo_spin", {"reason": ""}, "reason_required")
        await ok(mc, "super9.undo_spin", {"reason": "the ball is in 4, not 14"})
        for n in (4, 5, 6, 7, 8):
            await ok(mc, "super9.spin", {"number": n})
        board = await screen.wait_view("board:super9", lambda d: d["spins"] == 10)
        assert board["called"] == [11, 1, 2, 3, 4, 5, 6, 7, 8] and board["no_spins"] == 1
        assert board["counted_label"] == "9 of 18" and board["jackpot_live"] is True
        assert {r["more"]: r["tickets"] for r in board["need"]} == {1: 1, 2: 1, 3: 0}
        cues = await screen.wait_view("cues:super9", lambda d: d["lines"][0] == "Number 8, black.")
        assert cues["lines"][1:] == ["9 of 18 counted spins.", "1 ticket needs one more number."]

        await ok(mc, "super9.spin", {"number": 9})
        board = await screen.wait_view("board:super9", lambda d: d["status"] == "super9")
        assert board["winners"] == [{"name": "Thandi M.", "share": None}]
        # rule 13: the game is won; no more spins until the call is confirmed
        await refused(mc, db, "super9.spin", {"number": 10}, "super9_pending")
        # rules 14, 22: the SUPER 9 call confirmed within 18 counted spins wins the jackpot
        ack = await ok(mc, "super9.confirm_win")
        assert ack["events"][0]["data"]["prize"] == "jackpot"
        board = await screen.wait_view("board:super9", lambda d: d["status"] == "won")
        # rule 16 (ruling): the consolation, 25% of 3 buy-ins of R50, is paid with the jackpot
        assert board["winners"] == [{"name": "Thandi M.",
                                     "share": "R5\u00a0000 + R37.50 consolation"}]
        assert "1234567" not in str(board)
        await refused(mc, db, "super9.spin", {"number": 10}, "game_over")

        await ctl.restart()  # state is the fold of the log
        async with ctl.client("display") as again:
            assert (await again.wait_view("board:super9")) == board
