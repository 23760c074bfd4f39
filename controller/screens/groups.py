"""What /screens shows of each group's playlists (the `group_playlists` query).

Per group of screens: what it plays now (a takeover, one of its playlists, a playlist's
fallback or the default scene) and when that may next change; each playlist assigned to it
with its text to edit, whether it plays now and, if not, when it may next, and what the group
would play without it; and the group's latest changes (put on, edited, taken off: who and
when). The words are the page's; this says which view each scene reads, so the page can name
a scene's data without the catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.screens.feature import Screens
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
    sizes: dict[str, int] = {}
    for screen in floor.screens.values():
        if screen.status != REVOKED:
            sizes[screen.group] = sizes.get(screen.group, 0) + 1
    return {"groups": [_group(floor, group, sizes[group], now_ms) for group in sorted(sizes)]}


def _group(floor: Screens, group: str, size: int, now_ms: int) -> dict[str, Any]:
    changes = floor.changes.get(f"group:{group}", [])
    entries = sorted(floor.assignments.get(f"group:{group}", []),
                     key=lambda e: (-e["priority"], -e["anchor_ms"]))  # a group's precedence
    takeover = floor.takeovers.get(group)
    slot = screen_slot({"playlists": entries, "takeover": takeover}, now_ms)
    live = [e for e in entries if e["until_ms"] is None]
    return {"group": group, "screens": size, "now": _now(slot),
            "changes_at_ms": _changes_at(entries, takeover, now_ms),
            "playlists": [_playlist(e, entries, slot, floor.texts, changes, now_ms)
                          for e in live],
            "changes": [dict(c) for c in reversed(changes)]}


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
              texts: Mapping[str, str], changes: list[dict[str, Any]],
              now_ms: int) -> dict[str, Any]:
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
            "state": _state(entry, slot, now_ms),
            "next_ms": next_start(entry, now_ms) if playlist_slot(entry, now_ms) is None
            else None,
            "then": _now(program_slot(others, now_ms)),
            "last": dict(put_on) if put_on else None}


def _state(entry: Mapping[str, Any], slot: Slot, now_ms: int) -> str:
    """playing; outranked (in its hours, but a takeover or a playlist before it plays);
    waiting (out of its hours, or its start is still ahead); finished (played once)."""
    if slot.source == f"playlist:{entry['name']}":
        return "playing"
    if playlist_slot(entry, now_ms) is not None:
        return "outranked"
    return "waiting" if next_start(entry, now_ms) is not None else "finished"
