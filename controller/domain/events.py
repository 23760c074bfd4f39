"""Domain events: explicit frozen dataclasses, serialised to the log by class name.

Every concrete event class is registered under its class name when it is defined, so the log can
turn a stored `(type, data)` row back into the same object. Event fields hold JSON values only
(str, int, bool, None, lists and dicts of those) so that replay reproduces them exactly.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

_REGISTRY: dict[str, type[DomainEvent]] = {}


@dataclasses.dataclass(frozen=True)
class DomainEvent:
    """Base class of every event. Subclasses are frozen dataclasses."""

    type_name: ClassVar[str] = "DomainEvent"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__name__ in _REGISTRY and _REGISTRY[cls.__name__] is not cls:
            raise TypeError(f"two event classes are named {cls.__name__}")
        cls.type_name = cls.__name__
        _REGISTRY[cls.__name__] = cls

    def to_data(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def event_from(type_name: str, data: dict[str, Any]) -> DomainEvent:
    """Rebuild a stored event; an unknown type means the log was written by newer code."""
    cls = _REGISTRY.get(type_name)
    if cls is None:
        raise LookupError(f"unknown event type {type_name!r}")
    return cls(**data)
