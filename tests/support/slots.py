"""A venue's Slots PAYOFF config for live tests: the shipped file with some settings changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from controller.application.settings import CONFIG_DIR, CONFIG_DIR_ENV


def venue_slots_config(directory: Path, monkeypatch: pytest.MonkeyPatch, **settings: Any) -> None:
    """slots.yaml in `directory` (the controller's config folder, by the environment): the
    shipped one with `settings` (e.g. feed_silence_s=2, so a silent machine is flagged in 2 s,
    not the shipped 10)."""
    config = yaml.safe_load((CONFIG_DIR / "slots.yaml").read_text(encoding="utf-8"))
    directory.mkdir(exist_ok=True)
    (directory / "slots.yaml").write_text(yaml.safe_dump({**config, **settings}))
    monkeypatch.setenv(CONFIG_DIR_ENV, str(directory))
