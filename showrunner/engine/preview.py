"""A playlist's contact sheet: every scene (and the fallback) rendered headless, in order,
with its duration, so a technician sees the playlist before it reaches a screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame

from showrunner.engine.display import save_png
from showrunner.engine.render import init_headless, render_scene
from showrunner.engine.replica import Replica

RENDER = (960, 540)
THUMB = (480, 270)
COLUMNS = 3
GAP = 16
CAPTION = 30
PAPER = (24, 24, 32)
INK = (230, 230, 235)


def sample_views() -> dict[str, dict[str, Any]]:
    """The scene library's example views: what a preview shows without real data."""
    from showrunner.scenes.samples import CASES

    views: dict[str, dict[str, Any]] = {}
    for case in CASES:
        for name, doc in case.views.items():
            views.setdefault(name, doc)
    return views


def contact_sheet(doc: dict[str, Any], out: Path, state: Path | None = None,
                  at: float = 3.0) -> None:
    from showrunner.scenes.samples import BASE_MS

    replica = Replica.from_state_file(state) if state else None
    views = replica.views if replica else sample_views()
    start_ms = (replica.saved_at_ms or 0) if replica else BASE_MS
    tiles = [(f"{i}. {item['scene']} · {item['duration_ms'] / 1000:g} s", item["scene"],
              item["params"]) for i, item in enumerate(doc["items"], start=1)]
    if doc.get("fallback"):
        tiles.append((f"fallback: {doc['fallback']['scene']}", doc["fallback"]["scene"],
                      doc["fallback"]["params"]))
    init_headless(RENDER)
    rows = -(-len(tiles) // COLUMNS)
    sheet = pygame.Surface((COLUMNS * (THUMB[0] + GAP) + GAP,
                            rows * (THUMB[1] + CAPTION + GAP) + GAP))
    sheet.fill(PAPER)
    font = pygame.font.Font(None, 26)
    for index, (caption, scene, params) in enumerate(tiles):
        x = GAP + (index % COLUMNS) * (THUMB[0] + GAP)
        y = GAP + (index // COLUMNS) * (THUMB[1] + CAPTION + GAP)
        frame = render_scene(scene, views, at, RENDER, params, start_ms)
        sheet.blit(pygame.transform.smoothscale(frame, THUMB), (x, y + CAPTION))
        sheet.blit(font.render(caption, True, INK), (x, y + 4))
    save_png(sheet, out)
