"""The betting countdown view of the roulette tournament (docs/scenes.md)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from controller.promotions.roulette.config import RouletteConfig
from controller.promotions.roulette.state import Dispute, Spins
from controller.promotions.tournament.views import TournamentViews
from showrunner.contract.money import format_zar
from showrunner.contract.wheel import colour


class RouletteViews(TournamentViews):
    """A base of `Roulette`: the heats under way, for the betting countdown screens."""

    config: RouletteConfig
    spins: dict[tuple[str, str], Spins]
    disputes: dict[tuple[str, str], list[Dispute]]

    @property
    def spins_view(self) -> str:
        return "spins:roulette"

    def view_names(self) -> Iterable[str]:
        return (*super().view_names(), self.spins_view)

    def view(self, name: str) -> dict[str, Any]:
        if name == self.spins_view:
            return self.spins_doc()
        return super().view(name)

    def ops_doc(self) -> dict[str, Any]:
        """The operator's entries (tournament), with every heat's spins so far: the MC console
        offers a heat's next step from them (open betting, the spin, then the scores)."""
        heats = [{"stage": stage, "heat": heat, "done": s.done, "open": s.open,
                  "bets_closed": s.bets_closed, "number": s.number,
                  "disputes": [{"spin": d.spin, "name": d.name, "what": d.what,
                                "decision": d.decision, "decided_by": d.decided_by}
                               for d in self.disputes.get((stage, heat), [])]}
                 for (stage, heat), s in sorted(self.spins.items())]
        return {**super().ops_doc(), "spins_per_heat": self.config.spins_per_heat,
                "heats": heats}

    def spins_doc(self) -> dict[str, Any]:
        """Heats under way for the betting countdown (docs/scenes.md): heats taking bets first,
        the latest window first; times are UTC ms."""
        total = self.config.spins_per_heat
        under_way = sorted(((key, s) for key, s in self.spins.items() if s.done < total),
                           key=lambda kv: (kv[1].open is None, -kv[1].deadline_ms))
        heats = [{"stage": stage, "heat": heat, "title": self.title,
                  "subtitle": f"{self.stages[stage].spec.title} \u00b7 {heat}",
                  "spin": s.open or s.done, "spins": total, "betting": s.open is not None,
                  "betting_opened_at": s.opened_ms if s.open is not None else None,
                  "betting_closes_at": s.deadline_ms if s.open is not None else None,
                  "no_spin": s.open is not None and s.no_spin,
                  "bets_closed": s.open is not None and s.bets_closed,
                  "number": s.number, "colour": None if s.number is None else colour(s.number)}
                 for (stage, heat), s in under_way]
        c = self.config
        return {"title": self.title, "heats": heats, "buy_in_text": format_zar(c.buy_in),
                "chips": f"{c.stacks} stacks of {format_zar(c.chip_value)} chips"}
