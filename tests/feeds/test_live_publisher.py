"""The live heat's publisher (controller/feeds/live.py, `publish_live`) wakes for every reading:
one put while it sleeps out its gap after a rendering is on the next rendering at the gap's end,
not at the idle tick, and a burst of readings within a gap is one rendering (issue 47; issue
24 asked feed -> screen p99 <= 100 ms).

The real publisher on a real service and hub, over a real SQLite log with a bank's heat
started by its device key, run on a loop of virtual time (tests/support/virtual_time.py): the
test puts readings at virtual moments of its choosing and reads when each rendering happened,
so the order of events is forced and nothing waits on the wall clock."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import pytest
import socketio

from controller.access.keys import Principal
from controller.application.features import build_features
from controller.application.service import Service
from controller.application.show import Show
from controller.feeds import live
from controller.realtime.hub import Hub
from controller.store.target import open_log
from tests.promotions.helpers import NOW
from tests.support.virtual_time import VirtualTimeLoop

MC = Principal("operator", "MC tablet", "key:" + "a" * 64)
BANK = Principal("device", "bank-1", "key:" + "b" * 64)
MACHINES = ["101", "102", "103"]
Rendering = tuple[float, dict[str, int | None]]  # (loop time, machine -> credits shown)


def send(service: Service, principal: Principal, type_: str, payload: dict[str, Any]) -> None:
    envelope = {"type": type_, "payload": payload, "command_id": str(uuid.uuid4())}
    ack, _, _ = service.execute(envelope, principal)
    assert ack["ok"], ack


def live_heat(db: Path) -> Service:
    """Three members seated in heat 1 (slots rule 11) and bank-1's heat on their machines."""
    service = Service(open_log(db), Show(build_features()), lambda: NOW)
    service.replay()
    for i, machine in enumerate(MACHINES):
        card = str(1_000_000 + i)
        send(service, MC, "register_member", {"card": card, "display_name": f"Player {machine}"})
        send(service, MC, "slots.enter", {"card": card})
    send(service, BANK, "slots.feed_heat_started", {
        "bank": "bank-1", "feed_heat": "F-1", "machines": MACHINES, "start_credits": 1000,
        "duration_s": 300})
    return service


def run_publisher(db: Path, monkeypatch: pytest.MonkeyPatch,
                  script: Any) -> list[Rendering]:
    """Run `publish_live` on virtual time beside `script(put, renderings)` and return every
    rendering: when it happened and the credits it showed."""
    service = live_heat(db)
    renderings: list[Rendering] = []
    real_render = live.render

    def render(slots: Any, credits: live.LiveCredits, now_ms: int) -> dict[str, Any]:
        docs = real_render(slots, credits, now_ms)
        shown = {r["machine"]: r["credits"] for r in docs[live.LIVE_HEAT_VIEW]["rows"]}
        renderings.append((asyncio.get_running_loop().time(), shown))
        return docs

    monkeypatch.setattr(live, "render", render)

    async def main() -> None:
        credits = live.LiveCredits()
        hub = Hub(service, socketio.AsyncServer(async_mode="aiohttp"))
        publisher = asyncio.create_task(live.publish_live(hub, credits))
        try:
            await script(lambda machine, value: credits.put(
                "bank-1", "F-1", {machine: value}, NOW), renderings)
            assert not publisher.done(), publisher
        finally:
            publisher.cancel()
        assert service.show.views[live.LIVE_HEAT_VIEW].doc["rows"]  # published, not only made

    try:
        with asyncio.Runner(loop_factory=VirtualTimeLoop) as runner:
            runner.run(main())
    finally:
        service.log.close()
    return renderings


def test_a_reading_put_while_the_publisher_sleeps_is_on_the_rendering_at_the_gaps_end(
        tmp_path, monkeypatch):
    gap, idle = live.MIN_GAP_S, live.IDLE_S

    async def script(put: Any, renderings: list[Rendering]) -> None:
        await asyncio.sleep(0)  # the first rendering, at 0; the publisher sleeps out its gap
        assert [t for t, _ in renderings] == [0.0]
        await asyncio.sleep(gap * 0.4)
        put("101", 1250)  # during the gap's sleep
        await asyncio.sleep(gap + idle)  # past the idle tick a lost wake-up would wait for

    renderings = run_publisher(tmp_path / "show.db", monkeypatch, script)
    # at the gap's end, not at the idle tick after it (gap + IDLE_S): the wake-up is kept
    assert renderings[1] == (pytest.approx(gap), {"101": 1250, "102": None, "103": None})


def test_a_burst_is_one_rendering_and_a_reading_in_the_idle_wait_is_rendered_at_once(
        tmp_path, monkeypatch):
    gap, idle = live.MIN_GAP_S, live.IDLE_S

    async def script(put: Any, renderings: list[Rendering]) -> None:
        await asyncio.sleep(0)
        await asyncio.sleep(gap * 0.2)
        put("101", 1100)  # three POSTs a few ms apart, all within the gap
        await asyncio.sleep(gap * 0.3)
        put("102", 1200)
        await asyncio.sleep(gap * 0.3)
        put("101", 1150)
        await asyncio.sleep(gap * 0.2 + idle / 2)  # past the rendering; waiting, idle
        put("103", 900)
        await asyncio.sleep(gap / 2)

    renderings = run_publisher(tmp_path / "show.db", monkeypatch, script)
    burst = {"101": 1150, "102": 1200, "103": None}
    assert renderings == [
        (0.0, dict.fromkeys(MACHINES)),
        (pytest.approx(gap), burst),  # the burst: one rendering, with each machine's latest
        (pytest.approx(gap + idle / 2), {**burst, "103": 900}),  # at once, mid-wait
    ]


def test_with_no_reading_the_publisher_renders_on_the_idle_tick(tmp_path, monkeypatch):
    gap, idle = live.MIN_GAP_S, live.IDLE_S

    async def script(put: Any, renderings: list[Rendering]) -> None:
        await asyncio.sleep(2 * (gap + idle) + gap / 2)

    renderings = run_publisher(tmp_path / "show.db", monkeypatch, script)
    # a machine falling silent or a heat ended by a command is seen within gap + IDLE_S
    assert [t for t, _ in renderings] == [0.0, pytest.approx(gap + idle),
                                         pytest.approx(2 * (gap + idle))]
