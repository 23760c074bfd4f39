"""Chooses what the screen shows: its program on the show clock, its status, crashed scenes.

The choice itself is showrunner.contract.playlist.schedule (pure, shared with the controller);
this adds what only the screen knows: that it is waiting for authorisation or was refused, and which
scenes crashed here. A crashed scene is skipped: its time goes to the next scene of the same
playlist that works, then to the fallback, then to the default scene.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from showrunner.contract.playlist.schedule import Slot, screen_slot
from showrunner.contract.scenes import DEFAULT_SCENE
from showrunner.engine.media_gate import MediaGate

log = logging.getLogger(__name__)


def notice(title: str, body: str) -> Slot:
    """A full-screen sentence (the announcement scene, not reading any view)."""
    return Slot("announcement", {"view": None, "title": title, "body": body},
                "crossfade", 0, 2**62, f"notice:{title}")


class Player:
    def __init__(self, screen: str, scene: str = DEFAULT_SCENE,
                 params: Mapping[str, Any] | None = None, gate: MediaGate | None = None) -> None:
        self.screen = screen
        self.gate = gate  # holds back a playlist until its media are here
        self.view_name = f"screen:{screen}"
        self.unprogrammed = Slot(scene, dict(params or {}), "cut", 0, 2**62, "default")
        self.refusal: str | None = None
        self.broken: set[str] = set()

    def slot(self, views: Mapping[str, dict[str, Any]], now_ms: int) -> Slot:
        if self.refusal:
            return notice("This screen is not authorised", self.refusal)
        view = views.get(self.view_name)
        if view is None:  # not enrolled as a screen (a viewer key) or never connected
            return self.unprogrammed
        if view.get("status") == "pending":
            return notice("Waiting for authorisation",
                          f"Screen {self.screen} is enrolled. A technician authorises it "
                          "with: showrunner-controller authorise --screen " + self.screen)
        if view.get("status") == "revoked":
            return notice("This screen is not authorised",
                          f"Screen {self.screen} was revoked by a technician.")
        program = view if self.gate is None else self.gate.view(view, now_ms)
        chosen = screen_slot(program, now_ms)
        return chosen if self.works(chosen) else self.replacement(program, chosen)

    def crashed(self, slot: Slot, error: BaseException) -> None:
        log.error("scene %s crashed (%s: %s); skipping it", slot.scene,
                  type(error).__name__, error, exc_info=error)
        self.broken.add(_identity(slot.scene, slot.params))

    def gave_up(self, slot: Slot, why: str) -> None:
        """The scene cannot play (a video that will not decode): one line, then skipped."""
        log.error("scene %s cannot play: %s; skipping it", slot.scene, why)
        self.broken.add(_identity(slot.scene, slot.params))

    def works(self, slot: Slot) -> bool:
        return _identity(slot.scene, slot.params) not in self.broken

    def replacement(self, view: Mapping[str, Any], slot: Slot) -> Slot:
        """The next working scene of the same playlist, for the broken one's time."""
        name = slot.source.removeprefix("playlist:")
        entry = next((p for p in view.get("playlists", []) if p["name"] == name
                      and slot.source.startswith("playlist:")), None)
        items = entry["items"] if entry else []
        for step in range(1, len(items)):
            index = (slot.index + step) % len(items)
            item = items[index]
            if _identity(item["scene"], item["params"]) not in self.broken:
                return Slot(item["scene"], dict(item["params"]), "cut", slot.start_ms,
                            slot.end_ms, slot.source, index)
        fallback = entry.get("fallback") if entry else None
        if fallback and _identity(fallback["scene"], fallback["params"]) not in self.broken:
            return Slot(fallback["scene"], dict(fallback["params"]), "cut", slot.start_ms,
                        slot.end_ms, f"fallback:{name}")
        return Slot(DEFAULT_SCENE, {}, "cut", slot.start_ms, slot.end_ms, "default")


def _identity(scene: str, params: Mapping[str, Any]) -> str:
    return json.dumps([scene, params], sort_keys=True)
