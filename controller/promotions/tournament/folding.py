"""Apply side of the tournament building block: events folded into entries, stages and pools."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from controller.domain.config import PromotionConfigured
from controller.domain.events import DomainEvent
from controller.domain.feature import Handler
from controller.domain.heats import heat_number
from controller.domain.members import MemberFlagged, MemberJoinedRewards
from controller.domain.money import split_of
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
from controller.promotions.tournament.state import ACTIVE, NONE, Entries, Entry, Stage
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
        """The operator's entry list (every entry, its seat and score) follows every change
        (`dirty` is the fold's own)."""
        dirty.add(self.ops_view)
        return dirty

    def _on_entered(self, ev: TournamentEntered) -> set[str]:
        # seated as it is made, and filed once (`_seat` refiles a seated entry)
        e = self.entries.add(ev.entry, ev.card, ev.stage, ev.payment, ev.paid, ev.at_ms,
                             ev.origin, ev.heat, ev.seat)
        stage, row, card = self.stages[ev.stage], e.row, ev.card
        stage.rows.append(row)
        card_number = self.entries.card[row]
        if card_number == len(self.search.names.keys):  # the card's first entry
            self.search.add(card_number, self.name_of(card), card)
        self.file(stage, e)
        self.count(stage, e, 1)
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
        self.set_status(e, ev.status)  # its seat is free: only an active entry holds one
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
        stage.standings.close(ev.ranking)
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
            self.count(stage, e, -1)
            e.signed = True
            self.count(stage, e, 1)
        return set()  # the ops view only (with_ops)

    def _on_closed_unsigned(self, ev: TournamentClosedUnsigned) -> set[str]:
        return set()  # the record of a warning; the stage closed with its own event

    def _on_split_set(self, ev: TournamentSplitSet) -> set[str]:
        self.split = list(ev.percents)
        return {self.prizes_view}

    def _flagged(self, ev: MemberFlagged) -> set[str]:
        return self.with_ops(self._member_flagged(ev))

    def _joined_rewards(self, ev: MemberJoinedRewards) -> set[str]:
        finalist = any(e.card == ev.card for e in self.active(self.final))  # a few seats
        return {self.prizes_view} if finalist else set()

    def _member_flagged(self, ev: MemberFlagged) -> set[str]:
        """Rules 1-3: a member excluded during the tournament is disqualified from it."""
        if not ev.on:
            return set()
        dirty: set[str] = set()
        number = self.entries.cards.number(ev.card)  # its entries, not every entry
        mine = () if number is None else self.entries.by_card.rows(number)
        for e in map(self.entries.at, mine):
            if e.active and not self.stages[e.stage].closed:
                if e.score is not None:
                    dirty |= self._score(e, None)
                self.set_status(e, "disqualified")
                if self.later(e.stage):
                    dirty.add(self.seating_view)
        return dirty

    def _score(self, e: Entry, score: int | None) -> set[str]:
        stage = self.stages[e.stage]
        self._remember_places(stage)
        self.count(stage, e, -1)
        e.score = score
        e.signed = False  # a signature is for the score as it stood
        self.count(stage, e, 1)
        row = e.row
        card = self.entries.card[row]
        if score is None:
            stage.standings.drop_numbers(row, card)
        else:
            self._seq += 1
            stage.standings.put_numbers(row, card, score, self._seq)
        return self.standing_views(stage)

    def set_status(self, e: Entry, status: str) -> None:
        stage = self.stages[e.stage]
        self.count(stage, e, -1)
        e.status = status
        self.count(stage, e, 1)

    @staticmethod
    def file(stage: Stage, e: Entry) -> None:
        """File `e` under its heat (Stage.heats); a heat new to the stage is the highest
        seated so far if it is above it."""
        if stage.heats.add(e.heat_index, e.row):
            heat = e.heat
            if heat is not None:
                stage.last_heat = max(stage.last_heat, heat_number(heat))

    @staticmethod
    def unfile(stage: Stage, e: Entry) -> None:
        """Take `e` out of its heat's file, before its heat changes."""
        stage.heats.remove(e.heat_index, e.row)

    @staticmethod
    def count(stage: Stage, e: Entry, step: int) -> None:
        """Count `e` (`step` 1) in what its heat waits for, or take it off (-1) before its
        score, signature, status or heat changes: a score, if it is active and has none; else
        a signature, if it is active, its score is not signed for and the stage's are."""
        entries, row = e.table, e.row  # each field's column read once
        if entries.status[row] != ACTIVE:
            return
        if entries.score[row] == NONE:
            counts = stage.unscored
        elif stage.signed and not entries.signed[row]:
            counts = stage.unsigned
        else:
            return
        heat = entries.heat[row]
        left = counts.get(heat, 0) + step
        if left:
            counts[heat] = left
        else:
            del counts[heat]

    @classmethod
    def _seat(cls, stage: Stage, e: Entry, heat: str | None, seat: int | None) -> None:
        """Move `e` to `seat` of `heat` (None, None: out of any): the seat it held is free."""
        cls.count(stage, e, -1)
        cls.unfile(stage, e)
        e.heat, e.seat = heat, seat
        cls.file(stage, e)
        cls.count(stage, e, 1)

    def money_views(self, cents: int) -> set[str]:
        return {self.pools_view, self.prizes_view} if cents else set()

    def standing_views(self, stage: Stage) -> set[str]:
        """Views a change in `stage`'s standings redraws (the final's also shows prizes)."""
        return {self.board_view(stage), self.prizes_view} if stage is self.final else {
            self.board_view(stage)}

    def _remember_places(self, stage: Stage) -> None:
        """The places on show before a change: the next view's movement is measured from them."""
        stage.standings.remember(stage.spec.rows)

    def add_money(self, cents: int) -> None:
        """A buy-in (or, negative, a refund) shared between the pools by their percentages."""
        sign = -1 if cents < 0 else 1
        self.previous_pools = dict(self.pools)
        parts = split_of(abs(cents), self.pool_percents)
        for pool, part in zip(self.pool_configs, parts, strict=True):
            self.pools[pool.name] += sign * part
