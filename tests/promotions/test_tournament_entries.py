"""A tournament's entries as columns: an entry is found by its id whichever way it was made, and
an `Entry` reads and writes its own row."""

from __future__ import annotations

import pickle

from controller.promotions.tournament.state import Entries


def test_an_entry_is_found_by_its_id_whether_or_not_its_digits_are_its_row():
    entries = Entries("S")
    made = ["S1", "S2", "S7", "S03", "R4", "S4"]  # S7, S03, R4 are not "<letter><row + 1>"
    for i, id_ in enumerate(made):
        entries.add(id_, f"{1000000 + i}", "qualifying", "cash", 5000, 1_700_000_000_000, None)
    assert [entries[id_].card for id_ in made] == [f"{1000000 + i}" for i in range(len(made))]
    assert entries.get("S3") is None and "S5" not in entries and entries.get("S0") is None
    assert entries.get("S6") is entries.get("X9") is None  # S6 is the sixth's place, not its id
    assert list(entries) == made and len(entries) == len(made)


def test_an_entry_changes_its_own_row_and_a_pickle_keeps_it():
    entries = Entries("S")
    for id_ in ("S1", "S2"):
        entries.add(id_, "1000001", "qualifying", "cash", 5000, 1_700_000_000_000, None)
    first = entries["S1"]
    first.heat, first.seat, first.score, first.signed = "Heat 1", 3, 1200, True
    assert (entries["S2"].score, entries["S2"].signed, entries["S2"].heat) == (None, False, None)
    loaded = pickle.loads(pickle.dumps(entries))
    again = loaded["S1"]
    assert (again.heat, again.seat, again.score, again.signed, again.status) == (
        "Heat 1", 3, 1200, True, "active")
    assert [e.id for e in reversed(loaded.values())] == ["S2", "S1"]
