"""The views the controller publishes, as typed models: what a screen or page may be sent.

Every public view kind has a model here (docs/scenes.md describes the shapes); `view_model(name)`
gives the model of a view by its name. Tests drive the show through whole promotions and check
each published document against its model, so no view carries NaN, an unbounded number, an
unprintable name or a field a scene does not expect. Models forbid unknown fields: a new field
is added here and in docs/scenes.md together. Imports no pygame.
"""

from __future__ import annotations

import fnmatch
import math
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, RootModel, StrictInt, StrictStr

from showrunner.contract.fields import (
    Cents,
    Count,
    DisplayName,
    EpochMs,
    Flag,
    LongText,
    Percent,
    Score,
    ShortText,
    TimeZone,
    text,
)

MAX_ROWS = 1_000
"""The most rows, seats or entries any list in a view holds."""
MAX_JSON_DEPTH = 12

Place = Annotated[StrictInt, Field(ge=1, le=1_000_000)]
Movement = Annotated[StrictInt, Field(ge=-1_000_000, le=1_000_000)]
Pocket = Annotated[StrictInt, Field(ge=0, le=36)]
PocketColour = Literal["red", "black", "green"]
MaskedCard = Annotated[StrictStr, Field(pattern=r"^\u2022{4} [0-9A-Za-z]{1,4}$")]
CueText = text(5_000)
"""What an announcer reads out: a seat draw reads every seat of a stage."""
Digest = Annotated[StrictStr, Field(pattern=r"^[0-9a-f]{64}$")]


