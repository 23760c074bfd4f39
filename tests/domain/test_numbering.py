"""Keys kept as numbers: a `Strings` numbers each string once and keeps its numbers through a
pickle; `Grouped` answers each group's rows as a dict of sorted lists does, before and after
a snapshot's load, whatever changed since; a closed stage's places are found by key."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.domain.numbering import Strings
from controller.domain.standings import Standings
from controller.promotions.tournament.state import NONE, Grouped


@given(st.lists(st.text(max_size=4), max_size=30))
def test_a_string_keeps_its_number_through_a_pickle(texts):
    strings = Strings()
    numbers = [strings.numbered(t) for t in texts]
    assert [strings.key(n) for n in numbers] == texts
    assert sorted(set(numbers)) == list(range(len(set(texts))))  # numbered in order, once
    loaded = pickle.loads(pickle.dumps(strings))
    assert loaded == strings and [loaded.number(t) for t in texts] == numbers
    assert loaded.number("never given") is None and "never given" not in loaded  # 11 letters
    assert loaded.numbered("never given") == len(set(texts))  # the next number


# (op, group, row): file a row under a group, take one out, or load the whole from its pickle
steps = st.lists(st.tuples(st.sampled_from(["add", "add", "remove", "load"]),
                           st.integers(NONE, 6), st.integers(0, 40)), max_size=80)


@settings(max_examples=200)
@given(steps)
def test_grouped_rows_answer_as_sorted_lists_do(ops):
    grouped = Grouped()
    brute: dict[int, list[int]] = {}
    for op, group, row in ops:
        rows = brute.setdefault(group, [])
        if op == "add" and row not in rows:
            assert grouped.add(group, row) == (not rows)  # says when a group starts
            rows.append(row)
            rows.sort()
        elif op == "remove" and rows:
            grouped.remove(group, rows[row % len(rows)])
            del rows[row % len(rows)]
        elif op == "load":
            grouped = pickle.loads(pickle.dumps(grouped))
            assert not grouped.changed  # a load keeps nothing apart
        for g in range(NONE, 8):
            assert list(grouped.rows(g)) == brute.get(g, [])
    assert pickle.loads(pickle.dumps(grouped)) == grouped


def test_a_close_places_every_key_and_a_place_is_found_by_key_after_a_load():
    standings = Standings()
    for seq, (entry, score) in enumerate([("E1", 5), ("E2", 9), ("E3", 7)]):
        standings.put(entry, f"C{entry}", score, seq)
    standings.close(standings.ranking())
    loaded = pickle.loads(pickle.dumps(standings))
    assert [loaded.place(k) for k in ("E2", "E3", "E1", "E9")] == [1, 2, 3, None]
    assert list(loaded.placed()) == ["E2", "E3", "E1"]
    assert list(loaded.placed(after=1)) == ["E3", "E1"]  # below the first place
