"""American Roulette Spin-Off (shared/rules/roulette-spin-off.txt).

Qualifying heats at R200 (5 stacks of R10 chips, 3 spins of at most 120 s of betting, one R100
re-buy), as many re-entries as a guest likes but one line per guest on the top-21 board; the top
10 play a final in two groups with fresh chips; ties go to a spin-off; the top 5 share the pool,
which grows from buy-ins toward the advertised R150 000.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from controller.domain.commands import Command, Context
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.feature import Handler
from controller.domain.heats import heat_name, take_seat
from controller.domain.members import Members
from controller.promotions.roulette.config import RouletteConfig
from controller.promotions.roulette.events import (
    RouletteBetsClosed,
    RouletteBettingOpened,
    RouletteDisputeRecorded,
    RouletteNoSpin,
    RouletteRebought,
    RouletteSpun,
)
from controller.promotions.roulette.payloads import (
    Dispute,
    Enter,
    EntryRef,
    HeatRef,
    Spin,
    SpinOff,
)
from controller.promotions.roulette.state import Dispute as DisputeRow
from controller.promotions.roulette.state import Spins
from controller.promotions.roulette.views import RouletteViews
from controller.promotions.tournament.events import (
    TournamentEntered,
    TournamentEntryRemoved,
    TournamentHeatStarted,
    TournamentTieBroken,
)
from controller.promotions.tournament.feature import Tournament
from controller.promotions.tournament.payloads import RecordScore
from controller.promotions.tournament.state import Entry, Stage, StageSpec


class Roulette(RouletteViews, Tournament):
    name = "roulette"
    title = "Roulette Spin-Off"
    prefix = "R"
    rules: ClassVar[dict[str, str]] = {
        "eligible": "rules 1-2", "tie": "rule 26", "proxy": "rule 14", "no_proxy": "rule 14",
        "no_show": "rule 13", "extra_seat": "rule 20", "split": "rule 27",
        "prize": "rule 27",
    }
    proxy_for_extra_seats_only = False
    score_signature_rules: ClassVar[dict[str, str]] = {"qualifying": "rule 18",
                                                       "final": "rule 18"}

    config: RouletteConfig
    config_model = RouletteConfig

    def __init__(self, members: Members, config: RouletteConfig) -> None:
        super().__init__(members, config)
        self.spins: dict[tuple[str, str], Spins] = {}
        self.rebuys: dict[str, int] = {}
        self.disputes: dict[tuple[str, str], list[DisputeRow]] = {}

    def stage_specs(self, c: RouletteConfig) -> list[StageSpec]:
        group_size = -(-c.finalists // c.final_groups)
        return [
            StageSpec("qualifying", "Qualifying", c.leaderboard_rows, cutoffs=(c.finalists,),
                      best_per_guest=True, heat_size=c.seats_per_heat),
            StageSpec("final", "Final", c.finalists, heat_title="Group", heat_size=group_size),
        ]

    def own_commands(self) -> Iterable[Command[Any]]:
        return (
            Command("roulette.enter", "operator", Enter, self.enter,
                    "Buy a Rewards cardholder into a qualifying heat (R200, 5 stacks of chips)."),
            Command("roulette.rebuy", "operator", EntryRef, self.rebuy,
                    "The one R100 re-buy a player may make within a heat."),
            Command("roulette.open_betting", "operator", HeatRef, self.open_betting,
                    "Open the betting window of the heat's next spin (120 s)."),
            Command("roulette.no_spin", "operator", HeatRef, self.no_spin,
                    "The ball was a no spin: 30 more seconds to change bets."),
            Command("roulette.spin", "operator", Spin, self.spin,
                    "The spin is played; players who missed it are disqualified for the heat."),
            Command("roulette.tie_break", "operator", SpinOff, self.tie_break,
                    "Record a spin-off between tied players (absent players place lowest)."),
            Command("roulette.dispute", "operator", Dispute, self.dispute,
                    "Record a player's dispute about the spin in play and how it was decided, "
                    "with their signature (rule 17)."),
        )

    def handlers(self) -> Mapping[type[DomainEvent], Handler]:
        return {**super().handlers(), RouletteBettingOpened: self._betting_opened,
                RouletteNoSpin: self._no_spin, RouletteSpun: self._spun,
                RouletteRebought: self._rebought, RouletteBetsClosed: self._bets_closed,
                RouletteDisputeRecorded: self._disputed}

    # -- commands -------------------------------------------------------------------------------
    def enter(self, p: Enter, ctx: Context) -> list[DomainEvent]:
        stage = self.stages["qualifying"]
        if stage.closed:
            raise Rejected("stage_closed", "Qualifying is over; no buy-ins are accepted once the "
                                           "finalists are known (rule 21).")
        self.config.buy_ins().check(ctx.now_ms, "Buy-ins", "rules 3-4")
        member = self.members.eligible(p.card, self.rules["eligible"])
        if not member.rewards_member:
            raise Rejected("not_rewards", f"{member.display_name} needs a Rewards card: the "
                                          "Spin-Off is for Rewards cardholders only (rule 2).")
        held = self.open_seat(stage, member.card)
        if held is not None:
            raise Rejected("second_seat", f"{member.display_name} already holds seat "
                                          f"{held.seat} of {held.heat} (entry {held.id}), not "
                                          "yet played: one seat at a time (rule 12). Record "
                                          "its score first.")
        free = self.seat_is_free(stage, stage.started)  # betting opened: heat started
        heat, seat = take_seat(free, stage.spec.heat_title, stage.spec.heat_size, p.heat,
                               after=max(stage.last_heat - 1, 0))
        return [TournamentEntered(self.name, self.new_id(), member.card, "qualifying", heat,
                                  seat, "cash", self.config.buy_in, ctx.now_ms)]

    def rebuy(self, p: EntryRef, ctx: Context) -> list[DomainEvent]:
        e = self.playing(p.entry)
        if e.stage != "qualifying":
            raise Rejected("no_buy_in", "No buy-ins are accepted in the final (rule 21).")
        if self.rebuys.get(e.id, 0) >= self.config.rebuys_per_heat:
            raise Rejected("rebuy_used", f"{self.name_of(e.card)} has already re-bought in "
                                         "this heat; one re-buy per heat (rule 7).")
        if self.spins_of(e).done >= self.config.spins_per_heat:
            raise Rejected("heat_over", f"{e.heat} has played its spins; a re-buy is for use "
                                        "within the heat (rule 7).")
        self.config.buy_ins().check(ctx.now_ms, "Re-buys", "rules 4 and 11")
        return [RouletteRebought(e.id, self.config.rebuy)]

    def open_seat(self, stage: Stage, card: str) -> Entry | None:
        """Rule 12 (ruling): the guest's seat that is held but not yet played, if any."""
        for e in stage.of_card(card):
            if e.active and e.score is None:
                return e
        return None

    def spins_of(self, e: Entry) -> Spins:
        """The spins of the entry's heat; an entry in no heat has played none."""
        if e.heat is None:
            return Spins()
        return self.spins.get((e.stage, e.heat), Spins())

    def heat(self, p: HeatRef) -> tuple[Stage, Spins]:
        stage = self.open_stage(p.stage)
        if not any(e.heat == p.heat for e in self.active(stage)):
            raise Rejected("unknown_heat", f"Nobody is playing in {p.heat!r} of the "
                                           f"{stage.spec.title}.")
        return stage, self.spins.get((p.stage, p.heat), Spins())

    def open_betting(self, p: HeatRef, ctx: Context) -> list[DomainEvent]:
        stage, spins = self.heat(p)
        total = self.config.spins_per_heat
        if spins.open is not None:
            raise Rejected("betting_open", f"Spin {spins.open} of {p.heat} is already taking "
                                           "bets.")
        if spins.done >= total:
            raise Rejected("heat_over", f"{p.heat} has played its {total} spins (rule 7).")
        events: list[DomainEvent] = []
        if p.heat not in stage.started:
            events.append(TournamentHeatStarted(self.name, p.stage, p.heat, ctx.now_ms))
        deadline = ctx.now_ms + self.config.betting_window_ms
        return [*events, RouletteBettingOpened(p.stage, p.heat, spins.done + 1, deadline)]

    def no_spin(self, p: HeatRef, ctx: Context) -> list[DomainEvent]:
        _, spins = self.heat(p)
        if spins.open is None:
            raise Rejected("no_open_spin", f"No spin of {p.heat} is under way.")
        # rule 25 (ruling): 30 s on top of whatever betting time is left, not a fresh window
        deadline = max(spins.deadline_ms, ctx.now_ms) + self.config.no_spin_extra_ms
        return [RouletteNoSpin(p.stage, p.heat, spins.open, deadline, ctx.now_ms)]

    def spin(self, p: Spin, ctx: Context) -> list[DomainEvent]:
        stage, spins = self.heat(HeatRef(stage=p.stage, heat=p.heat))
        if spins.open is None:
            raise Rejected("no_open_spin", f"Open the betting for the next spin of {p.heat} "
                                           "first.")
        seated = {e.id for e in self.active(stage) if e.heat == p.heat}
        stray = [m for m in p.missed if m not in seated]
        if stray:
            raise Rejected("not_seated", f"Entry {stray[0]!r} is not playing in {p.heat}.")
        return [RouletteSpun(p.stage, p.heat, spins.open, p.number, None, ctx.now_ms),
                *(TournamentEntryRemoved(self.name, m, "disqualified",
                                         f"missed spin {spins.open} (rule 9)", 0)
                  for m in dict.fromkeys(p.missed))]

    def taking_bets(self, table: str) -> tuple[str, str, Spins] | None:
        """The heat whose spin is taking bets at wheel `table` (the latest to open), if any."""
        if self.config.table != table:
            return None
        open_ = [(s.opened_ms, stage, heat, s) for (stage, heat), s in self.spins.items()
                 if s.open is not None]
        if not open_:
            return None
        _, stage, heat, spins = max(open_, key=lambda t: (t[0], t[1], t[2]))
        return stage, heat, spins

    def record_score(self, p: RecordScore, ctx: Context) -> list[DomainEvent]:
        e = self.playing(p.entry)
        done, total = self.spins_of(e).done, self.config.spins_per_heat
        if done < total:
            raise Rejected("heat_not_over", f"{e.heat} has played {done} of its {total} spins; "
                                            "the score is the chips left after the last spin "
                                            "(rule 7).")
        return [self.scored(e, p.score, ctx, {})]

    def tie_break(self, p: SpinOff, ctx: Context) -> list[DomainEvent]:
        """Rule 26: one stack and one spin each; the higher score takes the higher place, and
        an absent player takes the lowest place of the tie."""
        if len(p.scores) != len(p.entries):
            raise Rejected("bad_payload", "Give one spin-off score per tied player, in the same "
                                          "order (null for an absent player).")
        stage, keys = self.tie_round(p.stage, p.entries)
        absent = [k for k, s in zip(keys, p.scores, strict=True) if s is None]
        absent.sort(key=stage.standings.position)  # among the absent: who scored first
        values = [s if s is not None else -1 - absent.index(k)
                  for k, s in zip(keys, p.scores, strict=True)]
        return [TournamentTieBroken(self.name, stage.spec.name, "spin-off", [
            {"keys": keys, "values": values, "shown": list(p.scores), "public": []}])]

    def dispute(self, p: Dispute, ctx: Context) -> list[DomainEvent]:
        """Rule 17: a dispute is about the spin in question: the one taking bets, or the one
        just played until the next opens (after a heat's last spin, until its scores are all
        recorded). An earlier spin's dispute is not considered."""
        stage = self.heat_stage(p.heat)
        spins = self.spins.get((stage.spec.name, p.heat), Spins())
        current = spins.open or spins.done
        if (p.card is None) == (p.entry is None):
            raise Rejected("bad_payload", "Name the player who raised the dispute: their card "
                                          "or their entry, one of the two.")
        seated = [e for e in stage.in_heat(p.heat) if e.card == p.card or e.id == p.entry]
        if not seated:
            member = self.members.by_card.get(p.card or "")
            who = member.display_name if member else "That card"
            raise Rejected("not_seated", f"{who} has no seat in {p.heat}: a dispute is raised "
                                         "by a player of the heat.")
        what = " ".join(p.what.split())
        if not what:
            raise Rejected("what_required", "Say what the dispute is about; it is kept in the "
                                            "log.")
        if current == 0:
            raise Rejected("no_spin_yet", f"{p.heat} has not opened betting for its first spin "
                                          "yet: there is no spin to dispute (rule 17).")
        if p.spin > current:
            raise Rejected("spin_not_played", f"Spin {p.spin} of {p.heat} has not started; "
                                              f"the spin in play is spin {current}.")
        heat_over = spins.open is None and spins.done >= self.config.spins_per_heat
        if p.spin < current or (heat_over and not any(e.active and e.score is None
                                                      for e in stage.in_heat(p.heat))):
            raise Rejected("dispute_too_late", f"Spin {p.spin} of {p.heat} is over: disputes "
                                               "must be raised within the spin in question, "
                                               "and none is considered after it (rule 17).")
        return [RouletteDisputeRecorded(p.heat, p.spin, seated[0].card, what, p.decision,
                                        ctx.actor, p.signature.data(), ctx.now_ms)]

    def heat_stage(self, heat: str) -> Stage:
        """The stage whose heat is called `heat` ("Heat 3" in qualifying, "Group 1" in the
        final); refused when no open stage has it."""
        for name in self.order:
            stage = self.stages[name]
            if stage.in_heat(heat):
                if stage.closed:
                    raise Rejected("stage_closed", f"The {stage.spec.title} is closed; its "
                                                   "spins can no longer be disputed (rule 17).")
                return stage
        raise Rejected("unknown_heat", f"Nobody is playing in {heat!r}.")

    # -- rules of advancement -------------------------------------------------------------------
    def advance(self, stage: Stage, ranking: list[str], ctx: Context) -> list[DomainEvent]:
        """Rules 13, 22-23: the top 10 guests start the final afresh, in two groups (places
        1, 3, 5... in group 1; 2, 4, 6... in group 2)."""
        if stage.spec.name != "qualifying":
            return []
        groups = self.config.final_groups
        title = self.final.spec.heat_title
        seats = [(heat_name(title, i % groups + 1), i // groups + 1)
                 for i in range(min(len(ranking), self.config.finalists))]
        return self.qualified(stage, self.final, ranking[: self.config.finalists], ctx, seats)

    # -- state ----------------------------------------------------------------------------------
    def _betting_opened(self, event: RouletteBettingOpened) -> set[str]:
        return self._window(event, event.deadline_ms - self.config.betting_window_ms, False)

    def _no_spin(self, event: RouletteNoSpin) -> set[str]:
        at = event.at_ms  # None in logs from before rule 25's ruling: a fresh 30 s window
        opened = event.deadline_ms - self.config.no_spin_extra_ms if at is None else at
        return self._window(event, opened, True)

    def _window(self, event: RouletteBettingOpened | RouletteNoSpin, opened_ms: int,
                no_spin: bool) -> set[str]:
        """A betting window opens: the spin's first (120 s), or a no spin's extension."""
        spins = self.spins.setdefault((event.stage, event.heat), Spins())
        spins.open, spins.deadline_ms = event.spin, event.deadline_ms
        spins.no_spin, spins.opened_ms = no_spin, opened_ms
        spins.bets_closed = False
        return {self.spins_view, self.ops_view}  # ops: the console's heat progress

    def _spun(self, event: RouletteSpun) -> set[str]:
        spins = self.spins[(event.stage, event.heat)]
        spins.open, spins.done = None, event.spin
        spins.bets_closed, spins.number = False, event.number
        return {self.spins_view, self.ops_view}  # ops: the console's heat progress

    def _bets_closed(self, event: RouletteBetsClosed) -> set[str]:
        """No more bets: the countdown stops where it is (a no spin opens betting again)."""
        spins = self.spins[(event.stage, event.heat)]
        spins.bets_closed = True
        spins.deadline_ms = min(spins.deadline_ms, event.at_ms)
        return {self.spins_view, self.ops_view}

    def _disputed(self, event: RouletteDisputeRecorded) -> set[str]:
        stage = next(s for s in (self.stages[n] for n in self.order)
                     if s.in_heat(event.heat))
        self.disputes.setdefault((stage.spec.name, event.heat), []).append(DisputeRow(
            event.spin, self.name_of(event.card), event.what, event.decision, event.decided_by))
        return {self.ops_view}

    def _rebought(self, event: RouletteRebought) -> set[str]:
        self.rebuys[event.entry] = self.rebuys.get(event.entry, 0) + 1
        self.add_money(event.paid)
        return self.money_views(event.paid)

