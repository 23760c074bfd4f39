"""Rehearsal mode: a separate log whose show clock starts at a chosen moment (docs/rehearsal.md).

A log is one of three kinds, told by its first event that is not a key or a person
(`log_kind`): new (no show events yet), live, or rehearsal (that event is `RehearsalStarted`).
`serve` runs only new or live logs and `rehearse` only new or rehearsal logs, so a rehearsal can
never write to the live log; the mark is in the hash chain, so it cannot be removed without
breaking it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from controller.application.features import build_features
from controller.application.service import wall_clock_ms
from controller.application.settings import load
from controller.domain.config import ConfigError, Configurable
from controller.domain.rehearsal import RehearsalStarted
from controller.store.log import StoredLog
from controller.store.sqlite import StoreError
from controller.store.users import USER_ADDED, USER_DISABLED
from controller.store.writes import KEY_ISSUED, KEY_REVOKED

NEW, LIVE, REHEARSAL = "new", "live", "rehearsal"
MAX_SPEED = 3600
AT_FORMAT = "%Y-%m-%d %H:%M"


NOT_SHOW = frozenset({KEY_ISSUED, KEY_REVOKED, USER_ADDED, USER_DISABLED})  # who, not what


def log_kind(log: StoredLog) -> str:
    """NEW, LIVE or REHEARSAL: what the log's first show event (not a key or a person) says."""
    first = next((e for e in log.read() if e.type not in NOT_SHOW), None)
    if first is None:
        return NEW
    return REHEARSAL if first.type == RehearsalStarted.type_name else LIVE


def require_kind(log: StoredLog, rehearsing: bool) -> None:
    """Refuse a rehearsal log for the live show, and a live log for a rehearsal."""
    kind = log_kind(log)
    if kind == REHEARSAL and not rehearsing:
        raise StoreError(f"{log.path} is a rehearsal log, not the live show's: `serve` does not "
                         "run it. Run it with `showrunner-controller rehearse`, or give `serve` "
                         "the live log; nothing was changed.")
    if kind == LIVE and rehearsing:
        raise StoreError(f"{log.path} is a live show's log: a rehearsal never writes to it. Give "
                         "`rehearse` a new file (--db REHEARSAL.db); nothing was changed.")


@dataclass(frozen=True)
class Rehearsing:
    """Where a rehearsal's show clock starts and how fast it runs."""

    promotion: str
    at_local: str
    timezone: str
    at_ms: int
    speed: int = 1

    def event(self) -> RehearsalStarted:
        return RehearsalStarted(self.at_ms, self.at_local, self.timezone, self.promotion,
                                self.speed)

    def clock(self, wall: Callable[[], int] = wall_clock_ms) -> RehearsalClock:
        """The show clock: `at_ms` now, then `speed` show milliseconds per real one."""
        return RehearsalClock(self.at_ms, wall(), self.speed, wall)


@dataclass(frozen=True)
class RehearsalClock:
    """A show clock set to `at_ms` at real time `started`, running `rate` times real time."""

    at_ms: int
    started: int
    rate: int
    wall: Callable[[], int]

    def __call__(self) -> int:
        return self.at_ms + (self.wall() - self.started) * self.rate


def clock_rate(clock: Callable[[], int]) -> int:
    """Show ms per real ms of a controller's clock: a rehearsal's speed, else 1 (wall time).
    Told to every client with the time, so their countdowns run at the show clock's rate."""
    return clock.rate if isinstance(clock, RehearsalClock) else 1


def promotions() -> dict[str, Configurable]:
    return {f.name: f for f in build_features() if isinstance(f, Configurable)}


def rehearsing(promotion: str, at: str, speed: int = 1) -> Rehearsing:
    """Read `at` ("2024-01-18 17:55") on the wall clock of `promotion`'s venue (its config's
    time zone, the venue's file or the shipped one); ConfigError with a sentence if wrong."""
    known = promotions()
    if promotion not in known:
        raise ConfigError(f"There is no promotion {promotion!r}; choose one of "
                          f"{', '.join(sorted(known))}.")
    if not 1 <= speed <= MAX_SPEED:
        raise ConfigError(f"--speed must be a whole number from 1 to {MAX_SPEED}.")
    try:
        local = dt.datetime.strptime(at.strip(), AT_FORMAT)
    except ValueError:
        raise ConfigError(f"--at {at!r} is not a date and time like \"2024-01-18 17:55\" "
                          "(the venue's wall clock).") from None
    feature = known[promotion]
    zone = load(promotion, feature.config_model).timezone
    moment = local.replace(tzinfo=ZoneInfo(zone))
    return Rehearsing(promotion, local.strftime(AT_FORMAT), zone,
                      int(moment.timestamp() * 1000), speed)
