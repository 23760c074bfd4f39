"""Small pieces of the sentences the contract says about bad input."""

from __future__ import annotations

import difflib
import math
from collections.abc import Sequence
from typing import Any

SHOWN_CHARS = 40


def shown(value: Any) -> str:
    """A value as a person would recognise it in a message: 'ten', 0, NaN, a list."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, str):
        cut = value if len(value) <= SHOWN_CHARS else value[:SHOWN_CHARS] + "…"
        return repr(cut)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, int):
        return str(value) if abs(value) < 10**SHOWN_CHARS else "a huge number"
    if isinstance(value, float):
        return str(value)
    return "a list" if isinstance(value, list) else "a mapping" if isinstance(value, dict) \
        else type(value).__name__


def printable(text: str) -> str:
    """`text` as a log or a page may keep it: each unprintable character as "?" (a device's raw
    line or status may hold anything)."""
    return "".join(c if c.isprintable() else "?" for c in text)


def suggest(name: object, known: Sequence[str]) -> str:
    """' (did you mean 'x'?)' when `name` is close to a known one."""
    if not isinstance(name, str):
        return ""
    close = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
