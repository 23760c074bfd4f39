"""Signatures are personal information: a floor screen (the display namespace) and the cue
page never receive one, nor its reference, whatever is signed (docs/signatures.md; issue 23,
"Privacy": screens and the cue page never receive them). Real controller, real clients: every
message a display and an announcer are sent while each signed command runs is scanned."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from controller.application.settings import CONFIG_DIR_ENV
from tests.integration.test_super9_session import write_config
from tests.support.live import Client, LiveController, live_controller
from tests.support.signatures import signed
from tests.support.tables import write_tables_config
from tests.support.zones import noon_zone


class Recording(Client):
    """A client that keeps the text of every message it is sent, views and any other event."""

    def __init__(self, url: str, role: str, key: str) -> None:
        super().__init__(url, role, key)
        self.received: list[str] = []
        self.sio.on("*", self._on_any, namespace=self.namespace)

    async def _on_views(self, message: dict[str, Any]) -> None:
        self.received.append(json.dumps(message))
        await super()._on_views(message)

    async def _on_any(self, event: str, data: Any = None) -> None:
        self.received.append(json.dumps([event, data]))

    async def call(self, event: str, data: Any) -> Any:
        reply = await super().call(event, data)
        self.received.append(json.dumps(reply))
        return reply


async def recording(ctl: LiveController, role: str) -> Recording:
    client = Recording(ctl.url, role, ctl.keys[role])
    await client.connect()
    return client


async def ok(mc: Client, command: str, payload: dict[str, Any]) -> dict[str, Any]:
    ack = await mc.send(command, payload)
    assert ack["ok"], ack
    return ack


async def sign_everything(ctl: LiveController, mc: Client) -> list[str]:
    """A score acknowledged, a dispute and a ticket's numbers changed; the images' SHA-256."""
    refs = [await signed(ctl.url, ctl.keys["operator"], seed=i) for i in range(3)]
    await ok(mc, "register_member", {"card": "1000001", "display_name": "Thandi Mokoena"})
    entry = (await ok(mc, "roulette.enter", {"card": "1000001", "heat": "Heat 1"})
             )["events"][0]["data"]["entry"]
    for spin in range(1, 4):
        await ok(mc, "roulette.open_betting", {"stage": "qualifying", "heat": "Heat 1"})
        if spin == 3:
            await ok(mc, "roulette.dispute", {"heat": "Heat 1", "spin": 3, "card": "1000001",
                                              "what": "Bet not paid", "decision": "rejected",
                                              "signature": refs[0]})
        await ok(mc, "roulette.spin", {"stage": "qualifying", "heat": "Heat 1"})
    await ok(mc, "roulette.record_score", {"entry": entry, "score": 1250})
    await mc.wait_view("ops:roulette", lambda d: d["unsigned"]["qualifying"] == 1)
    await ok(mc, "roulette.acknowledge_score", {"entry": entry, "signature": refs[1]})
    # the operator's console is told only signed or not, and who signs; never the reference
    ops = await mc.wait_view("ops:roulette", lambda d: d["unsigned"]["qualifying"] == 0)
    assert not any(sha["sha256"] in json.dumps(ops) for sha in refs)
    await ok(mc, "super9.sell_ticket", {"ticket": "0421", "card": "1000001"})
    numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9]
    await ok(mc, "super9.enter_ticket", {"ticket": "0421", "original": numbers,
                                         "duplicate": numbers})
    await ok(mc, "super9.change_numbers", {"ticket": "0421", "numbers": [*numbers[:8], 20],
                                           "director": "Lindiwe Dube", "signature": refs[2]})
    await ok(mc, "roulette.close_stage", {"stage": "qualifying"})
    return [r["sha256"] for r in refs]


async def test_screens_and_the_cue_page_never_receive_a_signature(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config"
    write_tables_config(config)
    zone, offset = noon_zone()
    start = dt.datetime.now(dt.UTC) + dt.timedelta(hours=offset + 1)
    write_config(config / "super9.yaml", start.replace(microsecond=0), zone)
    monkeypatch.setenv(CONFIG_DIR_ENV, str(config))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        screen, cue = await recording(ctl, "display"), await recording(ctl, "announcer")
        try:
            shas = await sign_everything(ctl, mc)
            await asyncio.sleep(1.0)  # the fan-out's last pushes
            for client in (screen, cue):  # and what a reconnecting page is sent afresh
                await client.call("sync", {"revisions": {}})
            for who, client in (("display", screen), ("cue page", cue)):
                text = "\n".join(client.received).lower()
                assert client.received, who
                assert "signature" not in text, who
                assert not any(sha in text for sha in shas), who
                assert "lindiwe" not in text  # the Director's sign-off is not public either
            assert not any(sha in json.dumps(mc.views) for sha in shas)
        finally:
            await screen.close()
            await cue.close()
