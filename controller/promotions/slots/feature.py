"""Slots PAYOFF tournament (shared/rules/slots-payoff-tournament.txt).

Qualifying heats on a bank of machines (R50 a seat, one free entry a week for Rewards members),
a leaderboard of positions 1-45, the two best single entries straight to the final, places 3-32
to the semi-final, and a final of the semi's top 9, those 2 and the Wild Card winner in two
heats of six. Ties are settled by a playing-card draw, Ace low.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from controller.domain.calendar import week_monday
from controller.domain.commands import Command, Context
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.feature import Handler
from controller.domain.handoffs import WildcardFinalist
from controller.domain.heats import (
    draw_seats,
    first_free_seat,
    heat_number,
    heats_needed,
    positions,
    take_seat,
)
from controller.domain.members import Member, Members
from controller.domain.ties import card_value, electronic_rounds
from controller.promotions.slots.config import SlotsConfig
from controller.promotions.slots.events import SlotsHeatRestarted
from controller.promotions.slots.feed import FeedTournament
from controller.promotions.slots.payloads import (
    DrawSeats,
    Enter,
    EntryRef,
    RestartHeat,
    TieBreak,
)
from controller.promotions.tournament.events import (
    TournamentEntered,
    TournamentEntryRemoved,
    TournamentScoreVoided,
    TournamentSeated,
    TournamentTieBroken,
)
from controller.promotions.tournament.feature import reason_text
from controller.promotions.tournament.payloads import StartHeat
from controller.promotions.tournament.state import Entry, Stage, StageSpec


@dataclass(frozen=True)
class SeatPass:
    """A semi-final seat given up by the Wild Card winner (`winner`: their semi entry) and the
    entry that took it (`successor`; None when no qualifier was left)."""

    winner: str
    successor: str | None
    at_ms: int


class Slots(FeedTournament):
    name = "slots"
    title = "Slots PAYOFF"
    prefix = "S"
    live_scores = True  # machines report their credit meter as the heat plays
    rules: ClassVar[dict[str, str]] = {
        "eligible": "rules 2-3", "tie": "rule 26", "proxy": "rules 21-23", "no_proxy": "rule 12",
        "no_show": "rule 29", "extra_seat": "rule 23", "split": "rule 43",
        "prize": "rules 43-45",
    }

    config: SlotsConfig
    config_model = SlotsConfig

    def __init__(self, members: Members, config: SlotsConfig) -> None:
        super().__init__(members, config)
        self.wildcard_absent: set[str] = set()
        self.seat_passes: list[SeatPass] = []

    def stage_specs(self, c: SlotsConfig) -> list[StageSpec]:
        return [
            StageSpec("qualifying", "Qualifying", c.leaderboard_rows,
                      cutoffs=(c.direct_to_final, c.semi_last_place),
                      heat_size=c.qualifying_seats_per_heat),
            StageSpec("semi", "Semi-final", c.semi_last_place - c.direct_to_final,
                      cutoffs=(c.final_from_semi,), heat_title="Semi",
                      heat_size=c.semi_heat_size),
            StageSpec("final", "Final", c.final_from_semi + c.direct_to_final + 1,
                      heat_title="Final", heat_size=c.final_heat_size),
        ]

    def own_commands(self) -> Iterable[Command[Any]]:
        return (
            Command("slots.enter", "operator", Enter, self.enter,
                    "Buy a member a seat in a qualifying heat (or use the weekly free entry); "
                    "the ack carries the entry id."),
            Command("slots.tie_break", "operator", TieBreak, self.tie_break,
                    "Record a playing-card tie-break (Ace low), or draw the cards electronically."),
            Command("slots.draw_seats", "operator", DrawSeats, self.draw_seats,
                    "Draw the seats of the semi-final or the final at random."),
            Command("slots.malfunction", "operator", EntryRef, self.malfunction,
                    "A machine failed: move the player to the first free seat of a later heat, "
                    "or refund them."),
            Command("slots.restart_heat", "operator", RestartHeat, self.restart_heat,
                    "A tournament-system fault: restart the whole heat, voiding its scores."),
            *self.feed_commands(),
        )

    def start_heat(self, p: StartHeat, ctx: Context) -> list[DomainEvent]:
        """Rule 18: the Wild Card draw comes before the Semi-Finals start."""
        events = super().start_heat(p, ctx)
        semi = self.stages["semi"]
        if p.stage == semi.spec.name and not semi.started and not self.wildcard_named():
            raise Rejected("wildcard_pending", "The semi-final starts after the Wild Card draw "
                                               "has concluded, with its winner claimed or named "
                                               "a finalist (rule 18).")
        return events

    def handlers(self) -> Mapping[type[DomainEvent], Handler]:
        return {**super().handlers(), WildcardFinalist: self._wildcard, **self.feed_handlers()}

    # -- queries the Wild Card draw calls -------------------------------------------------------
    def took_part(self, card: str) -> bool:
        """A rewards member who took part in the event (rule 18.2: 5 extra Wild Card tickets):
        as ruled (docs/draws.md), at least one qualifying entry played (scored), not refunded."""
        member = self.members.by_card.get(card)
        return member is not None and member.rewards_member and any(
            e.stage == "qualifying" and e.status != "refunded" and e.score is not None
            for e in self.entries.of_card(card))

    def is_disqualified(self, card: str) -> bool:
        """Disqualified from the promotion (rules 2-3, 47): no Wild Card tickets, and no Wild
        Card seat."""
        return any(e.status == "disqualified" for e in self.entries.of_card(card))

    def wildcard_named(self) -> bool:
        """The Wild Card draw has concluded: its finalist holds a seat in the final."""
        return any(e.payment == "wildcard" for e in self.active(self.final))

    def holds_final_seat(self, card: str) -> bool:
        """Already holding a seat in the final (kept out of the Wild Card pool)."""
        return any(e.active for e in self.final.of_card(card))

    def qualifying_closed(self) -> bool:
        """Qualifying is over, so its two direct finalists hold their seats (rule 17)."""
        return self.stages["qualifying"].closed

    def final_started(self) -> bool:
        """From the first final heat on, a Wild Card finalist is no longer replaced by a draw."""
        return bool(self.final.started or self.final.closed)

    # -- commands -------------------------------------------------------------------------------
    def enter(self, p: Enter, ctx: Context) -> list[DomainEvent]:
        qualifying = self.stages["qualifying"]
        if qualifying.closed:
            raise Rejected("stage_closed", "Qualifying is closed; no more entries (rule 11).")
        member = self.members.eligible(p.card, self.rules["eligible"])
        if p.payment == "free":
            self.check_free_entry(member, ctx)
        heat, seat = self.qualifying_seat(qualifying, member, p.heat)
        paid = 0 if p.payment == "free" else self.config.buy_in  # rules 5-6: comps are paid for
        return [TournamentEntered(self.name, self.new_id(), member.card, "qualifying", heat, seat,
                                  p.payment, paid, ctx.now_ms)]

    def check_free_entry(self, member: Member, ctx: Context) -> None:
        if not member.rewards_member:
            raise Rejected("not_rewards", f"{member.display_name} is not a Rewards member; the "
                                          "free weekly entry is for Rewards members (rule 8).")
        zone = self.config.timezone
        week = week_monday(ctx.now_ms, zone)
        mine = self.stages["qualifying"].of_card(member.card)
        used = sum(1 for e in mine if e.payment == "free" and e.status != "refunded"
                   and week_monday(e.at_ms, zone) == week)
        if used >= self.config.free_entries_per_week:
            raise Rejected("free_entry_used", f"{member.display_name} has already used this "
                                              "week's free entry (Monday to Sunday, rule 8).")

    def qualifying_seat(self, stage: Stage, member: Member, heat: str | None) -> tuple[str, int]:
        """Machines are allocated in sequential order (rule 11): the earliest heat not started
        with a free machine, lowest machine first, whatever later heats hold; one seat per heat
        per player (rule 21)."""
        own = self.own_heats(stage, member.card)
        if heat in own:
            raise Rejected("second_seat", f"{member.display_name} already has a seat in {heat}; "
                                          "a player may hold one seat per qualifying heat "
                                          "(rule 21).")
        if heat in stage.started:
            raise Rejected("heat_started", f"{heat} has started; late entries are not accepted "
                                           "(rule 11).")
        free = self.seat_is_free(stage, own | stage.started)
        return take_seat(free, stage.spec.heat_title, stage.spec.heat_size, heat)

    def tie_break(self, p: TieBreak, ctx: Context) -> list[DomainEvent]:
        stage, keys = self.tie_round(p.stage, p.entries)
        stray = [e for e in p.public if e not in p.entries]
        if stray:
            raise Rejected("bad_payload", f"Entry {stray[0]} is not in this tie-break.")
        public = [keys[p.entries.index(e)] for e in p.public]
        if p.electronic:
            if p.cards:
                raise Rejected("bad_payload", "Give the cards drawn, or ask for an electronic "
                                              "draw, not both.")
            rounds = [{"keys": r["keys"], "values": [card_value(c) for c in r["cards"]],
                       "shown": r["cards"], "public": [k for k in r["keys"] if k in public]}
                      for r in electronic_rounds(keys, ctx.rng)]
            return [TournamentTieBroken(self.name, stage.spec.name, "electronic card", rounds)]
        if len(p.cards) != len(p.entries):
            raise Rejected("bad_payload", "Give one card per tied player, in the same order "
                                          "(rule 26).")
        values = [card_value(c) for c in p.cards]
        return [TournamentTieBroken(self.name, stage.spec.name, "card", [
            {"keys": keys, "values": values, "shown": list(p.cards), "public": public}])]

    def draw_seats(self, p: DrawSeats, ctx: Context) -> list[DomainEvent]:
        """Rule 16: semi and final seats by random draw; an absent Wild Card draws last (41)."""
        stage = self.open_stage(p.stage)
        if stage.spec.name == "qualifying":
            raise Rejected("bad_stage", "Qualifying seats are allocated in order as players "
                                        "enter (rule 11).")
        players = self.active(stage)
        if any(e.heat for e in players):
            raise Rejected("already_drawn", f"The {stage.spec.title} seats are already drawn.")
        if stage is self.final and not self.wildcard_named():
            raise Rejected("wildcard_pending", "The Wild Card finalist is not known yet "
                                               "(rule 19); draw the final seats after that draw.")
        if not players:
            raise Rejected("no_players", f"Nobody is to be seated in the {stage.spec.title}.")
        last = [e.id for e in players if e.id in self.wildcard_absent]
        first = [e.id for e in players if e.id not in self.wildcard_absent]
        size = stage.spec.heat_size
        seats = positions(stage.spec.heat_title, heats_needed(len(players), size), size)
        drawn = draw_seats(first, last, seats, ctx.rng)
        return [TournamentSeated(self.name, stage.spec.name, "draw",
                                 [[entry, heat, seat] for entry, (heat, seat) in drawn],
                                 ctx.now_ms)]

    def malfunction(self, p: EntryRef, ctx: Context) -> list[DomainEvent]:
        """Rules 27-28: first free seat of a later heat; else a refund (qualifying) or an
        additional heat (finals stages)."""
        e = self.playing(p.entry)
        if e.score is not None:
            raise Rejected("already_scored", f"Entry {e.id} already finished its heat.")
        if e.heat is None:
            raise Rejected("no_seat", f"Entry {e.id} has no seat yet.")
        stage = self.stages[e.stage]
        title, size = stage.spec.heat_title, stage.spec.heat_size
        current = heat_number(e.heat)
        free = self.seat_is_free(stage, self.own_heats(stage, e.card) | stage.started)
        heat, seat = first_free_seat(free, title, size, after=current)
        if heat_number(heat) > stage.last_heat:
            if stage.spec.name == "qualifying":
                return [TournamentEntryRemoved(self.name, e.id, "refunded",
                                               "machine malfunction, no later seat (rule 27)",
                                               e.paid)]
            seat = 1 + ctx.rng.below(size)  # rule 28: an additional heat, seat numbers drawn
        return [TournamentSeated(self.name, stage.spec.name, "moved", [[e.id, heat, seat]],
                                 ctx.now_ms)]

    def restart_heat(self, p: RestartHeat, ctx: Context) -> list[DomainEvent]:
        stage = self.open_stage(p.stage)
        seated = [e for e in self.active(stage) if e.heat == p.heat]
        if not seated:
            raise Rejected("unknown_heat", f"Nobody is seated in {p.heat!r} of the "
                                           f"{stage.spec.title}.")
        reason = f"system fault, heat restarted (rule 27): {reason_text(p.reason)}"
        return [SlotsHeatRestarted(stage.spec.name, p.heat, reason),
                *(TournamentScoreVoided(self.name, e.id, e.score, reason)
                  for e in seated if e.score is not None)]

    # -- rules of advancement -------------------------------------------------------------------
    def advance(self, stage: Stage, ranking: list[str], ctx: Context) -> list[DomainEvent]:
        c = self.config
        if stage.spec.name == "qualifying":  # rules 15, 17, 24
            to_final = self.qualified(stage, self.final, ranking[: c.direct_to_final], ctx)
            semi = self.qualified(stage, self.stages["semi"],
                                  ranking[c.direct_to_final: c.semi_last_place], ctx,
                                  offset=len(to_final))
            return [*to_final, *semi]
        if stage.spec.name == "semi":  # rule 19
            return self.qualified(stage, self.final, ranking[: c.final_from_semi], ctx)
        return []

    def claim_note(self, member: Member) -> str | None:
        if member.rewards_member:
            return None
        return "Must join the Rewards Programme to claim (rule 4)."

    def seat_note(self, e: Entry, proxy: str | None) -> str:
        note = super().seat_note(e, proxy)
        passed = next((p for p in self.seat_passes if p.successor == e.id), None)
        if passed is None:
            return note
        winner = self.name_of(self.entries[passed.winner].card)
        return ", ".join(part for part in (f"replaces {winner} (Wild Card)", note) if part)

    # -- state ----------------------------------------------------------------------------------
    def _wildcard(self, ev: WildcardFinalist) -> set[str]:
        """Rule 19: the Wild Card winner completes the final."""
        if self.wildcard_named():
            return set()
        entry = self.new_id()
        dirty = set(self.apply(TournamentEntered(self.name, entry, ev.card, "final", None, None,
                                                 "wildcard", 0, ev.at_ms)))
        if not ev.present:
            self.wildcard_absent.add(entry)
        dirty |= {self.seating_view, self.qualifiers_view}  # the tablet's entry id
        return self.with_ops(dirty | self._pass_semi_seat(ev.card, ev.at_ms))

    def _pass_semi_seat(self, card: str, at_ms: int) -> set[str]:
        """Ruling (docs/draws.md): a semi-finalist who wins the Wild Card goes to the final, and
        their semi-final seat (the lowest-placed, if several) passes to the next-ranked
        qualifier, in the same heat and seat. Once the semi is under way they keep it (21)."""
        semi = self.stages["semi"]
        players = self.active(semi)
        mine = [e for e in players if e.card == card]
        if not mine or semi.started or any(e.score is not None for e in players):
            return set()
        given = mine[-1]
        heat, seat = given.heat, given.seat
        self._seat(semi, given, None, None)
        self.set_status(given, "to_final")
        dirty = {self.seating_view, self.qualifiers_view}
        origin = self.next_qualifier(card)
        successor = None
        if origin is not None:
            successor = self.new_id()
            dirty |= set(self.apply(TournamentEntered(
                self.name, successor, origin.card, "semi", heat, seat, "qualified", 0, at_ms,
                origin.id)))
        self.seat_passes.append(SeatPass(given.id, successor, at_ms))
        return dirty

    def next_qualifier(self, winner: str) -> Entry | None:
        """The best-placed qualifying entry below the semi's places that has no seat yet, of an
        eligible member other than the Wild Card winner (place 33 first)."""
        qualifying = self.stages["qualifying"]
        seated = set(self.entries.origin.values())
        for key in qualifying.standings.placed(after=self.config.semi_last_place):
            e = self.entries[key]
            if key not in seated and e.card != winner and not self.is_disqualified(e.card) \
                    and not self.members.by_card[e.card].flags:
                return e
        return None

