"""The heat in progress on a bank of slot machines (`live_heat:slots`), fed by the venue's
slot tournament system: each seat's live credits, its rank in the heat and where that score
would place on the qualifying leaderboard (slots rules 11, 14). Live credits change up to twice
a second a machine and are not events; the view is published from them (controller/feeds/)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from showrunner.contract.fields import DisplayName, EpochMs, Flag, Score, ShortText
from showrunner.contract.views.base import MAX_ROWS, Place, ViewModel

#: idle: no heat on the bank; live: the heat is playing; ended: the machines stopped and the
#: final credits wait for the tournament director; accepted: they are the heat's scores
LiveHeatStatus = Literal["idle", "live", "ended", "accepted"]


class LiveHeatRow(ViewModel):
    seat: Place  # the seat in the heat: machines in the bank's sequential order (rule 11)
    machine: ShortText  # the machine's number as the bank labels it
    name: DisplayName
    credits: Score | None  # None: no reading from the machine yet
    rank: Place | None  # in the heat by credits (ties share a rank); None before a reading
    #: where these credits would place on the stage's leaderboard now; None when beyond it
    place: Place | None
    silent: Flag  # no reading for a while: a possible malfunction (rule 27)


class LiveHeatView(ViewModel):
    title: ShortText  # the tournament's title
    stage: ShortText  # "Qualifying"
    heat: ShortText  # "Heat 3"; empty when idle
    status: LiveHeatStatus
    started_at_ms: EpochMs | None
    ends_at_ms: EpochMs | None  # the heat's absolute end: the scene counts down to it
    rows: Annotated[list[LiveHeatRow], Field(max_length=MAX_ROWS)]  # by rank, then seat
    leaderboard_rows: Place  # the leaderboard's length: `place` is within it
