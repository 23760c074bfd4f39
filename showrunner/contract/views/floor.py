"""Views of the floor itself: the cue list, screens and their programs, attract, rehearsal
and the venue clock."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StrictInt, StrictStr

from showrunner.contract.fields import (
    PRINTABLE,
    EpochMs,
    Flag,
    ShortText,
    TimeZone,
)
from showrunner.contract.views.base import (
    MAX_ROWS,
    CueText,
    Digest,
    JsonData,
    Place,
    ViewModel,
    json_safe,
)


# -- cues, screens, attract ----------------------------------------------------------------------
class CueLine(ViewModel):
    id: ShortText
    text: CueText  # read aloud
    notes: CueText  # for the operator: rules, what to check or do
    topic: ShortText  # the latest due cue of a topic replaces the earlier ones
    at_ms: EpochMs
    acknowledged: Flag


class CuesView(ViewModel):
    cues: Annotated[list[CueLine], Field(max_length=10_000)]


ScreenName = Annotated[StrictStr, Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}$")]
ScreenStatus = Literal["pending", "authorised", "revoked"]


MediaKind = Literal["picture", "video"]
MediaName = Annotated[StrictStr, Field(min_length=1, max_length=100), PRINTABLE]
ByteCount = Annotated[StrictInt, Field(ge=1, le=2**40)]


class MediaRef(ViewModel):
    """A media name of a playlist as the controller resolved it (showrunner.contract.media)."""

    sha256: Digest
    size: ByteCount
    kind: MediaKind


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
    media: Annotated[dict[MediaName, MediaRef], Field(default_factory=dict, max_length=500)]

    def model_post_init(self, context: Any) -> None:
        json_safe(self.model_extra)


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
    playlists: Annotated[list[ProgramEntry], Field(max_length=100)]
    takeover: Takeover | None


class ScreenSummary(ViewModel):
    screen: ScreenName
    name: ShortText
    group: ScreenName
    status: ScreenStatus
    playlists: Annotated[list[ShortText], Field(max_length=100)]
    takeover: ShortText | None


class OpsScreensView(ViewModel):
    screens: Annotated[list[ScreenSummary], Field(max_length=10_000)]


class MediaItem(MediaRef):
    """A name of the catalogue and the file it means now."""

    name: MediaName
    added_ms: EpochMs
    added_by: ShortText


class OpsMediaView(ViewModel):
    """The media catalogue (`GET /media`), for technicians."""

    media: Annotated[list[MediaItem], Field(max_length=100_000)]


class AttractView(ViewModel):
    """Pictures for the attract loop (no controller feature publishes it yet)."""

    images: Annotated[list[ShortText], Field(max_length=50)]


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


# -- the slot machines' feed (controller/feeds/) ------------------------------------------------
FeedStatus = Literal["live", "ended", "accepted", "restarted"]


class FeedMachineRow(ViewModel):
    seat: Place
    machine: ShortText
    name: ShortText
    entry: ShortText | None  # None: the seat was vacated (rule 27)
    credits: Annotated[StrictInt, Field(ge=0, le=999_999_999)] | None


class FeedSilentMachine(ViewModel):
    """A machine that stopped reporting while its heat plays: a possible malfunction (rule
    27); `since_ms` is its last report (or the heat's start, if it never reported)."""

    seat: Place
    machine: ShortText
    name: ShortText
    entry: ShortText | None
    since_ms: EpochMs


class FeedBank(ViewModel):
    bank: ShortText
    stage: ShortText
    stage_title: ShortText
    heat: ShortText
    feed_heat: ShortText
    status: FeedStatus
    ends_at_ms: EpochMs
    rows: Annotated[list[FeedMachineRow], Field(max_length=MAX_ROWS)]
    silent: Annotated[list[FeedSilentMachine], Field(max_length=MAX_ROWS)]
    last_report_ms: EpochMs | None


class OpsFeedView(ViewModel):
    """`ops:feed`, operators only: each bank's latest heat from the feed, for the director."""

    banks: Annotated[list[FeedBank], Field(max_length=100)]


# -- the floor's devices (docs/wheel.md) ------------------------------------------------------
DeviceState = Literal["reading", "port_closed", "offline"]
LongLine = Annotated[StrictStr, Field(max_length=200)]


class DeviceRow(ViewModel):
    """A device key's holder: "reading" (connected, its port open), "port_closed" (connected,
    but it cannot read its device) or "offline" (not connected), each `since_ms`."""

    name: ShortText
    kind: Literal["wheel", "feed"]
    state: DeviceState
    since_ms: EpochMs
    last_reading_ms: EpochMs | None
    detail: LongLine


class KioskRow(ViewModel):
    """An ehost kiosk's key holder (docs/ehost.md): "online" while its page is connected, its
    last swipe's time (never whose card) and its refused calls since the controller started."""

    name: ShortText
    state: Literal["online", "offline"]
    since_ms: EpochMs
    last_swipe_ms: EpochMs | None
    refused: Annotated[StrictInt, Field(ge=0)]


class OpsDevicesView(ViewModel):
    devices: Annotated[list[DeviceRow], Field(max_length=1000)]
    kiosks: Annotated[list[KioskRow], Field(max_length=1000)]


# -- the log's health (docs/operations.md, "Snapshots") ----------------------------------------
class OpsLogView(ViewModel):
    """`ops:log`, operators only: what the check of the whole log that runs while the
    controller serves found: "checking" (running), "intact" (every page and link up to
    `checked_to`), "damaged" (`seq`: the event its sentence names, 0 for the file's pages or a
    table) or "unchecked" (it could not run), each `since_ms`, with a sentence for people."""

    state: Literal["checking", "intact", "damaged", "unchecked"]
    sentence: Annotated[StrictStr, Field(max_length=500)]
    seq: Annotated[StrictInt, Field(ge=0)]
    checked_to: Annotated[StrictInt, Field(ge=0)]
    since_ms: EpochMs


class HeldReading(ViewModel):
    """`why`: "no_spin" (the previous number read again after a no spin, super9 rule 18.3) or
    "ball_unseen" (the reader did not see this ball spun)."""

    number: Annotated[StrictInt, Field(ge=0, le=36)]
    promotion: Literal["super9", "roulette"]
    at_ms: EpochMs
    why: Literal["no_spin", "ball_unseen"]


class LastReading(ViewModel):
    kind: Literal["ball_in_track", "no_more_bets", "number", "no_spin"]
    number: Annotated[StrictInt, Field(ge=0, le=36)] | None
    raw: LongLine
    at_ms: EpochMs


class LateReading(ViewModel):
    """A number the wheel read for a spin that already had one (docs/wheel.md, "Late
    readings"): `recorded` (None: a roulette spin played without a number), `typed` by the
    MC or read; `agrees` when the wheel read the same."""

    promotion: Literal["super9", "roulette"]
    spin: ShortText
    recorded: Annotated[StrictInt, Field(ge=0, le=36)] | None
    typed: Flag
    number: Annotated[StrictInt, Field(ge=0, le=36)]
    agrees: Flag
    at_ms: EpochMs


class WheelTable(ViewModel):
    """A table's wheel: what it serves, a reading held for the MC (super9 rule 18.3), whether
    a no spin armed the hold (`armed_by` the MC or the wheel's own stream, at `armed_ms`), the
    previous winning number, the last reading recorded and the late readings of the games in
    play."""

    table: ShortText
    serves: Annotated[list[Literal["super9", "roulette"]], Field(max_length=2)]
    held: HeldReading | None
    armed: Flag
    armed_by: Literal["mc", "wheel"] | None
    armed_ms: EpochMs | None
    last_number: Annotated[StrictInt, Field(ge=0, le=36)] | None
    last_reading: LastReading | None
    late: Annotated[list[LateReading], Field(max_length=20)]


class OpsWheelsView(ViewModel):
    tables: Annotated[list[WheelTable], Field(max_length=1000)]
