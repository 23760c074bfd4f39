"""Which scenes exist and which parameters each takes: what the validator checks against.

A parameter's type is the type of its default (as the scenes convert it); every scene also
takes `view`, the name of the view it reads.
"""

from __future__ import annotations

from typing import Any

# Until the scene library (branch issue6) is merged this mirrors its scene classes' `params`;
# afterwards it is derived from `showrunner.scenes.REGISTRY` and this table goes.
_SCENES: dict[str, dict[str, Any]] = {
    "leaderboard": {"view": "leaderboard:slots", "rows_per_page": 0, "page_seconds": 10.0,
                    "max_rows": 45, "score_label": "",
                    "empty_text": "Scores appear here as heats finish"},
    "jackpot_ticker": {"view": "jackpots", "roll_seconds": 3.0},
    "wildcard_draw": {"view": "wildcard", "claim_seconds": 90.0},
    "claim_countdown": {"view": "wildcard", "claim_seconds": 90.0,
                        "caption": "to claim at the stage"},
    "super9_board": {"view": "super9", "recent": 8},
    "roulette_countdown": {"view": "roulette", "betting_seconds": 120.0},
    "prize_table": {"view": "prizes"},
    "seating_chart": {"view": "seating"},
    "announcement": {"view": "announcement", "title": "", "body": ""},
    "attract": {"view": "attract", "images": [], "seconds": 8.0},
    "next_event": {"view": "schedule", "title": "Coming up", "utc_offset_minutes": 120},
}
TRANSITIONS = ("cut", "crossfade", "slide")

#: what a screen shows when it has no playlist at all
DEFAULT_SCENE = "attract"


def scene_params() -> dict[str, dict[str, Any]]:
    """Scene name -> {parameter: default}."""
    return _SCENES


def transitions() -> tuple[str, ...]:
    return TRANSITIONS
