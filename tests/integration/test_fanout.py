"""Fan-out through a real controller: the ack before the floor, subscriptions, deltas."""

from __future__ import annotations

import asyncio
import datetime as dt
import time
import uuid
from typing import Any

import socketio

from controller.application.settings import CONFIG_DIR_ENV
from showrunner.contract.delta import patch
from tests.integration.test_screens import PLAYLIST, enrol
from tests.integration.test_super9_session import write_config
from tests.support.live import live_controller
from tests.support.zones import noon_zone

BOARD = "leaderboard:slots"


class Recorder:
    """A raw Socket.IO client noting every message in arrival order: each `views` push (whole
    or delta, applied here; a gap fails the test) and each command's ack."""

    def __init__(self, url: str, namespace: str, auth: dict[str, str]) -> None:
        self.url, self.namespace, self.auth = url, namespace, auth
        self.sio = socketio.AsyncClient(reconnection=False)
        self.arrivals: list[tuple[str, Any]] = []  # ("views", [(name, revision)]) / ("ack", id)
        self.views: dict[str, dict[str, Any]] = {}
        self.revisions: dict[str, int] = {}
        self.deltas = 0
        self.gaps: list[str] = []
        self.sio.on("views", self.on_views, namespace=namespace)

    async def connect(self) -> None:
        await self.sio.connect(self.url, namespaces=[self.namespace], auth=self.auth,
                               transports=["websocket"], wait_timeout=10)
        reply = await self.sio.call("sync", {"revisions": {}}, namespace=self.namespace)
        self.take(reply["views"])

    def on_views(self, message: dict[str, Any]) -> None:  # not async: runs in arrival order
        self.arrivals.append(("views", [(v["name"], v["revision"]) for v in message["views"]]))
        self.take(message["views"])

    def take(self, views: list[dict[str, Any]]) -> None:
        for view in views:
            name, held = view["name"], self.revisions.get(view["name"], -1)
            if view["revision"] <= held:
                continue
            if "delta" in view:
                if view["base"] != held:
                    self.gaps.append(name)
                    continue
                self.views[name] = patch(self.views[name], view["delta"])
                self.deltas += 1
            else:
                self.views[name] = view["doc"]
            self.revisions[name] = view["revision"]

    def received(self, name: str) -> list[int]:
        """The revisions of `name` pushed to this client, in arrival order."""
        return [r for kind, views in self.arrivals if kind == "views"
                for n, r in views if n == name]

    async def command(self, type_: str, payload: dict[str, Any]) -> dict[str, Any]:
        acked: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

        def on_ack(ack: dict[str, Any]) -> None:
            self.arrivals.append(("ack", type_))
            acked.set_result(ack)

        await self.sio.emit("command", {"type": type_, "payload": payload,
                                        "command_id": uuid.uuid4().hex},
                            namespace=self.namespace, callback=on_ack)
        ack = await asyncio.wait_for(acked, 10)
        assert ack["ok"], ack
        return ack

    async def until(self, check, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while not check():
            assert time.monotonic() < deadline, f"never happened; arrivals: {self.arrivals}"
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        await self.sio.disconnect()


async def test_the_ack_goes_before_the_fan_out_and_every_viewer_gets_every_change_in_order(
        log_at):
    async with live_controller(log_at) as ctl:
        mc = Recorder(ctl.url, "/control", {"key": ctl.keys["operator"]})
        viewers = [Recorder(ctl.url, "/display", {"key": ctl.keys["display"]})
                   for _ in range(40)]
        for client in (mc, *viewers):
            await client.connect()
        try:
            await mc.command("register_member", {"card": "1234567", "display_name": "Thandi"})
            await mc.command("slots.enter", {"card": "1234567"})
            await mc.until(lambda: mc.received("pools:slots"))
            mc.arrivals.clear()
            for score in range(1, 21):
                await mc.command("slots.record_score", {"entry": "S1", "score": score})
                await mc.until(lambda s=score: mc.received(BOARD)[-1:] != [] and
                               mc.views[BOARD]["rows"][0]["score"] == s)
            # the MC's socket carries the ack first, the views it changed after: the ack does
            # not wait for the fan-out (before, every view was queued to every client first)
            order = [kind for kind, views in mc.arrivals
                     if kind == "ack" or BOARD in {n for n, _ in views}]
            assert order == ["ack", "views"] * 20
            pushed = mc.received(BOARD)
            for viewer in viewers:
                await viewer.until(lambda v=viewer: v.revisions.get(BOARD) == pushed[-1])
                assert viewer.received(BOARD)[-20:] == pushed  # every change, in order
                assert viewer.views[BOARD] == mc.views[BOARD] and not viewer.gaps
        finally:
            for client in (mc, *viewers):
                await client.close()


async def test_a_screen_gets_only_what_its_program_shows_and_a_takeover_brings_its_view(
        tmp_path, log_at, monkeypatch):
    zone, offset = noon_zone()
    start = dt.datetime.now(dt.UTC) + dt.timedelta(hours=offset, minutes=30)
    write_config(tmp_path / "super9.yaml", start.replace(microsecond=0), zone)
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))  # Super 9 tickets on sale now
    async with live_controller(log_at) as ctl, ctl.client("technician") as tech:
        key = await enrol(tech)
        assert (await tech.send("screens.authorise", {"screen": "stage-1"}))["ok"]
        only_slots = PLAYLIST.replace("  - {scene: prize_table, duration: 1h}\n", "")
        assert (await tech.send("playlists.assign", {"file": "stage.yaml", "yaml": only_slots,
                                                     "groups": ["stage"]}))["ok"]
        screen = Recorder(ctl.url, "/display", {"key": key, "screen": "stage-1"})
        viewer = Recorder(ctl.url, "/display", {"key": ctl.keys["display"]})
        mc = Recorder(ctl.url, "/control", {"key": ctl.keys["operator"]})
        for client in (screen, viewer, mc):
            await client.connect()
        try:
            # the screen's sync brings what its program reads, nothing of Super 9
            assert BOARD in screen.views and "screen:stage-1" in screen.views
            assert not {n for n in screen.views if "super9" in n}
            # and what every screen's overlays read: the venue's zone for its clock
            assert screen.views["venue"]["timezone"]
            await mc.command("register_member", {"card": "1234567", "display_name": "Thandi"})
            await mc.command("super9.sell_ticket", {"ticket": "0421", "card": "1234567"})
            await mc.command("slots.enter", {"card": "1234567"})
            await mc.command("slots.record_score", {"entry": "S1", "score": 700})
            await screen.until(lambda: screen.views[BOARD]["rows"])
            await viewer.until(lambda: viewer.received("jackpot:super9"))  # viewers: all
            assert not screen.received("jackpot:super9")  # a screen: only what it shows
            assert not {n for n in screen.views if "super9" in n}

            await mc.command("takeover.start", {"group": "stage", "scene": "super9_board"})
            await screen.until(lambda: "board:super9" in screen.views and
                               screen.views["screen:stage-1"]["takeover"])
            names = [n for kind, views in screen.arrivals if kind == "views" for n, _ in views]
            # the board arrives before (or with) the program that shows it
            assert names.index("board:super9") < len(names) - 1 - \
                names[::-1].index("screen:stage-1")
            assert screen.views["board:super9"] == mc.views["board:super9"]
        finally:
            for client in (screen, viewer, mc):
                await client.close()


