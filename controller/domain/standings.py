"""A stage's standings: a leaderboard of entries (or of each guest's best entry), with ties.

Keys on the board are entry ids, or card numbers when only a guest's best score counts (roulette
rule 19). Equal scores keep the order in which they were reached until a tie-break is recorded;
a tie-break adds one value per tied key per round (higher is better), and keys whose values are
all equal stay tied for another round. A newcomer on a tied score re-opens that tie.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.domain.leaderboard import Leaderboard

Held = tuple[int, int]  # (score, seq at which it was reached)


class Standings:
    def __init__(self, best_per_guest: bool = False) -> None:
        self.best_per_guest = best_per_guest
        self.board: Leaderboard[str] = Leaderboard()
        self._guests: dict[str, dict[str, Held]] = {}  # card -> entry -> held
        self._tie_keys: dict[str, tuple[int, ...]] = {}

    def __len__(self) -> int:
        return len(self.board)

    def key(self, entry: str, card: str) -> str:
        return card if self.best_per_guest else entry

    def put(self, entry: str, card: str, score: int, seq: int) -> None:
        if self.best_per_guest:
            self._guests.setdefault(card, {})[entry] = (score, seq)
            self._refresh(card)
        else:
            self._set(entry, (score, seq))

    def drop(self, entry: str, card: str) -> None:
        if self.best_per_guest:
            self._guests.get(card, {}).pop(entry, None)
            self._refresh(card)
        else:
            self._set(entry, None)

    def holder(self, key: str) -> str:
        """The entry whose score stands for `key` (the key itself unless best-per-guest)."""
        if not self.best_per_guest:
            return key
        held = self.board.held(key)
        return next(e for e, h in self._guests[key].items() if h == held)

    def _refresh(self, card: str) -> None:
        held = self._guests.get(card, {}).values()
        self._set(card, max(held, key=lambda h: (h[0], -h[1]), default=None))

    def _set(self, key: str, held: Held | None) -> None:
        old = self.board.held(key)
        if old == held:
            return
        if old is not None:
            self.board.remove(key)
            self._tie_keys.pop(key, None)
        if held is not None:
            if self._tie_keys:  # a newcomer re-opens a broken tie on its score
                for peer in self.board.keys_at(held[0]):
                    if self._tie_keys.pop(peer, None) is not None:
                        self.board.set_tie_rank(peer, 0)
            self.board.record(key, held[0], held[1])

    # -- ranking -------------------------------------------------------------------------------
    def ranking(self, n: int | None = None) -> list[str]:
        return self.board.top_keys(len(self.board) if n is None else n)

    def score(self, key: str) -> int:
        return self.board.score(key)

    def tied_group(self, key: str) -> list[str]:
        """Every key sharing `key`'s score and tie-break values, in board order."""
        score, tie = self.board.score(key), self._tie_keys.get(key, ())
        group = [k for k in self.board.keys_at(score) if self._tie_keys.get(k, ()) == tie]
        return sorted(group, key=self.board.position)

    def unresolved(self, cutoffs: Sequence[int]) -> list[tuple[int, list[str]]]:
        """(cut-off, tied keys) for every cut-off that falls inside an unbroken tie."""
        out = []
        ranked = self.ranking(max(cutoffs, default=0) + 1)
        for cut in cutoffs:
            if len(ranked) > cut > 0:
                group = self.tied_group(ranked[cut - 1])
                if ranked[cut] in group:
                    out.append((cut, group))
        return out

    def break_tie(self, keys: Sequence[str], values: Sequence[int]) -> None:
        """One round of a tie-break: higher value, higher place; equal values stay tied."""
        for key, value in zip(keys, values, strict=True):
            self._tie_keys[key] = (*self._tie_keys.get(key, ()), -value)
        peers = self.board.keys_at(self.board.score(keys[0]))
        order = sorted({self._tie_keys.get(p, ()) for p in peers})
        for peer in peers:
            self.board.set_tie_rank(peer, order.index(self._tie_keys.get(peer, ())))
