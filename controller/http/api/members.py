"""The member-app API (docs/member-api.md): the venue's app backend asks, for one member card
at a time, for the member's Wild Card entry, activates its tickets (slots rules 18.3, 33.3),
and reads the member's places on the public leaderboards and their Super 9 tickets.

Every call that passes the app key and its rate is recorded like a command (who, when, which
key, which card, what, how it was answered) before it is answered; an activation is also the
command `wildcard.activate_in_app` in the log. What a member is told is theirs alone: a card
with nothing on it (unknown, or excluded) gets the same answer by the same steps.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Literal

from pydantic import Field, StrictInt

from controller.access.keys import Principal
from controller.domain.errors import Rejected
from controller.domain.members import Members
from controller.http.api.auth import member_app
from controller.http.api.framework import ApiError, ApiModel, Call, Route
from controller.http.shared import hub_key
from controller.promotions.super9 import Super9
from controller.promotions.tournament.views import TournamentViews
from controller.promotions.wildcard import Wildcard
from controller.promotions.wildcard.entries import EntryDoc, member_entry
from controller.store.calls import MemberCall
from controller.store.sqlite import StorageUnavailable
from showrunner.contract.fields import CardNumber

ROLE = "app"
ACTIVATE = "wildcard.activate_in_app"
NOT_RECORDED = "The call could not be recorded, so it was not answered; try again later."


class NoFields(ApiModel):
    """An activation needs nothing but the card in its path: no body, or {}."""


class MemberCard(ApiModel):
    card: Annotated[CardNumber, Field(description="The member's rewards card number.")]


class Activated(ApiModel):
    """The receipt of an activation (or of its retry: the first one's)."""

    ok: Literal[True]
    entry: EntryDoc
    seq: Annotated[StrictInt, Field(description="The activation's place in the show's log.")]


class Place(ApiModel):
    title: Annotated[str, Field(description="The promotion, e.g. Slots PAYOFF.")]
    stage: Annotated[str, Field(description="The board's stage, e.g. Qualifying.")]
    place: Annotated[StrictInt, Field(ge=1, description="The member's place on the board "
                                                        "(their best entry's).")]
    score: StrictInt
    ranked: Annotated[StrictInt, Field(ge=1, description="How many are ranked on the board.")]


class Places(ApiModel):
    ok: Literal[True]
    places: Annotated[list[Place], Field(description="Only boards the member is ranked on.")]


class Super9Ticket(ApiModel):
    ticket: Annotated[str, Field(description="The number printed on the member's ticket.")]
    numbers: Annotated[list[StrictInt], Field(description="The ticket's nine numbers.")]
    called: Annotated[list[StrictInt], Field(description="Those of them called so far.")]


class Super9Tickets(ApiModel):
    ok: Literal[True]
    session: Annotated[str | None, Field(description="The current or last session, e.g. "
                                                     "'Friday 19 January 20:00'; null before "
                                                     "the first.")]
    called: Annotated[list[StrictInt], Field(description="Every number called in the session "
                                                         "so far, in order.")]
    tickets: Annotated[list[Super9Ticket], Field(description="The member's tickets in it.")]


Work = Callable[[Call, str], Awaitable[ApiModel | EntryDoc]]


def recorded(action: str, work: Work) -> Callable[[Call], Awaitable[ApiModel | EntryDoc]]:
    """`work` for the call's card, the call recorded with its outcome before it is answered."""

    async def handler(call: Call) -> ApiModel | EntryDoc:
        principal: Principal = call.caller
        card, service = call.params["card"], call.request.app[hub_key].service
        outcome = "ok"
        try:
            return await work(call, card)
        except (Rejected, ApiError) as exc:
            outcome = exc.code
            raise
        finally:
            try:
                service.log.record_call(MemberCall(service.clock(), principal.id,
                                                   principal.name, ROLE, card, action, outcome))
            except StorageUnavailable:
                raise ApiError("storage_unavailable", NOT_RECORDED) from None

    return handler


def _draw(call: Call) -> Wildcard:
    draw = call.request.app[hub_key].service.show.feature(Wildcard)
    assert isinstance(draw, Wildcard)
    return draw


async def wildcard_entry(call: Call, card: str) -> EntryDoc:
    draw = _draw(call)
    return EntryDoc.of(draw, member_entry(draw, card, call.request.app[hub_key].service.clock()))


async def activate(call: Call, card: str) -> Activated:
    """The command as the app key's holder, its id the card's on the draw's day: a retried
    call gets the first call's ack, and the log names the app as the actor."""
    hub, draw = call.request.app[hub_key], _draw(call)
    command_id = f"app:wildcard:{draw.config.draw_day.isoformat()}:{card}"
    ack = await hub.execute({"type": ACTIVATE, "payload": {"card": card},
                             "command_id": command_id}, call.caller)
    if not ack.get("ok"):
        raise ApiError(ack["error"]["code"], ack["error"]["message"])
    entry = EntryDoc.of(draw, member_entry(draw, card, hub.service.clock()))
    return Activated(ok=True, entry=entry, seq=ack["seq"])  # a retry's: the first one's


async def leaderboards(call: Call, card: str) -> Places:
    """The member's places on every public leaderboard: each board is searched for every
    card, and only then is an unknown or excluded card's answer emptied."""
    show = call.request.app[hub_key].service.show
    places = []
    for feature in show.features:
        if not isinstance(feature, TournamentViews):
            continue
        for name in feature.order:
            stage = feature.stages[name]
            standings = stage.standings
            mine = {standings.key(e.id, card) for e in stage.of_card(card)}
            keys = [k for k in mine if k in standings]
            if keys:
                best = min(keys, key=standings.position)
                places.append(Place(title=feature.title, stage=stage.spec.title,
                                    place=standings.position(best),
                                    score=standings.score(best), ranked=len(standings)))
    return Places(ok=True, places=places if _eligible(call, card) else [])


def _eligible(call: Call, card: str) -> bool:
    """A member who may be told their places and tickets: known, and excluded by no flag."""
    members = call.request.app[hub_key].service.show.feature(Members)
    assert isinstance(members, Members)
    member = members.by_card.get(card)
    return member is not None and not member.flags


async def super9(call: Call, card: str) -> Super9Tickets:
    """The member's tickets in the current (or last) session and the numbers called in it."""
    game = call.request.app[hub_key].service.show.feature(Super9)
    assert isinstance(game, Super9)
    run = game.current
    if run is None:
        return Super9Tickets(ok=True, session=None, called=[], tickets=[])
    called = list(run.game.called)
    tickets = [game.tickets[t] for t in game.by_session.get(run.session.id, [])]
    mine = [Super9Ticket(ticket=t.ticket, numbers=list(t.numbers or []),
                         called=[n for n in t.numbers or [] if n in run.game.called])
            for t in tickets if t.card == card and t.void is None]
    return Super9Tickets(ok=True, session=run.session.label, called=called,
                         tickets=mine if _eligible(call, card) else [])


KEY_ERRORS = {
    400: "The card is no rewards card number (6 to 20 digits), or the key is not plain text.",
    401: "No key, or an unknown or revoked one.",
    403: "The key is not the venue's member-app key.",
    429: "Too many calls from this app key.",
    503: "The call could not be recorded, so it was not answered.",
}
ENTRY_ERRORS = {**KEY_ERRORS, 404: "No Wild Card tickets on this card today (the same "
                                   "answer for every such card)."}
ACTIVATE_ERRORS = {**ENTRY_ERRORS,
                   400: "The card is no rewards card number, the key is not plain text, or the "
                        "body is neither empty nor {} (or not strict JSON).",
                   408: "The body did not arrive within the body timeout (30 s unless set).",
                   409: "Not now: already activated, the bins not open yet, or closed (rule 36)."}


def _route(method: str, path: str, summary: str, response: type[ApiModel] | type[EntryDoc],
           action: str, work: Work, errors: dict[int, str], operation_id: str) -> Route:
    return Route(method, "/members/{card}" + path, summary, response, recorded(action, work),
                 NoFields if method == "POST" else None, member_app, errors, operation_id,
                 params=MemberCard, body_required=False, security="appKey")


ROUTES = [
    _route("GET", "/wildcard", "The member's Wild Card entry today and its state", EntryDoc,
           "entries", wildcard_entry, ENTRY_ERRORS, "getWildcardEntry"),
    _route("POST", "/wildcard/activate", "Activate the member's Wild Card tickets (rule 18.3)",
           Activated, "activate", activate, ACTIVATE_ERRORS, "activateWildcard"),
    _route("GET", "/leaderboards", "The member's places on the public leaderboards", Places,
           "leaderboards", leaderboards, KEY_ERRORS, "getLeaderboardPlaces"),
    _route("GET", "/super9", "The member's Super 9 tickets and the numbers called so far",
           Super9Tickets, "super9", super9, KEY_ERRORS, "getSuper9Tickets"),
]
