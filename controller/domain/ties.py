"""Tie-breaks by playing card (slots rule 26): Ace is low, the highest card takes the higher place.

Cards are drawn on stage and entered by the operator, or drawn electronically from a fresh
52-card deck through the show's CSPRNG. Players whose cards are equal draw again, so an
electronic draw is a list of rounds until every tied player holds a different value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from controller.domain.commands import Randomness
from controller.domain.draws import shuffled
from controller.domain.errors import Rejected

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("\u2660", "\u2665", "\u2666", "\u2663")  # spades, hearts, diamonds, clubs
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)


def card_value(card: str) -> int:
    """"A" or "A♠" -> 1 ... "K" -> 13 (Ace is low, rule 26); suits do not count."""
    text = card.strip().upper().rstrip("".join(SUITS) + "SHDC")
    if text not in RANKS:
        raise Rejected("bad_card_face", f"{card!r} is not a playing card; use A, 2-10, J, Q "
                                        "or K (Ace is low, rule 26).")
    return RANKS.index(text) + 1


def electronic_rounds(keys: Sequence[str], rng: Randomness) -> list[dict[str, Any]]:
    """Draw for every tied key, then again for those holding equal values, until all differ."""
    rounds: list[dict[str, Any]] = []
    pending = [list(keys)]
    while pending:
        group = pending.pop(0)
        cards = shuffled(DECK, rng)[: len(group)]
        rounds.append({"keys": group, "cards": cards})
        by_value: dict[int, list[str]] = {}
        for key, card in zip(group, cards, strict=True):
            by_value.setdefault(card_value(card), []).append(key)
        pending += [same for same in by_value.values() if len(same) > 1]
    return rounds
