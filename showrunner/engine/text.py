"""Fonts by role and a bounded cache of rendered text.

Rendering text is the most expensive thing a scene does; every string is rendered once at the
real pixel size and reused until it falls out of the LRU. Text that does not fit shrinks down
to a floor, then is cut with an ellipsis, so a 200-character name never spills over.

A `TextRecorder` set on the cache notes every string a scene renders, as shown (after any
ellipsis), in order: the golden tests' text snapshots. Off (None) it costs one test per call.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable

import pygame

from showrunner.engine.layout import Layout
from showrunner.engine.logonce import warn_once
from showrunner.engine.theme import Colour, Theme

log = logging.getLogger(__name__)

ELLIPSIS = "…"
MAX_TEXT = 300  # characters; longer strings are cut before they reach the font engine
SCREENS_OF_TEXT = 0.3  # the text cache's default budget, in full screens' worth of pixels


class Fonts:
    """pygame Font objects per (role, real pixel size); missing files fall back to pygame's."""

    def __init__(self, theme: Theme, layout: Layout) -> None:
        self.theme = theme
        self.layout = layout
        self._fonts: dict[tuple[str, int], pygame.font.Font] = {}

    def get(self, role: str, size: float) -> pygame.font.Font:
        """The font for `role` at logical `size` (px), scaled to the screen."""
        px = max(self.layout.px(size), 6)
        key = (role, px)
        font = self._fonts.get(key)
        if font is None:
            font = self._load(role, px)
            self._fonts[key] = font
        return font

    def _load(self, role: str, px: int) -> pygame.font.Font:
        path = self.theme.fonts.get(role)
        if path is not None:
            try:
                return pygame.font.Font(str(path), px)
            except (OSError, FileNotFoundError, pygame.error) as exc:
                warn_once(log, f"font:{path}", "font %s for %r unusable (%s); using pygame's",
                          path, role, exc)
        else:
            warn_once(log, f"font-role:{role}", "theme has no font %r; using pygame's", role)
        return pygame.font.Font(None, px)


def _size(surface: pygame.Surface) -> int:
    return surface.get_pitch() * surface.get_height()


class TextRecorder:
    """The strings rendered, in the order asked for (blank ones left out)."""

    def __init__(self) -> None:
        self._lines: list[str] = []

    def note(self, text: str) -> None:
        if text.strip():
            self._lines.append(text)

    def lines(self) -> list[str]:
        return list(self._lines)


