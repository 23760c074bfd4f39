"""controller/application/heap.py: the replayed show is frozen out of the cyclic collector's
walk."""

from __future__ import annotations

import asyncio
import gc
from types import SimpleNamespace

from controller.application import heap
from controller.application.heap import keep_replayed_state


def test_what_lives_after_the_replay_is_frozen_and_what_comes_later_is_not():
    state = [{"entry": f"S{i}", "score": i} for i in range(1000)]  # a replayed show's objects
    try:
        keep_replayed_state()
        frozen = gc.get_freeze_count()
        assert frozen >= len(state)  # out of the walk of every later full collection
        later = [{"entry": "S1001", "scores": []}]  # holds a container: tracked
        assert gc.is_tracked(later[0]) and gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def quiet(bursts: heap.Bursts) -> None:
    """As if `QUIET_S` had passed since the latest connection, and its timer fired."""
    assert bursts.settling is not None
    bursts.settling.cancel()
    bursts.last -= heap.QUIET_S
    bursts.settle()


async def test_a_burst_of_connections_is_frozen_in_steps_and_once_it_is_quiet(monkeypatch):
    # the burst's clock stands still unless quiet() moves it: a loaded machine that paused
    # this test for QUIET_S between two connections made the second the first of a burst
    monkeypatch.setattr(heap, "time", SimpleNamespace(monotonic=lambda: 1000.0))
    bursts = heap.Bursts()
    try:
        gc.unfreeze()
        enrolled = [{"screen": f"s{n}", "group": "floor"} for n in range(100)]
        bursts.connected()  # the first after a quiet spell: what came before is frozen
        assert gc.get_freeze_count() == 0  # in a callback of its own
        await asyncio.sleep(0)
        first = gc.get_freeze_count()
        assert first >= len(enrolled)
        sessions = []
        for n in range(heap.BURST_STEP - 1):  # a step's worth: frozen at once
            sessions.append({"sid": f"s{n}", "rooms": []})
            bursts.connected()
            assert gc.get_freeze_count() <= first
        await asyncio.sleep(0)
        assert gc.get_freeze_count() <= first
        bursts.connected()
        await asyncio.sleep(0)
        stepped = gc.get_freeze_count()
        assert stepped >= first + len(sessions) - 10  # a few of the first may have gone
        for n in range(heap.BURST_MIN - 1):  # too few to freeze once quiet
            sessions.append({"sid": f"t{n}", "rooms": []})
            bursts.connected()
        quiet(bursts)
        assert gc.get_freeze_count() <= stepped and bursts.settling is None  # none added
        for n in range(heap.BURST_MIN + 1):  # the next burst: its first freezes what came
            sessions.append({"sid": f"u{n}", "rooms": []})  # before, the rest once quiet
            bursts.connected()
        await asyncio.sleep(0)
        started = gc.get_freeze_count()
        assert started > stepped
        bursts.settle()  # its timer, had a connection come since: it waits again
        assert bursts.settling is not None and gc.get_freeze_count() <= started
        quiet(bursts)
        assert gc.get_freeze_count() > started and bursts.unfrozen == 0
    finally:
        if bursts.settling is not None:
            bursts.settling.cancel()
        gc.unfreeze()


def test_what_a_replay_made_is_not_left_for_the_first_young_collection_to_walk():
    gc.unfreeze()  # what an app started earlier in this process froze
    gc.collect()
    with heap.collector_off():
        assert not gc.isenabled()
        state = [{"entry": f"S{i}", "scores": [i]} for i in range(50_000)]
        assert gc.get_count()[0] > 50_000  # all of it waits in the youngest generation
    assert gc.isenabled() and gc.get_freeze_count() == 0  # nothing is left frozen
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert id(state) in oldest and id(state[-1]) in oldest  # moved there without a walk


def test_a_replay_beside_a_frozen_show_leaves_the_show_frozen():
    show = [{"entry": f"S{i}", "scores": []} for i in range(1000)]
    try:
        keep_replayed_state()
        frozen = gc.get_freeze_count()
        with heap.collector_off():
            audit = [{"entry": f"S{i}", "scores": []} for i in range(1000)]
        assert gc.get_freeze_count() == frozen and len(show) == len(audit)
    finally:
        gc.unfreeze()
