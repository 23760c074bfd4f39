"""controller/application/heap.py: the replayed show is frozen out of the cyclic collector's
walk."""

from __future__ import annotations

import gc

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
