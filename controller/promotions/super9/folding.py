"""Apply side of Super 9: tickets, sessions, spins and wins folded into the game's state."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from controller.domain.config import PromotionConfigured
from controller.domain.events import DomainEvent
from controller.domain.feature import Handler
from controller.promotions.super9 import cues
from controller.promotions.super9.events import (
    Super9NoSpin,
    Super9SessionClosed,
    Super9SessionStarted,
    Super9SpinEntered,
    Super9SpinUndone,
    Super9TicketChanged,
    Super9TicketEntered,
    Super9TicketSold,
    Super9TicketVoided,
    Super9Won,
)
from controller.promotions.super9.game import Game
from controller.promotions.super9.schedule import session_day
from controller.promotions.super9.state import Running, Ticket
from controller.promotions.super9.views import BOARD, CUES, JACKPOT, SCHEDULE, Super9Views


class Super9Folds(Super9Views):
    """A base of `Super9`: `handlers()` and the folds it names, over the views they touch."""

    by_session: dict[str, list[str]]
    disqualified: set[tuple[str, str]]
    played: set[str]
    configured: Callable[[PromotionConfigured], set[str]]  # Configurable's, beside it in Super9

    def handlers(self) -> Mapping[type[DomainEvent], Handler]:
        return {Super9SpinEntered: self._spun, Super9TicketSold: self._sold_ticket,
                Super9TicketEntered: self._entered, Super9TicketVoided: self._voided,
                Super9TicketChanged: self._changed,
                Super9SessionStarted: self._started, Super9NoSpin: self._no_spin,
                Super9SpinUndone: self._undone, Super9Won: self._won,
                Super9SessionClosed: self._closed,
                PromotionConfigured: self.configured}

    def _sold_ticket(self, e: Super9TicketSold) -> Iterable[str]:
        self.tickets[e.ticket] = Ticket(e.ticket, e.card, e.price_cents)
        self.last_at_ms = e.at_ms
        return (JACKPOT, SCHEDULE)

    def _entered(self, e: Super9TicketEntered) -> Iterable[str]:
        ticket = self.tickets[e.ticket]
        ticket.numbers, ticket.session = list(e.numbers), e.session
        self.by_session.setdefault(e.session, []).append(e.ticket)
        self.last_at_ms = e.at_ms
        return (JACKPOT, SCHEDULE)

    def _changed(self, e: Super9TicketChanged) -> Iterable[str]:
        self.tickets[e.ticket].numbers = list(e.new)
        self.last_at_ms = e.at_ms
        return (JACKPOT, SCHEDULE)

    def _voided(self, e: Super9TicketVoided) -> Iterable[str]:
        out = [self.tickets[e.ticket]]
        if e.card:  # rule 9: the holder is out of that day's promotion
            self.disqualified.add((e.card, e.day))
            out += [t for t in self.tickets.values() if t.card == e.card and t.void is None
                    and t.ticket != e.ticket
                    and t.session and t.session not in self.played
                    and session_day(t.session) == e.day]
        run = self.current
        live = run is not None and run.result is None
        for ticket in out:
            ticket.void = e.reason if ticket.ticket == e.ticket else cues.disqualified_cause(
                e.ticket, e.day, e.reason)
            if run and live and ticket.session == run.session.id:
                run.game.void(ticket.ticket)
        if not (run and live):
            return ()
        others = len(out) - 1
        run.say([cues.void_line(e.ticket, e.reason, others), *self._progress_cue(run)])
        return (BOARD, CUES)

    def _started(self, e: Super9SessionStarted) -> Iterable[str]:
        session = self.schedule.played(e.session)
        tickets = [self.tickets[t] for t in self.by_session.get(e.session, [])]
        game = Game([(t.ticket, t.numbers or []) for t in tickets if t.void is None],
                    self.config.numbers_per_ticket)
        self.current = Running(session, game, e.jackpot_cents, e.buy_ins_cents,
                               e.consolation_cents)
        self.current.say(cues.started_lines(session.label, game.in_play(), e.jackpot_cents,
                                            self.config.jackpot_counted_spins,
                                            e.consolation_cents))
        self.last_at_ms = e.at_ms
        return (BOARD, CUES, JACKPOT, SCHEDULE)

    def _spun(self, e: Super9SpinEntered) -> Iterable[str]:
        run = self._current(e.session)
        call = run.game.call(e.number)
        run.say([cues.spin_line(e.number, call.counted, self.config.jackpot_counted_spins),
                 *self._progress_cue(run)])
        return (BOARD, CUES)

    def _no_spin(self, e: Super9NoSpin) -> Iterable[str]:
        run = self._current(e.session)
        run.no_spins += 1
        run.say(cues.no_spin_lines(run.game.calls[-1].number if run.game.calls else None))
        return (BOARD, CUES)

    def _undone(self, e: Super9SpinUndone) -> Iterable[str]:
        run = self._current(e.session)
        run.game.uncall()
        run.say([cues.Line(f"Correction: number {e.number} is taken off the board."),
                 *self._progress_cue(run)])
        return (BOARD, CUES)

    def _won(self, e: Super9Won) -> Iterable[str]:
        run = self._current(e.session)
        run.result = e
        self.played.add(e.session)
        self.previous_jackpot_cents, self.jackpot_cents = self.jackpot_cents, e.jackpot_next_cents
        self.last_at_ms = e.at_ms
        names = self._names([w["ticket"] for w in e.winners])
        lines = [cues.won_line(names, e.prize, [w["share_cents"] for w in e.winners])]
        if e.consolation_cents:  # rule 16 (ruling): paid with the jackpot too
            lines.append(cues.consolation_too_line(e.consolation_cents, len(names)))
        run.say(lines)
        return (BOARD, CUES, JACKPOT, SCHEDULE)

    def _closed(self, e: Super9SessionClosed) -> Iterable[str]:
        run = self._current(e.session)
        run.result = e
        self.played.add(e.session)
        self.previous_jackpot_cents, self.jackpot_cents = self.jackpot_cents, e.jackpot_next_cents
        self.last_at_ms = e.at_ms
        run.say([cues.closed_line(e.reason, e.jackpot_next_cents)])
        return (BOARD, CUES, JACKPOT, SCHEDULE)

    def _current(self, session_id: str) -> Running:
        run = self.current
        assert run is not None and run.session.id == session_id
        return run

    def _progress_cue(self, run: Running) -> list[cues.Line]:
        limit = self.config.jackpot_counted_spins
        winners = run.game.complete()
        if winners:
            prize, amount = self._prize(run)
            return [cues.super9_line(self._names(winners), prize, amount)]
        if not run.game.in_play():
            return [cues.NO_TICKETS]
        lines = [cues.counted_line(run.game.counted_spins, limit, run.consolation_cents)]
        need = cues.need_line({k: run.game.need(k) for k in (1, 2, 3)})
        return [*lines, need] if need else lines
