"""Promotion parameters: one typed, frozen model per promotion, recorded in the log.

The config a promotion runs under is recorded in the log (`PromotionConfigured`), so replay
never reads a file; reading and checking the venue's YAML files is the application's job
(controller/application/settings.py, docs/config.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

from controller.domain.events import DomainEvent


class ConfigError(ValueError):
    """A promotion file that does not describe a valid promotion, or contradicts the log."""


class PromotionConfig(BaseModel):
    """Base of every promotion's config: frozen, no unknown keys, checked on every field."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def to_data(self) -> dict[str, Any]:
        """Plain JSON values, as the log records them."""
        return self.model_dump(mode="json")


C = TypeVar("C", bound=PromotionConfig)


@dataclass(frozen=True)
class PromotionConfigured(DomainEvent, type_name="PromotionConfigured"):
    """The config `promotion` runs under from here on (plain JSON: the model's fields)."""

    promotion: str
    config: dict[str, Any]


HistoryItem = tuple[int, DomainEvent]
"""An event of the log with its sequence number: what a config change is checked against."""


@dataclass(frozen=True)
class Conflict:
    """A config change the log's history forbids: `key` cannot change because of event `seq`."""

    key: str
    seq: int
    event: DomainEvent
    reason: str

    def sentence(self, path: object) -> str:
        return (f"{path}: key '{self.key}' cannot change: {self.reason} (event {self.seq}, "
                f"{self.event.type_name}). Put the recorded value back, or run the promotion "
                "in a new event log.")


def changed_keys(old: PromotionConfig, new: PromotionConfig) -> set[str]:
    """The top-level keys whose values differ."""
    before, after = old.to_data(), new.to_data()
    return {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}


class Configurable(Generic[C]):
    """A feature whose config comes from the log: each `PromotionConfigured` for its name
    replaces it. It starts with the shipped default it is given, what a log without config
    events ran under (never the venue's files: replay must not depend on them)."""

    name: str
    config_model: type[C]
    config: C
    config_logged = False  # the log holds a PromotionConfigured for this promotion

    def configured(self, event: PromotionConfigured) -> set[str]:
        if event.promotion != self.name:
            return set()
        self.config_logged = True
        return self.configure(logged(self.config_model, event.config))

    def configure(self, config: C) -> set[str]:
        """Run under `config` from now on; the views that may show it."""
        raise NotImplementedError

    def conflict(self, new: C, history: Iterable[HistoryItem]) -> Conflict | None:
        """Why the log's history forbids changing the current config to `new`, if it does."""
        return None


def logged(model: type[C], data: dict[str, Any]) -> C:
    """A config as a `PromotionConfigured` event recorded it."""
    return model.model_validate(data)
