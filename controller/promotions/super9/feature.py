"""Super 9 (shared/rules/super-9.txt): tickets, live spins, jackpot, consolation and the board.

Readings of the rules (docs/super9.md): a "counted spin" is a spin whose number had not been
called before in the session (rule 19); the jackpot is won when the first ticket(s) to have all
9 numbers complete on counted spin 18 or earlier (rule 14), otherwise the first to complete wins
the consolation, 25% of the session's buy-ins (rule 16); by ruling, the consolation is paid at
every session, so jackpot winners get it too. The jackpot grows by 75% of the buy-ins after every
session in which it is not won, including one that paid the consolation or was closed without a
winner (rule 15).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from controller.domain.awards import PrizeAwarded, cash_prize
from controller.domain.commands import Command, Context
from controller.domain.config import Configurable, Conflict, HistoryItem
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.feature import Feature
from controller.domain.members import Members
from controller.domain.money import percent_of, share_equally
from controller.promotions.super9 import config as super9_config
from controller.promotions.super9 import cues
from controller.promotions.super9.config import Super9Config
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
from controller.promotions.super9.folding import Super9Folds
from controller.promotions.super9.payloads import (
    ChangeNumbers,
    CloseSession,
    ConfirmWin,
    EnterTicket,
    NoSpin,
    SellTicket,
    Spin,
    StartSession,
    UndoSpin,
    VoidTicket,
)
from controller.promotions.super9.schedule import Schedule, session_day
from controller.promotions.super9.state import Running, Ticket
from showrunner.contract.money import format_zar

ELIGIBILITY = "rules 1-3"


class Super9(Super9Folds, Configurable[Super9Config], Feature):
    name = "super9"
    config_model = Super9Config

    def __init__(self, members: Members, config: Super9Config) -> None:
        self.members = members
        self.current: Running | None = None
        self.configure(config)
        self.tickets: dict[str, Ticket] = {}
        self.by_session: dict[str, list[str]] = {}
        self.disqualified: set[tuple[str, str]] = set()  # (card, local day), rule 9
        self.played: set[str] = set()
        self.last_at_ms = 0

    def configure(self, config: Super9Config) -> set[str]:
        """The seed applies until the first session starts; the rest to what comes next."""
        self.config = config
        self.schedule = Schedule(config)
        if self.current is None:
            self.jackpot_cents = config.jackpot_seed_cents
            self.previous_jackpot_cents = self.jackpot_cents  # what the ticker rolls from
        return set(self.view_names())

    def conflict(self, new: Super9Config, history: Iterable[HistoryItem]) -> Conflict | None:
        used: dict[str, HistoryItem] = {}
        won: set[str] = set()
        for seq, event in history:
            if isinstance(event, Super9TicketEntered | Super9SessionStarted):
                used.setdefault(event.session, (seq, event))
            elif isinstance(event, Super9Won | Super9SessionClosed):
                won.add(event.session)
        last = max(used, default=None)  # the session under way: ids sort by their start
        pending = used[last] if last is not None and last not in won else None
        return super9_config.conflict(self.config, new, used.items(), pending)

    def commands(self) -> Iterable[Command[Any]]:
        return (
            Command("super9.sell_ticket", "operator", SellTicket, self.sell,
                    "Sell a ticket at the Cash Desk (rules 5-6); a card is checked (rules 1-3)."),
            Command("super9.enter_ticket", "operator", EnterTicket, self.enter,
                    "Type a handed-in ticket's numbers from the original and the duplicate."),
            Command("super9.change_numbers", "operator", ChangeNumbers, self.change_numbers,
                    "Change an entered ticket's numbers before its game starts, signed off by "
                    "the Promotion Director (rule 23)."),
            Command("super9.void_ticket", "operator", VoidTicket, self.void,
                    "Void a ticket and disqualify its holder for the day (rule 9)."),
            Command("super9.start_session", "operator", StartSession, self.start,
                    "Start a scheduled session's game once hand-in has closed."),
            Command("super9.spin", "operator", Spin, self.spin,
                    "Enter the number the ball landed on."),
            Command("super9.no_spin", "operator", NoSpin, self.no_spin,
                    "The dealer called \"No spin\": no number is recorded (rule 18)."),
            Command("super9.undo_spin", "operator", UndoSpin, self.undo,
                    "Take the last entered number off the board, with a reason."),
            Command("super9.confirm_win", "operator", ConfirmWin, self.confirm,
                    "Confirm the \"SUPER 9\" call and pay the prize (rules 14, 16, 20, 22)."),
            Command("super9.close_session", "operator", CloseSession, self.close,
                    "Close a game nobody can win any more, with a reason (rule 15)."),
        )

    # -- ticket commands ----------------------------------------------------------------------
    def sell(self, p: SellTicket, ctx: Context) -> list[DomainEvent]:
        ticket = p.ticket
        if ticket in self.tickets:
            raise Rejected("duplicate", f"Ticket {ticket} has already been sold.")
        refusal = self.schedule.sales_refusal(ctx.now_ms)
        if refusal:
            raise Rejected("sales_closed", refusal)
        card = p.card
        if card:
            self.members.eligible(card, ELIGIBILITY)
            self._check_not_disqualified(card, self.schedule.day_of(ctx.now_ms))
        return [Super9TicketSold(ticket, card, self.config.ticket_price_cents, ctx.now_ms)]

    def enter(self, p: EnterTicket, ctx: Context) -> list[DomainEvent]:
        ticket = self._sold(p.ticket)
        if ticket.numbers is not None:
            raise Rejected("duplicate", f"Ticket {ticket.ticket} has already been entered "
                                        f"for the {self._label(ticket.session)} session.")
        original = self._numbers(p.original, "original")
        duplicate = self._numbers(p.duplicate, "duplicate")
        if original != duplicate:
            only_o = ", ".join(map(str, sorted(original - duplicate)))
            only_d = ", ".join(map(str, sorted(duplicate - original)))
            raise Rejected(
                "duplicate_mismatch",
                f"Ticket {ticket.ticket}: the duplicate does not match the original (only on "
                f"the original: {only_o}; only on the duplicate: {only_d}). Check both copies "
                "again. If the copies really differ, void the ticket (rule 9).",
            )
        session = self.schedule.hand_in_session(ctx.now_ms)
        if session.id in self.played or self._running_id() == session.id:
            raise Rejected("session_started", f"The {session.label} session has already "
                                              "started; hand the ticket in for a later one.")
        if ticket.card:
            self.members.eligible(ticket.card, ELIGIBILITY)
            self._check_not_disqualified(ticket.card, session.day)
        return [Super9TicketEntered(ticket.ticket, sorted(original), session.id, ctx.now_ms)]

    def change_numbers(self, p: ChangeNumbers, ctx: Context) -> list[DomainEvent]:
        """Rule 23: before the ticket's game starts, and only with the Director's sign-off."""
        ticket = self._sold(p.ticket)
        if ticket.numbers is None or ticket.session is None:
            raise Rejected("not_entered", f"Ticket {ticket.ticket} has no numbers yet: enter "
                                          "it from the original and the duplicate.")
        if ticket.session in self.played or self._running_id() == ticket.session:
            raise Rejected("session_started", f"The {self._label(ticket.session)} game has "
                                              f"started: ticket {ticket.ticket}'s numbers can "
                                              "only change before the game starts (rule 23).")
        director = " ".join(p.director.split())
        if not director:
            raise Rejected("director_required", "Give the name of the Promotion Director who "
                                                "signs the change off (rule 23).")
        new = sorted(self._numbers(p.numbers, "new numbers"))
        if new == ticket.numbers:
            raise Rejected("numbers_unchanged", f"Ticket {ticket.ticket} already has these "
                                                "numbers.")
        return [Super9TicketChanged(ticket.ticket, list(ticket.numbers), new, director,
                                    p.signature.data(), ctx.now_ms)]

    def void(self, p: VoidTicket, ctx: Context) -> list[DomainEvent]:
        ticket = self._sold(p.ticket)
        reason = p.reason.strip()
        if not reason:
            raise Rejected("reason_required", "Say why the ticket is void (e.g. rule 9).")
        if ticket.session in self.played:
            raise Rejected("session_over", f"Ticket {ticket.ticket}'s session is over and its "
                                           "prizes are paid (rule 27).")
        day = session_day(ticket.session) if ticket.session else self.schedule.day_of(ctx.now_ms)
        return [Super9TicketVoided(ticket.ticket, ticket.card, day, reason, ctx.actor)]

    # -- game commands ------------------------------------------------------------------------
    def start(self, p: StartSession, ctx: Context) -> list[DomainEvent]:
        session = self.schedule.session(p.session.strip())
        if session is None:
            raise Rejected("unknown_session",
                           f"No Super 9 session is scheduled at {p.session!r} (rule 4).")
        running = self._running_id()
        if running:
            raise Rejected("session_running",
                           f"The {self._label(running)} session is still being played.")
        if session.id in self.played:
            raise Rejected("session_over", f"The {session.label} session has been played.")
        if ctx.now_ms < session.start_ms:  # rule 4: sessions start at the advertised time
            raise Rejected("too_early", f"The {session.label} session starts at "
                                        f"{session.id[-5:]}, not before (rule 4).")
        entered = [self.tickets[t] for t in self.by_session.get(session.id, [])]
        if not any(t.void is None for t in entered):
            raise Rejected("no_tickets", f"No valid tickets are entered for {session.label}.")
        buy_ins = sum(t.price_cents for t in entered)
        consolation = percent_of(buy_ins, self.config.consolation_percent)
        return [Super9SessionStarted(session.id, self.jackpot_cents, buy_ins, consolation,
                                     ctx.now_ms)]

    def spin(self, p: Spin, ctx: Context) -> list[DomainEvent]:
        return [self.spun(p.number, ctx.now_ms)]

    def spun(self, number: int, now_ms: int,
             reading: dict[str, Any] | None = None) -> Super9SpinEntered:
        """The spin of `number` in the game being played, or `Rejected`: the MC's keypad and
        the wheel's reader (controller/wheels/, with its `reading`) pass the same checks."""
        run = self._playing("enter a spin")
        self._check_number(number, "The spin")
        return Super9SpinEntered(run.session.id, number, reading, now_ms)

    def live_at(self, table: str) -> bool:
        """Is a game being played at wheel `table` (super9 rule 12: the roulette wheel)?"""
        return self.config.table == table and self._running_id() is not None

    def no_spin(self, p: NoSpin, ctx: Context) -> list[DomainEvent]:
        run = self._playing("call a no spin")
        return [Super9NoSpin(run.session.id, p.reason.strip(), ctx.now_ms)]

    def undo(self, p: UndoSpin, ctx: Context) -> list[DomainEvent]:
        run = self._unfinished("undo a spin")
        reason = p.reason.strip()
        if not reason:
            raise Rejected("reason_required", "Say why the last number is taken off the board.")
        if not run.game.calls:
            raise Rejected("nothing_to_undo", "No number has been entered in this session yet.")
        return [Super9SpinUndone(run.session.id, run.game.calls[-1].number, reason, ctx.actor)]

    def confirm(self, p: ConfirmWin, ctx: Context) -> list[DomainEvent]:
        run = self._unfinished("confirm a win")
        winners = run.game.complete()
        if not winners:
            raise Rejected("no_winner", "No ticket has all 9 numbers yet (rule 13).")
        counted = run.game.counted_spins
        if counted <= self.config.jackpot_counted_spins:  # rules 14, 19
            # rule 16 (ruling): the first to complete get the consolation too
            prize, amount, extra = "jackpot", run.jackpot_cents, run.consolation_cents
            jackpot_next = self.config.jackpot_seed_cents
        else:  # rule 16; rule 15: the jackpot was not won, so it grows
            prize, amount, extra = "consolation", run.consolation_cents, 0
            jackpot_next = self._grown(run)
        shares = share_equally(amount, len(winners))  # rule 20, in ticket-number order
        extras = share_equally(extra, len(winners))
        paid = [{"ticket": t, "share_cents": s, "consolation_share_cents": c}
                for t, s, c in zip(winners, shares, extras, strict=True)]
        won = Super9Won(run.session.id, prize, amount, counted, paid, jackpot_next,
                        ctx.now_ms, extra)
        return [won, *self._awards(won)]

    def _awards(self, won: Super9Won) -> list[PrizeAwarded]:
        """Each winning ticket's share (rule 20) as a prize to sign for (rule 26), decided as
        the win is confirmed; a ticket sold without a card is claimed with the ticket."""
        label = self._label(won.session)
        several = f", shared by {len(won.winners)}" if len(won.winners) > 1 else ""
        out = []
        for w in won.winners:
            what = f"Super 9 {won.prize}, {label}, ticket {w['ticket']}{several}"
            if w["consolation_share_cents"]:
                what += f" (with {format_zar(w['consolation_share_cents'])} consolation)"
            out.append(cash_prize(f"super9-{won.session}-{w['ticket']}", self.name,
                                  self.tickets[w["ticket"]].card or "",
                                  w["share_cents"] + w["consolation_share_cents"], what,
                                  "super9 rules 14-16, 20, 26", won.at_ms,
                                  self.config.claim_days))
        return out

    def close(self, p: CloseSession, ctx: Context) -> list[DomainEvent]:
        """End a game that can have no winner, so that the next session can start."""
        run = self._unfinished("close it")
        reason = p.reason.strip()
        if not reason:
            raise Rejected("reason_required", "Say why the game ends without a winner.")
        self._playing("close the game")  # a complete ticket is confirmed or undone first
        left = self.config.highest_number + 1 - run.game.counted_spins
        tickets = run.game.in_play()
        if tickets and left:
            raise Rejected("winner_possible", f"{tickets} ticket{'s are' if tickets > 1 else ' is'}"
                                              f" still in play and {left} number"
                                              f"{'s are' if left > 1 else ' is'} not yet called: "
                                              "a winner is still possible (rule 13).")
        return [Super9SessionClosed(run.session.id, reason, run.game.counted_spins,
                                    self._grown(run), ctx.actor, ctx.now_ms)]

    def _grown(self, run: Running) -> int:
        """Rule 15: the jackpot was not won, so it grows by 75% of the session's buy-ins."""
        return run.jackpot_cents + percent_of(run.buy_ins_cents,
                                              self.config.jackpot_growth_percent)

    # -- checks -------------------------------------------------------------------------------
    def _sold(self, number: str) -> Ticket:
        ticket = self.tickets.get(number)
        if ticket is None:
            raise Rejected("unknown_ticket", f"Ticket {number} has not been sold.")
        if ticket.void:
            raise Rejected("ticket_void", f"Ticket {ticket.ticket} is void: {ticket.void}.")
        return ticket

    def _check_number(self, number: int, what: str) -> None:
        high = self.config.highest_number
        if not 0 <= number <= high:
            raise Rejected("bad_number", f"{what} has {number}, which is not on the wheel: "
                                         f"Super 9 numbers are 0 to {high} (rule 8).")

    def _numbers(self, numbers: list[int], copy: str) -> set[int]:
        want = self.config.numbers_per_ticket
        if len(numbers) != want:
            raise Rejected("bad_numbers", f"The {copy} has {len(numbers)} numbers; a Super 9 "
                                          f"ticket has exactly {want} (rules 8-9).")
        for number in numbers:
            self._check_number(number, f"The {copy}")
        repeated = sorted({n for n in numbers if numbers.count(n) > 1})
        if repeated:
            raise Rejected("repeated_number", f"The {copy} has {repeated[0]} more than once; "
                                              f"the {want} numbers must differ (rule 9).")
        return set(numbers)

    def _check_not_disqualified(self, card: str, day: str) -> None:
        if (card, day) in self.disqualified:
            name = self.members.by_card[card].display_name
            raise Rejected("disqualified", f"{name} is disqualified from Super 9 on {day} "
                                           "(rule 9).")

    def _running_id(self) -> str | None:
        run = self.current
        return run.session.id if run and run.result is None else None

    def _unfinished(self, action: str) -> Running:
        run = self.current
        if run is None:
            raise Rejected("no_session", f"No Super 9 session is running: start one before you "
                                         f"{action}.")
        if run.result is not None:
            raise Rejected("game_over", f"The {run.session.label} game is over; start the next "
                                        "session first.")
        return run

    def _playing(self, action: str) -> Running:
        run = self._unfinished(action)
        winners = run.game.complete()
        if winners:
            verb = "has" if len(winners) == 1 else "have"
            raise Rejected("super9_pending", f"{cues.names_phrase(self._names(winners))} "
                                             f"already {verb} all 9 numbers (rule 13): confirm "
                                             "the SUPER 9 call, or undo the last number if it "
                                             "was entered wrongly.")
        return run

    def _label(self, session_id: str | None) -> str:
        session = self.schedule.session(session_id or "")
        return session.label if session else str(session_id)

