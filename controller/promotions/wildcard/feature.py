"""The Wild Card draw of the Slots PAYOFF tournament (rules 16, 18, 33-45).

Flow (docs/draws.md): members activate their tickets while the entry bins are open (rule 36) and
may sign the decline-to-attend register in person (rules 37-38); after the bins close the
operator freezes the pool (size and SHA-256 digest recorded and shown), then draws one ticket.
The winner reaches the views only with `WildcardRevealed`, which becomes due `reveal_lead_ms`
before `reveal_at` (see `due`). From `reveal_at` the winner has 90 s to present card and ID
(rule 39); otherwise, unless they are in the register (rule 41), the operator starts a redraw
without their tickets (rule 40).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from controller.domain.awards import seat_prize
from controller.domain.commands import Command, Context
from controller.domain.config import Configurable, Conflict, HistoryItem, PromotionConfigured
from controller.domain.errors import NextStep, Rejected
from controller.domain.events import DomainEvent
from controller.domain.feature import Feature, Handler
from controller.domain.handoffs import WildcardFinalist
from controller.domain.members import Member, Members, public_name
from controller.promotions.wildcard import config as wildcard_config
from controller.promotions.wildcard.clock import Roster, WildcardClock
from controller.promotions.wildcard.config import WildcardConfig
from controller.promotions.wildcard.entries import self_activation
from controller.promotions.wildcard.events import (
    WildcardActivated,
    WildcardClaimed,
    WildcardClaimExpired,
    WildcardDeclineRegistered,
    WildcardDrawn,
    WildcardPoolFrozen,
    WildcardRedrawStarted,
    WildcardRevealed,
    WildcardStandInNamed,
)
from controller.promotions.wildcard.payloads import (
    Activate,
    Claim,
    NameStandIn,
    NoFields,
    Redraw,
    RegisterDecline,
)
from controller.promotions.wildcard.pool import draw_ticket
from controller.promotions.wildcard.views import VIEW, WildcardViews

#: slots rule 17: the pool is frozen once qualifying has closed (its two direct finalists are
#: then known and kept out of it); the refusal offers the close where the MC freezes
CLOSE_QUALIFYING = NextStep(
    "slots.close_stage", {"stage": "qualifying"}, "Close qualifying…",
    "Close the Slots PAYOFF qualifying now?",
    "This ends qualifying for everyone: no entry or qualifying score is taken after it. Its "
    "two highest single-entry scores go straight to the Final (rule 17) and the next places "
    "to the semi-final (rule 24). This cannot be undone.",
    "Yes, close qualifying",
    "Qualifying is closed: its two direct finalists are known (rule 17). Freeze the pool now.")


class Wildcard(WildcardClock, WildcardViews, Configurable[WildcardConfig], Feature):
    name = "wildcard"
    config_model = WildcardConfig

    def __init__(self, members: Members, roster: Roster,
                 config: WildcardConfig) -> None:
        self.members = members
        self.roster = roster
        self.config = config
        self.activated: set[str] = set()
        self.activated_at: dict[str, int] = {}  # card -> when its tickets were activated
        self.register: dict[str, WildcardDeclineRegistered] = {}
        self.excluded: list[str] = []
        self.pool: WildcardPoolFrozen | None = None
        self.draw: WildcardDrawn | None = None
        self.reveal: WildcardRevealed | None = None  # the latest reveal of this round's draw
        self.reveals = 0  # how many times this round's winner was revealed (called)
        self.shown_at: int | None = None  # when screens show the latest reveal
        self.deadline: int | None = None  # the running claim window's end (rule 39)
        self.expired = False
        self.claim: WildcardClaimed | None = None
        self.stand_in: str | None = None
        self.redraws: list[WildcardRedrawStarted] = []
        self.shown_redraws: list[WildcardRedrawStarted] = []  # of winners who were revealed

    def commands(self) -> Iterable[Command[Any]]:
        return (
            Command("wildcard.activate", "operator", Activate, self.activate,
                    "Activate a rewards member's Wild Card tickets while the bins are open.",
                    said=self.activated_words),
            Command("wildcard.activate_at_kiosk", "kiosk", Activate, self.self_activate,
                    "A member activates their own tickets at an ehost kiosk (rule 18.3)."),
            Command("wildcard.activate_in_app", "app", Activate, self.self_activate,
                    "A member activates their own tickets in the venue's app (rule 18.3)."),
            Command("wildcard.register_decline", "operator", RegisterDecline,
                    self.register_decline,
                    "Record a member, in person with ID, in the decline-to-attend register."),
            Command("wildcard.freeze", "operator", NoFields, self.freeze,
                    "Close the pool after the bins close; records its size and digest."),
            Command("wildcard.draw", "operator", NoFields, self.draw_winner,
                    "Draw one ticket from the frozen pool; the reveal follows at reveal_at."),
            Command("wildcard.claim", "operator", Claim, self.claim_present,
                    "The winner presented card and ID within 90 seconds: a finalist."),
            Command("wildcard.accept_registered", "operator", NoFields, self.accept_registered,
                    "The winner is in the decline-to-attend register: a finalist in absence."),
            Command("wildcard.redraw", "operator", Redraw, self.redraw,
                    "The winner did not claim in time: freeze a new pool without them."),
            Command("wildcard.stand_in", "operator", NameStandIn, self.name_stand_in,
                    "Name the person who plays the Final for an absent Wild Card finalist."),
        )

    def handlers(self) -> Mapping[type[DomainEvent], Handler]:
        return {PromotionConfigured: self.configured, WildcardActivated: self._activated,
                WildcardDeclineRegistered: self._decline_registered,
                WildcardPoolFrozen: self._pool_frozen, WildcardDrawn: self._drawn,
                WildcardRevealed: self._revealed, WildcardClaimExpired: self._expired,
                WildcardClaimed: self._claimed,
                WildcardRedrawStarted: self._redraw_started,
                WildcardStandInNamed: self._stand_in_named,
                WildcardFinalist: self.recorded}  # the hand-off to Slots

    def configure(self, config: WildcardConfig) -> set[str]:
        self.config = config
        return {VIEW}

    def conflict(self, new: WildcardConfig, history: Iterable[HistoryItem]) -> Conflict | None:
        return wildcard_config.conflict(self.config, new, history, WildcardPoolFrozen)

    # -- entries (rules 18, 33-38) --------------------------------------------------------------
    def activate(self, p: Activate, ctx: Context) -> list[DomainEvent]:
        self._bins_open(ctx.now_ms, "activate tickets", "rules 33.3, 36")
        member = self._entrant(p.card)
        if member.card in self.activated:
            raise Rejected("duplicate", f"{member.display_name}'s tickets are already activated.")
        return [WildcardActivated(member.card, ctx.now_ms)]

    def activated_words(self, events: list[DomainEvent]) -> str:
        """The desk's answer: whose tickets, how many, and only the card's last four digits."""
        (event,) = events
        assert isinstance(event, WildcardActivated)
        member = self.members.by_card[event.card]
        tickets = self.config.tickets_per_cardholder + (
            self.config.tickets_per_participant if self.roster.took_part(event.card) else 0)
        return (f"{member.display_name}: {tickets} Wild Card ticket{'' if tickets == 1 else 's'} "
                f"activated (card ending {event.card[-4:]}).")

    def self_activate(self, p: Activate, ctx: Context) -> list[DomainEvent]:
        """The member themself, at a kiosk or in the app: refused in words that tell them
        nothing about anyone else, and the same for every card without tickets (entries.py)."""
        self_activation(self, p.card, ctx.now_ms)
        return [WildcardActivated(p.card, ctx.now_ms)]

    def register_decline(self, p: RegisterDecline, ctx: Context) -> list[DomainEvent]:
        self._bins_open(ctx.now_ms, "sign the decline-to-attend register", "rule 37")
        if not p.in_person:
            raise Rejected("no_proxy", "Only the member in person may sign the decline-to-attend "
                           "register; nobody may do it on their behalf (rule 38).")
        if not p.id_checked or not p.id_document.strip():
            raise Rejected("id_required", "The member must show positive and acceptable "
                           "identification to sign the register (rule 38).")
        member = self._entrant(p.card)
        if member.card in self.register:
            raise Rejected("duplicate", f"{member.display_name} is already in the register.")
        return [WildcardDeclineRegistered(member.card, p.id_document.strip(), p.contact.strip(),
                                          ctx.now_ms)]

    # -- the draw (rules 33, 35) ----------------------------------------------------------------
    def freeze(self, p: NoFields, ctx: Context) -> list[DomainEvent]:
        self._not_finished()
        if self.pool is not None:
            raise Rejected("already_frozen", f"The pool of round {self.pool.round} is already "
                           f"frozen (digest {self.pool.digest[:12]}…).")
        if ctx.now_ms < self.config.bins_close_ms:
            raise Rejected("bins_open", "The entry bins are open until "
                           f"{self.config.clock(self.config.bins_close_ms)} (rule 36); freeze "
                           "the pool after they close.")
        if not self.roster.qualifying_closed():
            raise Rejected("qualifying_open", "The Slots qualifying heats are not closed yet, so "
                           "the two direct finalists (rule 17) are not known and could still be "
                           "in the pool; close qualifying before freezing the Wild Card pool.",
                           CLOSE_QUALIFYING)
        return [self._frozen(1, self.excluded, ctx)]

    def draw_winner(self, p: NoFields, ctx: Context) -> list[DomainEvent]:
        self._not_finished()
        if self.draw is not None:
            raise Rejected("draw_running", f"Round {self.draw.round} has already been drawn; "
                           "finish its claim or start a redraw.")
        if self.pool is None:
            raise Rejected("not_frozen", "Freeze the pool first: its size and digest must be "
                           "recorded and shown before the draw (rule 33).")
        card, pick = draw_ticket(self.pool.listing, ctx.rng)
        reveal_at = ctx.now_ms + self.config.reveal_delay_ms
        return [WildcardDrawn(
            round=self.pool.round, digest=self.pool.digest, tickets=self.pool.tickets,
            pick=pick, card=card, in_register=card in self.register, operator=ctx.actor,
            drawn_at_ms=ctx.now_ms, reveal_at_ms=reveal_at,
            claim_deadline_ms=reveal_at + self.config.claim_ms,
        )]

    # -- the claim (rules 39-45) ----------------------------------------------------------------
    def claim_present(self, p: Claim, ctx: Context) -> list[DomainEvent]:
        draw, pending, deadline = self._revealed_draw(ctx.now_ms)
        name = self._name(draw.card)
        if ctx.now_ms >= deadline:
            after = ("accept them from the register (rule 41)" if draw.in_register
                     else "start a redraw (rule 40)")
            raise Rejected("claim_expired", f"{name}'s 90 seconds ran out at "
                           f"{self.config.clock(deadline)}; {after}.")
        if not (p.card_checked and p.id_checked):
            raise Rejected("evidence_required", f"{name} must show their rewards card and a "
                           "positive, acceptable identification to claim (rule 39).")
        return [*pending, *self._finalist(draw, True, ctx)]

    def accept_registered(self, p: NoFields, ctx: Context) -> list[DomainEvent]:
        draw, pending, _ = self._revealed_draw(ctx.now_ms)
        if not draw.in_register:
            raise Rejected("not_in_register", f"{self._name(draw.card)} did not sign the "
                           "decline-to-attend register, so must come to the stage within 90 "
                           "seconds (rules 39-40).")
        return [*pending, *self._finalist(draw, False, ctx)]

    def redraw(self, p: Redraw, ctx: Context) -> list[DomainEvent]:
        draw, pending, deadline = self._revealed_draw(ctx.now_ms)
        name = self._name(draw.card)
        if draw.in_register:
            raise Rejected("in_register", f"{name} signed the decline-to-attend register and is "
                           "the finalist without presenting (rule 41); accept them instead.")
        if ctx.now_ms < deadline:
            left = -(-(deadline - ctx.now_ms) // 1000)
            raise Rejected("claim_open", f"{name} still has {left} seconds to claim (rule 39); a "
                           "redraw may start only when they have run out.")
        excluded = [*self.excluded, draw.card]
        cause = "not claimed within 90 seconds and not in the decline-to-attend register (rule 40)"
        if p.note.strip():
            cause += f"; {p.note.strip()}"
        started = WildcardRedrawStarted(draw.round, draw.card, cause, ctx.actor, ctx.now_ms,
                                        "not_claimed")
        return [*pending, started, self._frozen(draw.round + 1, excluded, ctx)]

    def name_stand_in(self, p: NameStandIn, ctx: Context) -> list[DomainEvent]:
        if self.claim is None or self.claim.present:
            raise Rejected("stand_in_not_allowed", "A stand-in may act only for a Wild Card "
                           "finalist from the decline-to-attend register (rule 41).")
        stand_in = " ".join(p.name.split())
        if not stand_in or len(stand_in) > 60:
            raise Rejected("bad_name", "A stand-in's name is 1 to 60 characters.")
        if not p.acknowledged_not_entitled:
            raise Rejected("acknowledgement_required", "The stand-in must acknowledge acting only "
                           f"for {self._name(self.claim.card)} and not being entitled to any "
                           "prize or benefit (rule 42).")
        return [WildcardStandInNamed(self.claim.card, public_name(stand_in), ctx.actor,
                                     ctx.now_ms)]

    # -- state ------------------------------------------------------------------------------------
    def _activated(self, event: WildcardActivated) -> Iterable[str]:
        self.activated.add(event.card)
        self.activated_at[event.card] = event.at_ms
        return (VIEW,)

    def _decline_registered(self, event: WildcardDeclineRegistered) -> Iterable[str]:
        self.register[event.card] = event
        return ()

    def _pool_frozen(self, event: WildcardPoolFrozen) -> Iterable[str]:
        self.pool = event
        self.excluded = list(event.excluded)
        self._new_round()
        return (VIEW,)

    def _drawn(self, event: WildcardDrawn) -> Iterable[str]:
        self.draw = event
        return (VIEW,)

    def _revealed(self, event: WildcardRevealed) -> Iterable[str]:
        assert self.draw is not None, "revealed without a draw"
        self.reveal, self.reveals, self.expired = event, self.reveals + 1, False
        self.shown_at = self.draw.reveal_at_ms if event.at_ms is None else event.at_ms
        self.deadline = (self.draw.claim_deadline_ms if event.claim_deadline_ms is None
                         else event.claim_deadline_ms)  # None: a version 1 reveal, on time
        return (VIEW,)

    def _expired(self, event: WildcardClaimExpired) -> Iterable[str]:
        self.expired = True
        return ()

    def _claimed(self, event: WildcardClaimed) -> Iterable[str]:
        self.claim = event
        return (VIEW,)

    def _redraw_started(self, event: WildcardRedrawStarted) -> Iterable[str]:
        self.redraws.append(event)
        if self.reveal is not None:
            self.shown_redraws.append(event)
        self.pool, self.claim, self.stand_in = None, None, None
        self._new_round()
        return (VIEW,)

    def _new_round(self) -> None:
        self.draw, self.reveal, self.reveals = None, None, 0
        self.shown_at, self.deadline, self.expired = None, None, False

    def _stand_in_named(self, event: WildcardStandInNamed) -> Iterable[str]:
        self.stand_in = event.stand_in
        return (VIEW,)

    # -- helpers ----------------------------------------------------------------------------------
    def _bins_open(self, now_ms: int, action: str, rule: str) -> None:
        if self.pool is not None:
            raise Rejected("pool_frozen", f"The pool is frozen; it is too late to {action}.")
        if not self.config.bins_open_ms <= now_ms < self.config.bins_close_ms:
            raise Rejected("bins_closed", f"You can {action} only while the entry bins are open, "
                           f"{self.config.clock(self.config.bins_open_ms)} to "
                           f"{self.config.clock(self.config.bins_close_ms)} on "
                           f"{self.config.draw_day.day} {self.config.draw_day:%B %Y} ({rule}).")

    def _entrant(self, card: str) -> Member:
        """An active rewards cardholder who may take part and is not already a finalist."""
        member = self.members.eligible(card, "rules 2-3")
        if not member.rewards_member:
            raise Rejected("not_rewards", f"{member.display_name} is not a rewards member; the "
                           "Wild Card draw is for active rewards cardholders and entries cannot "
                           "be bought (rules 18.1, 34).")
        if self.roster.holds_final_seat(card):
            raise Rejected("already_qualified", f"{member.display_name} has already qualified "
                           "for the Final and takes no part in the Wild Card draw (rule 19).")
        if self.roster.is_disqualified(card):
            raise Rejected("disqualified", f"{member.display_name} was disqualified from the "
                           "Slots PAYOFF and has no Wild Card tickets (rule 47).")
        return member

    def _frozen(self, round_: int, excluded: list[str], ctx: Context) -> WildcardPoolFrozen:
        pool = self.frozen_pool(round_, excluded, ctx.actor, ctx.now_ms)
        if pool is None:
            raise Rejected("empty_pool", "No eligible member has activated tickets that are "
                           "still in the pool, so there is nothing to draw.")
        return pool

    def _not_finished(self) -> None:
        if self.claim is not None:
            raise Rejected("finished", f"The Wild Card finalist is already "
                           f"{self._name(self.claim.card)}; there is nothing left to draw.")

    def _revealed_draw(self, now_ms: int) -> tuple[WildcardDrawn, list[DomainEvent], int]:
        """The revealed draw of an unfinished round, the events the clock owes now, and the
        claim deadline; refused before the reveal is on screen, or for an ineligible winner
        (rules 2-3, 47: the clock disqualifies them and a redraw follows)."""
        self._not_finished()
        if self.draw is None:
            raise Rejected("no_draw", "No winner has been drawn yet.")
        pending, shown, deadline = self.window(now_ms)
        if shown is None or deadline is None or now_ms < shown:
            at = self.draw.reveal_at_ms if shown is None else shown
            raise Rejected("not_revealed", "The winner is not revealed until "
                           f"{self.config.clock(max(at, now_ms))}.")
        return self.draw, pending, deadline

    def _finalist(self, draw: WildcardDrawn, present: bool, ctx: Context) -> list[DomainEvent]:
        claim_by = draw.drawn_at_ms + self.config.prize_claim_ms  # rules 43, 45
        # the prize is the seat, handed over by this step: Slots seats the finalist (rule 19)
        seat = seat_prize("wildcard-final-seat", self.name, draw.card,
                          "A seat in the Slots PAYOFF Final (the Wild Card)",
                          "slots rules 18-19, 41", ctx.now_ms, claim_by)
        return [WildcardClaimed(draw.round, draw.card, present, claim_by, ctx.actor, ctx.now_ms),
                seat, WildcardFinalist(draw.card, present, ctx.now_ms)]

