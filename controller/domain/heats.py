"""Heats and seats: names, capacities, first free seat, and random seat draws.

A heat is named for people ("Heat 3", "Semi 2", "Final 1"); seats are numbered from 1. Seats are
given in sequential order (first come, first served) or by a random draw through `shuffled`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from controller.domain.commands import Randomness
from controller.domain.draws import shuffled

T = TypeVar("T")
Seat = tuple[str, int]


def heat_name(title: str, number: int) -> str:
    return f"{title} {number}"


def heat_number(name: str) -> int:
    """ "Heat 12" -> 12; the order heats are played in."""
    return int(name.rsplit(" ", 1)[1])


def positions(title: str, heats: int, heat_size: int) -> list[Seat]:
    """Every seat of `heats` heats, heat by heat."""
    return [(heat_name(title, h), s) for h in range(1, heats + 1) for s in range(1, heat_size + 1)]


def heats_needed(players: int, heat_size: int) -> int:
    return -(-players // heat_size)


def first_free_seat(taken: Iterable[Seat], title: str, heat_size: int,
                    after: int = 0) -> Seat:
    """The first seat nobody holds, in a heat numbered above `after` (a new heat if all full)."""
    held = set(taken)
    number = after + 1
    while True:
        for seat in range(1, heat_size + 1):
            if (heat_name(title, number), seat) not in held:
                return heat_name(title, number), seat
        number += 1


def draw_seats(players: Sequence[T], last: Sequence[T], seats: Sequence[Seat],
               rng: Randomness) -> list[tuple[T, Seat]]:
    """Random seats: `players` draw first; `last` take the seats left over (slots rule 41)."""
    drawn = shuffled(seats, rng)
    return list(zip([*players, *last], drawn, strict=False))
