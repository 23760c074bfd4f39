"""Floor screens: enrolment and keys, groups, playlist assignments and live takeovers.

Technicians enrol a screen with the SHA-256 of a key they generated (the key itself never
reaches the controller or the log), authorise it once it shows up, move it between groups and
revoke it. Playlists arrive as YAML text, are validated here before any screen sees them, and
are assigned to screens or groups. Operators take a group over with a live scene. Playlists
and takeover parameters are checked against the scene catalogue (showrunner.contract.scenes)
and the floor's audience (controller/screens/audience.py): a value a screen could not draw, or
a view no screen receives, is refused with a sentence, and nothing changes.

A new playlist starts at the next scene boundary of what the target plays now: that moment is
computed here, stored in the event, and never depends on when a screen hears of it. What each
screen is sent is controller/screens/views.py.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from typing import Any

from controller.domain.commands import Command, Context
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.feature import Feature, Handler
from controller.domain.keys import key_hash
from controller.screens.audience import check_takeover, floor_playlist
from controller.screens.events import (
    PlaylistAssigned,
    PlaylistUnassigned,
    ScreenAuthorised,
    ScreenEnrolled,
    ScreenMovedToGroup,
    ScreenRevoked,
    TakeoverEnded,
    TakeoverStarted,
)
from controller.screens.payloads import (
    Assign,
    EndTakeover,
    Enrol,
    Move,
    MoveMany,
    Revoke,
    ScreenOnly,
    StartTakeover,
    Unassign,
)
from controller.screens.views import (
    AUTHORISED,
    OPS_VIEW,
    REVOKED,
    Screen,
    ScreensViews,
    screen_view,
)
from showrunner.contract.playlist.schedule import program_slot
from showrunner.contract.playlist.validate import PlaylistError, check_scene

SWITCH_LEAD_MS = 300  # time for a change to reach every screen before it shows
CHANGES_KEPT = 10  # a target's latest playlist changes /screens lists
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
_HASH = re.compile(r"^[0-9a-f]{64}$")


class Screens(ScreensViews, Feature):
    name = "screens"

    def __init__(self) -> None:
        self.screens: dict[str, Screen] = {}
        self.media: dict[str, dict[str, Any]] = {}  # name -> the file it means now
        self.media_files: dict[str, str] = {}  # sha256 -> kind, every file ever named
        self.assignments: dict[str, list[dict[str, Any]]] = {}  # target -> entries
        self.texts: dict[str, str] = {}  # sha256 -> a playlist's text as written
        self.changes: dict[str, list[dict[str, Any]]] = {}  # target -> its latest changes
        self.takeovers: dict[str, dict[str, Any]] = {}  # group -> takeover
        self._takeovers_started = 0

    # -- queries used by the connection layer ---------------------------------------------
    def authenticate(self, screen: Any, key: Any) -> tuple[Screen | None, str]:
        """(the screen, "") if `key` is its key and it is not revoked; else (None, why)."""
        record = self.screens.get(screen) if isinstance(screen, str) else None
        if record is None or not isinstance(key, str) or key_hash(key) != record.key_hash:
            return None, f"Unknown or revoked key for screen {screen!r}."
        if record.status == REVOKED:
            return None, revoked_sentence(record.screen)
        return record, ""

    def targets_of_file(self, file: str) -> list[str]:
        return sorted(t for t, entries in self.assignments.items()
                      if any(e["file"] == file and e["until_ms"] is None for e in entries))

    # -- commands ---------------------------------------------------------------------------
    def commands(self) -> Iterable[Command[Any]]:
        return (
            Command("screens.enrol", "technician", Enrol, self.enrol,
                    "Enrol a screen with the SHA-256 of its key; it waits for authorisation."),
            Command("screens.authorise", "technician", ScreenOnly, self.authorise,
                    "Let an enrolled screen show the show."),
            Command("screens.move", "technician", Move, self.move,
                    "Move a screen to another group."),
            Command("screens.move_many", "technician", MoveMany, self.move_many,
                    "Move several screens to a group at once: all of them, or none."),
            Command("screens.revoke", "technician", Revoke, self.revoke,
                    "Revoke a screen's key; it is refused from now on."),
            Command("playlists.assign", "technician", Assign, self.assign,
                    "Validate a playlist (its YAML text) and play it on screens or groups."),
            Command("playlists.unassign", "technician", Unassign, self.unassign,
                    "Stop a playlist on screens or groups at their next scene boundary."),
            Command("takeover.start", "operator", StartTakeover, self.start_takeover,
                    "Take a group of screens over with a live scene."),
            Command("takeover.end", "operator", EndTakeover, self.end_takeover,
                    "Hand a group's screens back to their playlists."),
            *self.media_commands(),
        )

    def enrol(self, p: Enrol, ctx: Context) -> list[DomainEvent]:
        _check_name(p.screen, "screen id")
        _check_name(p.group, "group")
        if not _HASH.match(p.key_hash):
            raise Rejected("bad_key_hash", "key_hash must be the SHA-256 of the screen's key, "
                                           "as 64 lowercase hex digits.")
        known = self.screens.get(p.screen)
        if known is not None and known.status != REVOKED:
            raise Rejected("already_enrolled", f"Screen {p.screen!r} is already enrolled; "
                                               "revoke it first to give it a new key.")
        return [ScreenEnrolled(p.screen, p.name.strip() or p.screen, p.group, p.key_hash)]

    def authorise(self, p: ScreenOnly, ctx: Context) -> list[DomainEvent]:
        record = self._screen(p.screen)
        if record.status == REVOKED:
            raise Rejected("revoked", f"Screen {p.screen!r} was revoked; enrol it again.")
        if record.status == AUTHORISED:
            return []
        return [ScreenAuthorised(p.screen)]

    def move(self, p: Move, ctx: Context) -> list[DomainEvent]:
        record = self._screen(p.screen)
        _check_name(p.group, "group")
        return [] if record.group == p.group else [ScreenMovedToGroup(p.screen, p.group)]

    def move_many(self, p: MoveMany, ctx: Context) -> list[DomainEvent]:
        """All or nothing: one unknown screen refuses the lot, so a technician never has to
        find out which half of a selection moved."""
        _check_name(p.group, "group")
        unknown = [s for s in dict.fromkeys(p.screens) if s not in self.screens]
        if unknown:
            raise Rejected("unknown_screen", f"No screen was moved: there is no screen "
                                             f"{', '.join(map(repr, unknown[:5]))}"
                                             f"{' and more' if len(unknown) > 5 else ''}.")
        return [ScreenMovedToGroup(s, p.group) for s in dict.fromkeys(p.screens)
                if self.screens[s].group != p.group]

    def revoke(self, p: Revoke, ctx: Context) -> list[DomainEvent]:
        record = self._screen(p.screen)
        return [] if record.status == REVOKED else [ScreenRevoked(p.screen, p.reason)]

    def assign(self, p: Assign, ctx: Context) -> list[DomainEvent]:
        try:
            playlist = floor_playlist(p.yaml, p.file)
        except PlaylistError as exc:
            raise Rejected("bad_playlist", "The playlist has errors; no screen was changed:\n"
                           + str(exc)) from exc
        media = self.resolve_media(playlist)
        targets = self._targets(p.screens, p.groups)
        digest = hashlib.sha256(p.yaml.encode()).hexdigest()
        events: list[DomainEvent] = []
        for target in targets:
            anchor = self.boundary(target, ctx.now_ms)
            events.append(PlaylistAssigned(target, p.file, digest, playlist, ctx.now_ms, anchor,
                                           media, ctx.actor, "" if events else p.yaml))
            if p.replaces not in ("", playlist["name"]) and self._plays(target, p.replaces):
                # an edit that renamed its playlist: the old name stops as the new one starts
                events.append(PlaylistUnassigned(target, p.replaces, anchor, ctx.actor,
                                                 ctx.now_ms))
        return events

    def unassign(self, p: Unassign, ctx: Context) -> list[DomainEvent]:
        targets = self._targets(p.screens, p.groups)
        events: list[DomainEvent] = [
            PlaylistUnassigned(target, p.name, self.boundary(target, ctx.now_ms), ctx.actor,
                               ctx.now_ms)
            for target in targets if self._plays(target, p.name)]
        if not events:
            raise Rejected("not_assigned", f"Playlist {p.name!r} is not assigned there.")
        return events

    def start_takeover(self, p: StartTakeover, ctx: Context) -> list[DomainEvent]:
        self._group(p.group)
        try:
            checked = check_scene(p.scene, p.params, "takeover")
        except PlaylistError as exc:
            messages = "; ".join(problem.message for problem in exc.problems)
            raise Rejected("bad_scene", f"The takeover cannot be shown: {messages}.") from exc
        check_takeover(checked["scene"], checked["params"])
        body = str(checked["params"].get("body", ""))
        if checked["scene"] == "announcement" and not body.strip():
            raise Rejected("no_text", "An announcement needs its text: type what the screens "
                                      "should say, then send it again.")
        return [TakeoverStarted(p.group, f"T{self._takeovers_started + 1}", checked["scene"],
                                checked["params"], ctx.now_ms + SWITCH_LEAD_MS)]

    def end_takeover(self, p: EndTakeover, ctx: Context) -> list[DomainEvent]:
        takeover = self.takeovers.get(p.group)
        if takeover is None or takeover["end_ms"] is not None:
            raise Rejected("no_takeover", f"Group {p.group!r} is not taken over.")
        return [TakeoverEnded(p.group, takeover["id"], ctx.now_ms + SWITCH_LEAD_MS)]

    # -- helpers for commands ---------------------------------------------------------------
    def _screen(self, screen: str) -> Screen:
        record = self.screens.get(screen)
        if record is None:
            raise Rejected("unknown_screen", f"There is no screen {screen!r}.")
        return record

    def _group(self, group: str) -> None:
        groups = sorted({s.group for s in self.screens.values() if s.status != REVOKED})
        if group not in groups:
            raise Rejected("unknown_group", f"No screen is in group {group!r} "
                                            f"(groups: {', '.join(groups) or 'none yet'}).")

    def _targets(self, screens: list[str], groups: list[str]) -> list[str]:
        if not screens and not groups:
            raise Rejected("no_target", "Name at least one screen or group.")
        for screen in screens:
            if self._screen(screen).status == REVOKED:
                raise Rejected("revoked", f"Screen {screen!r} was revoked.")
        for group in groups:
            self._group(group)
        return [f"screen:{s}" for s in dict.fromkeys(screens)] + \
               [f"group:{g}" for g in dict.fromkeys(groups)]

    def _plays(self, target: str, name: str) -> bool:
        """Whether playlist `name` is assigned to `target` and not taken off."""
        return any(e["name"] == name and e["until_ms"] is None
                   for e in self.assignments.get(target, []))

    def boundary(self, target: str, now_ms: int) -> int:
        """When a change to `target` shows: the end of the playlist scene it plays once the
        change has had time to reach the screens, or at once if it plays no playlist."""
        soon = now_ms + SWITCH_LEAD_MS
        kind, _, name = target.partition(":")
        playing = self.program(name) if kind == "screen" else self.group_program(name)
        slot = program_slot(playing, soon)
        return slot.end_ms if slot.source.startswith("playlist:") else soon

    # -- state ------------------------------------------------------------------------------
    def handlers(self) -> Mapping[type[DomainEvent], Handler]:
        return {ScreenEnrolled: self._enrolled, ScreenAuthorised: self._authorised,
                ScreenRevoked: self._revoked, ScreenMovedToGroup: self._moved,
                PlaylistAssigned: self._assigned, PlaylistUnassigned: self._unassigned,
                TakeoverStarted: self._takeover_started, TakeoverEnded: self._takeover_ended,
                **self.media_handlers()}

    def _enrolled(self, event: ScreenEnrolled) -> Iterable[str]:
        self.screens[event.screen] = Screen(event.screen, event.name, event.group,
                                            event.key_hash)
        return (screen_view(event.screen), OPS_VIEW)

    def _authorised(self, event: ScreenAuthorised) -> Iterable[str]:
        self.screens[event.screen].status = AUTHORISED
        return (screen_view(event.screen), OPS_VIEW)

    def _revoked(self, event: ScreenRevoked) -> Iterable[str]:
        self.screens[event.screen].status = REVOKED
        return (screen_view(event.screen), OPS_VIEW)

    def _moved(self, event: ScreenMovedToGroup) -> Iterable[str]:
        self.screens[event.screen].group = event.group
        return (screen_view(event.screen), OPS_VIEW)

    def _unassigned(self, event: PlaylistUnassigned) -> Iterable[str]:
        for entry in self.assignments.get(event.target, []):
            if entry["name"] == event.name and entry["until_ms"] is None:
                entry["until_ms"] = event.until_ms
        self._changed(event.target, "off", event.name, event.by, event.at_ms)
        return self._views_of(event.target)

    def _takeover_started(self, event: TakeoverStarted) -> Iterable[str]:
        self._takeovers_started += 1
        self.takeovers[event.group] = {
            "id": event.takeover, "scene": event.scene, "params": event.params,
            "start_ms": event.start_ms, "end_ms": None}
        return self._views_of(f"group:{event.group}")

    def _takeover_ended(self, event: TakeoverEnded) -> Iterable[str]:
        self.takeovers[event.group]["end_ms"] = event.end_ms
        return self._views_of(f"group:{event.group}")

    def _assigned(self, event: PlaylistAssigned) -> Iterable[str]:
        entries = [e for e in self.assignments.get(event.target, [])
                   if e["until_ms"] is None or e["until_ms"] > event.assigned_ms]
        what = "on"
        for entry in entries:
            if entry["name"] == event.playlist["name"] and entry["until_ms"] is None:
                entry["until_ms"] = event.anchor_ms
                what = "edited"
        entries.append({**event.playlist, "file": event.file, "sha256": event.sha256,
                        "anchor_ms": event.anchor_ms, "until_ms": None, "media": event.media})
        self.assignments[event.target] = entries
        if event.yaml:
            self.texts[event.sha256] = event.yaml
        self._changed(event.target, what, event.playlist["name"], event.by, event.assigned_ms)
        return self._views_of(event.target)

    def _changed(self, target: str, what: str, name: str, by: str, at_ms: int) -> None:
        """Keep the target's latest changes for /screens: put on, edited, taken off."""
        changes = self.changes.setdefault(target, [])
        changes.append({"what": what, "name": name, "by": by, "at_ms": at_ms})
        del changes[:-CHANGES_KEPT]

    def _views_of(self, target: str) -> list[str]:
        kind, _, name = target.partition(":")
        if kind == "screen":
            return [screen_view(name), OPS_VIEW]
        return [screen_view(s.screen) for s in self.screens.values()
                if s.group == name] + [OPS_VIEW]


def revoked_sentence(screen: str) -> str:
    return f"Screen {screen!r} was revoked by a technician; enrol it again to bring it back."


def _check_name(value: str, what: str) -> None:
    if not _NAME.match(value):
        raise Rejected("bad_name", f"A {what} is 1 to 40 lowercase letters, digits, '-' or "
                                   f"'_', starting with a letter or digit; not {value!r}.")
