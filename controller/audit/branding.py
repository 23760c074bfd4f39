"""The venue's look on what the controller makes itself (the auditor's PDF, the kiosk page):
its name, logo and colours, read from the same `assets/` as the screens (or
$SHOWRUNNER_ASSETS, docs/branding.md). Apart from the PDF's layout, so a page that only needs
the colours never loads the PDF library."""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

Rgb = tuple[int, int, int]
ASSETS_ENV = "SHOWRUNNER_ASSETS"  # where the venue's branding is, as the screens read it


@dataclass(frozen=True)
class Branding:
    venue: str
    logo: Path | None
    band: Rgb  # the cover's and headings' band
    accent: Rgb
    text_on_band: Rgb


def shipped_assets() -> Path:
    """The assets shipped with the screens (fonts, the default theme)."""
    return Path(str(resources.files("showrunner") / "assets"))


def _venue_dir() -> Path:
    override = os.environ.get(ASSETS_ENV)
    return Path(override) if override else Path(__file__).resolve().parents[2] / "assets"


def _colour(value: Any, fallback: Rgb) -> Rgb:
    if isinstance(value, str) and len(value) == 7 and value.startswith("#"):
        try:
            return (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))
        except ValueError:
            return fallback
    return fallback


def _yaml(path: Path) -> dict[str, Any]:
    try:
        found = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return {}
    return found if isinstance(found, dict) else {}


def branding() -> Branding:
    """The venue's name, logo and colours; a missing or broken file gives the shipped look."""
    shipped, venue = _yaml(shipped_assets() / "theme.yaml"), _yaml(_venue_dir() / "theme.yaml")
    colours = {**(shipped.get("colours") or {}), **(venue.get("colours") or {})}
    logo = _venue_dir() / "logo.png"
    return Branding(str(venue.get("name") or shipped.get("name") or "Showrunner"),
                    logo if logo.is_file() else None,
                    _colour(colours.get("background_top"), (11, 16, 38)),
                    _colour(colours.get("accent"), (245, 197, 66)),
                    _colour(colours.get("text"), (255, 255, 255)))


