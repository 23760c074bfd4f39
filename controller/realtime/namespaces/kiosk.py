"""/kiosk: an ehost kiosk, where a member swipes their card and activates their own entries.

A kiosk key's holder name is the kiosk ("Lobby kiosk", docs/ehost.md). A kiosk may do nothing
but look up the member whose card it was given and activate that member's Wild Card tickets
(slots rules 18.3, 33.3, inside the bins' hours of rule 36): it is sent no views, asks no
queries and its `command` is refused. Every look-up and activation is recorded beside the log
(`member_calls`: which kiosk, when, which card, what, how it was answered) and counted against
the kiosk's rate (`RATE`), so a reader that repeats or a swipe storm is refused in words.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, cast

from pydantic import TypeAdapter, ValidationError

from controller.access.keys import Principal
from controller.access.rates import RateLimit, Rates
from controller.application.service import STORAGE_UNAVAILABLE
from controller.domain.errors import Rejected
from controller.promotions.wildcard import Wildcard
from controller.promotions.wildcard.entries import (
    EntryDoc,
    bins_state,
    day_time,
    member_entry,
)
from controller.realtime.devices import Devices
from controller.realtime.hub import Hub
from controller.realtime.namespaces.base import AudienceNamespace
from controller.store.calls import MemberCall
from controller.store.sqlite import StorageUnavailable
from showrunner.contract.fields import CardNumber

#: a swipe is a look-up and maybe an activation: 6 at once, then one a second (docs/ehost.md)
RATE = RateLimit(per_s=1, burst=6)
ACTIVATE = "wildcard.activate_at_kiosk"
BAD_CARD = Rejected("bad_payload", "That is not a card number. Swipe your Rewards card again, "
                    "or type its 6 to 20 digits on the keypad.")
_CARD: TypeAdapter[str] = TypeAdapter(CardNumber)
Answer = Callable[[str], Awaitable[dict[str, Any]]]  # a valid card -> the reply


class KioskNamespace(AudienceNamespace):
    path = "/kiosk"
    roles = frozenset({"kiosk"})

    def __init__(self, hub: Hub, devices: Devices) -> None:
        super().__init__(hub)
        self.devices = devices
        self.rates = Rates(RATE)

    async def joined(self, sid: str, session: dict[str, Any]) -> None:
        """No views room: a kiosk is sent nothing but its answers."""
        self.devices.connected(session["principal"].name, sid, "kiosk")

    async def on_disconnect(self, sid: str, reason: Any = None) -> None:
        await super().on_disconnect(sid, reason)
        principal = (await self.get_session(sid)).get("principal")
        if principal is not None:
            self.devices.disconnected(principal.name, sid, "kiosk")

    def may_see(self, session: dict[str, Any]) -> Callable[[str], bool]:
        return lambda name: False

    async def on_hello(self, sid: str, data: Any = None) -> dict[str, Any]:
        """The kiosk's name and the bins' hours, for the page's idle screen."""
        principal = (await self.get_session(sid))["principal"]
        draw = self._draw()
        return {"ok": True, "kiosk": principal.name, "draw": {
            "title": "Wild Card draw",
            "bins_open": day_time(draw, draw.config.bins_open_ms),
            "bins_close": day_time(draw, draw.config.bins_close_ms),
            "state": bins_state(draw, self.hub.service.clock())}}

    async def on_lookup(self, sid: str, data: Any = None) -> dict[str, Any]:
        """`{"card"}` -> the member's entry (`EntryDoc`), or the one answer for no tickets."""
        principal = (await self.get_session(sid))["principal"]
        return await self._call(principal, data, "lookup", self._lookup)

    async def _lookup(self, card: str) -> dict[str, Any]:
        draw = self._draw()
        entry = member_entry(draw, card, self.hub.service.clock())
        return {"ok": True, "entry": EntryDoc.of(draw, entry).model_dump()}

    async def on_activate(self, sid: str, data: Any = None) -> dict[str, Any]:
        """`{"card"}` -> the entry once activated and the event's sequence; a repeated tap
        sends the same command id, so it gets the first ack."""
        principal = (await self.get_session(sid))["principal"]
        return await self._call(principal, data, "activate", self._activator(principal))

    def _activator(self, principal: Principal) -> Answer:
        async def activate(card: str) -> dict[str, Any]:
            draw = self._draw()  # one activation a card a draw day: a retap is answered as before
            command_id = f"kiosk:wildcard:{draw.config.draw_day.isoformat()}:{card}"
            ack = await self.hub.execute({"type": ACTIVATE, "payload": {"card": card},
                                          "command_id": command_id}, principal)
            if not ack["ok"]:
                return {"ok": False, "error": ack["error"]}
            entry = member_entry(draw, card, self.hub.service.clock())
            return {"ok": True, "entry": EntryDoc.of(draw, entry).model_dump(),
                    "seq": ack["seq"]}
        return activate

    async def _call(self, principal: Principal, data: Any, action: str,
                    answer: Answer) -> dict[str, Any]:
        """Rate, check the card, answer, record the call and count it on /screens."""
        card = data.get("card") if isinstance(data, dict) else None
        try:
            self.rates.take(principal.id, principal.name)
            card = _card(card)
            reply = await answer(card)
        except Rejected as exc:
            reply = exc.refusal()
        if isinstance(card, str) and _is_card(card):  # a malformed card is no member's
            outcome = "ok" if reply["ok"] else reply["error"]["code"]
            try:
                self.hub.service.log.record_call(MemberCall(
                    self.hub.service.clock(), principal.id, principal.name, "kiosk", card,
                    action, outcome))
            except StorageUnavailable:  # an unrecorded call is not answered
                reply = STORAGE_UNAVAILABLE.refusal()
        self.devices.swiped(principal.name, bool(reply["ok"]))
        return reply

    def _draw(self) -> Wildcard:
        return cast(Wildcard, self.hub.service.show.feature(Wildcard))


def _card(card: Any) -> str:
    if not _is_card(card):
        raise BAD_CARD
    return str(card)


def _is_card(card: Any) -> bool:
    try:
        _CARD.validate_python(card)
    except ValidationError:
        return False
    return True
