"""Named easing functions: progress in [0, 1] -> eased progress (0 -> 0, 1 -> 1).

Scenes and playlists name them ("out_cubic"), so the table is the public vocabulary.
"""

from __future__ import annotations

import math
from collections.abc import Callable

Easing = Callable[[float], float]


def linear(t: float) -> float:
    return t


def in_quad(t: float) -> float:
    return t * t


def out_quad(t: float) -> float:
    return 1 - (1 - t) * (1 - t)


def in_out_quad(t: float) -> float:
    return 2 * t * t if t < 0.5 else 1 - (-2 * t + 2) ** 2 / 2


def out_cubic(t: float) -> float:
    return 1 - (1 - t) ** 3


def in_out_cubic(t: float) -> float:
    return 4 * t**3 if t < 0.5 else 1 - (-2 * t + 2) ** 3 / 2


def out_quart(t: float) -> float:
    return 1 - (1 - t) ** 4


def out_quint(t: float) -> float:
    return 1 - (1 - t) ** 5


def out_expo(t: float) -> float:
    return 1.0 if t >= 1 else 1 - 2 ** (-10 * t)


def out_back(t: float) -> float:
    c1 = 1.70158
    c3 = c1 + 1
    return 1 + c3 * (t - 1) ** 3 + c1 * (t - 1) ** 2


def in_out_sine(t: float) -> float:
    return -(math.cos(math.pi * t) - 1) / 2


EASINGS: dict[str, Easing] = {
    f.__name__: f
    for f in (linear, in_quad, out_quad, in_out_quad, out_cubic, in_out_cubic, out_quart,
              out_quint, out_expo, out_back, in_out_sine)
}


def easing(name: str) -> Easing:
    """Look an easing up by name; an unknown name is a programming error, so it raises."""
    try:
        return EASINGS[name]
    except KeyError:
        raise ValueError(f"unknown easing {name!r}; known: {', '.join(sorted(EASINGS))}") from None


def clamp01(t: float) -> float:
    return 0.0 if t <= 0 else 1.0 if t >= 1 else t
