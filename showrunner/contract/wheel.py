"""The roulette wheel's colours: the one definition, for the controller's views (every
promotion that shows a wheel's numbers) and the displays' samples."""

from __future__ import annotations

RED = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})


def colour(number: int) -> str:
    """"green" for 0, else "red" or "black" as on the wheel (0-36)."""
    if not 0 <= number <= 36:
        raise ValueError(f"{number} is not on the wheel")
    if number == 0:
        return "green"
    return "red" if number in RED else "black"
