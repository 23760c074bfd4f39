"""The views the controller publishes, as typed models: what a screen or page may be sent.

Every public view kind has a model here (docs/scenes.md describes the shapes); `view_model(name)`
gives the model of a view by its name. Tests drive the show through whole promotions and check
each published document against its model, so no view carries NaN, an unbounded number, an
unprintable name or a field a scene does not expect. Models forbid unknown fields: a new field
is added here and in docs/scenes.md together. Imports no pygame.
"""

from __future__ import annotations

import fnmatch

from pydantic import BaseModel

from showrunner.contract.views.floor import (
    AttractView,
    CuesView,
    OpsDevicesView,
    OpsFeedView,
    OpsLogView,
    OpsMediaView,
    OpsScreensView,
    OpsWheelsView,
    RehearsalView,
    ScreenView,
    VenueView,
)
from showrunner.contract.views.live_heat import LiveHeatView
from showrunner.contract.views.super9 import BoardView, GameCuesView, JackpotView, ScheduleView
from showrunner.contract.views.tournament import (
    LeaderboardView,
    OpsPokerView,
    OpsRouletteView,
    OpsTournamentView,
    PaytableView,
    PokerPrizesView,
    PoolsView,
    PrizesView,
    QualifiersView,
    SeatingView,
    SpinsView,
)
from showrunner.contract.views.wildcard import DrawView

#: view name pattern -> model; the first match wins, so exact names come before patterns
MODELS: tuple[tuple[str, type[BaseModel]], ...] = (
    ("leaderboard:*", LeaderboardView),
    ("live_heat:*", LiveHeatView),
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
    ("ops:media", OpsMediaView),
    ("ops:feed", OpsFeedView),
    ("ops:poker", OpsPokerView),
    ("ops:roulette", OpsRouletteView),
    ("ops:devices", OpsDevicesView),
    ("ops:wheels", OpsWheelsView),
    ("ops:log", OpsLogView),
    ("ops:*", OpsTournamentView),
)


def view_model(name: str) -> type[BaseModel]:
    """The model of the view called `name`; KeyError for a name no model covers."""
    for pattern, model in MODELS:
        if fnmatch.fnmatchcase(name, pattern):
            return model
    raise KeyError(f"no view model for {name!r}")
