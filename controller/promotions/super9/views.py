"""Super 9's views: the board, the jackpot ticker, the schedule and the dealer's cue lines."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from controller.domain.members import Members
from controller.promotions.super9.config import Super9Config
from controller.promotions.super9.events import Super9Won
from controller.promotions.super9.schedule import Schedule, Session
from controller.promotions.super9.state import Running, Ticket
from showrunner.contract.money import format_zar
from showrunner.contract.wheel import colour

BOARD = "board:super9"
JACKPOT = "jackpot:super9"
SCHEDULE = "schedule:super9"
CUES = "cues:super9"
UPCOMING = 4


class Super9Views:
    """The base of `Super9` that only reads the game's state (docs/scenes.md)."""

    config: Super9Config
    members: Members
    tickets: dict[str, Ticket]
    schedule: Schedule
    current: Running | None
    jackpot_cents: int
    previous_jackpot_cents: int
    last_at_ms: int

    def view_names(self) -> Iterable[str]:
        return (BOARD, JACKPOT, SCHEDULE, CUES)

    def view(self, name: str) -> dict[str, Any]:
        if name == BOARD:
            return self._board()
        if name == CUES:
            run = self.current
            return {"session": run.session.label if run else None,
                    "lines": list(run.cue) if run else [],
                    "notes": list(run.notes) if run else []}
        if name == SCHEDULE:
            return {"title": "Coming up", "events": [
                {"id": s.id, "name": "Super 9", "label": s.label, "starts_at": s.start_ms}
                for s in self._upcoming()]}
        return self._jackpot()

    def _upcoming(self) -> list[Session]:
        # "Next" as of the latest Super 9 activity in the log: views are a fold of events.
        return self.schedule.next_sessions(self.last_at_ms, UPCOMING) if self.last_at_ms else []

    def _jackpot(self) -> dict[str, Any]:
        """The jackpot in the jackpot ticker's shape (docs/scenes.md) plus its text."""
        price = format_zar(self.config.ticket_price_cents)
        upcoming = self._upcoming()
        note = f"Tickets {price}" + (f" \u00b7 next game {upcoming[0].label}" if upcoming else "")
        return {
            "title": "Super 9",
            "subtitle": f"All nine numbers within {self.config.jackpot_counted_spins} spins "
                        "wins the jackpot",
            "jackpot": format_zar(self.jackpot_cents),
            "jackpot_cents": self.jackpot_cents,
            "ticket_price": price,
            "pools": [{"name": "jackpot", "title": "Super 9 jackpot",
                       "amount": self.jackpot_cents, "previous": self.previous_jackpot_cents,
                       "target": None, "note": note}],
        }

    def _names(self, tickets: list[str]) -> list[str]:
        """Public names: the member's display name, or "Ticket 0421" without a card."""
        out = []
        for t in tickets:
            card = self.tickets[t].card
            out.append(self.members.by_card[card].display_name if card else f"Ticket {t}")
        return out

    def _prize(self, run: Running) -> tuple[str, int]:
        """The prize being played for: a ticket complete now won on this counted spin, any other
        completes on a later one; the jackpot only within the counted limit (rules 14, 16)."""
        game = run.game
        finishing = game.counted_spins + (0 if game.complete() else 1)
        if finishing <= self.config.jackpot_counted_spins:
            return "jackpot", run.jackpot_cents
        return "consolation", run.consolation_cents

    def _board(self) -> dict[str, Any]:
        run = self.current
        limit = self.config.jackpot_counted_spins
        if run is None:
            upcoming = self._upcoming()
            return {"title": "Super 9", "status": "idle", "session": None, "called": [],
                    "last": None, "jackpot_cents": self.jackpot_cents, "consolation_cents": None,
                    "counted_spins": 0, "jackpot_spins": limit,
                    "message": f"Next game {upcoming[0].label}" if upcoming else ""}
        game = run.game
        last = game.calls[-1] if game.calls else None
        winners = game.complete()
        if isinstance(run.result, Super9Won):
            status = "won"
        elif run.result:
            status = "closed"
        elif winners:
            status = "super9"
        else:
            status = "playing"
        prize, amount = self._prize(run)
        shares: list[str | None]
        if isinstance(run.result, Super9Won):
            names = self._names([w["ticket"] for w in run.result.winners])
            shares = [_share_text(w) for w in run.result.winners]
            prize, amount = run.result.prize, run.result.prize_cents
        else:
            names = self._names(winners)
            shares = [None] * len(names)
        won = [{"name": n, "share": s} for n, s in zip(names, shares, strict=True)]
        message = {"playing": "Shout SUPER 9 when all nine of your numbers are called",
                   "super9": "SUPER 9! The winning ticket is being checked",
                   "won": "Won by " + ", ".join(names),
                   "closed": f"No winner this game: the jackpot grows to "
                             f"{format_zar(self.jackpot_cents)}"}[status]
        return {
            "title": "Super 9",
            "session": run.session.label,
            "status": status,
            "numbers": [{"number": n, "colour": colour(n), "order": game.called.get(n)}
                        for n in range(self.config.highest_number + 1)],
            "called": list(game.called),
            "last": None if last is None else {"number": last.number,
                                               "colour": colour(last.number),
                                               "repeat": not last.counted},
            "spins": len(game.calls),
            "no_spins": run.no_spins,
            "counted_spins": game.counted_spins,
            "jackpot_spins": limit,
            "counted_label": (f"{game.counted_spins} of {limit}" if game.counted_spins <= limit
                              else f"{game.counted_spins} counted spins"),
            "jackpot_live": status == "playing" and game.counted_spins < limit,
            "jackpot": format_zar(run.jackpot_cents),
            "jackpot_cents": run.jackpot_cents,
            "consolation": format_zar(run.consolation_cents),
            "consolation_cents": run.consolation_cents,
            "playing_for": prize,
            "prize": format_zar(amount),
            "tickets": game.in_play(),
            "need": [{"more": k, "tickets": game.need(k)} for k in (1, 2, 3)],
            "winners": won,
            "message": message,
        }


def _share_text(winner: dict[str, Any]) -> str:
    """A winner's prize; with the jackpot, the consolation share as well (rule 16 ruling)."""
    share = format_zar(winner["share_cents"])
    extra = winner.get("consolation_share_cents", 0)  # absent in logs before the ruling
    return f"{share} + {format_zar(extra)} consolation" if extra else share
