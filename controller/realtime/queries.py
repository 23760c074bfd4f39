"""The queries /control answers: the console's search, and the technicians' /screens page.

Each is a socket event of its own name (the pages call `find_entries`, `screens`,
`check_playlist` and `screenshot_request`), registered here with its roles and payload
(controller/domain/queries.py) and answered by `AudienceNamespace.trigger_event`; the auditor's
`verify_chain` runs `audit verify`'s checks in a worker thread.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Annotated, Any, TypeAlias
from zoneinfo import ZoneInfo

from pydantic import Field, StrictStr

from controller.audit.document import DEFAULT_ZONE
from controller.audit.verify import Verdict, verify_log
from controller.domain.commands import payload
from controller.domain.errors import Rejected, refusal
from controller.domain.queries import Query
from controller.domain.venue import Venue
from controller.promotions.tournament.feature import Tournament
from controller.realtime.floor import screens_report
from controller.realtime.hub import Hub
from controller.register import Register
from controller.register.payloads import PrizeCard
from controller.screens.audience import floor_playlist
from controller.screens.groups import group_report
from controller.screens.payloads import Assign, ScreenOnly
from controller.store.target import db_arg, open_read_only
from showrunner.contract.fields import PRINTABLE, Ref
from showrunner.contract.money import format_int
from showrunner.contract.playlist.validate import PlaylistError

TECHNICIANS_ONLY = "Only technicians may look after the screens."
FOUND = 8  # entries a search answers with: the console shows that many
MAX_QUERY = 100  # characters of a search
CONTROL_ROLES = frozenset({"operator", "technician", "auditor"})
TECHNICIAN = frozenset({"technician"})
AUDIT_ROLES = frozenset({"auditor", "operator"})
#: the register holds winners' personal information (ID digits, signatures): these roles only
PRIZE_REGISTER = frozenset({"operator", "auditor"})
SearchText: TypeAlias = Annotated[StrictStr, Field(max_length=MAX_QUERY), PRINTABLE]
"""What the MC types to find a player: a name or a card number."""


@payload
class FindEntries:
    promotion: Ref
    query: SearchText


@payload
class Nothing:
    """A query that takes no fields."""


async def find_entries(p: FindEntries, hub: Hub) -> dict[str, Any]:
    """The entries whose player the MC is looking for, by name or card (the operator's view
    holds only the entries in play)."""
    tournament = next((f for f in hub.service.show.features
                       if isinstance(f, Tournament) and f.name == p.promotion), None)
    if tournament is None:
        raise Rejected("bad_query", f"Say which tournament to look in: there is none called "
                                    f"{p.promotion!r}.")
    return {"entries": tournament.find(p.query, FOUND)}


async def screens(p: Nothing, hub: Hub) -> dict[str, Any]:
    """The /screens page's report: every screen with its telemetry."""
    return await screens_report(hub)


async def prize_register(p: Nothing, hub: Hub) -> dict[str, Any]:
    """Every prize awarded, owed first by deadline, with how each was paid or lapsed."""
    register = hub.service.show.feature(Register)
    assert isinstance(register, Register)
    return {"prizes": register.rows()}


async def prize_card_check(p: PrizeCard, hub: Hub) -> dict[str, Any]:
    """Before the winner signs: is the card presented this prize's winner's, and may the prize
    be paid now? Yes in words, or the refusal `prizes.pay` would give (never the winner's
    digits); `prizes.pay` checks it all again."""
    register = hub.service.show.feature(Register)
    assert isinstance(register, Register)
    prize = register.payable(p.prize, p.card, hub.service.clock())
    if not prize.award.card:
        return {"sentence": "Paid against the ticket, sold without a card: the holder signs "
                            "next."}
    return {"sentence": f"The card is {register.winner(prize.award)}'s: the winner signs next."}


class PlaylistProblems(Rejected):
    """A playlist with errors: refused with each problem's file, line and column."""

    def __init__(self, exc: PlaylistError) -> None:
        super().__init__("bad_playlist", "The playlist has errors; nothing was changed.")
        self.problems = [{"file": p.file, "line": p.line, "column": p.column,
                          "message": p.message} for p in exc.problems]

    def refusal(self, **details: Any) -> dict[str, Any]:
        return refusal(self.code, self.message, problems=self.problems, **details)


