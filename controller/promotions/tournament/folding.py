"""Apply side of the tournament building block: events folded into entries, stages and pools."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from sys import intern
from typing import Any

from controller.domain.config import PromotionConfigured
from controller.domain.events import DomainEvent
from controller.domain.feature import Handler
from controller.domain.heats import heat_number
from controller.domain.members import MemberFlagged, MemberJoinedRewards
from controller.domain.money import split
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
    TournamentSeated,
    TournamentSplitSet,
    TournamentStageClosed,
    TournamentTieBroken,
)
from controller.promotions.tournament.state import Entries, Entry, Stage
from controller.promotions.tournament.views import TournamentViews


class TournamentFolds(TournamentViews):
    """How a tournament's state follows its events: `handlers()` and the folds it names.

    A base of `Tournament` (feature.py); it keeps the indices on `Stage` current and says
    which views (named by `TournamentViews`) each event may have changed.
    """

    forms: set[str]
    entries: Entries
    _seq: int
    #: Configurable's fold of a new config, which `Tournament` also inherits
    configured: Callable[[PromotionConfigured], set[str]]

    def _own_folds(self) -> dict[type[Any], Callable[[Any], set[str]]]:
        """The tournament events, each with its fold: a tournament folds only its own."""
        return {
            TournamentEntered: self._on_entered, TournamentSeated: self._on_seated,
            TournamentScoreRecorded: self._on_score_recorded,
            TournamentScoreCorrected: self._on_score_corrected,
            TournamentScoreVoided: self._on_score_voided,
            TournamentEntryRemoved: self._on_entry_removed,
            TournamentHeatStarted: self._on_heat_started, TournamentTieBroken: self._on_tie_broken,
            TournamentStageClosed: self._on_stage_closed,
            TournamentProxyRegistered: self._on_proxy_registered,
            TournamentSplitSet: self._on_split_set,
            TournamentScoreAcknowledged: self._on_score_acknowledged,
            TournamentClosedUnsigned: self._on_closed_unsigned,
        }

    def handlers(self) -> Mapping[type[DomainEvent], Handler]:
        own = {**self._own_folds(), PromotionConfigured: self.configured}
        return {**{cls: self._own(fold) for cls, fold in own.items()},
                MemberFlagged: self._flagged, MemberJoinedRewards: self._joined_rewards}

    def scoped_events(self) -> frozenset[type[DomainEvent]]:
        return frozenset(self._own_folds())

    def _own(self, fold: Callable[[Any], set[str]]) -> Handler:
        """Tournament events carry their promotion: this tournament folds only its own."""
        def apply_own(event: Any) -> set[str]:
            return self.with_ops(fold(event)) if event.promotion == self.name else set()
        return apply_own

    def with_ops(self, dirty: set[str]) -> set[str]:
        """The operator's entry list (every entry, its seat and score) follows every change."""
        return dirty | {self.ops_view}

    def _on_entered(self, ev: TournamentEntered) -> set[str]:
        # seated as it is made, and filed once (`_seat` frees and refiles a seated entry)
        e = self.entries.add(ev.entry, ev.card, ev.stage, ev.payment, ev.paid, ev.at_ms,
                             ev.origin, ev.heat, ev.seat)
        stage, id_, card = self.stages[ev.stage], e.id, e.card
        stage.entries.append(id_)
        stage.cards.setdefault(card, []).append(id_)
        self.search.add(self.name_of(card), card)
        self.track(stage, e)
        self._take_seat(stage, e)
        self.add_money(ev.paid)
        dirty = self.money_views(ev.paid)
        if self.later(ev.stage):
            dirty |= {self.seating_view, self.qualifiers_view}
        return dirty

    def _on_seated(self, ev: TournamentSeated) -> set[str]:
        for entry, heat, seat in ev.seats:
            self._seat(self.stages[ev.stage], self.entries[entry], heat, seat)
        return {self.seating_view} if self.later(ev.stage) else set()

    def _on_score_recorded(self, ev: TournamentScoreRecorded) -> set[str]:
        e = self.entries[ev.entry]
        e.scored_at_ms = ev.at_ms
        return self._score(e, ev.score)

    def _on_score_corrected(self, ev: TournamentScoreCorrected) -> set[str]:
        return self._score(self.entries[ev.entry], ev.new)

    def _on_score_voided(self, ev: TournamentScoreVoided) -> set[str]:
        return self._score(self.entries[ev.entry], None)

    def _on_entry_removed(self, ev: TournamentEntryRemoved) -> set[str]:
        e = self.entries[ev.entry]
        dirty = self._score(e, None) if e.score is not None else set()
        self.set_status(e, ev.status)
        self.stages[e.stage].free_seat(e)
        self.add_money(-ev.refund)
        if self.later(e.stage):
            dirty.add(self.seating_view)
        return dirty | self.money_views(ev.refund)

    def _on_heat_started(self, ev: TournamentHeatStarted) -> set[str]:
        self.stages[ev.stage].started.add(ev.heat)
        return {self.seating_view} if self.later(ev.stage) else set()

    def _on_tie_broken(self, ev: TournamentTieBroken) -> set[str]:
        stage = self.stages[ev.stage]
        self._remember_places(stage)
        for rnd in ev.rounds:
            stage.standings.break_tie(rnd["keys"], rnd["values"])
        return self.standing_views(stage)

    def _on_stage_closed(self, ev: TournamentStageClosed) -> set[str]:
        stage = self.stages[ev.stage]
        stage.closed = True
        stage.places = {key: i for i, key in enumerate(ev.ranking, start=1)}
        return self.standing_views(stage) | {self.prizes_view}

    def _on_proxy_registered(self, ev: TournamentProxyRegistered) -> set[str]:
        self.entries[ev.entry].proxy = ev.nominee
        self.forms.add(ev.form)
        return {self.seating_view} if self.entries[ev.entry].heat else set()

    def _on_score_acknowledged(self, ev: TournamentScoreAcknowledged) -> set[str]:
        """The score as it stands is signed for; a score changed since is not (the command
        refuses that, and an older log's acknowledgement of a changed score stays unsigned)."""
        e = self.entries[ev.entry]
        if e.score == ev.score:
            stage = self.stages[e.stage]
            self.untrack(stage, e)
            e.signed = True
            self.track(stage, e)
        return set()  # the ops view only (with_ops)

    def _on_closed_unsigned(self, ev: TournamentClosedUnsigned) -> set[str]:
        return set()  # the record of a warning; the stage closed with its own event

    def _on_split_set(self, ev: TournamentSplitSet) -> set[str]:
        self.split = list(ev.percents)
        return {self.prizes_view}

    def _flagged(self, ev: MemberFlagged) -> set[str]:
        return self.with_ops(self._member_flagged(ev))

    def _joined_rewards(self, ev: MemberJoinedRewards) -> set[str]:
        finalist = any(e.card == ev.card for e in self.active(self.final))
        return {self.prizes_view} if finalist else set()

    def _member_flagged(self, ev: MemberFlagged) -> set[str]:
        """Rules 1-3: a member excluded during the tournament is disqualified from it."""
        if not ev.on:
            return set()
        dirty: set[str] = set()
        mine = (self.entries[i] for stage in self.stages.values()
                for i in stage.cards.get(ev.card, ()))  # not every entry: a stage holds 100 000
        for e in mine:
            if e.status == "active" and not self.stages[e.stage].closed:
                if e.score is not None:
                    dirty |= self._score(e, None)
                self.set_status(e, "disqualified")
                self.stages[e.stage].free_seat(e)
                if self.later(e.stage):
                    dirty.add(self.seating_view)
        return dirty

    def _score(self, e: Entry, score: int | None) -> set[str]:
        stage = self.stages[e.stage]
        self._remember_places(stage)
        self.untrack(stage, e)
        e.score = score
        e.signed = False  # a signature is for the score as it stood
        self.track(stage, e)
        id_, card = e.id, e.card
        if score is None:
            stage.standings.drop(id_, card)
        else:
            self._seq += 1
            stage.standings.put(id_, card, score, self._seq)
        return self.standing_views(stage)

    def set_status(self, e: Entry, status: str) -> None:
        stage = self.stages[e.stage]
        self.untrack(stage, e)
        e.status = intern(status)
        self.track(stage, e)

    @staticmethod
    def track(stage: Stage, e: Entry) -> None:
        """File `e` under its heat (Stage.heats, Stage.unscored)."""
        heat, id_ = e.heat, e.id  # each read of a field is a lookup in its column
        stage.heats.setdefault(heat, {})[id_] = None
        if e.status == "active":
            if e.score is None:
                stage.unscored.setdefault(heat, set()).add(id_)
            elif not e.signed:
                stage.unsigned.setdefault(heat, set()).add(id_)

    @staticmethod
    def untrack(stage: Stage, e: Entry) -> None:
        """Take `e` out of its heat's files, before its heat, score or status changes."""
        heat, id_ = e.heat, e.id
        stage.heats.get(heat, {}).pop(id_, None)
        stage.unscored.get(heat, set()).discard(id_)
        stage.unsigned.get(heat, set()).discard(id_)

    @classmethod
    def _seat(cls, stage: Stage, e: Entry, heat: str | None, seat: int | None) -> None:
        stage.free_seat(e)
        cls.untrack(stage, e)
        e.heat, e.seat = None if heat is None else intern(heat), seat
        cls.track(stage, e)
        cls._take_seat(stage, e)

    @staticmethod
    def _take_seat(stage: Stage, e: Entry) -> None:
        """File the seat `e` holds (none while unseated) under the stage's seats."""
        heat, seat = e.heat, e.seat
        if heat is not None and seat is not None:
            stage.seats[(heat, seat)] = e.id
            stage.last_heat = max(stage.last_heat, heat_number(heat))

    def money_views(self, cents: int) -> set[str]:
        return {self.pools_view, self.prizes_view} if cents else set()

    def standing_views(self, stage: Stage) -> set[str]:
        """Views a change in `stage`'s standings redraws (the final's also shows prizes)."""
        return {self.board_view(stage), self.prizes_view} if stage is self.final else {
            self.board_view(stage)}

    def _remember_places(self, stage: Stage) -> None:
        """The places on show before a change: the next view's movement is measured from them."""
        stage.previous = stage.standings.ranking(stage.spec.rows)

    def add_money(self, cents: int) -> None:
        """A buy-in (or, negative, a refund) shared between the pools by their percentages."""
        sign = -1 if cents < 0 else 1
        self.previous_pools = dict(self.pools)
        parts = split(abs(cents), [p.percent for p in self.pool_configs])
        for pool, part in zip(self.pool_configs, parts, strict=True):
            self.pools[pool.name] += sign * part
