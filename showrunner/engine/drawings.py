"""Surfaces kept by the content they show, so a view change redraws only what changed.

A score update changes a few leaderboard rows; drawing all 45 again took 40 ms at 4K, and the
screen dropped frames on every update. A scene names each piece by its content (a hashable
key), asks for the pieces it shows, and says which keys the new view still uses.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Generic, TypeVar

import pygame

K = TypeVar("K", bound=Hashable)


class Drawings(Generic[K]):
    """Surfaces kept by key, each drawn on first use.

    The drawing function is passed to `get` rather than kept here: a scene's bound method held
    by the scene's own Drawings would be a reference cycle, and a departed scene's surfaces
    (160 MB of leaderboard rows at 4K) would wait for the garbage collector.
    """

    def __init__(self) -> None:
        self._kept: dict[K, pygame.Surface] = {}

    def keep_only(self, keys: Iterable[K]) -> None:
        """A new view: forget every drawing it no longer shows."""
        self._kept = {key: self._kept[key] for key in keys if key in self._kept}

    def __contains__(self, key: object) -> bool:
        return key in self._kept

    def kept(self, key: K) -> pygame.Surface | None:
        """The drawing of `key` if it has one, without drawing it."""
        return self._kept.get(key)

    def get(self, key: K, draw: Callable[[K], pygame.Surface]) -> pygame.Surface:
        """The drawing of `key`, made now with `draw(key)` if it has none yet."""
        found = self._kept.get(key)
        if found is None:
            found = self._kept[key] = draw(key)
        return found