async def check_playlist(p: Assign, hub: Hub) -> dict[str, Any]:
    """Validate a playlist as `playlists.assign` would, without assigning it: the playlist's
    name, scene count and hours (to say them in words before it is played), or every
    problem."""
    if not p.file.strip():
        raise Rejected("bad_payload", "Give the playlist's file name and its text.")
    try:
        playlist = floor_playlist(p.yaml, p.file.strip())
    except PlaylistError as exc:
        raise PlaylistProblems(exc) from None
    hub.screens.resolve_media(playlist)  # `images` naming a video is refused, as at assignment
    return {"name": playlist["name"], "scenes": len(playlist["items"]),
            **{key: playlist[key] for key in ("windows", "timezone", "loop")}}


async def group_playlists(p: Nothing, hub: Hub) -> dict[str, Any]:
    """Each group's playlists for /screens: what plays now, each playlist's scenes, hours and
    text to edit, and the group's latest changes."""
    return group_report(hub.screens, hub.service.clock())


async def screenshot_request(p: ScreenOnly, hub: Hub) -> dict[str, Any]:
    """Ask a connected screen for a fresh screenshot."""
    if not await hub.request_screenshot(p.screen):
        raise Rejected("offline", f"Screen {p.screen!r} is not connected.")
    return {}


def chain_verdict(db: str) -> Verdict:
    """`audit verify`'s checks on a read-only snapshot of the log (run in a worker thread)."""
    log = open_read_only(db_arg(db))
    try:
        return verify_log(log)
    finally:
        log.close()


async def verify_chain(p: Nothing, hub: Hub) -> dict[str, Any]:
    """Verify the log now, off the event loop: "Chain holds: 12 345 events, head ab12…,
    checked 14:03", or what failed, in words."""
    service = hub.service
    verdict = await asyncio.to_thread(chain_verdict, service.log.address)
    zone = service.show.feature(Venue)
    assert isinstance(zone, Venue)
    checked = dt.datetime.fromtimestamp(service.clock() / 1000, dt.UTC).astimezone(
        ZoneInfo(zone.timezone or DEFAULT_ZONE)).strftime("%H:%M")
    if verdict.holds:
        sentence = (f"Chain holds: {format_int(verdict.count)} events, head "
                    f"{verdict.head[:4]}…, checked {checked}.")
    else:
        sentence = (f"The chain does NOT hold (checked {checked}): "
                    f"{verdict.findings[0].sentence()}.")
    return {"holds": verdict.holds, "sentence": sentence,
            "problems": [f.sentence() for f in verdict.findings]}


CONTROL_QUERIES: dict[str, Query[Any, Hub]] = {q.name: q for q in (
    Query("find_entries", CONTROL_ROLES, FindEntries, find_entries,
          "Only the console may look for players.", "Find a tournament's entries by player."),
    Query("prize_register", PRIZE_REGISTER, Nothing, prize_register,
          "Only operators and auditors may see the prize register: it holds the winners' "
          "identity details and signatures.",
          "Every prize awarded: who, what, the deadline, and how it was paid or lapsed."),
    Query("prize_card_check", frozenset({"operator"}), PrizeCard, prize_card_check,
          "Only operators pay prizes.",
          "Whether the card presented is a prize's winner's, before the winner signs."),
    Query("screens", TECHNICIAN, Nothing, screens, TECHNICIANS_ONLY,
          "Every screen with its status and its latest heartbeat."),
    Query("check_playlist", TECHNICIAN, Assign, check_playlist, TECHNICIANS_ONLY,
          "Check a playlist as playlists.assign would, without assigning it."),
    Query("group_playlists", TECHNICIAN, Nothing, group_playlists, TECHNICIANS_ONLY,
          "Each group's playlists: what plays now, their scenes, hours and text, and changes."),
    Query("screenshot_request", TECHNICIAN, ScreenOnly, screenshot_request, TECHNICIANS_ONLY,
          "Ask a screen for a fresh picture."),
    Query("verify_chain", AUDIT_ROLES, Nothing, verify_chain,
          "Only an auditor or an operator may verify the chain.",
          "Check the hash chain, every draw and every signature image now."),
)}
