"""The incremental Super 9 game against brute force, and against the closed-form jackpot odds."""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.promotions.super9.game import Game

numbers = st.integers(0, 36)
tickets = st.lists(st.lists(numbers, min_size=9, max_size=9, unique=True), min_size=1,
                   max_size=6)


def brute_force(game: Game, void: set[str]) -> tuple[list[int], list[str]]:
    called = set(game.called)
    left = {t: 9 - len(called & set(nums)) for t, nums in zip(game.ids, game.numbers,
                                                              strict=True) if t not in void}
    need = [sum(1 for n in left.values() if n == k) for k in range(10)]
    return need, sorted(t for t, n in left.items() if n == 0)


@settings(max_examples=60, deadline=None)
@given(tickets, st.lists(numbers, max_size=45), st.data())
def test_need_counts_and_winners_match_brute_force_and_undo_is_exact(held, spins, data):
    game = Game([(f"{i:04d}", nums) for i, nums in enumerate(held)], 9)
    start = list(game.level)
    void: set[str] = set()
    for i, n in enumerate(spins):
        call = game.call(n)
        # rule 19: only the first call of a number counts
        assert call.counted == (n not in spins[:i])
        assert call.counted_index == len(set(spins[: i + 1]))
        if data.draw(st.booleans()) and len(void) < len(held):
            victim = data.draw(st.sampled_from(game.ids))
            game.void(victim)
            void.add(victim)
        need, complete = brute_force(game, void)
        assert [game.need(k) for k in range(10)] == need
        assert game.complete() == complete
    if not void:
        while game.calls:
            game.uncall()
        assert game.level == start and game.called == {}


def test_jackpot_rate_matches_the_closed_form():
    # rules 14 and 19: the jackpot needs the ticket's 9 numbers among the first 18 different
    # numbers spun. The order in which new numbers appear is a uniformly random permutation of
    # 0-36 whatever the repeats, so one ticket's chance is C(18,9) / C(37,9), and a session of
    # T independent tickets has the jackpot won with chance 1 - (1 - p)^T.
    rng = random.Random(20250604)
    sessions, per_session = 1500, 200
    p = math.comb(18, 9) / math.comb(37, 9)
    complete_tickets = jackpot_sessions = 0
    for _ in range(sessions):
        game = Game([(str(i), rng.sample(range(37), 9)) for i in range(per_session)], 9)
        while game.counted_spins < 18:
            game.call(rng.randrange(37))
        complete_tickets += game.need(0)
        jackpot_sessions += game.need(0) > 0
    n = sessions * per_session
    assert abs(complete_tickets - n * p) < 4 * math.sqrt(n * p * (1 - p))
    q = 1 - (1 - p) ** per_session
    assert abs(jackpot_sessions - sessions * q) < 4 * math.sqrt(sessions * q * (1 - q))