class TextCache:
    """Rendered text surfaces, the least recently used dropped beyond a memory budget.

    The budget is in bytes, not entries: a countdown renders a new string every second, and
    at 4K each is several megabytes (a thousand of them took 6 GB). By default it is
    SCREENS_OF_TEXT full screens' worth of pixels (9.5 MiB at 4K), always full in a show: a
    round of the demo show draws 0.6 screens of text (every sample scene's together 1.7), and
    a leaderboard adds a score a second it will never show again. Holding a round (0.6) took
    the prize table's 4K entry frame from about 22 to 17 ms, for 10 MiB more all the time; half
    a screen held no more of it than 0.3 does (the same misses), so the budget is memory's:
    0.5 kept a 4K display's median at 201 MiB, 0.3 at 194 (bench/display_memory.py).
    """

    def __init__(self, fonts: Fonts, budget_bytes: int | None = None) -> None:
        self.fonts = fonts
        width, height = fonts.layout.real
        self.budget_bytes = budget_bytes or int(SCREENS_OF_TEXT * width * height * 4)
        self.bytes = 0
        # each surface with the text it shows (recorded when drawn) or, composed, its geometry
        self._cache: OrderedDict[tuple[object, ...],
                                 tuple[pygame.Surface, str | tuple[int, ...]]] = OrderedDict()
        self.hits = 0
        self.misses = 0
        self.recorder: TextRecorder | None = None

    def __len__(self) -> int:
        return len(self._cache)

    def render(self, text: object, role: str, size: float, colour: Colour) -> pygame.Surface:
        """`text` in the role's font at logical `size` and `colour` (cached)."""
        key = ("r", str(text)[:MAX_TEXT], role, size, colour)
        return self._cached(key, lambda: (self._draw(key[1], role, size, colour), key[1]))

    def glyph(self, char: str, role: str, size: float, colour: Colour) -> pygame.Surface:
        """One character of a number composed from glyphs (an odometer): cached like `render`
        but not recorded; the composer `note`s the number it shows instead."""
        recorder, self.recorder = self.recorder, None
        try:
            return self.render(char, role, size, colour)
        finally:
            self.recorder = recorder

    def composed(self, key: tuple[object, ...],
                 make: Callable[[], tuple[pygame.Surface, tuple[int, ...]]],
                 ) -> tuple[pygame.Surface, tuple[int, ...]]:
        """A surface composed of glyphs (an odometer's column of digits) with its geometry,
        cached and budgeted like text: a scene entering again finds it made (at 4K a jackpot's
        columns took 5 ms of its first frame). Not recorded: its composer `note`s."""
        recorder, self.recorder = self.recorder, None
        try:
            found = self._entry(("c", *key), make)
        finally:
            self.recorder = recorder
        assert isinstance(found[1], tuple)
        return found[0], found[1]

    def note(self, text: str) -> None:
        """Record `text` as drawn (a number composed from glyphs)."""
        if self.recorder is not None:
            self.recorder.note(text)

    def fit(self, text: object, role: str, size: float, colour: Colour, max_width: float,
            min_size: float | None = None) -> pygame.Surface:
        """Like `render`, but never wider than `max_width` logical px: shrink, then ellipsis."""
        key = ("f", str(text)[:MAX_TEXT], role, size, colour, max_width, min_size)
        return self._cached(key, lambda: self._fit(key[1], role, size, colour, max_width,
                                                   min_size))

    def _cached(self, key: tuple[object, ...], make) -> pygame.Surface:
        """The cached surface for `key`, made (with the text as shown) by `make` on a miss."""
        return self._entry(key, make)[0]

    def _entry(self, key: tuple[object, ...],
               make) -> tuple[pygame.Surface, str | tuple[int, ...]]:
        found = self._cache.get(key)
        if found is not None:
            self._cache.move_to_end(key)
            self.hits += 1
        else:
            self.misses += 1
            found = make()
            self._cache[key] = found
            self.bytes += _size(found[0])
            while self.bytes > self.budget_bytes and len(self._cache) > 1:
                _, (dropped, _) = self._cache.popitem(last=False)
                self.bytes -= _size(dropped)
        if self.recorder is not None and isinstance(found[1], str):
            self.recorder.note(found[1])
        return found

    def _draw(self, text: str, role: str, size: float, colour: Colour) -> pygame.Surface:
        return self.fonts.get(role, size).render(text, True, colour).convert_alpha()

    def _fit(self, text: str, role: str, size: float, colour: Colour, max_width: float,
             min_size: float | None) -> tuple[pygame.Surface, str]:
        limit = self.fonts.layout.px(max_width)
        floor = size if min_size is None else min(min_size, size)
        current = size
        while current > floor and self.fonts.get(role, current).size(text)[0] > limit:
            current = max(floor, current * 0.92)
        font = self.fonts.get(role, current)
        if font.size(text)[0] > limit:
            text = truncate(font, text, limit)
        return self._draw(text, role, current, colour), text


def truncate(font: pygame.font.Font, text: str, limit: int) -> str:
    """The longest prefix of `text` plus an ellipsis that fits in `limit` px (binary search)."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if font.size(text[:mid].rstrip() + ELLIPSIS)[0] <= limit:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS if lo else ELLIPSIS


def wrap(font: pygame.font.Font, text: str, limit: int) -> list[str]:
    """Greedy word wrap into lines no wider than `limit` px (a too-long word is cut)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}".strip()
            if font.size(candidate)[0] <= limit:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = word if font.size(word)[0] <= limit else truncate(font, word, limit)
        lines.append(line)
    return lines
