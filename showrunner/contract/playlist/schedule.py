"""What a screen plays at a moment of the show clock.

Pure: a screen's program (its `screen:<id>` view) and a show-clock time give one slot. Every
screen of a group holds the same program and the same clock, so they change scenes at the same
instant without any message per change; a screen that restarts or reconnects lands where the
others are. The controller uses the same functions to find the boundary at which a newly
assigned playlist starts.

A program entry is a playlist document (showrunner.contract.playlist.validate) plus
`anchor_ms` (when it starts) and `until_ms` (when it stops, or None). Entries are listed in
precedence order.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from showrunner.contract.scenes import DEFAULT_SCENE, OVERLAY_VIEWS, scene_view

IDLE_RECHECK_MS = 60_000
FAR_FUTURE_MS = 2**62
LOOKAHEAD_DAYS = 8

Entry = Mapping[str, Any]


@dataclass(frozen=True)
class Slot:
    """One scene to show from `start_ms` until at least `end_ms` (then ask again)."""

    scene: str
    params: dict[str, Any] = field(default_factory=dict)
    transition: str = "cut"
    start_ms: int = 0
    end_ms: int = FAR_FUTURE_MS
    source: str = "default"  # "playlist:<name>", "takeover:<id>", "fallback:<name>", "default"
    index: int = -1

    @property
    def key(self) -> tuple[str, int, int]:
        """Identity: a new key means a new scene starts. A fallback or default scene that
        keeps going keeps its key."""
        if self.source.startswith(("playlist:", "takeover:")):
            return (self.source, self.index, self.start_ms)
        return (self.source, self.index, 0)


def _zone(name: str) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(name)


def _window_spans(doc: Entry, around_ms: int, days: Iterable[int]) -> Iterable[tuple[int, int]]:
    """(start, end) in epoch ms of each window occurrence that starts on the given day offsets
    from the local date of `around_ms`. A window belongs to the day it starts on."""
    tz = _zone(doc["timezone"])
    today = dt.datetime.fromtimestamp(around_ms / 1000, tz).date()
    for offset in days:
        day = today + dt.timedelta(days=offset)
        midnight = dt.datetime.combine(day, dt.time(0), tzinfo=tz)
        for window in doc["windows"]:
            if day.weekday() in window["days"]:
                start = midnight + dt.timedelta(minutes=window["from_min"])
                end = midnight + dt.timedelta(minutes=window["to_min"])
                yield int(start.timestamp() * 1000), int(end.timestamp() * 1000)


def open_window(doc: Entry, t: int) -> tuple[int, int] | None:
    """The window occurrence open at `t` (start inclusive, end exclusive), if any."""
    spans = [s for s in _window_spans(doc, t, (-1, 0)) if s[0] <= t < s[1]]
    return min(spans) if spans else None


def next_opening(doc: Entry, t: int) -> int | None:
    starts = [s for s, _ in _window_spans(doc, t, range(LOOKAHEAD_DAYS)) if s > t]
    return min(starts) if starts else None


def playlist_slot(entry: Entry, t: int) -> Slot | None:
    """The entry's item at `t`, or None if it is not playing then."""
    until = entry.get("until_ms")
    if until is not None and t >= until:
        return None
    start, close = entry["anchor_ms"], until
    if entry["windows"]:
        window = open_window(entry, t)
        if window is None:
            return None
        start = max(start, window[0])
        close = window[1] if close is None else min(close, window[1])
    items = entry["items"]
    cycle = sum(item["duration_ms"] for item in items)
    if t < start or not items or (not entry["loop"] and t - start >= cycle):
        return None
    item_start = t - (t - start) % cycle
    for index, item in enumerate(items):
        item_end = item_start + item["duration_ms"]
        if t < item_end:
            end = item_end if close is None else min(item_end, close)
            return Slot(item["scene"], dict(item["params"]), item["transition"], item_start,
                        end, f"playlist:{entry['name']}", index)
        item_start = item_end
    return None  # unreachable: t lies within the cycle


def next_start(entry: Entry, t: int) -> int | None:
    """The next moment after `t` at which the entry may start playing."""
    until = entry.get("until_ms")
    if until is not None and t >= until:
        return None
    anchor = entry["anchor_ms"]
    if not entry["windows"]:
        return anchor if anchor > t else None
    opening = next_opening(entry, max(t, anchor - 1))
    return opening


def program_slot(entries: Sequence[Entry], t: int) -> Slot:
    """The first entry (by precedence) that plays at `t`; otherwise the first fallback of an
    entry not taken off, otherwise the default scene. The slot ends early when an earlier
    entry starts (or the fallback's entry is taken off)."""
    cap = FAR_FUTURE_MS
    for entry in entries:
        slot = playlist_slot(entry, t)
        if slot is not None:
            return _capped(slot, cap)
        starts = next_start(entry, t)
        if starts is not None:
            cap = min(cap, starts)
    cap = min(cap, t + IDLE_RECHECK_MS)
    for entry in entries:
        fallback = entry.get("fallback")
        until = entry.get("until_ms")
        if fallback and (until is None or t < until):
            return Slot(fallback["scene"], dict(fallback["params"]), entry["transition"], t,
                        cap if until is None else min(cap, until), f"fallback:{entry['name']}")
    return Slot(DEFAULT_SCENE, {}, "crossfade", t, cap, "default")


def screen_slot(view: Mapping[str, Any], t: int) -> Slot:
    """What a screen whose `screen:<id>` view is `view` shows at `t`: a takeover while it
    runs, otherwise its playlists."""
    takeover = view.get("takeover")
    if takeover:
        start, end = takeover["start_ms"], takeover.get("end_ms") or FAR_FUTURE_MS
        if start <= t < end:
            return Slot(takeover["scene"], dict(takeover["params"]), "cut", start, end,
                        f"takeover:{takeover['id']}")
        if t < start:
            return _capped(program_slot(view.get("playlists", []), t), start)
    return program_slot(view.get("playlists", []), t)


def _capped(slot: Slot, cap: int) -> Slot:
    if slot.end_ms <= cap:
        return slot
    return Slot(slot.scene, slot.params, slot.transition, slot.start_ms, cap, slot.source,
                slot.index)


def program_views(view: Mapping[str, Any]) -> set[str]:
    """Every view a screen whose `screen:<id>` view is `view` may read from now on: its
    playlists' scenes and fallbacks, its group's running takeover, the default scene and the
    overlays. The controller sends a screen these views and no others (its subscriptions)."""
    slots: list[tuple[str, Mapping[str, Any]]] = [(DEFAULT_SCENE, {})]
    for entry in view.get("playlists") or []:
        slots += [(item["scene"], item["params"]) for item in entry.get("items", [])]
        fallback = entry.get("fallback")
        if fallback:
            slots.append((fallback["scene"], fallback["params"]))
    takeover = view.get("takeover")
    if takeover and takeover.get("end_ms") is None:  # an ended one keeps what it had
        slots.append((takeover["scene"], takeover["params"]))
    names = {scene_view(scene, params) for scene, params in slots}
    return {name for name in names if name} | set(OVERLAY_VIEWS)
