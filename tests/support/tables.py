"""Roulette and poker configs for live tests: today is a qualifying day, and it is mid-afternoon.

The controller runs on the wall clock and both tournaments take buy-ins only on their
qualifying days and hours (roulette rules 3-4, the poker Qualifying Heats), so a live test
gives them (through SHOWRUNNER_CONFIG_DIR) the shipped rules with today as the only qualifying
day, in an Etc/GMT zone where it is now 16:xx: inside both tournaments' hours.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from zoneinfo import ZoneInfo

import yaml

from controller.application.settings import CONFIG_DIR


def afternoon_zone() -> str:
    """An Etc zone where it is now 16:xx (offsets -12 to +11 all exist as Etc/GMT zones)."""
    offset = (16 - dt.datetime.now(dt.UTC).hour + 12) % 24 - 12
    return f"Etc/GMT{-offset:+d}" if offset else "UTC"


def write_tables_config(directory: Path) -> None:
    """roulette.yaml and poker.yaml in `directory`: qualifying today, now within the hours."""
    zone = afternoon_zone()
    today = dt.datetime.now(ZoneInfo(zone)).date().isoformat()
    directory.mkdir(exist_ok=True)
    days = {"roulette": ("first_day", "last_qualifying_day", "final_day"),
            "poker": ("first_day", "last_qualifying_day", "semi_final_day")}
    for promotion, keys in days.items():
        config = yaml.safe_load((CONFIG_DIR / f"{promotion}.yaml").read_text(encoding="utf-8"))
        config.update({"timezone": zone, **dict.fromkeys(keys, today)})
        (directory / f"{promotion}.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
