"""The slot tournament system's feed (docs/slots-feed.md): a bank's heat started on its
machines, their live credits, the heat ended with each machine's final credits.

Starting and ending a heat are commands run with the bank's device principal (so they are in
the log, refused in the same words as on the console, and a retry with the same call is
answered as before; one with other content is refused saying what differs:
controller/promotions/slots/feed_repeats.py); live credits only update the live view
(controller/feeds/live.py).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from aiohttp import web
from pydantic import Field, StrictInt

from controller.access.keys import Principal
from controller.feeds.live import LiveCredits
from controller.http.api.auth import device_for
from controller.http.api.framework import ApiError, ApiModel, Call, Route
from controller.http.leader import not_leading
from controller.http.shared import hub_key
from controller.promotions.slots import Slots
from controller.promotions.slots.feed_repeats import end_conflict, start_conflict
from controller.promotions.slots.payloads import MAX_SEATS
from showrunner.contract.fields import MAX_SECONDS, EpochMs, Ref, Score

live_credits_key = web.AppKey("live_credits", LiveCredits)

Machine = Annotated[Ref, Field(description="The machine's number as the bank labels it.")]


class StartHeat(ApiModel):
    feed_heat: Annotated[Ref, Field(description="The tournament system's own heat id.")]
    machines: Annotated[list[Machine], Field(
        min_length=1, max_length=MAX_SEATS,
        description="The heat's machines in the bank's sequential order: seats 1..n "
                    "(slots rule 11).")]
    start_credits: Score
    duration_s: Annotated[StrictInt, Field(ge=1, le=MAX_SECONDS)]


class HeatStarted(ApiModel):
    ok: Literal[True]
    stage: Annotated[str, Field(description="The stage's name, e.g. qualifying.")]
    heat: Annotated[str, Field(description="The Showrunner heat it plays, e.g. Heat 3.")]
    ends_at_ms: EpochMs
    seq: StrictInt


class MachineCredits(ApiModel):
    machine: Machine
    credits: Score


class Credits(ApiModel):
    readings: Annotated[list[MachineCredits], Field(min_length=1, max_length=MAX_SEATS)]


class CreditsApplied(ApiModel):
    ok: Literal[True]
    applied: StrictInt


class EndHeat(ApiModel):
    finals: Annotated[list[MachineCredits], Field(
        min_length=1, max_length=MAX_SEATS, description="Every machine of the heat, once.")]


class HeatEnded(ApiModel):
    ok: Literal[True]
    seq: StrictInt


async def _run(call: Call, command: str, payload: dict[str, Any],
               command_id: str) -> dict[str, Any]:
    """Run a feed command as the bank's device; its refusal as an ApiError."""
    hub = call.request.app[hub_key]
    principal: Principal = call.caller
    ack = await hub.execute({"type": command, "payload": payload, "command_id": command_id},
                            principal)
    if not ack.get("ok"):
        raise ApiError(ack["error"]["code"], ack["error"]["message"])
    return {**ack, "seq": ack.get("seq", hub.service.log.last_seq)}


def _slots(call: Call) -> Slots:
    slots = call.request.app[hub_key].service.show.feature(Slots)
    assert isinstance(slots, Slots)
    return slots


async def start_heat(call: Call) -> HeatStarted:
    bank, body = call.params["bank"], call.body
    assert isinstance(body, StartHeat)
    slots = _slots(call)
    known = slots.feeds.get((bank, body.feed_heat))
    if known is not None:  # a retry runs on (its first answer again); else say what differs
        conflict = start_conflict(known, body.machines, body.start_credits, body.duration_s,
                                  slots.config.timezone)
        if conflict is not None:
            raise ApiError.of(conflict)
    ack = await _run(call, "slots.feed_heat_started", {"bank": bank, **body.model_dump()},
                     f"feed:{bank}:{body.feed_heat}:start")
    started = next(e["data"] for e in ack["events"] if e["type"] == "SlotsFeedHeatStarted")
    return HeatStarted(ok=True, stage=started["stage"], heat=started["heat"],
                       ends_at_ms=started["ends_ms"], seq=ack["seq"])


async def credits(call: Call) -> CreditsApplied:
    bank, feed_heat, body = call.params["bank"], call.params["feed_heat"], call.body
    assert isinstance(body, Credits)
    elsewhere = not_leading(call.request.app)
    if elsewhere is not None:
        raise ApiError("not_leader", f"Nothing was done: {elsewhere}")
    slots = _slots(call)
    feed = slots.live_feed(bank, feed_heat)
    slots.check_machines(feed, (r.machine for r in body.readings))
    now = call.request.app[hub_key].service.clock()
    call.request.app[live_credits_key].put(bank, feed_heat,
                                           {r.machine: r.credits for r in body.readings}, now)
    return CreditsApplied(ok=True, applied=len(body.readings))


async def end_heat(call: Call) -> HeatEnded:
    bank, feed_heat, body = call.params["bank"], call.params["feed_heat"], call.body
    assert isinstance(body, EndHeat)
    command_id = f"feed:{bank}:{feed_heat}:end"
    known = _slots(call).feeds.get((bank, feed_heat))
    if known is not None and known.status != "live":  # a retry, or a conflict said in words
        conflict = end_conflict(known, ((f.machine, f.credits) for f in body.finals))
        if conflict is not None:
            raise ApiError.of(conflict)
        principal: Principal = call.caller
        first = call.request.app[hub_key].service.log.ack_for(principal.id, command_id)
        if first is not None:  # its last readings may be gone from memory (a restart)
            return HeatEnded(ok=True, seq=first.ack["seq"])
    last = call.request.app[live_credits_key].of(bank, feed_heat)
    payload = {"bank": bank, "feed_heat": feed_heat,
               "finals": [f.model_dump() for f in body.finals],
               "last_readings": [{"machine": m, "credits": r.credits, "at_ms": r.at_ms}
                                 for m, r in sorted(last.items())]}
    ack = await _run(call, "slots.feed_heat_ended", payload, command_id)
    return HeatEnded(ok=True, seq=ack["seq"])


BANK = device_for("bank")
FEED_ERRORS = {
    400: "Malformed: not strict JSON (a key twice, deeper than 32 levels...), a field wrong, "
         "a machine not in the heat, a key that is not plain text.",
    401: "No key, or an unknown or revoked one.",
    403: "The key is no device's, or reports for another bank.",
    408: "The body did not arrive within the body timeout (30 s unless set).",
    409: "The show's state refuses it (a heat already live, already ended, the feed heat "
         "started or ended before with other content, or restarted by the director...).",
    413: "The body is larger than 64 KiB.",
}
HEAT_ERRORS = {**FEED_ERRORS, 404: "No such heat on this bank."}
ROUTES = [
    Route("POST", "/slots/banks/{bank}/heats", "A heat started on the bank's machines",
          HeatStarted, start_heat, StartHeat, BANK, FEED_ERRORS, "startSlotsHeat"),
    Route("POST", "/slots/banks/{bank}/heats/{feed_heat}/credits",
          "Live credits of some of the heat's machines (up to 2 a second a machine)",
          CreditsApplied, credits, Credits, BANK, HEAT_ERRORS, "postSlotsCredits"),
    Route("POST", "/slots/banks/{bank}/heats/{feed_heat}/end",
          "The heat ended: every machine's final credits, for the director to accept",
          HeatEnded, end_heat, EndHeat, BANK, HEAT_ERRORS, "endSlotsHeat"),
]
