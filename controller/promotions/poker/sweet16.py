"""The Sweet 16 side bet (poker rules 13, 33, 45): which two-card hand it is, and what it pays.

The hands are fixed by the rules; their odds ("160 to 1") come from the pay table in
controller/config/poker.yaml. Cards are written rank then suit: "AH", "5h", "10S", "KD"
(or with suit symbols). For the total of 16 an Ace counts 11 (Ace of hearts + 5 of hearts is the
Sweet 16) and a court card 10.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.domain.errors import Rejected
from controller.promotions.poker.config import Sweet16Hand, Sweet16Pay

SUITS = {"H": "H", "D": "D", "C": "C", "S": "S",
         "\u2665": "H", "\u2666": "D", "\u2663": "C", "\u2660": "S"}
RED = {"H", "D"}
VALUES = {"A": 11, "K": 10, "Q": 10, "J": 10, "10": 10,
          **{str(n): n for n in range(2, 10)}}


def parse_card(card: str) -> tuple[str, str]:
    text = card.strip().upper()
    rank, suit = text[:-1], SUITS.get(text[-1:], "")
    if rank not in VALUES or not suit:
        raise Rejected("bad_card_face", f"{card!r} is not a card; write rank then suit, "
                                        "e.g. AH, 10S, KD.")
    return rank, suit


def classify(first: str, second: str) -> Sweet16Hand | None:
    """The Sweet 16 hand two cards make, or None when they do not total 16."""
    (r1, s1), (r2, s2) = parse_card(first), parse_card(second)
    if VALUES[r1] + VALUES[r2] != 16:
        return None
    if {(r1, s1), (r2, s2)} == {("A", "H"), ("5", "H")}:
        return "sweet_16"
    if s1 == s2:
        return "suited_16"
    if (s1 in RED) == (s2 in RED):
        return "same_colour_16"
    return "mixed_colour_16"


def payout(first: str, second: str, bet: int, table: Sequence[Sweet16Pay]) -> int:
    """Winnings (cents) on a `bet` (cents) for the two cards: bet x odds, 0 if no 16."""
    hand = classify(first, second)
    if hand is None:
        return 0
    odds = {row.hand: row.odds for row in table}
    return bet * odds[hand]
