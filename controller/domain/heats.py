"""Heats and seats: names, capacities, first free seat, and random seat draws.

A heat is named for people ("Heat 3", "Semi 2", "Final 1"); seats are numbered from 1. Seats are
given in sequential order (first come, first served) or by a random draw through `shuffled`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from controller.domain.commands import Randomness
from controller.domain.draws import shuffled
from controller.domain.errors import Rejected

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


def first_free_seat(is_free: Callable[[Seat], bool], title: str, heat_size: int,
                    after: int = 0) -> Seat:
    """The first free seat in a heat numbered above `after` (a new heat if all are full)."""
    number = after + 1
    while True:
        for seat in range(1, heat_size + 1):
            if is_free((heat_name(title, number), seat)):
                return heat_name(title, number), seat
        number += 1


def take_seat(is_free: Callable[[Seat], bool], title: str, heat_size: int, heat: str | None,
              after: int = 0) -> Seat:
    """The next free seat in order (first come, first served, from heat `after` + 1), or the
    first free one in the named `heat`."""
    if heat is None:
        return first_free_seat(is_free, title, heat_size, after)
    try:
        number = heat_number(heat)
    except (IndexError, ValueError):
        number = 0
    if number < 1 or heat != heat_name(title, number):
        raise Rejected("unknown_heat", f"{heat!r} is not a heat; heats are named "
                                       f"'{heat_name(title, 1)}', '{heat_name(title, 2)}' and "
                                       "so on.")
    free = [s for s in range(1, heat_size + 1) if is_free((heat, s))]
    if not free:
        raise Rejected("heat_full", f"{heat} is full or already under way.")
    return heat, free[0]


def draw_seats(players: Sequence[T], last: Sequence[T], seats: Sequence[Seat],
               rng: Randomness) -> list[tuple[T, Seat]]:
    """Random seats: `players` draw first; `last` take the seats left over (slots rule 41)."""
    drawn = shuffled(seats, rng)
    return list(zip([*players, *last], drawn, strict=False))