def _json_safe(value: Any, depth: int = 0) -> Any:
    """Plain JSON values only, finite numbers, bounded depth: playlists and scene parameters
    pass through screen views as data."""
    if depth > MAX_JSON_DEPTH:
        raise ValueError("is nested too deeply")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("holds a number that is not finite")
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError("has a key that is not text")
            _json_safe(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _json_safe(item, depth + 1)
    elif value is not None and not isinstance(value, str | int | float | bool):
        raise ValueError(f"holds a {type(value).__name__}, which is not JSON")
    return value


JsonData = Annotated[Any, AfterValidator(_json_safe)]


def rows(item: Any, most: int = MAX_ROWS) -> Any:
    """A list of `item`, at most `most` long."""
    return Annotated[list[item], Field(max_length=most)]


class ViewModel(BaseModel):
    """Base: strict types, unknown fields refused, documents never changed by checking."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


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
    rows: rows(LeaderboardRow)
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
    pools: rows(TournamentPool, 10)


class Seat(ViewModel):
    seat: Place
    name: DisplayName
    proxy: DisplayName | None
    status: Literal["active", "disqualified", "forfeited", "refunded", "to_final"]
    note: ShortText


class SeatedHeat(ViewModel):
    heat: ShortText
    started: Flag
    seats: rows(Seat)


class SeatingStage(ViewModel):
    stage: ShortText
    title: ShortText
    heats: rows(SeatedHeat)


class SeatingView(ViewModel):
    title: ShortText
    stages: rows(SeatingStage, 10)


class Qualifier(ViewModel):
    name: DisplayName
    via: ShortText


class QualifiersStage(ViewModel):
    stage: ShortText
    title: ShortText
    qualifiers: rows(Qualifier)


class QualifiersView(ViewModel):
    title: ShortText
    stages: rows(QualifiersStage, 10)


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
    split: rows(Percent, 100)
    places: rows(PrizePlace, 100)


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
    winners: rows(WeeklyShare, 1000)


class PokerPrizesView(PrizesView):
    """Poker adds the top-score progressive and the weekly high hands (not on screens)."""

    top_score: PrizeTable
    weekly: rows(WeeklyPrize, 60)


class PaytableRow(ViewModel):
    hand: ShortText
    title: ShortText
    pays: ShortText


class PaytableView(ViewModel):
    title: ShortText
    rows: rows(PaytableRow, 50)


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


class SpinsView(ViewModel):
    title: ShortText
    heats: rows(BettingHeat)
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


class OpsTournamentView(ViewModel):
    """Operator-only: every entry of every stage with its entry id."""

    title: ShortText
    entries: rows(OpsEntry, 10_000)


class OpsWeeklyShare(WeeklyShare):
    entry: ShortText
    card: MaskedCard


class OpsWeek(ViewModel):
    week: Place
    score: Score | None
    tied: Flag
    winners: rows(OpsWeeklyShare, 1000)


class OpsPokerView(OpsTournamentView):
    """Poker's operator view adds each prize week's winners, ties shown (rule 17)."""

    weekly: rows(OpsWeek, 60)


class OpsHeatSpins(ViewModel):
    stage: ShortText
    heat: ShortText
    done: Count
    open: Place | None


class OpsRouletteView(OpsTournamentView):
    """Roulette's operator view adds every heat's spins so far, for the MC console."""

    spins_per_heat: Place
    heats: rows(OpsHeatSpins, 10_000)


# -- Super 9 (board:super9, jackpot:super9, schedule:super9, cues:super9) -----------------------
class JackpotView(ViewModel):
    title: ShortText
    subtitle: ShortText
    jackpot: ShortText
    jackpot_cents: Cents
    ticket_price: ShortText
    pools: rows(TickerPool, 4)


class Cell(ViewModel):
    number: Pocket
    colour: PocketColour
    order: Count | None


class LastCall(ViewModel):
    number: Pocket
    colour: PocketColour
    repeat: Flag


class Need(ViewModel):
    more: Annotated[StrictInt, Field(ge=1, le=9)]
    tickets: Count


class BoardWinner(ViewModel):
    name: DisplayName
    share: ShortText | None


class IdleBoard(ViewModel):
    """Before the first session: the next game in `message`."""

    title: ShortText
    status: Literal["idle"]
    session: None
    called: Annotated[list[Pocket], Field(max_length=0)]
    last: None
    jackpot_cents: Cents
    consolation_cents: None
    counted_spins: Count
    jackpot_spins: Count
    message: LongText


class LiveBoard(ViewModel):
    title: ShortText
    session: ShortText
    status: Literal["playing", "super9", "won", "closed"]
    numbers: rows(Cell, 37)
    called: rows(Pocket, 37)
    last: LastCall | None
    spins: Count
    no_spins: Count
    counted_spins: Count
    jackpot_spins: Count
    counted_label: ShortText
    jackpot_live: Flag
    jackpot: ShortText
    jackpot_cents: Cents
    consolation: ShortText
    consolation_cents: Cents
    playing_for: Literal["jackpot", "consolation"]
    prize: ShortText
    tickets: Count
    need: rows(Need, 9)
    winners: rows(BoardWinner)
    message: LongText


class BoardView(RootModel[Annotated[IdleBoard | LiveBoard, Field(discriminator="status")]]):
    model_config = ConfigDict(strict=True, frozen=True)


class ScheduledEvent(ViewModel):
    id: ShortText
    name: ShortText
    label: ShortText
    starts_at: EpochMs
    where: ShortText | None = None


class ScheduleView(ViewModel):
    title: ShortText
    events: rows(ScheduledEvent, 50)


class GameCuesView(ViewModel):
    session: ShortText | None
    lines: rows(CueText, 100)  # read aloud
    notes: rows(CueText, 100)  # for the operator: rules, what to check or do


# -- the Wild Card draw (draw:wildcard) ----------------------------------------------------------
class FrozenPool(ViewModel):
    members: Count
    tickets: Count
    digest: Digest


class ReelName(ViewModel):
    name: DisplayName
    ticket: Place


class Winner(ViewModel):
    name: DisplayName
    masked_card: MaskedCard
    ticket: Place
    in_register: Flag


class Finalist(ViewModel):
    name: DisplayName
    masked_card: MaskedCard
    present: Flag
    stand_in: DisplayName | None
    prize_claim_by: EpochMs


class Redraw(ViewModel):
    round: Place
    name: DisplayName
    masked_card: MaskedCard
    cause: LongText


class DrawView(ViewModel):
    title: ShortText
    subtitle: ShortText
    phase: Literal["entries", "frozen", "drawing", "claim", "finalist"]
    round: Place
    activated: Count
    bins_open_at: EpochMs
    bins_close_at: EpochMs
    pool: FrozenPool | None
    reel: rows(ReelName, 24)
    spin_started_at: EpochMs | None
    reveal_at: EpochMs | None
    claim_deadline: EpochMs | None
    winner: Winner | None
    finalist: Finalist | None
    redraws: rows(Redraw, 100)


# -- cues, screens, attract ----------------------------------------------------------------------
class CueLine(ViewModel):
    id: ShortText
    text: CueText  # read aloud
    notes: CueText  # for the operator: rules, what to check or do
    topic: ShortText  # the latest due cue of a topic replaces the earlier ones
    at_ms: EpochMs
    acknowledged: Flag


class CuesView(ViewModel):
    cues: rows(CueLine, 10_000)


ScreenName = Annotated[StrictStr, Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}$")]
ScreenStatus = Literal["pending", "authorised", "revoked"]


class ProgramEntry(ViewModel):
    """A playlist in a screen's program: the validated playlist (docs/playlists.md) plus where
    it came from and when it plays. Its items are checked by the playlist validator; here they
    must only be plain, finite JSON."""

    model_config = ConfigDict(extra="allow")

    name: ShortText
    priority: Annotated[StrictInt, Field(ge=-1_000_000, le=1_000_000)]
    file: ShortText
    sha256: Digest
    anchor_ms: EpochMs
    until_ms: EpochMs | None

    def model_post_init(self, context: Any) -> None:
        _json_safe(self.model_extra)


class Takeover(ViewModel):
    id: ShortText
    scene: ShortText
    params: dict[str, JsonData]
    start_ms: EpochMs
    end_ms: EpochMs | None


class ScreenView(ViewModel):
    """A screen's own program: its playlists and its group's takeover."""

    screen: ScreenName
    name: ShortText
    group: ScreenName
    status: ScreenStatus
    playlists: rows(ProgramEntry, 100)
    takeover: Takeover | None


class ScreenSummary(ViewModel):
    screen: ScreenName
    name: ShortText
    group: ScreenName
    status: ScreenStatus
    playlists: rows(ShortText, 100)
    takeover: ShortText | None


class OpsScreensView(ViewModel):
    screens: rows(ScreenSummary, 10_000)


class AttractView(ViewModel):
    """Pictures for the attract loop (no controller feature publishes it yet)."""

    images: rows(ShortText, 50)


class RehearsalView(ViewModel):
    """Present only on a rehearsal log: screens and pages show a small REHEARSAL mark."""

    rehearsal: Literal[True]
    started_at: EpochMs
    started_local: ShortText
    timezone: ShortText
    promotion: ShortText
    speed: Annotated[StrictInt, Field(ge=1, le=3600)]


class VenueView(ViewModel):
    """The venue's wall clock: screens and pages show the time of day in it."""

    timezone: TimeZone


#: view name pattern -> model; the first match wins, so exact names come before patterns
MODELS: tuple[tuple[str, type[BaseModel]], ...] = (
    ("leaderboard:*", LeaderboardView),
    ("pools:*", PoolsView),
    ("seating:*", SeatingView),
    ("qualifiers:*", QualifiersView),
    ("prizes:poker", PokerPrizesView),
    ("prizes:*", PrizesView),
    ("paytable:*", PaytableView),
    ("spins:*", SpinsView),
    ("jackpot:*", JackpotView),
    ("board:*", BoardView),
    ("schedule:*", ScheduleView),
    ("cues:*", GameCuesView),
    ("cues", CuesView),
    ("draw:*", DrawView),
    ("screen:*", ScreenView),
    ("attract", AttractView),
    ("rehearsal", RehearsalView),
    ("venue", VenueView),
    ("ops:screens", OpsScreensView),
    ("ops:poker", OpsPokerView),
    ("ops:roulette", OpsRouletteView),
    ("ops:*", OpsTournamentView),
)


def view_model(name: str) -> type[BaseModel]:
    """The model of the view called `name`; KeyError for a name no model covers."""
    for pattern, model in MODELS:
        if fnmatch.fnmatchcase(name, pattern):
            return model
    raise KeyError(f"no view model for {name!r}")
