"""A Super 9 game on a real controller, for the tests of what plays it (the wheel's reader,
the console): a session dated a few seconds ahead, one ticket sold and entered, then started."""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from pathlib import Path

import pytest

from controller.application.settings import CONFIG_DIR_ENV
from tests.integration.test_super9_session import write_config
from tests.support.live import Client
from tests.support.zones import noon_zone

TICKET = [1, 2, 3, 4, 5, 6, 7, 8, 9]


def session_soon(config_dir: Path, monkeypatch: pytest.MonkeyPatch, lead_s: float) -> None:
    """Super 9's config in `config_dir` (the controller's, by the environment) with a session
    every day `lead_s` seconds from now, in a zone where it is noon (nothing wraps midnight)."""
    zone, offset = noon_zone()
    start = dt.datetime.now(dt.UTC) + dt.timedelta(hours=offset, seconds=lead_s)
    write_config(config_dir / "super9.yaml", start.replace(microsecond=0), zone)
    monkeypatch.setenv(CONFIG_DIR_ENV, str(config_dir))


async def play_game(mc: Client, ticket: str = "0421") -> None:
    """Sell and enter `ticket` (holding TICKET), wait for the session's time and start it."""
    for command, payload in (("super9.sell_ticket", {"ticket": ticket}),
                             ("super9.enter_ticket", {"ticket": ticket, "original": TICKET,
                                                      "duplicate": TICKET})):
        ack = await mc.send(command, payload)
        assert ack["ok"], ack
    schedule = await mc.wait_view("schedule:super9", lambda d: d["events"])
    session = schedule["events"][0]
    await asyncio.sleep(max(0.0, session["starts_at"] / 1000 - time.time()) + 0.3)
    ack = await mc.send("super9.start_session", {"session": session["id"]})
    assert ack["ok"], ack
    await mc.wait_view("board:super9", lambda d: d["status"] == "playing")
