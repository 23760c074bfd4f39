"""What the screens feature publishes: each screen's own view and the technicians' summary.

A screen computes what to show from its view `screen:<id>` (status, group, playlists in
precedence order, its group's takeover) and the show clock
(showrunner.contract.playlist.schedule), so a group changes scenes together.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from controller.screens.media import MEDIA_VIEW, MediaCatalogue

VIEW_PREFIX = "screen:"
OPS_VIEW = "ops:screens"
PENDING, AUTHORISED, REVOKED = "pending", "authorised", "revoked"


@dataclass
class Screen:
    screen: str
    name: str
    group: str
    key_hash: str
    status: str = PENDING


def screen_view(screen: str) -> str:
    """The view (and the /display room) of one screen."""
    return f"{VIEW_PREFIX}{screen}"


class ScreensViews(MediaCatalogue):
    """A mixin of `Screens`: it only reads the floor's state (and the media catalogue)."""

    screens: dict[str, Screen]
    assignments: dict[str, list[dict[str, Any]]]  # target -> entries
    takeovers: dict[str, dict[str, Any]]  # group -> takeover

    def program(self, screen: str) -> list[dict[str, Any]]:
        """The screen's playlists in precedence order: priority, then the screen's own before
        its group's, then the newest assignment."""
        record = self.screens[screen]
        own = self.assignments.get(f"screen:{screen}", [])
        group = self.assignments.get(f"group:{record.group}", [])
        ranked = [(e, 0) for e in own] + [(e, 1) for e in group]
        ranked.sort(key=lambda pair: (-pair[0]["priority"], pair[1], -pair[0]["anchor_ms"]))
        return [e for e, _ in ranked]

    def view_names(self) -> Iterable[str]:
        return [screen_view(s) for s in self.screens] + [OPS_VIEW, MEDIA_VIEW]

    def view(self, name: str) -> dict[str, Any]:
        if name == OPS_VIEW:
            return {"screens": [self._summary(s) for s in sorted(self.screens)]}
        if name == MEDIA_VIEW:
            return self.catalogue()
        record = self.screens[name.removeprefix(VIEW_PREFIX)]
        playing = record.status == AUTHORISED
        takeover = self.takeovers.get(record.group) if playing else None
        # copies of what state changes in place (an entry's until_ms, a takeover's end_ms), so
        # the published document does not move; the playlists inside, from their events, are
        # never changed and are shared (a deep copy for each of 1000 screens held the loop)
        return {"screen": record.screen, "name": record.name, "group": record.group,
                "status": record.status,
                "playlists": [dict(e) for e in self.program(record.screen)] if playing else [],
                "takeover": None if takeover is None else dict(takeover)}

    def _summary(self, screen: str) -> dict[str, Any]:
        record = self.screens[screen]
        takeover = self.takeovers.get(record.group)
        return {"screen": screen, "name": record.name, "group": record.group,
                "status": record.status,
                "playlists": [e["name"] for e in self.program(screen) if e["until_ms"] is None],
                "takeover": takeover["scene"] if takeover and takeover["end_ms"] is None
                else None}
