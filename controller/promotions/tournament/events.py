"""Events of the tournament building block, shared by every tournament promotion.

Each carries `promotion` ("slots", "roulette", "poker"); a tournament feature folds only its
own. Scores are whole numbers (credits or chip values); money is integer cents.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.domain.events import DomainEvent


@dataclass(frozen=True)
class TournamentEntered(DomainEvent, type_name="TournamentEntered"):
    """A seat in a stage: a buy-in to a qualifying heat, or a place earned in a later stage."""

    promotion: str
    entry: str
    card: str
    stage: str
    heat: str | None
    seat: int | None
    payment: str  # cash | free | comp | qualified | wildcard
    paid: int
    at_ms: int
    origin: str | None = None  # the entry whose result earned this seat


@dataclass(frozen=True)
class TournamentSeated(DomainEvent, type_name="TournamentSeated"):
    """Seats given out: by random draw, chosen by the player, or a move after a malfunction."""

    promotion: str
    stage: str
    method: str
    seats: list[list[Any]]  # [entry, heat, seat]
    at_ms: int = 0  # when the seats were given out (announced in a cue when drawn)


@dataclass(frozen=True)
class TournamentScoreRecorded(DomainEvent, type_name="TournamentScoreRecorded"):
    promotion: str
    entry: str
    score: int
    at_ms: int
    detail: dict[str, Any]


@dataclass(frozen=True)
class TournamentScoreCorrected(DomainEvent, type_name="TournamentScoreCorrected"):
    promotion: str
    entry: str
    old: int
    new: int
    reason: str


@dataclass(frozen=True)
class TournamentScoreVoided(DomainEvent, type_name="TournamentScoreVoided"):
    promotion: str
    entry: str
    old: int
    reason: str


@dataclass(frozen=True)
class TournamentEntryRemoved(DomainEvent, type_name="TournamentEntryRemoved"):
    """An entry leaves play: disqualified, forfeited (no-show) or refunded."""

    promotion: str
    entry: str
    status: str
    reason: str
    refund: int


@dataclass(frozen=True)
class TournamentHeatStarted(DomainEvent, type_name="TournamentHeatStarted"):
    promotion: str
    stage: str
    heat: str
    at_ms: int


@dataclass(frozen=True)
class TournamentTieBroken(DomainEvent, type_name="TournamentTieBroken"):
    """Tie-break rounds: per round the tied keys, their values (higher wins) and what was seen."""

    promotion: str
    stage: str
    method: str
    rounds: list[dict[str, Any]]  # {keys, values, shown, public}


@dataclass(frozen=True)
class TournamentStageClosed(DomainEvent, type_name="TournamentStageClosed"):
    promotion: str
    stage: str
    ranking: list[str]


@dataclass(frozen=True)
class TournamentProxyRegistered(DomainEvent, type_name="TournamentProxyRegistered"):
    promotion: str
    entry: str
    nominee: str
    form: str


@dataclass(frozen=True)
class TournamentScoreAcknowledged(DomainEvent, type_name="TournamentScoreAcknowledged"):
    """The participant signed for their score as it stood (poker rules 20, 35, 51; roulette
    rule 18); a later correction or void makes it unacknowledged again. `signature` is the
    stored image's reference (`SignatureRef.data()`), never the image."""

    promotion: str
    entry: str
    score: int
    signature: dict[str, Any]
    at_ms: int


@dataclass(frozen=True)
class TournamentClosedUnsigned(DomainEvent, type_name="TournamentClosedUnsigned"):
    """A stage closed with scores nobody signed for, under the "warn" policy: which entries,
    and the sentence the MC was shown (kept for the auditor)."""

    promotion: str
    stage: str
    entries: list[str]
    warning: str


@dataclass(frozen=True)
class TournamentSplitSet(DomainEvent, type_name="TournamentSplitSet"):
    promotion: str
    percents: list[int]
    reason: str
