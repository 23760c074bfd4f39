"""What the screens feature publishes: each screen's own view and the technicians' summary.

A screen computes what to show from its view `screen:<id>` (status, group, playlists in
precedence order, its group's takeover) and the show clock
(showrunner.contract.playlist.schedule), so a group changes scenes together.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
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

    def group_program(self, group: str) -> list[dict[str, Any]]:
        """The group's playlists in precedence order: what a screen of it with none of its own
        plays."""
        return sorted(self.assignments.get(f"group:{group}", []),
                      key=lambda e: (-e["priority"], -e["anchor_ms"]))

    def view_names(self) -> Iterable[str]:
        return [screen_view(s) for s in self.screens] + [OPS_VIEW, MEDIA_VIEW]

    def view(self, name: str) -> dict[str, Any]:
        return self.views([name])[0]

    def views(self, names: list[str]) -> list[dict[str, Any]]:
        """Each screen's program is computed once per target and copied once for all the
        screens that play it: a playlist assigned to a group of 1000 re-renders 1000 views
        (and the summary) in one command's loop callback."""
        programs: dict[tuple[str, str], list[dict[str, Any]]] = {}

        def program(screen: str) -> list[dict[str, Any]]:
            record = self.screens[screen]
            # a screen with playlists of its own has a program of its own
            key = (screen, "") if f"screen:{screen}" in self.assignments else ("", record.group)
            if key not in programs:
                # copies of what state changes in place (an entry's until_ms), so the published
                # document does not move; the playlists inside, from their events, are never
                # changed and are shared (a deep copy for each of 1000 screens held the loop)
                programs[key] = [dict(e) for e in self.program(screen)]
            return programs[key]

        return [self._ops_doc(program) if name == OPS_VIEW
                else self.catalogue() if name == MEDIA_VIEW
                else self._screen_doc(name.removeprefix(VIEW_PREFIX), program) for name in names]

    def _screen_doc(self, screen: str, program: Callable[[str], list[dict[str, Any]]]
                ) -> dict[str, Any]:
        record = self.screens[screen]
        playing = record.status == AUTHORISED
        takeover = self.takeovers.get(record.group) if playing else None
        return {"screen": record.screen, "name": record.name, "group": record.group,
                "status": record.status,
                "playlists": list(program(screen)) if playing else [],
                "takeover": None if takeover is None else dict(takeover)}

    def _ops_doc(self, program: Callable[[str], list[dict[str, Any]]]) -> dict[str, Any]:
        return {"screens": [self._summary(s, program) for s in sorted(self.screens)]}

    def _summary(self, screen: str, program: Callable[[str], list[dict[str, Any]]]
                 ) -> dict[str, Any]:
        record = self.screens[screen]
        takeover = self.takeovers.get(record.group)
        return {"screen": screen, "name": record.name, "group": record.group,
                "status": record.status,
                "playlists": [e["name"] for e in program(screen) if e["until_ms"] is None],
                "takeover": takeover["scene"] if takeover and takeover["end_ms"] is None
                else None}
