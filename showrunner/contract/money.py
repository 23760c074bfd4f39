"""Money and counts as every screen, page and cue shows them: integer cents to "R150 000".

The one place amounts are formatted, shared by the controller (views, cues) and the displays.
"""

from __future__ import annotations


def format_zar(cents: int) -> str:
    """R150 000 (whole rands) or R12 345.67, groups separated by a no-break space."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    grouped = f"{whole:,}".replace(",", "\u00a0")
    return f"{sign}R{grouped}" if part == 0 else f"{sign}R{grouped}.{part:02d}"


def format_int(value: int) -> str:
    """Scores and counts with the same grouping as money: 1 250 000."""
    return f"{value:,}".replace(",", "\u00a0")
