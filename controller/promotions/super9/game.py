"""One Super 9 game's state, kept incrementally so a spin costs the same with 20 000 tickets.

Tickets are bit positions. `holders[n]` is the set of tickets holding number n, and `level[k]`
the set of tickets that still need k numbers, both as Python integers used as bitsets. Calling a
new number moves exactly the holders of that number down one level with a few big-integer
operations per level (no loop over tickets); undoing it moves them back up, so undo reverses a
call exactly. A repeated number moves nobody (rule 19). "How many tickets need 1, 2, 3 more" is
a popcount, and the complete tickets are the set bits of `level[0]`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Call:
    number: int
    counted: bool  # the first time this number is called in the game (rule 19)
    counted_index: int  # counted spins so far, including this one


def ticket_order(ticket: str) -> tuple[int, str]:
    """Ticket-number order: "9" before "10" before "100" (serials are digits, docs/super9.md)."""
    return int(ticket), ticket


def _bits(value: int) -> Iterator[int]:
    while value:
        low = value & -value
        yield low.bit_length() - 1
        value ^= low


class Game:
    def __init__(self, tickets: Sequence[tuple[str, Sequence[int]]], per_ticket: int) -> None:
        self.ids = [ticket for ticket, _ in tickets]
        self.position = {ticket: i for i, ticket in enumerate(self.ids)}
        self.numbers = [tuple(numbers) for _, numbers in tickets]
        self.per_ticket = per_ticket
        size = (len(self.ids) + 7) // 8
        buffers = [bytearray(size) for _ in range(37)]
        for i, numbers in enumerate(self.numbers):
            for n in numbers:
                buffers[n][i >> 3] |= 1 << (i & 7)
        self.holders = [int.from_bytes(b, "little") for b in buffers]
        self.level = [0] * (per_ticket + 1)
        self.level[per_ticket] = (1 << len(self.ids)) - 1
        self.calls: list[Call] = []
        self.called: dict[int, int] = {}  # number -> its counted index (order lit on the board)

    @property
    def counted_spins(self) -> int:
        return len(self.called)

    def call(self, number: int) -> Call:
        """Record a spin's number and move its holders one level down if it is new."""
        counted = number not in self.called
        if counted:
            self.called[number] = len(self.called) + 1
            held = self.holders[number]
            level = self.level
            for k in range(self.per_ticket):
                level[k] = (level[k] & ~held) | (level[k + 1] & held)
            level[self.per_ticket] &= ~held
        call = Call(number, counted, len(self.called))
        self.calls.append(call)
        return call

    def uncall(self) -> Call:
        """Undo the last spin exactly."""
        call = self.calls.pop()
        if call.counted:
            del self.called[call.number]
            held = self.holders[call.number]
            level = self.level
            for k in range(self.per_ticket, 0, -1):
                level[k] = (level[k] & ~held) | (level[k - 1] & held)
            level[0] &= ~held
        return call

    def void(self, ticket: str) -> None:
        """Take a ticket out of play: it no longer counts, wins or needs numbers."""
        i = self.position[ticket]
        keep = ~(1 << i)
        for n in self.numbers[i]:
            self.holders[n] &= keep
        self.level = [bits & keep for bits in self.level]

    def need(self, more: int) -> int:
        """How many tickets in play still need exactly `more` numbers."""
        return self.level[more].bit_count()

    def in_play(self) -> int:
        return sum(bits.bit_count() for bits in self.level)

    def complete(self) -> list[str]:
        """The tickets in play that have all their numbers called."""
        return sorted((self.ids[i] for i in _bits(self.level[0])), key=ticket_order)
