"""The Sweet 16 pay table and the poker prizes (overall, top score, weekly) views."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from controller.domain.standings import Standings
from controller.promotions.poker.config import PokerConfig
from showrunner.contract.money import format_zar


class PokerViews:
    """A mixin of `Poker`: what its screens show beyond every tournament's views."""

    config: PokerConfig
    weeks: dict[int, Standings]

    @property
    def paytable_view(self) -> str:
        return "paytable:poker"

    def view_names(self) -> Iterable[str]:
        return (*super().view_names(), self.paytable_view)

    def view(self, name: str) -> dict[str, Any]:
        if name == self.paytable_view:
            return {"title": "Sweet 16", "rows": [
                {"hand": r.hand, "title": r.title, "pays": f"{r.odds} to 1"}
                for r in self.config.sweet16]}
        return super().view(name)

    def prizes_doc(self) -> dict[str, Any]:
        doc = super().prizes_doc()
        c = self.config
        top = self.pools["top_score"]
        doc["top_score"] = {"pool": top, "pool_text": format_zar(top),
                            "split": c.top_score_split,
                            "places": self.prize_rows(top, c.top_score_split,
                                                      self.stages["qualifying"])}
        weekly = []
        for number, board in self.weeks.items():
            start = self.config.first_day + dt.timedelta(days=7 * (number - 1))
            leader = board.ranking(1)
            weekly.append({
                "week": number, "from": start.isoformat(),
                "to": (start + dt.timedelta(days=6)).isoformat(),
                "name": self.name_of(self.entries[leader[0]].card) if leader else None,
                "score": board.score(leader[0]) if leader else None,
                "amount": c.weekly_prize, "amount_text": format_zar(c.weekly_prize)})
        doc["weekly"] = weekly
        return doc
