"""Display-ready documents of a tournament: leaderboards, pools, seating, qualifiers, prizes.

A mixin of `Tournament` (feature.py): it only reads the tournament's state, shows public display
names (masked cards in the operator-only `ops:` view) and takes every amount from
`prizes.prize_table`, so a prize reads the same on every screen.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property
from typing import Any

from controller.domain.heats import heat_number
from controller.domain.members import Member, Members
from controller.domain.prizes import prize_table
from controller.promotions.tournament.config import PoolConfig
from controller.promotions.tournament.state import (
    CARD_TAIL,
    NONE,
    Entries,
    Entry,
    Search,
    Stage,
)
from showrunner.contract.money import format_zar

#: unsigned scores outside any heat (poker's qualifying) kept on the operator's view: the latest
UNSIGNED_ROWS = 20


class TournamentViews:
    """The views of one tournament promotion (`name` is its command and view prefix)."""

    name: str
    title: str
    members: Members
    order: list[str]
    stages: dict[str, Stage]
    entries: Entries
    search: Search
    pool_configs: list[PoolConfig]
    pool_percents: tuple[int, ...]
    pools: dict[str, int]
    previous_pools: dict[str, int]
    split: list[int]
    prize_pool: str

    def claim_note(self, member: Member) -> str | None:
        """What a prize winner must still do before being paid, if anything."""
        return None

    def active(self, stage: Stage) -> list[Entry]:
        return [e for e in self.in_stage(stage) if e.active]

    def in_stage(self, stage: Stage) -> Iterator[Entry]:
        """The stage's entries, in the order they entered it."""
        return (self.entries.at(row) for row in stage.rows)

    def name_of(self, card: str) -> str:
        return self.members.by_card[card].display_name

    @property
    def final(self) -> Stage:
        return self.stages[self.order[-1]]

    def card_of_key(self, stage: Stage, key: str) -> str:
        return key if stage.spec.best_per_guest else self.entries[key].card

    def later(self, stage: str) -> bool:
        """A stage after qualifying: its seating and qualifiers are on show."""
        return stage != self.order[0]

    # -- views ----------------------------------------------------------------------------------
    @cached_property  # a replay asks a million times
    def pools_view(self) -> str:
        return f"pools:{self.name}"

    @cached_property  # a replay asks a million times
    def seating_view(self) -> str:
        return f"seating:{self.name}"

    @cached_property  # a replay asks a million times
    def qualifiers_view(self) -> str:
        return f"qualifiers:{self.name}"

    @cached_property  # a replay asks a million times
    def prizes_view(self) -> str:
        return f"prizes:{self.name}"

    @cached_property  # a replay asks a million times
    def ops_view(self) -> str:
        """Operator-only (ops: views never reach screens): entry ids to send commands with."""
        return f"ops:{self.name}"

    def board_view(self, stage: Stage) -> str:
        if stage.spec.name == self.order[0]:
            return f"leaderboard:{self.name}"
        return f"leaderboard:{self.name}:{stage.spec.name}"

    def view_names(self) -> Iterable[str]:
        return (*(self.board_view(s) for s in self.stages.values()), self.pools_view,
                self.seating_view, self.qualifiers_view, self.prizes_view, self.ops_view)

    def view(self, name: str) -> dict[str, Any]:
        for stage in self.stages.values():
            if name == self.board_view(stage):
                return self.leaderboard_doc(stage)
        docs = {self.pools_view: self.pools_doc, self.seating_view: self.seating_doc,
                self.qualifiers_view: self.qualifiers_doc, self.prizes_view: self.prizes_doc,
                self.ops_view: self.ops_doc}
        return docs[name]()

    def leaderboard_doc(self, stage: Stage) -> dict[str, Any]:
        rows = []
        moved = bool(stage.standings.previous)
        for position, (key, score, before) in enumerate(stage.standings.shown(stage.spec.rows),
                                                        1):
            rows.append({
                "position": position,
                "name": self.name_of(self.card_of_key(stage, key)),
                "score": score,
                "movement": 0 if before is None else before - position,
                "new": before is None and moved,
            })
        return {"title": self.title, "subtitle": stage.spec.title, "rows": rows,
                "entries": len(stage.standings), "closed": stage.closed}

    def pools_doc(self) -> dict[str, Any]:
        """The jackpot ticker's shape (docs/scenes.md): `previous` is the amount before the
        latest buy-in or refund, so screens roll the digits up to `amount`."""
        pools = []
        for p in self.pool_configs:
            amount = self.pools[p.name]
            pools.append({
                "name": p.name, "title": p.title, "amount": amount,
                "previous": self.previous_pools[p.name], "amount_text": format_zar(amount),
                "target": p.target,
                "target_text": None if p.target is None else format_zar(p.target),
                "progress_percent": None if not p.target else min(100, amount * 100 // p.target),
                "note": f"{p.percent}% of every buy-in",
            })
        return {"title": self.title, "subtitle": "Prize pools", "pools": pools}

    def seating_doc(self) -> dict[str, Any]:
        stages = []
        for name in self.order[1:]:
            stage = self.stages[name]
            heats: dict[str, list[dict[str, Any]]] = {}
            for e in self.in_stage(stage):
                if e.heat is not None and e.status != "refunded":
                    proxy = None if e.proxy is None else self.name_of(e.proxy)
                    heats.setdefault(e.heat, []).append({
                        "seat": e.seat, "name": self.name_of(e.card), "proxy": proxy,
                        "status": e.status, "note": self.seat_note(e, proxy),
                    })
            stages.append({"stage": name, "title": stage.spec.title, "heats": [
                {"heat": h, "started": h in stage.started,
                 "seats": sorted(seats, key=lambda s: s["seat"])}
                for h, seats in sorted(heats.items(), key=lambda kv: heat_number(kv[0]))]})
        return {"title": self.title, "stages": stages}

    def seat_note(self, e: Entry, proxy: str | None) -> str:
        """What a seating chart says beside a name: "Wild Card, played by Sipho N.", "forfeited"."""
        parts = ["Wild Card"] if e.payment == "wildcard" else []
        if proxy is not None:
            parts.append(f"played by {proxy}")
        if e.status != "active":
            parts.append(e.status)
        return ", ".join(parts)

    def ops_doc(self) -> dict[str, Any]:
        """The entries in play, with their entry ids, for the operator: every seat of a heat
        with a score still to come (or an entry still to score that has no heat), and every
        entry of the later stages. Not every entry: a qualifying stage can hold 100 000, and
        this view is rebuilt and sent on every change; the console finds any other entry with
        `find` (bench/leaderboard.py)."""
        first = self.stages[self.order[0]]
        signs = self.signs_scores(first)
        heats = dict.fromkeys([*first.unscored, *(first.unsigned if signs else ())])
        playing: list[Entry] = []
        for heat in heats:
            if heat == NONE:  # no heats (poker's qualifying): the latest unsigned only
                unsigned = first.waiting(NONE, True) if signs else []
                playing += first.waiting(NONE, False) + unsigned[-UNSIGNED_ROWS:]
            else:
                playing += (self.entries.at(row) for row in first.heats.rows(heat))
        later = [e for name in self.order[1:] for e in self.in_stage(self.stages[name])]
        shown = [*playing, *later]
        # per stage, the heats of the entries shown that have started (start_heat): the
        # console offers "Start heat…" on the others
        started: dict[str, set[str]] = {}
        for e in shown:
            if e.heat is not None and e.heat in self.stages[e.stage].started:
                started.setdefault(e.stage, set()).add(e.heat)
        return {"kind": "tournament", "title": self.title, "live": self.heat_live(),
                "signatures": {name: self.signs_scores(stage)
                               for name, stage in self.stages.items()},
                "unsigned": {name: sum(stage.unsigned.values())
                             for name, stage in self.stages.items()
                             if self.signs_scores(stage)},
                "started": {name: sorted(heats, key=heat_number)
                            for name, heats in started.items()},
                "entries": [self.ops_row(e) for e in shown]}

    def heat_live(self) -> bool:
        """A heat is being played: started, with a seat still waiting for its score (the
        console shows this tournament first). Only heats that wait are looked at."""
        names = self.entries.heats.values
        return any(heat != NONE and names[heat] in stage.started
                   for stage in self.stages.values() if not stage.closed
                   for heat in stage.unscored)

    def signs_scores(self, stage: Stage) -> bool:
        """Whether the participants sign for this stage's scores (its rule, not "off")."""
        return False

    def ops_row(self, e: Entry) -> dict[str, Any]:
        return {"entry": e.id, "card": self.members.by_card[e.card].masked_card,
                "name": self.name_of(e.card), "stage": e.stage, "heat": e.heat, "seat": e.seat,
                "score": e.score, "status": e.status, "via": self.route(e),
                "proxy": None if e.proxy is None else self.name_of(e.proxy),
                "signed": e.signed, "signer": self.name_of(e.proxy or e.card)}

    def find(self, query: str, limit: int) -> list[dict[str, Any]]:
        """Up to `limit` entries, newest first, whose player's name holds `query` (any case),
        or whose card matches typed card digits (the view masks all but the last four: a
        swiped number matches on its end, a few digits anywhere in them). Answered from
        `self.search`, not by walking the entries (a stage can hold 100 000)."""
        text = query.strip().lower()
        digits = "".join(c for c in text if c.isdigit())
        if digits and all(c.isdigit() or c in " -" for c in text):
            places = self.search.cards.newest(self.entries, digits[-CARD_TAIL:], limit)
        elif text:
            places = self.search.names.newest(self.entries, text, limit)
        else:
            return []
        return [self.ops_row(self.entries.at(p)) for p in places]

    def qualifiers_doc(self) -> dict[str, Any]:
        stages = []
        for name in self.order[1:]:
            stage = self.stages[name]
            rows = [{"name": self.name_of(e.card), "via": self.route(e)}
                    for e in self.in_stage(stage) if e.status != "to_final"]
            stages.append({"stage": name, "title": stage.spec.title, "qualifiers": rows})
        return {"title": self.title, "stages": stages}

    def route(self, e: Entry) -> str:
        """How an entry reached its stage, for people: "Qualifying place 3", "Wild Card"."""
        if e.origin is None:
            return "Wild Card" if e.payment == "wildcard" else ""
        origin = self.entries[e.origin]
        stage = self.stages[origin.stage]
        place = stage.standings.place(stage.standings.key(origin.id, origin.card))
        return f"{stage.spec.title} place {place}"

    def prize_rows(self, pool: int, percents: Sequence[int], stage: Stage) -> list[dict[str, Any]]:
        """The prize table: each place's amount and, once known, its holder's name."""
        ranking = stage.standings.ranking(len(percents))
        rows = []
        for prize in prize_table(pool, percents):
            row: dict[str, Any] = {**prize.row(), "name": None, "claim": None}
            if prize.place <= len(ranking):
                card = self.card_of_key(stage, ranking[prize.place - 1])
                row["name"] = self.name_of(card)
                row["claim"] = self.claim_note(self.members.by_card[card])
            rows.append(row)
        return rows

    def prizes_doc(self) -> dict[str, Any]:
        pool = self.pools[self.prize_pool]
        subtitle = f"{self.final.spec.title}: the top {len(self.split)} share the prize pool"
        return {"title": self.title, "subtitle": subtitle, "pool": pool,
                "pool_text": format_zar(pool),
                "split": self.split, "settled": self.final.closed,
                "places": self.prize_rows(pool, self.split, self.final)}
