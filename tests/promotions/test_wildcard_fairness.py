"""The pick is fair: every ticket equally likely, so a holder's chance is tickets / total.

The 200 000-draw test runs the production path (`draw_ticket`: one randbelow over the total,
located in integer cumulative counts) with a seeded generator, so the test is reproducible and
cannot flake; the same statistic rejects a subtly biased picker, so it can fail.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.domain.commands import Randomness
from controller.promotions.wildcard.pool import draw_ticket, holder_of, pool_digest

# 6 holders with 1 ticket and 6 holders with 6 tickets (rules 18.1-18.2): 42 tickets.
LISTING = sorted([[f"10000{i:02d}", 1 if i % 2 else 6] for i in range(12)])
DRAWS = 200_000
CHI2_99_DF11 = 24.725  # chi-square critical value, 11 degrees of freedom, p = 0.99 (tables)


class SeededRng(Randomness):
    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def below(self, n: int) -> int:
        return self.random.randrange(n)


class ModuloBiasedRng(SeededRng):
    """Modulo bias, the classic mistake: reducing a wider random range with `% n` makes the
    first tickets come up too often."""

    def below(self, n: int) -> int:
        pick = self.random.randrange(n + n // 20)
        return pick % n


def chi_square(rng: Randomness) -> float:
    counts = Counter(draw_ticket(LISTING, rng)[0] for _ in range(DRAWS))
    total = sum(t for _, t in LISTING)
    return sum((counts[card] - DRAWS * t / total) ** 2 / (DRAWS * t / total)
               for card, t in LISTING)


def test_200000_draws_follow_the_ticket_weights():
    # rules 18.1-18.2, 33: a member with 6 tickets is six times as likely as one with 1
    assert chi_square(SeededRng(20240118)) < CHI2_99_DF11


def test_the_chi_square_check_rejects_a_biased_pick():
    assert chi_square(ModuloBiasedRng(20240118)) > CHI2_99_DF11


@settings(max_examples=60)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=30), st.data())
def test_every_ticket_belongs_to_exactly_its_holder(tickets, data):
    # rule 33: the ticket number decides the winner, found in integer cumulative counts
    listing = [[f"{7000000 + i}", t] for i, t in enumerate(tickets)]
    pick = data.draw(st.integers(0, sum(tickets) - 1))
    owner = holder_of(listing, pick)
    before = sum(t for card, t in listing if card < owner)
    assert before <= pick < before + dict((c, t) for c, t in listing)[owner]


@settings(max_examples=30)
@given(st.permutations(LISTING))
def test_digest_does_not_depend_on_listing_order(shuffled):
    assert pool_digest(shuffled) == pool_digest(LISTING)
