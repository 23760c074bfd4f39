"""The sorted board: every answer equals a brute-force sort, however the top rows were cached,
whether it was loaded from a snapshot on the way, and however short the runs its keys are kept
in (controller/domain/ranked_keys.py)."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.domain import ranked_keys
from controller.domain.leaderboard import Leaderboard

# (op, key, value): record, replace, tie-break, remove, ask for the top `value` rows, or load
# the board from its pickle (a snapshot's: keys renumbered, numbers taken off the board dropped)
ops = st.lists(st.tuples(st.sampled_from(["record", "replace", "tie", "remove", "top", "load"]),
                         st.integers(0, 12), st.integers(0, 8)), max_size=80)


def brute(slots: dict[int, tuple[int, int, int]], n: int) -> list[tuple[int, int]]:
    """The first `n` (key, score): higher score, then lower tie rank, then earlier seq."""
    order = sorted(slots.items(), key=lambda kv: (-kv[1][0], kv[1][1], kv[1][2], kv[0]))
    return [(k, score) for k, (score, _, _) in order[:n]]


@settings(max_examples=200)
@given(ops, st.booleans(), st.sampled_from([2, 3, ranked_keys.BLOCK]))
def test_the_board_answers_as_a_full_sort_does(operations, best_only, block):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ranked_keys, "BLOCK", block)
        answers_as_a_full_sort_does(operations, best_only)


def answers_as_a_full_sort_does(operations, best_only):
    board: Leaderboard[int] = Leaderboard(best_only=best_only)
    slots: dict[int, tuple[int, int, int]] = {}  # key -> (score, tie rank, seq)
    for seq, (op, key, value) in enumerate(operations):
        if op == "record":
            changed = board.record(key, value, seq)
            if not (best_only and key in slots and slots[key][0] >= value):
                assert changed
                slots[key] = (value, 0, seq)
            else:
                assert not changed
        elif op == "replace":
            board.replace(key, value, seq)
            slots[key] = (value, 0, seq)
        elif op == "tie" and key in slots:
            board.set_tie_rank(key, value)
            slots[key] = (slots[key][0], value, slots[key][2])
        elif op == "remove":
            board.remove(key)
            slots.pop(key, None)
        elif op == "load":
            board = pickle.loads(pickle.dumps(board))
        if seq % 2:  # a change with the top rows cached, and one without
            assert board.top(value) == brute(slots, value)
            assert list(board.top_keys(value)) == [k for k, _ in brute(slots, value)]
    assert board.top(5) == brute(slots, 5)
    everything = brute(slots, len(slots))
    assert list(board) == everything and len(board) == len(slots)
    assert [board.position(k) for k, _ in everything] == list(range(1, len(slots) + 1))
    for score in range(10):
        assert board.at_least(score) == sum(1 for s, _, _ in slots.values() if s >= score)
        assert board.keys_at(score) == [k for k, s in everything if s == score]
    for key in range(13):
        assert board.held(key) == ((slots[key][0], slots[key][2]) if key in slots else None)
