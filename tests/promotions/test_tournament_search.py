"""The console's player search answers from the index the folds keep (Tournament.search) exactly
what a walk over every entry answers: same entries, same order, same rows."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.promotions.tournament import state
from tests.promotions.helpers import Driver

#: letters whose lower case is tricky: accents stay accents, "İ" lowers to two characters
LETTERS = "aAeéÉiİıßo"
NAMES = st.lists(st.text(LETTERS, min_size=1, max_size=6), min_size=1, max_size=3).map(" ".join)
CARDS = st.integers(0, 10**7).map(lambda n: f"{n:07d}")  # few digits: tails repeat


def found_by_walking(slots, query: str, limit: int) -> list[dict[str, Any]]:
    """Every entry, newest first, tested as the search always has (the oracle)."""
    text = query.strip().lower()
    digits = "".join(c for c in text if c.isdigit())
    is_card = bool(digits) and all(c.isdigit() or c in " -" for c in text)
    found = []
    for e in reversed(slots.entries.values()):
        member = slots.members.by_card[e.card]
        if is_card:
            tail = "".join(c for c in member.masked_card if c.isdigit())
            hit = digits.endswith(tail) if len(digits) >= len(tail) else digits in tail
        else:
            hit = bool(text) and text in slots.name_of(e.card).lower()
        if hit:
            found.append(slots.ops_row(e))
            if len(found) == limit:
                break
    return found


def queries(slots) -> list[str]:
    """Pieces of the names and cards entered, cased and spaced as people type them, and some
    that match nothing."""
    out = ["", " ", "-", "zz", "0", "12 34", "1-2", "99999999999"]
    for member in slots.members.by_card.values():
        name, card = member.display_name, member.card
        out += [name, name.upper(), f" {name[1:4]} ", name[-2:], name[:5].lower(),
                card, card[-4:], card[-6:], card[1:3], f"{card[:3]} {card[3:]}", card[-1]]
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(NAMES, CARDS), min_size=1, max_size=8, unique_by=lambda m: m[1]),
       st.lists(st.tuples(st.sampled_from(["enter", "enter", "disqualify", "exclude"]),
                          st.integers(0, 50)), max_size=40),
       st.integers(1, 8), st.sampled_from([(state.MANY, state.RECENT), (0, 3), (2, 10)]))
def test_the_index_answers_what_a_walk_over_every_entry_answers(people, steps, limit, sizes):
    """`sizes` shrinks how many keys make a piece common and how far back its search looks
    first, so a few entries take every path a board of 100 000 takes."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(state, "MANY", sizes[0])
        patch.setattr(state, "RECENT", sizes[1])
        check_search(people, steps, limit)


def check_search(people: list[tuple[str, str]], steps: list[tuple[str, int]],
                 limit: int) -> None:
    d = Driver()
    cards = [d.member(card, name) for name, card in people]
    entries: list[str] = []
    for action, k in steps:
        card = cards[k % len(cards)]
        eligible = not d.feature("members").by_card[card].flags
        if action == "enter" and eligible:
            entries.append(d.entry("slots.enter", {"card": card}))
        elif action == "disqualify" and entries:
            entry = entries[k % len(entries)]
            if d.feature("slots").entries[entry].status == "active":
                d.do("slots.disqualify", {"entry": entry, "reason": "rule 13"})
        elif action == "exclude" and eligible:
            d.do("flag_member", {"card": card, "flag": "self_excluded", "reason": "asked"})
    slots = d.feature("slots")
    for query in queries(slots):
        assert slots.find(query, limit) == found_by_walking(slots, query, limit), query
    copy = pickle.loads(pickle.dumps(slots.search))  # plain data: snapshots pickle it
    assert copy == slots.search
