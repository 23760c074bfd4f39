"""The floor's screens' events: enrolment, groups, playlist assignments and takeovers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.domain.events import DomainEvent


@dataclass(frozen=True)
class ScreenEnrolled(DomainEvent, type_name="ScreenEnrolled"):
    screen: str
    name: str
    group: str
    key_hash: str


@dataclass(frozen=True)
class ScreenAuthorised(DomainEvent, type_name="ScreenAuthorised"):
    screen: str


@dataclass(frozen=True)
class ScreenMovedToGroup(DomainEvent, type_name="ScreenMovedToGroup"):
    screen: str
    group: str


@dataclass(frozen=True)
class ScreenRevoked(DomainEvent, type_name="ScreenRevoked"):
    screen: str
    reason: str


@dataclass(frozen=True)
class PlaylistAssigned(DomainEvent, type_name="PlaylistAssigned"):
    target: str  # "screen:<id>" or "group:<name>"
    file: str
    sha256: str
    playlist: dict[str, Any]
    assigned_ms: int
    anchor_ms: int
    #: each media name of the playlist the controller holds: {name: {sha256, size, kind}}
    media: dict[str, Any] = field(default_factory=dict)
    by: str = ""  # who assigned it
    #: the file's text as written, for /screens to edit in place; on a command's first event
    #: only (its other targets' texts are the same: the same sha256)
    yaml: str = ""


@dataclass(frozen=True)
class PlaylistUnassigned(DomainEvent, type_name="PlaylistUnassigned"):
    target: str
    name: str
    until_ms: int
    by: str = ""  # who took it off
    at_ms: int = 0  # when they did (it stops at `until_ms`, its next scene boundary)


@dataclass(frozen=True)
class TakeoverStarted(DomainEvent, type_name="TakeoverStarted"):
    group: str
    takeover: str
    scene: str
    params: dict[str, Any]
    start_ms: int


@dataclass(frozen=True)
class TakeoverEnded(DomainEvent, type_name="TakeoverEnded"):
    group: str
    takeover: str
    end_ms: int
