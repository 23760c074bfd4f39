"""The slot tournament system's feed, the rules' side: a bank's heat bound to a Showrunner heat,
its machines' final credits recorded, and the director's one-tap accept (slots rules 11, 14, 27).

The feed reaches these commands through the HTTP API (controller/http/api/slots_feed.py) with
the bank's device key; its live credits are not events (controller/feeds/). A base of `Slots`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.domain.commands import Command, Context
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.feature import Handler
from controller.domain.heats import heat_number
from controller.promotions.slots.events import (
    SlotsFeedAccepted,
    SlotsFeedHeatEnded,
    SlotsFeedHeatStarted,
    SlotsHeatRestarted,
)
from controller.promotions.slots.feed_repeats import end_conflict, start_conflict
from controller.promotions.slots.payloads import (
    FEED_END_MAX_BYTES,
    AcceptFeed,
    FeedHeatEnded,
    FeedHeatStarted,
)
from controller.promotions.tournament.feature import Tournament, reason_text
from controller.promotions.tournament.payloads import StartHeat
from controller.promotions.tournament.state import Entry, Stage


@dataclass
class FeedHeat:
    """One feed heat on one bank, as the log has it."""

    bank: str
    stage: str
    heat: str
    feed_heat: str
    machines: list[str]
    seats: list[int]
    start_credits: int
    started_ms: int
    ends_ms: int
    #: live: the machines are playing; ended: final credits wait for the director; accepted:
    #: they are the heat's scores; restarted: the heat was restarted (rule 27), this is void
    status: str = "live"
    finals: list[dict[str, Any]] = field(default_factory=list)

    #: machine -> seat, built with the heat: a 300-machine heat is rendered many times a second
    seat_by_machine: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.seat_by_machine = dict(zip(self.machines, self.seats, strict=True))

    def seat_of(self, machine: str) -> int:
        return self.seat_by_machine[machine]


class FeedTournament(Tournament):
    """Tournament mechanics plus a feed of machines' credits per bank."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.feeds: dict[tuple[str, str], FeedHeat] = {}  # (bank, feed heat) -> it
        self.bank_heats: dict[str, FeedHeat] = {}  # bank -> its latest feed heat
        self.feed_order: list[FeedHeat] = []  # in the order they started

    def feed_commands(self) -> Iterable[Command[Any]]:
        return (
            Command("slots.feed_heat_started", "device", FeedHeatStarted, self.feed_heat_started,
                    "The bank's tournament system started a heat on its machines."),
            Command("slots.feed_heat_ended", "device", FeedHeatEnded, self.feed_heat_ended,
                    "The bank's tournament system ended the heat: every machine's final "
                    "credits, for the director to accept.", max_bytes=FEED_END_MAX_BYTES),
            Command("slots.accept_feed", "operator", AcceptFeed, self.accept_feed,
                    "Accept the machines' final credits as the heat's scores (correct one "
                    "with a reason)."),
        )

    # -- queries ----------------------------------------------------------------------------
    def live_feed(self, bank: str, feed_heat: str) -> FeedHeat:
        """The bank's feed heat `feed_heat` while it plays, else `Rejected` saying why."""
        found = self.feeds.get((bank, feed_heat))
        if found is None:
            raise Rejected("unknown_feed_heat", f"Bank {bank} has no heat {feed_heat!r} "
                                                "started; start it first.")
        if found.status != "live":
            raise Rejected("heat_ended", f"Heat {feed_heat} on bank {bank} has already "
                                         "ended; its credits can no longer change.")
        return found

    def check_machines(self, feed: FeedHeat, machines: Iterable[str]) -> None:
        stray = [m for m in machines if m not in feed.seat_by_machine]
        if stray:
            raise Rejected("unknown_machine", f"Machine {stray[0]} is not in heat "
                                              f"{feed.feed_heat} on bank {feed.bank}; its "
                                              f"machines are {', '.join(feed.machines)}.")

    def seated_in(self, stage: Stage, heat: str) -> list[Entry]:
        """The heat's active entries, lowest seat first."""
        return sorted((e for e in self.active(stage) if e.heat == heat),
                      key=lambda e: e.seat or 0)

    def holder(self, feed: FeedHeat, machine: str) -> Entry | None:
        """Who sits at `machine` now (None when the seat was vacated, rule 27)."""
        return self.stages[feed.stage].holder(feed.heat, feed.seat_of(machine))

    # -- commands ---------------------------------------------------------------------------
    def feed_heat_started(self, p: FeedHeatStarted, ctx: Context) -> list[DomainEvent]:
        """Bind the feed's heat: the heat the MC started that has no feed and no scores, else
        the next heat in order with seated players (started now). Its seats in use, lowest
        first, are the bank's machines in their sequential order (rule 11)."""
        self.own_bank(p.bank, ctx)
        known = self.feeds.get((p.bank, p.feed_heat))
        if known is not None:
            raise start_conflict(known, p.machines, p.start_credits, p.duration_s,
                                 self.config.timezone) or Rejected(
                "already_started", f"Heat {p.feed_heat} on bank {p.bank} was already started.")
        current = self.bank_heats.get(p.bank)
        if current is not None and current.status == "live":
            raise Rejected("heat_live", f"Heat {current.feed_heat} is still playing on bank "
                                        f"{p.bank}; end it before starting another.")
        if len(set(p.machines)) != len(p.machines):
            raise Rejected("bad_payload", "Each machine may be listed once.")
        stage = self.feed_stage()
        heat, events = self.feed_target(stage, ctx)
        seated = self.seated_in(stage, heat)
        if len(p.machines) != len(seated):
            raise Rejected("seats_mismatch", f"{heat} of the {stage.spec.title} has "
                                             f"{len(seated)} players seated, but the bank sent "
                                             f"{len(p.machines)} machines (rule 11: one machine "
                                             "a seat, in order).")
        return [*events, SlotsFeedHeatStarted(
            p.bank, stage.spec.name, heat, p.feed_heat, list(p.machines), p.start_credits,
            ctx.now_ms, ctx.now_ms + p.duration_s * 1000, [e.seat or 0 for e in seated])]

    def own_bank(self, bank: str, ctx: Context) -> None:
        if ctx.actor != bank:
            raise Rejected("wrong_bank", f"This key reports for {ctx.actor}, not bank {bank}.")

    def feed_stage(self) -> Stage:
        """The stage being played: the first not closed."""
        for name in self.order:
            if not self.stages[name].closed:
                return self.stages[name]
        raise Rejected("stage_closed", f"The {self.title} is over; every stage is closed.")

    def feed_target(self, stage: Stage, ctx: Context) -> tuple[str, list[DomainEvent]]:
        """The heat a new feed heat plays, and the events that start it if it has not."""
        fed = {f.heat for f in self.feeds.values()
               if f.stage == stage.spec.name and f.status != "restarted"}
        heats = sorted({e.heat for e in self.active(stage) if e.heat} - fed, key=heat_number)
        fresh = [h for h in heats if all(e.score is None for e in self.seated_in(stage, h))]
        for heat in fresh:
            if heat in stage.started:
                return heat, []
        for heat in fresh:
            return heat, self.start_heat(StartHeat(stage.spec.name, heat), ctx)
        raise Rejected("no_heat", f"No heat of the {stage.spec.title} is waiting to play: "
                                  "seat players in one first.")

    def feed_heat_ended(self, p: FeedHeatEnded, ctx: Context) -> list[DomainEvent]:
        self.own_bank(p.bank, ctx)
        known = self.feeds.get((p.bank, p.feed_heat))
        if known is not None and known.status != "live":
            raise end_conflict(known, ((f.machine, f.credits) for f in p.finals)) or Rejected(
                "already_ended", f"Heat {p.feed_heat} on bank {p.bank} already ended with "
                                 "these final credits.")
        feed = self.live_feed(p.bank, p.feed_heat)
        given = [f.machine for f in p.finals]
        self.check_machines(feed, given)
        self.check_machines(feed, (r.machine for r in p.last_readings))
        missing = [m for m in feed.machines if m not in given]
        if missing or len(set(given)) != len(given):
            raise Rejected("bad_payload", "Give every machine's final credits once; missing: "
                                          f"{', '.join(missing) or 'none'}.")
        finals = []
        for final in sorted(p.finals, key=lambda f: feed.seat_of(f.machine)):
            holder = self.holder(feed, final.machine)
            finals.append({"machine": final.machine, "seat": feed.seat_of(final.machine),
                           "entry": None if holder is None else holder.id,
                           "credits": final.credits})
        readings = [{"machine": r.machine, "credits": r.credits, "at_ms": r.at_ms}
                    for r in p.last_readings]
        return [SlotsFeedHeatEnded(p.bank, feed.stage, feed.heat, feed.feed_heat, finals,
                                   readings, ctx.now_ms)]

    def accept_feed(self, p: AcceptFeed, ctx: Context) -> list[DomainEvent]:
        """One tap: every seat's final credits become its score; a correction needs a reason."""
        stage = self.open_stage(p.stage)
        fed = [f for f in self.feed_order if f.stage == stage.spec.name and f.heat == p.heat
               and f.status != "restarted"]
        if not fed:
            raise Rejected("no_feed", f"No machine results came in for {p.heat} of the "
                                      f"{stage.spec.title}.")
        feed = fed[-1]
        if feed.status == "live":
            raise Rejected("heat_live", f"{p.heat} is still playing on bank {feed.bank}; "
                                        "accept its scores when it ends.")
        if feed.status == "accepted":
            raise Rejected("already_accepted", f"The scores of {p.heat} were already accepted; "
                                               "correct a score instead, with a reason.")
        scored = {f["entry"]: f for f in feed.finals if f["entry"] is not None}
        corrections = {}
        for c in p.corrections:
            if c.entry not in scored:
                raise Rejected("not_in_heat", f"Entry {c.entry} did not play {p.heat} on bank "
                                              f"{feed.bank}.")
            corrections[c.entry] = (c.score, reason_text(c.reason))
        events: list[DomainEvent] = []
        for entry, final in scored.items():
            e = self.entries[entry]
            if e.status != "active":  # disqualified or moved since the heat ended
                continue
            detail: dict[str, Any] = {"source": "feed", "bank": feed.bank,
                                      "machine": final["machine"],
                                      "feed_credits": final["credits"]}
            score = final["credits"]
            if entry in corrections:
                score, detail["correction"] = corrections[entry]
            events.append(self.scored(e, score, ctx, detail))
        return [*events, SlotsFeedAccepted(feed.bank, feed.stage, feed.heat, feed.feed_heat,
                                           ctx.now_ms)]

    # -- folds ------------------------------------------------------------------------------
    def feed_handlers(self) -> Mapping[type[DomainEvent], Handler]:
        return {SlotsFeedHeatStarted: self._feed_started, SlotsFeedHeatEnded: self._feed_ended,
                SlotsFeedAccepted: self._feed_accepted, SlotsHeatRestarted: self._restarted}

    def _feed_started(self, ev: SlotsFeedHeatStarted) -> set[str]:
        seats = ev.seats or list(range(1, len(ev.machines) + 1))
        feed = FeedHeat(ev.bank, ev.stage, ev.heat, ev.feed_heat, list(ev.machines), seats,
                        ev.start_credits, ev.started_ms, ev.ends_ms)
        self.feeds[(ev.bank, ev.feed_heat)] = feed
        self.bank_heats[ev.bank] = feed
        self.feed_order.append(feed)
        return set()

    def _feed_ended(self, ev: SlotsFeedHeatEnded) -> set[str]:
        feed = self.feeds[(ev.bank, ev.feed_heat)]
        feed.status, feed.finals = "ended", list(ev.finals)
        return set()

    def _feed_accepted(self, ev: SlotsFeedAccepted) -> set[str]:
        self.feeds[(ev.bank, ev.feed_heat)].status = "accepted"
        return set()

    def _restarted(self, ev: SlotsHeatRestarted) -> set[str]:
        """Rule 27: a restarted heat's feed heat is void; the feed starts it again."""
        for feed in self.feed_order:
            if feed.stage == ev.stage and feed.heat == ev.heat and feed.status != "restarted":
                feed.status = "restarted"
        return set()
