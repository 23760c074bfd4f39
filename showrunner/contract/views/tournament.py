"""Views of the tournaments: leaderboards, pools, seating, qualifiers, prizes, paytables,
spins, and the operator's ops:* views of slots, poker and roulette."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from showrunner.contract.fields import (
    Cents,
    Count,
    DisplayName,
    EpochMs,
    Flag,
    Percent,
    Score,
    ShortText,
)
from showrunner.contract.views.base import (
    MAX_ROWS,
    MaskedCard,
    Movement,
    Place,
    Pocket,
    PocketColour,
    ViewModel,
)


# -- tournaments (leaderboard:*, pools:*, seating:*, qualifiers:*, prizes:*, paytable:*) --------
class LeaderboardRow(ViewModel):
    position: Place
    name: DisplayName
    score: Score
    movement: Movement
    new: Flag


class LeaderboardView(ViewModel):
    title: ShortText
    subtitle: ShortText
    rows: Annotated[list[LeaderboardRow], Field(max_length=MAX_ROWS)]
    entries: Count
    closed: Flag


class TickerPool(ViewModel):
    """One amount the jackpot ticker rolls (docs/scenes.md)."""

    name: ShortText
    title: ShortText
    amount: Cents
    previous: Cents
    target: Cents | None
    note: ShortText


class TournamentPool(TickerPool):
    amount_text: ShortText
    target_text: ShortText | None
    progress_percent: Percent | None


class PoolsView(ViewModel):
    title: ShortText
    subtitle: ShortText
    pools: Annotated[list[TournamentPool], Field(max_length=10)]


class Seat(ViewModel):
    seat: Place
    name: DisplayName
    proxy: DisplayName | None
    status: Literal["active", "disqualified", "forfeited", "refunded", "to_final"]
    note: ShortText


class SeatedHeat(ViewModel):
    heat: ShortText
    started: Flag
    seats: Annotated[list[Seat], Field(max_length=MAX_ROWS)]


class SeatingStage(ViewModel):
    stage: ShortText
    title: ShortText
    heats: Annotated[list[SeatedHeat], Field(max_length=MAX_ROWS)]


class SeatingView(ViewModel):
    title: ShortText
    stages: Annotated[list[SeatingStage], Field(max_length=10)]


class Qualifier(ViewModel):
    name: DisplayName
    via: ShortText


class QualifiersStage(ViewModel):
    stage: ShortText
    title: ShortText
    qualifiers: Annotated[list[Qualifier], Field(max_length=MAX_ROWS)]


class QualifiersView(ViewModel):
    title: ShortText
    stages: Annotated[list[QualifiersStage], Field(max_length=10)]


class PrizePlace(ViewModel):
    place: Place
    percent: Percent
    amount: Cents
    amount_text: ShortText
    name: DisplayName | None
    claim: ShortText | None


class PrizeTable(ViewModel):
    pool: Cents
    pool_text: ShortText
    split: Annotated[list[Percent], Field(max_length=100)]
    places: Annotated[list[PrizePlace], Field(max_length=100)]


class PrizesView(PrizeTable):
    title: ShortText
    subtitle: ShortText
    settled: Flag


class WeeklyShare(ViewModel):
    name: DisplayName
    amount: Cents
    amount_text: ShortText


class WeeklyPrize(ViewModel):
    """`name` is the earliest top score's; `winners` share the prize when `tied` (rule 17)."""

    model_config = ConfigDict(populate_by_name=True)

    week: Place
    from_: Annotated[ShortText, Field(alias="from")]
    to: ShortText
    name: DisplayName | None
    score: Score | None
    amount: Cents
    amount_text: ShortText
    tied: Flag
    winners: Annotated[list[WeeklyShare], Field(max_length=1000)]


class PokerPrizesView(PrizesView):
    """Poker adds the top-score progressive and the weekly high hands (not on screens)."""

    top_score: PrizeTable
    weekly: Annotated[list[WeeklyPrize], Field(max_length=60)]


class PaytableRow(ViewModel):
    hand: ShortText
    title: ShortText
    pays: ShortText


class PaytableView(ViewModel):
    title: ShortText
    rows: Annotated[list[PaytableRow], Field(max_length=50)]


class BettingHeat(ViewModel):
    stage: ShortText
    heat: ShortText
    title: ShortText
    subtitle: ShortText
    spin: Count
    spins: Count
    betting: Flag
    betting_opened_at: EpochMs | None
    betting_closes_at: EpochMs | None
    no_spin: Flag
    #: the wheel's reader said "no more bets" for the spin taking bets: its countdown stops
    bets_closed: Flag = False
    #: the number the heat's last spin landed on (the wheel's reading or the MC's entry)
    number: Pocket | None = None
    colour: PocketColour | None = None


class SpinsView(ViewModel):
    title: ShortText
    heats: Annotated[list[BettingHeat], Field(max_length=MAX_ROWS)]
    buy_in_text: ShortText
    chips: ShortText


class OpsEntry(ViewModel):
    entry: ShortText
    card: MaskedCard
    name: DisplayName
    stage: ShortText
    heat: ShortText | None
    seat: Place | None
    score: Score | None
    status: Literal["active", "disqualified", "forfeited", "refunded", "to_final"]
    via: ShortText
    proxy: DisplayName | None
    signed: Flag  # the participant signed for the score as it stands (never the signature)
    signer: DisplayName  # who signs for it: the player, or their proxy


class OpsTournamentView(ViewModel):
    """Operator-only: every entry of every stage with its entry id; per stage, whether its
    scores are signed for and how many are not yet, and which of its heats listed started;
    `kind` tells the console a tournament's view from the other `ops:` views, `live` that a
    heat of it is being played."""

    kind: Literal["tournament"]
    title: ShortText
    live: Flag
    signatures: Annotated[dict[ShortText, Flag], Field(max_length=10)]
    unsigned: Annotated[dict[ShortText, Count], Field(max_length=10)]
    #: per stage, the heats of the entries listed that have started (start_heat)
    started: Annotated[dict[ShortText, Annotated[list[ShortText], Field(max_length=10_000)]],
                       Field(max_length=10)]
    entries: Annotated[list[OpsEntry], Field(max_length=10_000)]


class OpsWeeklyShare(WeeklyShare):
    entry: ShortText
    card: MaskedCard


class OpsWeek(ViewModel):
    week: Place
    score: Score | None
    tied: Flag
    winners: Annotated[list[OpsWeeklyShare], Field(max_length=1000)]


class OpsPokerView(OpsTournamentView):
    """Poker's operator view adds each prize week's winners, ties shown (rule 17)."""

    weekly: Annotated[list[OpsWeek], Field(max_length=60)]


class OpsDispute(ViewModel):
    """A dispute recorded in a heat (rule 17): who raised it, about what, how it was decided."""

    spin: Place
    name: DisplayName
    what: ShortText
    decision: Literal["upheld", "rejected"]
    decided_by: DisplayName


class OpsHeatSpins(ViewModel):
    stage: ShortText
    heat: ShortText
    done: Count
    open: Place | None
    #: the wheel's reader said "no more bets" for the open spin; where the last spin landed
    bets_closed: Flag = False
    number: Pocket | None = None
    disputes: Annotated[list[OpsDispute], Field(max_length=1000)]


class OpsRouletteView(OpsTournamentView):
    """Roulette's operator view adds every heat's spins so far, for the MC console."""

    spins_per_heat: Place
    heats: Annotated[list[OpsHeatSpins], Field(max_length=10_000)]
