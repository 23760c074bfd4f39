"""A checked playlist document back as YAML a technician can edit (the inverse of validate.py).

The controller keeps each playlist's text as it was written; a playlist assigned before it did
has only its checked document, and /screens edits it as this text. Checking the text gives the
same document again (tests/contract/test_playlist_text.py).
"""

from __future__ import annotations

from typing import Any

import yaml

from showrunner.contract.playlist.validate import (
    DAY_SETS,
    DAYS,
    DEFAULT_TIMEZONE,
    DEFAULT_TRANSITION,
)


def playlist_text(doc: dict[str, Any]) -> str:
    """The playlist as YAML: defaults left out, times and durations as a person writes them."""
    out: dict[str, Any] = {"name": doc["name"]}
    if doc["priority"]:
        out["priority"] = doc["priority"]
    if doc["timezone"] != DEFAULT_TIMEZONE:
        out["timezone"] = doc["timezone"]
    if doc["windows"]:
        out["windows"] = [{"days": days_text(w["days"]), "from": clock_text(w["from_min"]),
                           "to": clock_text(w["to_min"])} for w in doc["windows"]]
    if not doc["loop"]:
        out["loop"] = False
    if doc["transition"] != DEFAULT_TRANSITION:
        out["transition"] = doc["transition"]
    out["scenes"] = [_item(item, doc["transition"]) for item in doc["items"]]
    if doc.get("fallback"):
        out["fallback"] = _scene(doc["fallback"])
    return yaml.safe_dump(out, sort_keys=False, allow_unicode=True, width=100)


def days_text(days: list[int]) -> str | list[str]:
    """[0..6] -> "daily", [5, 6] -> "weekend", [4, 5] -> ["fri", "sat"]."""
    names = [DAYS[d] for d in days]
    for word, members in DAY_SETS.items():
        if tuple(names) == members:
            return word
    return names


def clock_text(minutes: int) -> str:
    """Minutes after midnight as "HH:MM" (past 24 for the next morning: "26:00")."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def duration_text(ms: int) -> str:
    """90 000 -> "1m30s", 3 600 000 -> "1h", 2 500 -> "2.5s"."""
    hours, rest = divmod(ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds = f"{rest / 1000:g}s" if rest else ""
    return f"{f'{hours}h' if hours else ''}{f'{minutes}m' if minutes else ''}{seconds}"


def _item(item: dict[str, Any], transition: str) -> dict[str, Any]:
    out = {"scene": item["scene"], "duration": duration_text(item["duration_ms"])}
    if item["transition"] != transition:
        out["transition"] = item["transition"]
    if item["params"]:
        out["params"] = dict(item["params"])
    return out


def _scene(scene: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"scene": scene["scene"]}
    if scene["params"]:
        out["params"] = dict(scene["params"])
    return out
