"""What /screens shows of each group's playlists (the `group_playlists` query).

Per group of screens: what it plays now (a takeover, one of its playlists, a playlist's
fallback or the default scene) and when that may next change; each playlist assigned to it
with its text to edit, whether it plays now and, if not, when it may next, and what the group
would play without it; the same for the playlists put on single screens of the group; and the
latest changes of both (put on, edited, taken off: who and when). The words are the page's;
this says which view each scene reads, so the page can name a scene's data without the
catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.screens.feature import CHANGES_KEPT, Screens
from controller.screens.views import REVOKED
from showrunner.contract.playlist.schedule import (
    Slot,
    next_start,
    open_window,
    playlist_slot,
    program_slot,
    screen_slot,
)
from showrunner.contract.playlist.text import playlist_text
from showrunner.contract.scenes import scene_view


def group_report(floor: Screens, now_ms: int) -> dict[str, Any]:
    """Every group with a screen that is not revoked, by name."""
    members: dict[str, list[str]] = {}
    for screen in sorted(floor.screens.values(), key=lambda s: s.screen):
        if screen.status != REVOKED:
            members.setdefault(screen.group, []).append(screen.screen)
    return {"groups": [_group(floor, group, members[group], now_ms)
                       for group in sorted(members)]}


def _group(floor: Screens, group: str, screens: list[str], now_ms: int) -> dict[str, Any]:
    """The group's program; the playlists put on single screens of it (the screens selected
    on /screens), screens holding the same ones together; and the latest changes of both,
    newest first, one for all the screens a command changed alike."""
    takeover = floor.takeovers.get(group)
    own: dict[tuple[tuple[str, str], ...], dict[str, Any]] = {}
    for screen in screens:
        alike = tuple(sorted((e["name"], e["sha256"]) for e in floor.assignments.get(
            f"screen:{screen}", []) if e["until_ms"] is None))
        if alike in own:
            own[alike]["screens"].append(screen)
        elif alike:
            own[alike] = {"screens": [screen], **_program(
                floor, floor.program(screen), f"screen:{screen}", takeover, now_ms)}
    changes: dict[tuple[Any, ...], dict[str, Any]] = {}
    for target in [f"group:{group}", *(f"screen:{s}" for s in screens)]:
        kind, _, name = target.partition(":")
        for change in floor.changes.get(target, []):
            key = (kind, change["what"], change["name"], change["by"], change["at_ms"])
            merged = changes.setdefault(key, {**change, "screens": []})
            if kind == "screen":
                merged["screens"].append(name)
    latest = sorted(changes.values(), key=lambda c: c["at_ms"], reverse=True)
    return {"group": group, "screens": len(screens),
            **_program(floor, floor.group_program(group), f"group:{group}", takeover, now_ms),
            "own": list(own.values()), "changes": latest[:CHANGES_KEPT]}


def _program(floor: Screens, entries: Sequence[Mapping[str, Any]], target: str,
             takeover: Mapping[str, Any] | None, now_ms: int) -> dict[str, Any]:
    """What a target plays now from `entries` (its program, in precedence order) and the
    playlists assigned to the target itself that are not taken off."""
    slot = screen_slot({"playlists": entries, "takeover": takeover}, now_ms)
    mine = {id(e) for e in floor.assignments.get(target, []) if e["until_ms"] is None}
    changes = floor.changes.get(target, [])
    off = floor.boundary(target, now_ms)
    return {"now": _now(slot), "changes_at_ms": _changes_at(entries, takeover, now_ms),
            "playlists": [_playlist(e, entries, slot, floor.texts, changes, now_ms, off)
                          for e in entries if id(e) in mine]}


def _changes_at(entries: Sequence[Mapping[str, Any]], takeover: Mapping[str, Any] | None,
                now_ms: int) -> int | None:
    """The next moment what the group plays may change playlist: an assignment starting or
    stopping, a window opening or closing, a takeover starting or ending; None: not within
    the schedule's look-ahead."""
    moments = [takeover["start_ms"], takeover["end_ms"]] if takeover else []
    for entry in entries:
        window = open_window(entry, now_ms) if entry["windows"] else None
        moments += [entry["anchor_ms"], entry["until_ms"], next_start(entry, now_ms),
                    window and window[1]]
    return min((m for m in moments if m is not None and m > now_ms), default=None)


def _now(slot: Slot) -> dict[str, Any]:
    """What a slot is, without a takeover's id: {kind, name, scene}."""
    kind, _, name = slot.source.partition(":")
    return {"kind": kind, "name": name if kind in ("playlist", "fallback") else "",
            "scene": slot.scene}


def _playlist(entry: Mapping[str, Any], entries: Sequence[Mapping[str, Any]], slot: Slot,
              texts: Mapping[str, str], changes: list[dict[str, Any]], now_ms: int,
              off_ms: int) -> dict[str, Any]:
    """The playlist as /screens shows it; `then`: what its target plays without it, from
    `off_ms`, when it would stop if it were taken off now (an edit still waiting for its
    boundary is playing by then)."""
    name = entry["name"]
    put_on = next((c for c in reversed(changes) if c["name"] == name and c["what"] != "off"),
                  None)  # its latest version's: put on or edited
    others = [e for e in entries if e is not entry and e["until_ms"] is None]  # after it
    plain = {key: entry[key] for key in ("name", "priority", "timezone", "windows", "loop",
                                         "transition", "file")}
    return {**plain,
            "items": [{**item, "reads": scene_view(item["scene"], item["params"])}
                      for item in entry["items"]],
            "fallback": entry["fallback"] and {
                **entry["fallback"],
                "reads": scene_view(entry["fallback"]["scene"], entry["fallback"]["params"])},
            "text": texts.get(entry["sha256"]) or playlist_text(dict(entry)),
            "state": _state(entry, entries, slot, now_ms),
            "next_ms": next_start(entry, now_ms) if playlist_slot(entry, now_ms) is None
            else None,
            "then": _now(program_slot(others, off_ms)),
            "last": dict(put_on) if put_on else None}


def _state(entry: Mapping[str, Any], entries: Sequence[Mapping[str, Any]], slot: Slot,
           now_ms: int) -> str:
    """playing; starting (at the end of the scene playing now); outranked (in its hours, but
    a takeover or a playlist before it plays); waiting (out of its hours); finished (played
    once). A playlist whose start is still ahead is judged as of its start."""
    source = f"playlist:{entry['name']}"
    if slot.source == source:
        return "playing"
    at = max(now_ms, entry["anchor_ms"])
    if at > now_ms and program_slot(entries, at).source == source:
        return "starting"
    if playlist_slot(entry, at) is not None:
        return "outranked"
    return "waiting" if next_start(entry, at) is not None else "finished"
