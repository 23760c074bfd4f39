"""controller/realtime/outbox.py's `Slices`: a long fan-out job gives the loop back once its
slice is spent, and not before (the clock is moved, not waited for)."""

from __future__ import annotations

import asyncio

from controller.realtime.outbox import SLICE_S, Slices


async def test_a_job_pauses_for_the_loop_only_once_its_slice_is_spent():
    ran: list[str] = []
    asyncio.get_running_loop().call_soon(ran.append, "ack")  # waiting for the loop
    slices = Slices()
    slices.since += 60  # a slice with time left
    await slices.pause()
    assert ran == []
    slices.since -= 60 + SLICE_S  # spent
    spent = slices.since
    await slices.pause()
    assert ran == ["ack"] and slices.since > spent  # and a new slice began
