"""Heads-Up Poker Showdown (shared/rules/heads-up-poker-showdown.txt).

R100 entries for R2 000 in chips, scored after 10 hands; 80% of buy-ins to the overall prize
pool and 20% to the top-score progressive for the top 3 qualifying scores; a weekly top-score
prize in the first 4 weeks; the top 12 play a semi-final in 2 heats of 6 (heat and seat chosen
at registration, 12 hands); the top 6 a one-heat final with seats drawn at random and 3 R500
bonus-bet markers each, unused markers counting toward the score; the final splits the pool
60/10/9/8/7/6.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from controller.domain.awards import PrizeAwarded, cash_prize
from controller.domain.calendar import day_ms, week_number
from controller.domain.commands import Command, Context
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.feature import Handler
from controller.domain.heats import draw_seats, heat_number, heats_needed, positions, take_seat
from controller.domain.members import Members
from controller.domain.standings import Standings
from controller.promotions.poker.config import PokerConfig
from controller.promotions.poker.payloads import (
    ChooseSeat,
    DirectorTieBreak,
    DrawFinalSeats,
    Enter,
    PokerScore,
)
from controller.promotions.poker.views import PokerViews
from controller.promotions.tournament.events import (
    TournamentEntered,
    TournamentSeated,
    TournamentTieBroken,
)
from controller.promotions.tournament.feature import Tournament, reason_text
from controller.promotions.tournament.payloads import CorrectScore
from controller.promotions.tournament.state import Entry, Stage, StageSpec
from showrunner.contract.money import format_int


class Poker(PokerViews, Tournament):
    name = "poker"
    title = "Heads-Up Poker Showdown"
    prefix = "P"
    rules: ClassVar[dict[str, str]] = {
        "eligible": "rules 1-3", "tie": "rule 54", "proxy": "rules 25 and 41",
        "no_proxy": "rule 25", "no_show": "rule 54", "extra_seat": "rules 25 and 41",
        "split": "rule 52", "prize": "rules 52, 55", "top_score": "rules 4, 18, 55",
        "weekly": "rules 17, 55",
    }
    score_signature_rules: ClassVar[dict[str, str]] = {
        "qualifying": "rule 20", "semi": "rule 35", "final": "rule 51"}

    config: PokerConfig
    config_model = PokerConfig

    def __init__(self, members: Members, config: PokerConfig) -> None:
        super().__init__(members, config)
        self.awarded: set[str] = set()  # prize ids this promotion has awarded

    def handlers(self) -> Mapping[type[DomainEvent], Handler]:
        return {**super().handlers(), PrizeAwarded: self._awarded}

    def _awarded(self, event: PrizeAwarded) -> set[str]:
        if event.promotion == self.name:
            self.awarded.add(event.prize)
        return set()

    def stage_specs(self, c: PokerConfig) -> list[StageSpec]:
        top = len(c.top_score_split)
        return [
            StageSpec("qualifying", "Qualifying", c.leaderboard_rows, seated=False,
                      cutoffs=(*range(1, top + 1), c.semi_places)),
            StageSpec("semi", "Semi-final", c.semi_places, cutoffs=(c.final_places,),
                      heat_title="Semi", heat_size=c.heat_size),
            StageSpec("final", "Final", c.final_places, heat_title="Final",
                      heat_size=c.final_places),
        ]

    def _shape(self, config: PokerConfig) -> None:
        super()._shape(config)
        self.weeks = {w: Standings(self.entries, self.entries.cards)
                      for w in range(1, config.weekly_prize_weeks + 1)}

    def own_commands(self) -> Iterable[Command[Any]]:
        return (
            Command("poker.enter", "operator", Enter, self.enter,
                    "Sell an entry (R100 for R2 000 in chips); the ack carries the entry id."),
            Command("poker.choose_seat", "operator", ChooseSeat, self.choose_seat,
                    "A semi-finalist registers and chooses a heat and seat."),
            Command("poker.draw_seats", "operator", DrawFinalSeats, self.draw_seats,
                    "Draw the final's seats at random."),
            Command("poker.tie_break", "operator", DirectorTieBreak, self.tie_break,
                    "Record the Tournament Director's order for tied players."),
        )

    def record_command(self) -> Command[Any]:
        return Command("poker.record_score", "operator", PokerScore, self.record_poker_score,
                       "Record the chips left after the stage's hands (plus unused markers).")

    # -- commands -------------------------------------------------------------------------------
    def enter(self, p: Enter, ctx: Context) -> list[DomainEvent]:
        if self.stages["qualifying"].closed:
            raise Rejected("stage_closed", "The qualifying heats are over; no more entries.")
        self.config.buy_ins().check(ctx.now_ms, "Entries",
                                    "the Qualifying Heats' dates and times")
        member = self.members.eligible(p.card, self.rules["eligible"])  # rule 5: card or ID
        return [TournamentEntered(self.name, self.new_id(), member.card, "qualifying", None,
                                  None, "cash", self.config.buy_in, ctx.now_ms)]

    def record_poker_score(self, p: PokerScore, ctx: Context) -> list[DomainEvent]:
        e = self.playing(p.entry)
        c = self.config
        hands = c.qualifying_hands if e.stage == "qualifying" else c.stage_hands
        if p.hands != hands:
            rule = "rules 14-15" if e.stage == "qualifying" else "rules 34 and 50"
            raise Rejected("hands", f"A score is recorded after {hands} hands, not {p.hands} "
                                    f"({rule}).")
        if p.markers_unused and e.stage != "final":
            raise Rejected("markers", "Bonus-bet markers are played in the final only "
                                      "(rule 43).")
        if not 0 <= p.markers_unused <= c.bonus_markers:
            raise Rejected("markers", f"Each finalist has {c.bonus_markers} bonus-bet markers "
                                      "(rule 46).")
        score = p.score + p.markers_unused * c.marker_value  # rule 46
        detail: dict[str, Any] = {"chips": p.score, "hands": p.hands,
                                  "markers_unused": p.markers_unused}
        if score > c.plausible_score(e.stage):
            detail["confirmed"] = self.confirmed(p, score, hands, e.stage)
        return [self.scored(e, score, ctx, detail)]

    def confirmed(self, p: PokerScore, score: int, hands: int, stage: str) -> str:
        """A score above the plausible maximum stands only with the operator's reason."""
        most = self.config.plausible_score(stage)
        if not p.confirm:
            raise Rejected("confirm_score", f"{format_int(score)} is more than the "
                                            f"{format_int(most)} a player can plausibly hold "
                                            f"after {hands} hands; check the chips, and if it "
                                            "is right send it again with confirm and a reason "
                                            "(kept in the log).")
        return reason_text(p.reason)

    def check_correction(self, e: Entry, p: CorrectScore) -> None:
        """A correction above the plausible maximum needs the same confirmation as a first score
        (rules 20, 35, 51: the score a player signs for is one the operator checked)."""
        most = self.config.plausible_score(e.stage)
        if p.score > most and not p.confirm:
            raise Rejected("confirm_score", f"{format_int(p.score)} is more than the "
                                            f"{format_int(most)} a player can plausibly hold; "
                                            "check the chips, and if it is right send the "
                                            "correction again with confirm (its reason is kept "
                                            "in the log).")

    def choose_seat(self, p: ChooseSeat, ctx: Context) -> list[DomainEvent]:
        """Rule 27: on registering, a semi-finalist selects a heat and a seat number."""
        e = self.playing(p.entry)
        stage = self.stages[e.stage]
        if e.stage != "semi":
            raise Rejected("bad_stage", "Players choose their heat and seat in the semi-final "
                                        "only; final seats are drawn (rules 27, 40).")
        self.open_stage("semi")
        if e.heat is not None:
            raise Rejected("already_seated", f"{self.name_of(e.card)} already sits in {e.heat}, "
                                             f"seat {e.seat}.")
        self.members.eligible(e.card, self.rules["eligible"])
        size, title = stage.spec.heat_size, stage.spec.heat_title
        if not 1 <= p.seat <= size:
            raise Rejected("bad_seat", f"Seats are numbered 1 to {size}.")
        if stage.holder(p.heat, p.seat) is not None:
            raise Rejected("seat_taken", f"Seat {p.seat} of {p.heat} is taken.")
        heat, _ = take_seat(self.seat_is_free(stage), title, size, p.heat)
        if heat_number(heat) > self.config.semi_heats:
            raise Rejected("unknown_heat", f"The semi-final has {self.config.semi_heats} heats "
                                           "(rule 26).")
        return [TournamentSeated(self.name, "semi", "chosen", [[e.id, heat, p.seat]],
                                 ctx.now_ms)]

    def draw_seats(self, p: DrawFinalSeats, ctx: Context) -> list[DomainEvent]:
        """Rule 40: a random mechanic selects the finalists' seats."""
        if p.stage != "final":
            raise Rejected("bad_stage", "Only the final's seats are drawn (rules 27, 40).")
        stage = self.open_stage("final")
        players = self.active(stage)
        if not players:
            raise Rejected("no_players", "Nobody is to be seated in the final yet.")
        if any(e.heat for e in players):
            raise Rejected("already_drawn", "The final seats are already drawn.")
        size = stage.spec.heat_size
        seats = positions(stage.spec.heat_title, heats_needed(len(players), size), size)
        drawn = draw_seats([e.id for e in players], [], seats, ctx.rng)
        return [TournamentSeated(self.name, "final", "draw",
                                 [[entry, heat, seat] for entry, (heat, seat) in drawn],
                                 ctx.now_ms)]

    def tie_break(self, p: DirectorTieBreak, ctx: Context) -> list[DomainEvent]:
        """The rules name no tie procedure; the Tournament Director decides (rule 54)."""
        stage, keys = self.tie_round(p.stage, p.entries)
        values = list(range(len(keys), 0, -1))
        return [TournamentTieBroken(self.name, stage.spec.name, "director", [
            {"keys": keys, "values": values, "shown": [], "public": []}])]

    # -- rules of advancement -------------------------------------------------------------------
    def advance(self, stage: Stage, ranking: list[str], ctx: Context) -> list[DomainEvent]:
        nxt = self.next_stage(stage)
        if nxt is None:
            return []
        places = self.config.semi_places if nxt.spec.name == "semi" else self.config.final_places
        return self.qualified(stage, nxt, ranking[:places], ctx)  # rules 21, 24, 36

    # -- prizes ---------------------------------------------------------------------------------
    def awards(self, stage: Stage, ranking: list[str], ctx: Context) -> list[DomainEvent]:
        """Rule 18: closing qualifying decides the top-score progressive (top 3 scores), and
        any prize week not yet awarded (rule 17); the final's places as every tournament's."""
        out = super().awards(stage, ranking, ctx)
        if stage.spec.name == "qualifying":
            out += self.place_awards("topscore", stage, ranking, self.pools["top_score"],
                                     self.config.top_score_split, "top score progressive",
                                     self.rules["top_score"], ctx)
            out += self.weekly_awards(ctx.now_ms, closing=True)
        return out

    def due(self, now_ms: int) -> list[DomainEvent]:
        """Rule 17: a prize week's top score is decided as the week ends (payable that
        Friday), while qualifying runs; closing qualifying decides the rest."""
        if self.stages["qualifying"].closed:
            return []
        return self.weekly_awards(now_ms, closing=False)

    def weekly_awards(self, now_ms: int, closing: bool) -> list[DomainEvent]:
        """Each prize week that has ended (every one, when `closing`), has a top score and
        has no award yet: its winners' equal shares (rule 17 ruling), one prize each."""
        out: list[DomainEvent] = []
        c = self.config
        for number, board in self.weeks.items():
            ends = day_ms(c.first_day + dt.timedelta(days=7 * number), c.timezone, 0)
            if not closing and now_ms < ends:
                continue  # the clock asks a few times a second: the cheap test first
            if f"poker-week{number}-1" in self.awarded or not board.ranking(1):
                continue
            for i, (card, _, cents) in enumerate(self.week_winners(board), start=1):
                out.append(cash_prize(f"poker-week{number}-{i}", self.name, card, cents,
                                      f"{self.title} week {number} top score",
                                      f"poker {self.rules['weekly']}", now_ms, c.claim_days))
        return out

    # -- state ----------------------------------------------------------------------------------
    def _score(self, e: Entry, score: int | None) -> set[str]:
        """Also keeps each prize week's board (rule 17)."""
        dirty = super()._score(e, score)
        if e.stage != "qualifying":
            return dirty
        week = self.weeks.get(week_number(e.scored_at_ms, self.config.first_day,
                                          self.config.timezone))
        if week is not None:
            if score is None:
                week.drop(e.id, e.card)
            else:
                week.put(e.id, e.card, score, self._seq)
        return dirty | {self.prizes_view, self.ops_view}  # ops: the week's winners

