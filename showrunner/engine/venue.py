"""Where the venue's own look lives: the top-level `assets/` (or $SHOWRUNNER_ASSETS).

A venue replaces these files to brand its screens (docs/branding.md): `logo.png` for the
corner badge, `attract/` for the attract loop's pictures, `theme.yaml` for its colours and
`sounds/`. A missing file falls back to the shipped look; nothing here ever stops a screen.
"""

from __future__ import annotations

import os
from pathlib import Path

VENUE_ENV = "SHOWRUNNER_ASSETS"
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")


def venue_dir() -> Path:
    override = os.environ.get(VENUE_ENV)
    return Path(override) if override else Path(__file__).resolve().parents[2] / "assets"


def venue_file(name: str) -> Path | None:
    """The venue's file `name`, if it has one."""
    path = venue_dir() / name
    return path if path.is_file() else None


def attract_pictures() -> list[str]:
    """The venue's attract-loop pictures in name order (at most 50, as the scene takes)."""
    folder = venue_dir() / "attract"
    if not folder.is_dir():
        return []
    return [str(p) for p in sorted(folder.iterdir())
            if p.suffix.lower() in PICTURE_SUFFIXES][:50]
