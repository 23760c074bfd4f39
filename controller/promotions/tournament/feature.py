"""The tournament building block every tournament promotion is made of.

Entries (a seat in a stage), stages (qualifying -> semi -> final) with their standings, scores
and their corrections, ties, proxies, no-shows, pools fed by buy-ins and the final's prize
split. A promotion subclasses `Tournament`, names its stages, says who advances when a stage
closes, and adds its own commands (entering, tie-breaks, heat procedures).

Command handlers only read; the folds (folding.py) apply this promotion's own events
(events.py); the views (views.py) only read.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from itertools import chain
from operator import attrgetter
from typing import Any, ClassVar

from controller.domain.awards import PrizeAwarded, place_prizes
from controller.domain.commands import Command, Context
from controller.domain.config import Configurable, Conflict, HistoryItem
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.feature import Feature
from controller.domain.members import Members
from controller.domain.prizes import check_split, prize_table
from controller.domain.proxies import check_nominee
from controller.domain.standings import Standings
from controller.promotions.tournament.config import TournamentConfig
from controller.promotions.tournament.events import (
    TournamentClosedUnsigned,
    TournamentEntered,
    TournamentEntryRemoved,
    TournamentHeatStarted,
    TournamentProxyRegistered,
    TournamentScoreAcknowledged,
    TournamentScoreCorrected,
    TournamentScoreRecorded,
    TournamentScoreVoided,
    TournamentSplitSet,
    TournamentStageClosed,
)
from controller.promotions.tournament.folding import TournamentFolds
from controller.promotions.tournament.payloads import (
    AcknowledgeScore,
    CorrectScore,
    Disqualify,
    RecordScore,
    RegisterProxy,
    SetSplit,
    StageRef,
    StartHeat,
    VoidScore,
)
from controller.promotions.tournament.state import Entries, Entry, Search, Stage, StageSpec
from showrunner.contract.fields import (
    MAX_SCORE,
)


def reason_text(reason: str) -> str:
    text = " ".join(reason.split())
    if not text:
        raise Rejected("reason_required", "Give a reason; it is kept in the log.")
    return text


class Tournament(TournamentFolds, Configurable[Any], Feature):
    """Shared tournament mechanics; subclasses fill the class attributes and `advance`."""

    title = "Tournament"
    prefix = "T"
    rules: ClassVar[dict[str, str]] = {
        "eligible": "rules 1-3", "tie": "the tie rule", "proxy": "the proxy rules",
        "no_proxy": "the proxy rules", "no_show": "the no-show rule", "split": "the prize rule",
        "extra_seat": "the proxy rules", "prize": "the prize rule",
    }
    proxy_for_extra_seats_only = True
    live_scores = False  # True: record_score may repeat while the stage runs (a live meter)
    prize_pool = "prize_pool"
    #: stage -> the rule that has each of its scores signed for by the participant; none: the
    #: promotion asks for no signature and has no `acknowledge_score`
    score_signature_rules: ClassVar[dict[str, str]] = {}

    def __init__(self, members: Members, config: TournamentConfig) -> None:
        self.members = members
        self.entries = Entries(self.prefix)
        self.search = Search()
        self.forms: set[str] = set()
        self._seq = 0
        self._shape(config)

    def stage_specs(self, config: Any) -> list[StageSpec]:
        """The stages a config gives (subclasses)."""
        raise NotImplementedError

    def _shape(self, config: Any) -> None:
        """Stages, pools and split from `config`: only while the tournament has no entry."""
        stages = self.stage_specs(config)
        self.config = config
        self.title = config.title
        self.order = [s.name for s in stages]
        self.stages = {s.name: Stage(s, Standings(self.entries, self.entries.cards,
                                                  s.best_per_guest), self.entries,
                                     signed=bool(self.score_signature_rules.get(s.name)))
                       for s in stages}
        self.pool_configs = list(config.pools)
        self.pool_percents = tuple(p.percent for p in config.pools)
        self.pools = {p.name: 0 for p in config.pools}
        self.previous_pools = dict(self.pools)  # before the latest change: the ticker rolls
        self.split = list(config.prize_split)

    def configure(self, config: Any) -> set[str]:
        """Before the first entry the whole shape follows; after it only the free keys can
        have changed (start-up refuses the rest), and they are read when used."""
        if self.entries:
            self.config, self.title = config, config.title
        else:
            self._shape(config)
        return set(self.view_names())

    def conflict(self, new: Any, history: Iterable[HistoryItem]) -> Conflict | None:
        return self.config.conflict(self.name, self.config, new, history)

    # -- command table ----------------------------------------------------------------------
    def commands(self) -> Iterable[Command[Any]]:
        n = self.name
        return (
            *self.own_commands(),
            self.record_command(),
            *self.signature_commands(),
            Command(f"{n}.correct_score", "operator", CorrectScore, self.correct_score,
                    "Correct a recorded score; the reason and the old value stay in the log."),
            Command(f"{n}.void_score", "operator", VoidScore, self.void_score,
                    "Void a recorded score, with a reason; the entry may be scored again."),
            Command(f"{n}.close_stage", "operator", StageRef, self.close_stage,
                    "Close a stage and seat its qualifiers in the next one."),
            Command(f"{n}.register_proxy", "operator", RegisterProxy, self.register_proxy,
                    "Register a nominee to play one seat, on a signed proxy form."),
            Command(f"{n}.disqualify", "operator", Disqualify, self.disqualify,
                    "Disqualify an entry, with a reason."),
            Command(f"{n}.start_heat", "operator", StartHeat, self.start_heat,
                    "Start a heat; players listed absent forfeit their seats."),
            Command(f"{n}.set_split", "operator", SetSplit, self.set_split,
                    "Change the final's prize split (whole percentages summing to 100)."),
        )

    def own_commands(self) -> Iterable[Command[Any]]:
        return ()

    def signature_commands(self) -> Iterable[Command[Any]]:
        if not self.score_signature_rules:
            return ()
        return (Command(f"{self.name}.acknowledge_score", "operator", AcknowledgeScore,
                        self.acknowledge_score,
                        "The participant signs for their score as it stands."),)

    def record_command(self) -> Command[Any]:
        return Command(f"{self.name}.record_score", "operator", RecordScore, self.record_score,
                       "Record the score an entry finished its heat with.")

    # -- hooks for promotions ---------------------------------------------------------------
    def advance(self, stage: Stage, ranking: list[str], ctx: Context) -> list[DomainEvent]:
        """The events seating `stage`'s qualifiers in the next stage (none after the final)."""
        return []

    # -- lookups ------------------------------------------------------------------------------
    def entry(self, entry_id: str) -> Entry:
        found = self.entries.get(entry_id)
        if found is None:
            raise Rejected("unknown_entry", f"There is no entry {entry_id!r}.")
        return found

    def stage(self, name: str) -> Stage:
        found = self.stages.get(name)
        if found is None:
            raise Rejected("unknown_stage", f"There is no stage {name!r}; the stages are "
                                            f"{', '.join(self.order)}.")
        return found

    def open_stage(self, name: str) -> Stage:
        """A stage that is running: the one before it closed, itself not yet."""
        stage = self.stage(name)
        if stage.closed:
            raise Rejected("stage_closed", f"The {stage.spec.title} is closed.")
        before = self.previous_stage(stage)
        if before is not None and not before.closed:
            raise Rejected("stage_not_open", f"The {stage.spec.title} starts after the "
                                             f"{before.spec.title} is closed.")
        return stage

    def previous_stage(self, stage: Stage) -> Stage | None:
        i = self.order.index(stage.spec.name)
        return self.stages[self.order[i - 1]] if i else None

    def next_stage(self, stage: Stage) -> Stage | None:
        i = self.order.index(stage.spec.name) + 1
        return self.stages[self.order[i]] if i < len(self.order) else None

    def playing(self, entry_id: str) -> Entry:
        """An active entry in a stage that is not closed."""
        e = self.entry(entry_id)
        if e.status != "active":
            raise Rejected("not_playing", f"Entry {e.id} ({self.name_of(e.card)}) was "
                                          f"{e.status}.")
        stage = self.stages[e.stage]
        if stage.closed:
            raise Rejected("stage_closed", f"The {stage.spec.title} is closed; its scores can no "
                                           "longer change.")
        return e

    def cutoffs(self, stage: Stage) -> tuple[int, ...]:
        if stage is self.final:
            return tuple(range(1, len(self.split) + 1))
        return stage.spec.cutoffs

    def new_id(self, offset: int = 0) -> str:
        return f"{self.prefix}{len(self.entries) + 1 + offset}"

    def seat_is_free(self, stage: Stage,
                     closed: Collection[str] = ()) -> Callable[[tuple[str, int]], bool]:
        """A seat nobody active holds, in a heat not in `closed`."""
        return lambda seat: seat[0] not in closed and stage.holder(*seat) is None

    def own_heats(self, stage: Stage, card: str) -> set[str]:
        """Heats of `stage` in which `card` holds an active seat."""
        return {e.heat for e in stage.of_card(card) if e.active and e.heat}

    # -- commands -----------------------------------------------------------------------------
    def record_score(self, p: RecordScore, ctx: Context) -> list[DomainEvent]:
        return [self.scored(self.playing(p.entry), p.score, ctx, {})]

    def scored(self, e: Entry, score: int, ctx: Context,
               detail: dict[str, Any]) -> TournamentScoreRecorded:
        if score > MAX_SCORE:  # a total with bonuses added (poker rule 46) can pass the maximum
            raise Rejected("bad_score", f"A score is at most {MAX_SCORE:,}.".replace(",", " "))
        spec = self.stages[e.stage].spec
        if e.score is not None and not self.live_scores:
            raise Rejected("already_scored", f"Entry {e.id} already has a score of {e.score}; "
                                             "correct it instead, with a reason.")
        if spec.seated and e.heat is None:
            raise Rejected("no_seat", f"{self.name_of(e.card)} has no seat in the {spec.title} "
                                      "yet; seats are allocated first.")
        return TournamentScoreRecorded(self.name, e.id, score, ctx.now_ms, detail)

    def acknowledge_score(self, p: AcknowledgeScore, ctx: Context) -> list[DomainEvent]:
        """The participant signs for the score as it stands (its rule by stage)."""
        e = self.entry(p.entry)
        rule = self.score_signature_rules.get(e.stage, "the rules")
        who = self.name_of(e.proxy or e.card)
        if e.status != "active":
            raise Rejected("not_playing", f"Entry {e.id} ({self.name_of(e.card)}) was "
                                          f"{e.status}; there is no score to sign for.")
        if e.score is None:
            raise Rejected("no_score", f"{who} has no score yet to sign for ({rule}): record "
                                       "it first.")
        if p.score is not None and p.score != e.score:
            raise Rejected("score_changed", f"{who}'s score is now {e.score}, not {p.score}: "
                                            "show them the score again before they sign.")
        if e.signed:
            raise Rejected("already_signed", f"{who} has already signed for the score of "
                                             f"{e.score}.")
        return [TournamentScoreAcknowledged(self.name, e.id, e.score, p.signature.data(),
                                            ctx.now_ms)]

    def signs_scores(self, stage: Stage) -> bool:
        return bool(self.score_signature_rules.get(stage.spec.name)) and \
            self.config.score_signatures != "off"

    def unsigned_in(self, stage: Stage) -> list[Entry]:
        """The stage's active scores nobody has signed for, in entry order."""
        waiting = (stage.waiting(heat, True) for heat in stage.unsigned)
        return sorted(chain.from_iterable(waiting), key=attrgetter("row"))

    def signature_check(self, stage: Stage) -> list[DomainEvent]:
        """The score sheet at a stage's end: under "require" every score must be signed for,
        under "warn" the close records who has not signed, under "off" nothing."""
        rule = self.score_signature_rules.get(stage.spec.name, "")
        policy = self.config.score_signatures
        unsigned = self.unsigned_in(stage) if self.signs_scores(stage) else []
        if not unsigned:
            return []
        names = ", ".join(self.name_of(e.proxy or e.card) for e in unsigned)
        if policy == "require":
            raise Rejected("scores_unsigned", f"{names}: not yet signed for their scores "
                                              f"({rule}). Ask them to sign, then close the "
                                              f"{stage.spec.title}.")
        count = len(unsigned)
        warning = (f"{names}: {count} score{'s' if count > 1 else ''} not signed for when the "
                   f"{stage.spec.title} closed ({rule}).")
        return [TournamentClosedUnsigned(self.name, stage.spec.name, [e.id for e in unsigned],
                                         warning)]

    def correct_score(self, p: CorrectScore, ctx: Context) -> list[DomainEvent]:
        e = self.playing(p.entry)
        if e.score is None:
            raise Rejected("no_score", f"Entry {e.id} has no score to correct; record it.")
        self.check_correction(e, p)
        return [TournamentScoreCorrected(self.name, e.id, e.score, p.score,
                                         reason_text(p.reason))]

    def check_correction(self, e: Entry, p: CorrectScore) -> None:
        """A promotion whose first scores need a confirmation above some bound asks the same of
        a correction (poker), so a correction never gets round that ruling."""

    def void_score(self, p: VoidScore, ctx: Context) -> list[DomainEvent]:
        e = self.playing(p.entry)
        if e.score is None:
            raise Rejected("no_score", f"Entry {e.id} has no score to void.")
        return [TournamentScoreVoided(self.name, e.id, e.score, reason_text(p.reason))]

    def close_stage(self, p: StageRef, ctx: Context) -> list[DomainEvent]:
        stage = self.stage(p.stage)
        if stage.closed:
            raise Rejected("already_closed", f"The {stage.spec.title} is already closed.")
        stage = self.open_stage(p.stage)
        if stage.spec.seated:
            missing = [self.name_of(e.card) for e in self.active(stage) if e.score is None]
            if missing:
                raise Rejected("scores_missing", f"No score yet for {', '.join(missing)}: record "
                                                 "them, or mark absent players when their heat "
                                                 f"starts ({self.rules['no_show']}).")
        ties = stage.standings.unresolved(self.cutoffs(stage))
        if ties:
            cut, group = ties[0]
            names = ", ".join(self.name_of(self.card_of_key(stage, k)) for k in group)
            raise Rejected("tie_unresolved", f"{names} are tied on "
                                             f"{stage.standings.score(group[0])} across place "
                                             f"{cut}; record a tie-break first "
                                             f"({self.rules['tie']}).")
        unsigned = self.signature_check(stage)
        ranking = stage.standings.ranking()
        return [TournamentStageClosed(self.name, stage.spec.name, ranking), *unsigned,
                *self.advance(stage, ranking, ctx), *self.awards(stage, ranking, ctx)]

    def awards(self, stage: Stage, ranking: list[str], ctx: Context) -> list[DomainEvent]:
        """The prizes `stage`'s close decides: the final's places and their share of the
        pool (a promotion adds its own), recorded for the prize register as it closes."""
        if stage is not self.final:
            return []
        return [*self.place_awards("final", stage, ranking, self.pools[self.prize_pool],
                                   self.split, stage.spec.title, self.rules["prize"], ctx)]

    def place_awards(self, kind: str, stage: Stage, ranking: list[str], pool: int,
                     percents: Sequence[int], what: str, rule: str,
                     ctx: Context) -> list[PrizeAwarded]:
        """Each paid place of `ranking` and its share of `pool`: `<promotion>-<kind>-<place>`."""
        holders = [self.card_of_key(stage, key) for key in ranking[:len(percents)]]
        return place_prizes(f"{self.name}-{kind}", self.name, f"{self.title} {what}", holders,
                            prize_table(pool, percents), f"{self.name} {rule}", ctx.now_ms,
                            self.config.claim_days)

    def qualified(self, source: Stage, target: Stage, keys: Sequence[str], ctx: Context,
                  seats: Sequence[tuple[str, int]] = (), offset: int = 0) -> list[DomainEvent]:
        """Seats in `target` for the keys (entries, or guests) of `source` that earned them;
        `offset` counts seats issued by the same command before these."""
        out: list[DomainEvent] = []
        for i, key in enumerate(keys):
            origin = self.entries[source.standings.holder(key)]
            heat, seat = seats[i] if i < len(seats) else (None, None)
            out.append(TournamentEntered(self.name, self.new_id(offset + i), origin.card,
                                         target.spec.name, heat, seat, "qualified", 0,
                                         ctx.now_ms, origin.id))
        return out

    def register_proxy(self, p: RegisterProxy, ctx: Context) -> list[DomainEvent]:
        rule = self.rules["proxy"]
        e = self.playing(p.entry)
        stage = self.stages[e.stage]
        if stage is self.stages[self.order[0]]:
            raise Rejected("no_proxy_in_qualifying", "No proxies are allowed in the qualifying "
                                                     f"rounds ({self.rules['no_proxy']}).")
        if stage.started:
            raise Rejected("too_late", f"The {stage.spec.title} has started; proxy forms must "
                                       f"reach the Tournament Director before it starts ({rule}).")
        owner = self.members.get(e.card)
        if e.proxy is not None:
            raise Rejected("has_proxy", f"{self.name_of(e.proxy)} already plays this seat for "
                                        f"{owner.display_name}.")
        seats = [x for x in self.active(stage) if x.card == e.card]
        if self.proxy_for_extra_seats_only and len(seats) < 2 and e.payment != "wildcard":
            raise Rejected("single_seat", f"{owner.display_name} holds one seat in the "
                                          f"{stage.spec.title} and plays it in person; a proxy is "
                                          f"for additional seats ({rule}).")
        nominee = self.members.eligible(p.nominee, rule=self.rules["eligible"])
        active = self.active(stage)
        check_nominee(nominee, owner, stage.spec.title, {x.card for x in active},
                      {x.proxy for x in active if x.proxy}, self.forms, p.form, rule)
        return [TournamentProxyRegistered(self.name, e.id, nominee.card, p.form.strip())]

    def disqualify(self, p: Disqualify, ctx: Context) -> list[DomainEvent]:
        e = self.playing(p.entry)
        return [TournamentEntryRemoved(self.name, e.id, "disqualified", reason_text(p.reason), 0)]

    def start_heat(self, p: StartHeat, ctx: Context) -> list[DomainEvent]:
        stage = self.open_stage(p.stage)
        seated = {e.id: e for e in self.active(stage) if e.heat == p.heat}
        if not seated:
            raise Rejected("unknown_heat", f"Nobody is seated in {p.heat!r} of the "
                                           f"{stage.spec.title}.")
        if p.heat in stage.started:
            raise Rejected("already_started", f"{p.heat} has already started.")
        stray = [a for a in p.absent if a not in seated]
        if stray:
            raise Rejected("not_seated", f"Entry {stray[0]!r} has no seat in {p.heat}.")
        events: list[DomainEvent] = [TournamentHeatStarted(self.name, stage.spec.name, p.heat,
                                                           ctx.now_ms)]
        events += [TournamentEntryRemoved(self.name, a, "forfeited",
                                          f"not present when {p.heat} started "
                                          f"({self.rules['no_show']})", 0)
                   for a in dict.fromkeys(p.absent)]
        later_stage = stage.spec.name != self.order[0]
        if not stage.started and later_stage and self.proxy_for_extra_seats_only:
            events += self.unproxied_extra_seats(stage, set(p.absent))
        return events

    def unproxied_extra_seats(self, stage: Stage, gone: set[str]) -> list[DomainEvent]:
        """Additional seats with no proxy form when a final stage starts are forfeited."""
        kept: set[str] = set()
        out: list[DomainEvent] = []
        for e in self.active(stage):
            if e.id in gone:
                continue
            if e.card not in kept:
                kept.add(e.card)
            elif e.proxy is None:
                out.append(TournamentEntryRemoved(
                    self.name, e.id, "forfeited",
                    f"additional seat without a proxy form ({self.rules['extra_seat']})", 0))
        return out

    def set_split(self, p: SetSplit, ctx: Context) -> list[DomainEvent]:
        if self.final.closed:
            raise Rejected("stage_closed", "The final is closed; its prizes are settled.")
        check_split(p.percents, "prize split")
        return [TournamentSplitSet(self.name, list(p.percents), reason_text(p.reason))]

    def tie_round(self, stage_name: str, keys: Sequence[str]) -> tuple[Stage, list[str]]:
        """Check a tie-break names exactly one unbroken tie; returns the board keys in order."""
        stage = self.open_stage(stage_name)
        board = stage.standings
        mapped = []
        for k in keys:
            e = self.entry(k)
            if e.stage != stage.spec.name or e.score is None or e.status != "active":
                raise Rejected("not_tied", f"Entry {k} has no standing score in the "
                                           f"{stage.spec.title}.")
            mapped.append(board.key(e.id, e.card))
        if len(set(mapped)) < 2:
            raise Rejected("not_tied", "A tie-break needs two or more tied players.")
        group = board.tied_group(mapped[0])
        if sorted(group) != sorted(set(mapped)) or len(mapped) != len(set(mapped)):
            names = ", ".join(self.name_of(self.card_of_key(stage, k)) for k in group)
            raise Rejected("not_tied", f"The tie-break must cover exactly the tied players: "
                                       f"{names}.")
        return stage, mapped

