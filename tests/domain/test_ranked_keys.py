"""The order of a leaderboard's keys (controller/domain/ranked_keys.py) answers as a sorted
list does, however its runs were cut: runs of 2 to 5 keys here, so every change crosses them."""

from __future__ import annotations

import pickle
from array import array
from bisect import bisect_left

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.domain import ranked_keys
from controller.domain.ranked_keys import RankedKeys

# (op, key, value): put `key` at slot value*100+key (moved there if it is in), take it out,
# ask for a place, or make the order again from its keys (a snapshot's load)
ops = st.lists(st.tuples(st.sampled_from(["add", "remove", "ask", "load"]),
                         st.integers(0, 40), st.integers(0, 9)), max_size=120)


@settings(max_examples=300)
@given(ops, st.integers(2, 5))
def test_the_runs_answer_as_a_sorted_list_does(operations, block):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ranked_keys, "BLOCK", block)
        answers_as_a_sorted_list_does(operations)


def answers_as_a_sorted_list_does(operations):
    slots: dict[int, int] = {}
    order = RankedKeys(slots.__getitem__)
    for op, key, value in operations:
        if op == "add":
            if key in slots:  # (its slot is read while it is taken out)
                order.remove(key, slots[key])
            slots[key] = value * 100 + key
            order.add(key, slots[key])
        elif op == "remove" and key in slots:
            order.remove(key, slots[key])
            del slots[key]
        elif op == "load":
            order = RankedKeys(slots.__getitem__, pickle.loads(pickle.dumps(order.keys())))
        ranked = sorted(slots.values())
        assert order.bisect_left(value * 100 + key) == bisect_left(ranked, value * 100 + key)
        assert list(order) == [slot % 100 for slot in ranked] and len(order) == len(ranked)
        assert list(order.from_slot(value * 100)) == [s % 100 for s in ranked
                                                     if s >= value * 100]
        assert order.first(value) == [slot % 100 for slot in ranked[:value]]
    assert order.keys() == array("i", (slot % 100 for slot in sorted(slots.values())))


def test_taking_out_a_key_that_is_not_there_is_a_key_error():
    slots = {1: 100, 2: 200}
    order = RankedKeys(slots.__getitem__, array("i", (1, 2)))
    for key, slot in ((3, 300), (3, 150), (2, 100)):
        try:
            order.remove(key, slot)
        except KeyError:
            continue
        raise AssertionError(f"{key} at {slot} was taken out")
    assert list(order) == [1, 2]
