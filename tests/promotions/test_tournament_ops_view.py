"""The operator's tournament view holds the entries in play, not every entry; the console finds
any other one by name or card (Tournament.find). A qualifying stage can hold 100 000 entries, and
the view is rebuilt and sent to every console on each change (bench/leaderboard.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.promotions.helpers import Driver
from tests.promotions.test_slots import qualify


def in_play_by_brute_force(slots) -> list[str]:
    """Every seat of a qualifying heat with a score still to come, every later entry."""
    first = [e for e in slots.entries.values() if e.stage == slots.order[0]]
    heats = {e.heat for e in first if e.status == "active" and e.score is None}
    rows = [e.id for e in first if e.heat in heats - {None}]
    rows += [e.id for e in first if e.heat is None and e.status == "active" and e.score is None]
    return rows + [e.id for e in slots.entries.values() if e.stage != slots.order[0]]


def test_heats_scored_in_full_leave_the_operators_view_and_are_found_by_name_or_card():
    d = Driver()
    entries = qualify(d, 25)  # heats 1 and 2 scored in full, heat 3 half (5 of 10 seats)
    late = [d.entry("slots.enter", {"card": card}) for card in d.members(5, start=2_000_000)]
    ops = d.view("ops:slots")["entries"]
    assert {r["heat"] for r in ops} == {"Heat 3"}
    assert [r["entry"] for r in ops] == entries[20:] + late  # the whole heat, scored or not
    slots = d.feature("slots")
    assert sorted(r["entry"] for r in ops) == sorted(in_play_by_brute_force(slots))

    first = slots.find("PLAYER0 s", 8)  # any case, part of the name as screens show it
    assert entries[0] in {r["entry"] for r in first}
    assert next(r for r in first if r["entry"] == entries[0])["score"] == 10_000
    card = d.view("ops:slots")["entries"][0]["card"]  # masked: the last four digits show
    swiped = slots.find("1000020", 8)  # a card reader types the whole number
    assert [r["entry"] for r in swiped] == [entries[20]] and card.endswith("0020")
    assert len(slots.find("player", 8)) == 8 and slots.find("nobody", 8) == []
    assert slots.find("  ", 8) == []


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["enter", "score", "void", "disqualify"]),
                          st.integers(0, 30)), max_size=40))
def test_the_heats_in_play_are_kept_right_whatever_happens(steps):
    d = Driver()
    cards = d.members(8)
    entries: list[str] = []
    for action, k in steps:
        if action == "enter" or not entries:
            entries.append(d.entry("slots.enter", {"card": cards[k % len(cards)]}))
            continue
        entry = entries[k % len(entries)]
        e = d.feature("slots").entries[entry]
        if e.status != "active":
            continue
        if action == "score":
            d.do("slots.record_score" if e.score is None else "slots.correct_score",
                 {"entry": entry, "score": 100 + k} if e.score is None
                 else {"entry": entry, "score": 100 + k, "reason": "misread"})
        elif action == "void" and e.score is not None:
            d.do("slots.void_score", {"entry": entry, "reason": "misread"})
        elif action == "disqualify":
            d.do("slots.disqualify", {"entry": entry, "reason": "rule 13"})
    slots = d.feature("slots")
    ops = [r["entry"] for r in d.view("ops:slots")["entries"]]
    assert sorted(ops) == sorted(in_play_by_brute_force(slots))
