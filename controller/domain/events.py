"""Domain events: explicit frozen dataclasses, stored in the log under a stable type name.

Each concrete event class declares the name it is stored under and its schema version:

    @dataclass(frozen=True)
    class MemberRegistered(DomainEvent, type_name="MemberRegistered"):  # version=1

The name, not the Python class name, is what the log holds, so a class may be renamed or moved
freely; the name never changes. When an event's fields change in a way old data does not fit
(a field renamed, its meaning changed, a required field added), raise its `version` and register
an `upcaster` from the old version that turns old data into the new shape: a log written by any
earlier release keeps replaying. Adding a field with a default needs no new version: old data
lacking it gets the default. Event fields hold JSON values only (str, int, bool, None, lists
and dicts of those) so that replay reproduces them exactly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ClassVar

Data = dict[str, Any]
Upcaster = Callable[[Data], Data]

_REGISTRY: dict[str, type[DomainEvent]] = {}
_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


class EventDataError(ValueError):
    """Stored event data cannot be turned into the current event; the message names it."""


@dataclasses.dataclass(frozen=True)
class DomainEvent:
    """Base class of every event. Subclasses are frozen dataclasses declaring `type_name`."""

    type_name: ClassVar[str]
    version: ClassVar[int] = 1

    def __init_subclass__(cls, *, type_name: str | None = None, version: int = 1,
                          **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not type_name:
            raise TypeError(f"event class {cls.__name__} must declare the stable name it is "
                            f"stored under: class {cls.__name__}(DomainEvent, "
                            f"type_name=\"{cls.__name__}\")")
        if type(version) is not int or version < 1:
            raise TypeError(f"event {type_name}: version must be a whole number from 1")
        known = _REGISTRY.get(type_name)
        if known is not None and _where(known) != _where(cls):  # a reloaded module may redefine
            raise TypeError(f"two event classes are stored as {type_name!r}: "
                            f"{_where(known)} and {_where(cls)}")
        cls.type_name = type_name
        cls.version = version
        _REGISTRY[type_name] = cls

    def to_data(self) -> Data:
        return dataclasses.asdict(self)

    def record(self) -> tuple[str, int, Data]:
        """What the log stores: (type name, version, data)."""
        return self.type_name, self.version, self.to_data()


def _where(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def upcaster(type_name: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register the function turning `type_name`'s data at `from_version` into the shape of
    `from_version + 1`. It gets a copy of the data and returns the new data."""
    def register(function: Upcaster) -> Upcaster:
        key = (type_name, from_version)
        if key in _UPCASTERS:
            raise TypeError(f"two upcasters for {type_name} version {from_version}")
        _UPCASTERS[key] = function
        return function
    return register


def event_from(type_name: str, version: int, data: Data) -> DomainEvent:
    """Rebuild a stored event in its current shape. An unknown type or a version newer than
    the class means the log was written by newer code."""
    cls = _REGISTRY.get(type_name)
    if cls is None:
        raise LookupError(f"unknown event type {type_name!r}")
    if version > cls.version:
        raise LookupError(f"{type_name} version {version} is newer than this Showrunner's "
                          f"(version {cls.version})")
    if version < cls.version:
        data = dict(data)
        for old in range(version, cls.version):
            step = _UPCASTERS.get((type_name, old))
            if step is None:
                raise LookupError(f"no upcaster turns {type_name} version {old} into version "
                                  f"{old + 1}")
            data = step(data)
    plain = _plain_fields(cls)
    if plain is not None and data.keys() == plain:  # the replay hot path: every field stored
        event = object.__new__(cls)
        event.__dict__.update(data)
        return event
    try:
        return cls(**data)
    except TypeError:
        raise _mismatch(cls, data) from None


_PLAIN: dict[type, frozenset[str] | None] = {}


def _plain_fields(cls: type[DomainEvent]) -> frozenset[str] | None:
    """The fields of an event class whose `__init__` only sets them (no `__post_init__`, no
    slots): data holding exactly these fills the event directly, which is what its frozen
    `__init__`, one `object.__setattr__` per field, would do at twice the cost. None for any
    other class."""
    if cls not in _PLAIN:
        plain = not hasattr(cls, "__post_init__") and "__slots__" not in cls.__dict__
        _PLAIN[cls] = frozenset(f.name for f in dataclasses.fields(cls) if f.init) \
            if plain else None
    return _PLAIN[cls]


def _mismatch(cls: type[DomainEvent], data: Data) -> EventDataError:
    """Which fields of stored data do not fit the current event (defaults fill missing ones)."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        return EventDataError(f"{cls.type_name} version {cls.version}: unknown field(s) "
                              f"{', '.join(unknown)}")
    missing = sorted(name for name, f in fields.items() if name not in data
                     and f.default is dataclasses.MISSING
                     and f.default_factory is dataclasses.MISSING)
    return EventDataError(f"{cls.type_name} version {cls.version}: missing field(s) "
                          f"{', '.join(missing)}")
