"""The scene catalogue: every scene a playlist or a takeover may name, with its parameters.

One definition for both sides: the controller and `showrunner validate` refuse parameters the
models refuse, and a screen's scenes take their defaults from the same models (and clamp what
an old log or a replica still carries, see `drawable`). Every parameter has bounds a screen can
draw: finite numbers, ranged whole numbers, printable text of a limited length, short lists.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, TypeAlias

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    StrictInt,
    StrictStr,
)

from showrunner.contract.fields import (
    MAX_SECONDS,
    PRINTABLE,
    PRINTABLE_LINES,
    ShortText,
    TimeZone,
)

#: what a screen shows when it has no playlist at all
DEFAULT_SCENE = "attract"
#: how one scene hands over to the next
TRANSITIONS = ("cut", "crossfade", "slide")

CLAIM_SECONDS = 90.0  # rule 39: 90 s to present yourself at the stage
BETTING_SECONDS = 120.0  # rule 7: the betting window before each spin
ROLL_SECONDS = 3.0

ViewName: TypeAlias = Annotated[StrictStr, Field(max_length=80), PRINTABLE]
"""The name of the view a scene reads ("leaderboard:slots"); empty or null reads none."""
Label: TypeAlias = Annotated[StrictStr, Field(max_length=40), PRINTABLE]
"""A short word drawn beside a number or used to pick a heat or stage."""
ImagePath: TypeAlias = Annotated[StrictStr, Field(min_length=1, max_length=300), PRINTABLE]
MediaName: TypeAlias = Annotated[StrictStr, Field(max_length=300), PRINTABLE]
Seconds: TypeAlias = Annotated[float, Strict(), Field(ge=1, le=MAX_SECONDS, allow_inf_nan=False)]
Body: TypeAlias = Annotated[StrictStr, Field(max_length=2000), PRINTABLE_LINES]
RollSeconds: TypeAlias = Annotated[float, Strict(), Field(ge=0, le=60, allow_inf_nan=False)]
PageSeconds: TypeAlias = Annotated[float, Strict(), Field(ge=1, le=3600, allow_inf_nan=False)]
RowsPerPage: TypeAlias = Annotated[StrictInt, Field(ge=1, le=50)]
MaxRows: TypeAlias = Annotated[StrictInt, Field(ge=1, le=500)]
RecentSpins: TypeAlias = Annotated[StrictInt, Field(ge=1, le=18)]


def _muted(value: bool) -> bool:
    if value:
        raise ValueError("cannot be true: sound on the floor's screens is not supported yet "
                         "(they are muted); leave audio out")
    return value


Muted: TypeAlias = Annotated[StrictBool, AfterValidator(_muted)]
"""A scene's sound: only off for now (floor screens are muted; docs/scenes.md)."""


class SceneParams(BaseModel):
    """What every scene takes: `view`, the view it reads. Subclasses add their own."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    scene: ClassVar[str] = ""
    #: parameters naming a video file, opened by `showrunner validate` and the upload
    videos: ClassVar[tuple[str, ...]] = ()
    view: ViewName | None = None


class AnnouncementParams(SceneParams):
    scene = "announcement"
    title: ShortText = ""
    body: Body = ""


class AttractParams(SceneParams):
    scene = "attract"
    view: ViewName | None = "attract"
    images: list[ImagePath] = Field(default_factory=list, max_length=50)
    seconds: Seconds = 8.0


class ClaimCountdownParams(SceneParams):
    scene = "claim_countdown"
    view: ViewName | None = "draw:wildcard"
    claim_seconds: Seconds = CLAIM_SECONDS
    caption: ShortText = "to claim at the stage"


class JackpotTickerParams(SceneParams):
    scene = "jackpot_ticker"
    view: ViewName | None = "jackpot:super9"
    roll_seconds: RollSeconds = ROLL_SECONDS


class LeaderboardParams(SceneParams):
    scene = "leaderboard"
    view: ViewName | None = "leaderboard:slots"
    #: rows on a page; null: 10 on a landscape screen, 16 on a portrait one
    rows_per_page: RowsPerPage | None = None
    page_seconds: PageSeconds = 10.0
    max_rows: MaxRows = 45
    score_label: Label = ""
    empty_text: ShortText = "Scores appear here as heats finish"


class LiveHeatParams(SceneParams):
    scene = "live_heat"
    view: ViewName | None = "live_heat:slots"
    #: rows on a page; null: 10 on a landscape screen, 16 on a portrait one
    rows_per_page: RowsPerPage | None = None
    page_seconds: PageSeconds = 10.0
    #: the tournament's title over the heat; empty: the view's
    title: ShortText = ""


class NextEventParams(SceneParams):
    scene = "next_event"
    view: ViewName | None = "schedule:super9"
    title: ShortText = "Coming up"
    #: the venue's wall clock (an IANA zone) for "Later: Super 9 21h00"
    timezone: TimeZone = "Africa/Johannesburg"


class PrizeTableParams(SceneParams):
    scene = "prize_table"
    view: ViewName | None = "prizes:slots"


class RouletteCountdownParams(SceneParams):
    scene = "roulette_countdown"
    view: ViewName | None = "spins:roulette"
    betting_seconds: Seconds = BETTING_SECONDS
    heat: Label = ""


class SeatingChartParams(SceneParams):
    scene = "seating_chart"
    view: ViewName | None = "seating:slots"
    stage: Label = ""


class Super9BoardParams(SceneParams):
    scene = "super9_board"
    view: ViewName | None = "board:super9"
    recent: RecentSpins = 8


class VideoParams(SceneParams):
    scene = "video"
    videos = ("media",)
    #: the video file, resolved like the attract loop's pictures (a playlist must name one)
    media: MediaName = ""
    #: cover: fill the screen, cropping the edges; contain: all of it, bars where it is narrower
    fit: Literal["cover", "contain"] = "cover"
    #: play again from the start at the end; false: the last frame stays until the scene ends
    loop: StrictBool = True
    #: scene: from its first frame when the scene starts on this screen; clock: on the show
    #: clock, so every screen playing it shows the same frame (a video wall; always loops)
    start: Literal["scene", "clock"] = "scene"
    audio: Muted = False


class WildcardDrawParams(SceneParams):
    scene = "wildcard_draw"
    view: ViewName | None = "draw:wildcard"
    claim_seconds: Seconds = CLAIM_SECONDS


CATALOGUE: dict[str, type[SceneParams]] = {model.scene: model for model in (
    AnnouncementParams, AttractParams, ClaimCountdownParams, JackpotTickerParams,
    LeaderboardParams, LiveHeatParams, NextEventParams, PrizeTableParams, RouletteCountdownParams,
    SeatingChartParams, Super9BoardParams, VideoParams, WildcardDrawParams)}
"""Scene name -> the model of its parameters."""


def default_view(scene: str) -> str | None:
    """The view a scene reads unless its `view` parameter names another."""
    return CATALOGUE[scene].model_fields["view"].default


REHEARSAL_VIEW = "rehearsal"  # the REHEARSAL mark (showrunner.engine.badge)
VENUE_VIEW = "venue"  # the venue's time zone, for the times the overlays show
OVERLAY_VIEWS = (REHEARSAL_VIEW, VENUE_VIEW)  # read on every screen, whatever it plays


def scene_view(scene: str, params: Mapping[str, Any]) -> str | None:
    """The view a scene reads with these parameters (its `view`, else the scene's default);
    None for a scene that reads none or one this catalogue does not know."""
    if "view" in params:
        name = params["view"]
        return name if isinstance(name, str) and name else None
    return default_view(scene) if scene in CATALOGUE else None