async def test_a_large_view_travels_as_a_delta_and_a_gap_brings_it_whole(log_at):
    async with live_controller(log_at) as ctl, ctl.client("display") as gappy:
        mc = Recorder(ctl.url, "/control", {"key": ctl.keys["operator"]})
        viewer = Recorder(ctl.url, "/display", {"key": ctl.keys["display"]})
        for client in (mc, viewer):
            await client.connect()
        try:
            for n in range(1, 21):  # each new score goes to the bottom of the board
                card = f"{1000000 + n}"
                await mc.command("register_member", {"card": card,
                                                     "display_name": f"Player Number {n}"})
                await mc.command("slots.enter", {"card": card})
                await mc.command("slots.record_score", {"entry": f"S{n}", "score": 9000 - n})
            await viewer.until(lambda: viewer.views == {
                n: d for n, d in mc.views.items() if not n.startswith("ops:")})
            assert viewer.deltas > 0 and not viewer.gaps  # the board grew past 1 KB

            await gappy.wait_view(BOARD, lambda d: len(d["rows"]) == 20)
            gappy.revisions[BOARD] -= 1  # as if a change had been missed
            await mc.command("slots.record_score", {"entry": "S3", "score": 8990})
            await viewer.until(lambda: viewer.revisions[BOARD] == mc.revisions[BOARD])
            assert viewer.views[BOARD] == mc.views[BOARD] and viewer.deltas > 1
            # the gapped client asked for the view whole and holds the same document
            await gappy.wait_view(BOARD, lambda d: d == mc.views[BOARD])
        finally:
            for client in (mc, viewer):
                await client.close()
