"""Tolerant reads of view documents: a missing or mistyped field gives a default, logged once.

Views come over the network from another process; a scene must draw something sensible from
whatever arrives, and say so once in the log rather than sixty times a second. A scene names the
fields its view's shape (docs/scenes.md) always carries with `expect`, and the values a field
may take with `choice`, so a view of another shape is reported rather than drawn as empty.
"""

from __future__ import annotations

import logging
from typing import Any

from showrunner.engine.logonce import warn_once

log = logging.getLogger(__name__)

MAX_INT = 10**15  # larger numbers are clamped: no real score or jackpot is near it
MAX_ITEMS = 500


def text(doc: dict[str, Any], key: str, default: str = "", where: str = "") -> str:
    value = doc.get(key)
    if value is None:
        return default
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return " ".join(str(value).split())  # no newlines or tabs inside a one-line field
    _bad(where, key, value, "text")
    return default


def integer(doc: dict[str, Any], key: str, default: int = 0, where: str = "") -> int:
    value = doc.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        _bad(where, key, value, "number")
        return default
    if abs(value) > MAX_INT:
        _bad(where, key, value, f"number within ±{MAX_INT}")
        return MAX_INT if value > 0 else -MAX_INT
    return int(value)


def optional_int(doc: dict[str, Any], key: str, where: str = "") -> int | None:
    return integer(doc, key, 0, where) if doc.get(key) is not None else None


def flag(doc: dict[str, Any], key: str, default: bool = False) -> bool:
    value = doc.get(key)
    return value if isinstance(value, bool) else default


def items(doc: dict[str, Any], key: str, where: str = "", limit: int = MAX_ITEMS
          ) -> list[dict[str, Any]]:
    """A list of mappings; non-mappings are dropped and the list is capped at `limit`."""
    value = doc.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        _bad(where, key, value, "list")
        return []
    good = [item for item in value if isinstance(item, dict)]
    if len(good) != len(value):
        _bad(where, key, "…", "list of objects")
    if len(good) > limit:
        warn_once(log, f"long:{where}:{key}", "%s: %s has %d items; showing the first %d",
                  where, key, len(good), limit)
    return good[:limit]


def numbers(doc: dict[str, Any], key: str, where: str = "") -> list[int]:
    """A list of whole numbers; other items are dropped (logged once)."""
    value = doc.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        _bad(where, key, value, "list")
        return []
    good = [n for n in value[:MAX_ITEMS] if isinstance(n, int) and not isinstance(n, bool)]
    if len(good) != len(value[:MAX_ITEMS]):
        _bad(where, key, "…", "list of whole numbers")
    return good


def mapping(doc: dict[str, Any], key: str, where: str = "") -> dict[str, Any]:
    value = doc.get(key)
    if isinstance(value, dict):
        return value
    if value is not None:
        _bad(where, key, value, "object")
    return {}


def expect(doc: dict[str, Any], keys: tuple[str, ...], where: str = "") -> None:
    """Log once each of `keys` that a non-empty `doc` lacks (null is a value: it is not missing).

    An empty document is an absent view or object, which the scene already reports or draws.
    """
    if not doc:
        return
    for key in keys:
        if key not in doc:
            warn_once(log, f"missing:{where}:{key}", "%s: field %r is missing (has: %s)",
                      where, key, ", ".join(sorted(doc))[:200])


def choice(doc: dict[str, Any], key: str, allowed: tuple[str, ...], default: str,
           where: str = "") -> str:
    """One of `allowed`; anything else gives `default`, logged once."""
    value = text(doc, key, default, where)
    if value in allowed:
        return value
    _bad(where, key, value, f"one of {', '.join(allowed)}")
    return default


def _bad(where: str, key: str, value: Any, expected: str) -> None:
    warn_once(log, f"field:{where}:{key}", "%s: field %r should be a %s, got %.60r",
              where, key, expected, value)
