"""The slot machines' live credits (not events) and the task that publishes them.

Per bank, the latest credits and reading time of each machine of its live heat; a machine is
silent when it has not reported for the slots config's `feed_silence_s` (10 s shipped) while
the heat plays (slots rule 27). The publisher renders `live_heat:slots` and `ops:feed`
(controller/promotions/slots/live.py) as soon as readings arrive (at most every `MIN_GAP_S`, so
a burst of POSTs is one rendering) and every `IDLE_S` otherwise (a heat started or ended by a
command, a machine falling silent); a document that changed is pushed to every client as a
live view (`Show.put_live`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping

from controller.application.faults import FaultLog
from controller.promotions.slots import Slots
from controller.promotions.slots.live import (
    LIVE_HEAT_VIEW,
    OPS_FEED_VIEW,
    Reading,
    live_heat_doc,
    ops_feed_doc,
)
from controller.realtime.hub import Hub

MIN_GAP_S = 0.01
IDLE_S = 0.1
log = logging.getLogger(__name__)


class LiveCredits:
    """The latest reading of each machine, per bank, for the bank's current feed heat."""

    def __init__(self) -> None:
        self._heat: dict[str, str] = {}  # bank -> the feed heat its readings belong to
        self._readings: dict[str, dict[str, Reading]] = {}
        self.arrived = asyncio.Event()  # set by `put`: the publisher renders at once

    def put(self, bank: str, feed_heat: str, readings: Mapping[str, int], at_ms: int) -> None:
        if self._heat.get(bank) != feed_heat:
            self._heat[bank], self._readings[bank] = feed_heat, {}
        for machine, credits in readings.items():
            self._readings[bank][machine] = Reading(credits, at_ms)
        self.arrived.set()

    def of(self, bank: str, feed_heat: str) -> dict[str, Reading]:
        """The bank's readings of `feed_heat` (none once another heat started there)."""
        return dict(self._readings.get(bank, {})) if self._heat.get(bank) == feed_heat else {}

    def current(self, slots: Slots) -> dict[str, dict[str, Reading]]:
        """Each bank's readings of its latest feed heat."""
        return {bank: self.of(bank, feed.feed_heat) for bank, feed in slots.bank_heats.items()}

    def silent_since(self, slots: Slots, now_ms: int) -> dict[str, dict[str, int]]:
        """bank -> machine -> its last report (or its heat's start): those silent now."""
        out: dict[str, dict[str, int]] = {}
        silence_ms = slots.config.feed_silence_s * 1000
        for bank, feed in slots.bank_heats.items():
            if feed.status != "live":
                continue
            readings = self.of(bank, feed.feed_heat)
            for machine in feed.machines:
                last = readings[machine].at_ms if machine in readings else feed.started_ms
                if now_ms - last >= silence_ms:
                    out.setdefault(bank, {})[machine] = last
        return out


def render(slots: Slots, credits: LiveCredits, now_ms: int) -> dict[str, dict[str, object]]:
    readings = credits.current(slots)
    silent = credits.silent_since(slots, now_ms)
    return {LIVE_HEAT_VIEW: live_heat_doc(slots, readings, silent),
            OPS_FEED_VIEW: ops_feed_doc(slots, readings, silent)}


async def publish_live(hub: Hub, credits: LiveCredits) -> None:
    """Publish the live heat's views whenever their documents change: at once after readings
    arrive, else every `IDLE_S`."""
    service = hub.service
    slots = service.show.feature(Slots)
    assert isinstance(slots, Slots)
    faults = FaultLog(log, "The live heat's views")
    while True:
        # cleared before the rendering, which takes in every reading put so far: a reading put
        # from here on (during the gap's sleep or the wait) finds it set and wakes the next
        credits.arrived.clear()
        try:
            docs = render(slots, credits, service.clock())
            hub.publish([view for name, doc in docs.items()
                         if (view := service.show.put_live(name, doc, service.log.last_seq))])
        except Exception as exc:
            faults.failed(exc)
        else:
            faults.succeeded()
        await asyncio.sleep(MIN_GAP_S)  # a burst of readings within the gap: one rendering
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(credits.arrived.wait(), IDLE_S)
