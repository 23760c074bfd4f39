"""The Sweet 16 pay table and the poker prizes (overall, top score, weekly) views."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from controller.domain.money import share_equally
from controller.domain.standings import Standings
from controller.promotions.poker.config import PokerConfig
from controller.promotions.tournament.views import TournamentViews
from showrunner.contract.money import format_zar


class PokerViews(TournamentViews):
    """A base of `Poker`: what its screens show beyond every tournament's views."""

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
        doc["weekly"] = [{**week, "winners": [
            {"name": self.name_of(card), "amount": amount, "amount_text": format_zar(amount)}
            for card, _, amount in week["winners"]]} for week in self.weekly_rows()]
        return doc

    def weekly_rows(self) -> list[dict[str, Any]]:
        """Each prize week's top score and who shares its prize (rule 17; ruling: a tie for
        the top score shares the prize equally, the odd cents to the earliest score)."""
        rows = []
        for number, board in self.weeks.items():
            start = self.config.first_day + dt.timedelta(days=7 * (number - 1))
            leader = board.ranking(1)
            winners = self.week_winners(board) if leader else []
            rows.append({
                "week": number, "from": start.isoformat(),
                "to": (start + dt.timedelta(days=6)).isoformat(),
                "name": self.name_of(winners[0][0]) if winners else None,
                "score": board.score(leader[0]) if leader else None,
                "amount": self.config.weekly_prize,
                "amount_text": format_zar(self.config.weekly_prize),
                "tied": len(winners) > 1, "winners": winners})
        return rows

    def week_winners(self, board: Standings) -> list[tuple[str, str, int]]:
        """(card, entry, share) of each guest on the week's top score, earliest score first."""
        cards: dict[str, str] = {}  # card -> the entry that first reached the top score
        for key in board.tied_group(board.ranking(1)[0]):
            cards.setdefault(self.entries[key].card, key)
        shares = share_equally(self.config.weekly_prize, len(cards))
        return [(card, entry, amount)
                for (card, entry), amount in zip(cards.items(), shares, strict=True)]

    def ops_doc(self) -> dict[str, Any]:
        """The operator also sees each prize week's winners, a tie included (rule 17)."""
        weekly = [{"week": w["week"], "score": w["score"], "tied": w["tied"], "winners": [
            {"entry": entry, "card": self.members.by_card[card].masked_card,
             "name": self.name_of(card), "amount": amount, "amount_text": format_zar(amount)}
            for card, entry, amount in w["winners"]]} for w in self.weekly_rows()]
        return {**super().ops_doc(), "weekly": weekly}
