"""Numbers for strings: how a season's state keeps a million keys as integers.

A tournament of a million entries names each by an id, and its boards, heats and searches
refer to entries over and over. Held as strings in dicts and sets, those references were most
of what a snapshot took seconds to load; held as numbers in arrays, they load as bytes. A
`Numbering` turns a key (an entry id, a card) into its number and back: the boards and indices
keep numbers, and only what they answer (events, views, rejections) is turned back into keys.
"""

from __future__ import annotations

from typing import Any, Protocol


class Numbering(Protocol):
    """Keys numbered from 0: each key's number, and each number's key."""

    def number(self, key: str) -> int | None:
        """The key's number, or None if it has none."""

    def numbered(self, key: str) -> int:
        """The key's number, given it now if it has none (a numbering that cannot give one
        raises KeyError)."""

    def key(self, number: int) -> str:
        """The key numbered `number`."""


class Strings:
    """Distinct strings numbered in the order they first came: a column of a few distinct
    values (cards, stages, heats) is an array of their numbers. A snapshot keeps the strings
    once, in order; the dict that numbers them is made again when a number is first asked
    for (a season's hundred thousand heat names are read far more often than looked up)."""

    def __init__(self, values: list[str] | None = None) -> None:
        self.values: list[str] = []
        self._numbers: dict[str, int] | None = {}
        for value in values or ():
            self.numbered(value)

    def _index(self) -> dict[str, int]:
        if self._numbers is None:
            self._numbers = {value: number for number, value in enumerate(self.values)}
        return self._numbers

    def number(self, key: str) -> int | None:
        return self._index().get(key)

    def numbered(self, key: str) -> int:
        try:
            return self._numbers[key]  # type: ignore[index]  # None until first asked
        except (KeyError, TypeError):
            numbers = self._index()
            found = numbers.get(key)
            if found is None:
                found = numbers[key] = len(self.values)
                self.values.append(key)
            return found

    def key(self, number: int) -> str:
        return self.values[number]

    def __len__(self) -> int:
        return len(self.values)

    def __contains__(self, key: object) -> bool:
        return key in self._index()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Strings) and self.values == other.values

    __hash__ = None  # type: ignore[assignment]  # changes as it grows

    def __getstate__(self) -> tuple[list[str]]:
        return (self.values,)  # a tuple: an empty state would not be set again

    def __setstate__(self, state: Any) -> None:
        self.values = state[0]
        self._numbers = None
