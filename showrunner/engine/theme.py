"""The look of every screen (colours, font files, logo) from one YAML file.

Unknown or malformed entries fall back to the shipped defaults with one warning, so a typo in
a venue's theme never takes a screen down.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from showrunner.engine.logonce import warn_once

log = logging.getLogger(__name__)

Colour = tuple[int, int, int]


def assets_dir() -> Path:
    return Path(str(resources.files("showrunner") / "assets"))


DEFAULT_THEME = assets_dir() / "theme.yaml"


def parse_colour(value: Any) -> Colour | None:
    """'#f5c542' -> (245, 197, 66); anything else -> None."""
    if isinstance(value, str) and value.startswith("#") and len(value) == 7:
        try:
            return (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))
        except ValueError:
            return None
    return None


@dataclass(frozen=True)
class Theme:
    name: str
    colours: dict[str, Colour]
    fonts: dict[str, Path]
    logo: Path | None = None

    def colour(self, role: str) -> Colour:
        """A colour by role; an unknown role is drawn white and logged once."""
        found = self.colours.get(role)
        if found is None:
            warn_once(log, f"colour:{role}", "theme %s has no colour %r", self.name, role)
            return (255, 255, 255)
        return found

    @classmethod
    def load(cls, path: Path | None = None) -> Theme:
        """Read a theme; its entries override the shipped defaults one by one."""
        base = _read(DEFAULT_THEME) or {}
        own = _read(path) if path else {}
        return cls._build(base, DEFAULT_THEME.parent, own or {}, path.parent if path else None)

    @classmethod
    def _build(cls, base: dict[str, Any], base_dir: Path, own: dict[str, Any],
               own_dir: Path | None) -> Theme:
        colours: dict[str, Colour] = {}
        for source in (base, own):
            for role, value in (source.get("colours") or {}).items():
                parsed = parse_colour(value)
                if parsed is None:
                    warn_once(log, f"bad-colour:{role}", "theme colour %s=%r is not #rrggbb",
                              role, value)
                    continue
                colours[str(role)] = parsed
        fonts: dict[str, Path] = {}
        for source, folder in ((base, base_dir), (own, own_dir or base_dir)):
            for role, value in (source.get("fonts") or {}).items():
                if isinstance(value, str):
                    fonts[str(role)] = (folder / value).resolve()
        logo_value = own.get("logo", base.get("logo"))
        logo_dir = own_dir if "logo" in own and own_dir else base_dir
        logo = (logo_dir / logo_value).resolve() if isinstance(logo_value, str) else None
        name = str(own.get("name") or base.get("name") or "theme")
        return cls(name=name, colours=colours, fonts=fonts, logo=logo)


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        warn_once(log, f"theme:{path}", "cannot read theme %s (%s); using defaults", path, exc)
        return None
    if not isinstance(data, dict):
        warn_once(log, f"theme-shape:{path}", "theme %s is not a mapping; using defaults", path)
        return None
    return data
