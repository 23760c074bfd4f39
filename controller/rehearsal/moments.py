"""The dated moments a venue rehearses, read from the promotions' configs (the venue's files,
else the shipped ones): what the console offers as a rehearsal's start (docs/rehearsal.md)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from controller.application.settings import load
from controller.promotions.super9.schedule import Schedule
from controller.rehearsal.log import AT_FORMAT, promotions

LEAD = dt.timedelta(minutes=5)  # start a little before the moment, to see it come
SUPER9_LEAD = dt.timedelta(minutes=35)  # before sales close (30 min before), to sell tickets
SUPER9_SESSIONS = 2


@dataclass(frozen=True)
class Moment:
    promotion: str
    at: str  # "2024-01-18 17:55", on the venue's wall clock
    label: str

    def as_json(self) -> dict[str, str]:
        return {"promotion": self.promotion, "at": self.at, "label": self.label}


def _before(day: dt.date, time: dt.time, lead: dt.timedelta = LEAD) -> str:
    return (dt.datetime.combine(day, time) - lead).strftime(AT_FORMAT)


def _date(day: dt.date) -> str:
    return f"{day.day} {day:%B %Y}"


def _wildcard(c: Any, now_ms: int) -> list[Moment]:
    return [Moment("wildcard", _before(c.draw_day, c.bins_close),
                   f"Wild Card draw: the bins close at {c.bins_close:%H:%M} on "
                   f"{_date(c.draw_day)}"),
            Moment("wildcard", _before(c.draw_day, c.bins_open),
                   f"Wild Card bins open at {c.bins_open:%H:%M} on {_date(c.draw_day)}")]


def _super9(c: Any, now_ms: int) -> list[Moment]:
    zone = ZoneInfo(c.timezone)
    out = []
    for session in Schedule(c).next_sessions(now_ms, SUPER9_SESSIONS):
        local = dt.datetime.fromtimestamp(session.start_ms / 1000, zone).replace(tzinfo=None)
        sales_end = local - dt.timedelta(minutes=c.sales_close_minutes)
        out.append(Moment("super9", (local - SUPER9_LEAD).strftime(AT_FORMAT),
                          f"Super 9 {session.label} game (tickets on sale until "
                          f"{sales_end:%H:%M})"))
    return out


def _roulette(c: Any, now_ms: int) -> list[Moment]:
    return [Moment("roulette", _before(c.first_day, c.table_opens),
                   f"Roulette Spin-Off: the tables open at {c.table_opens:%H:%M} on "
                   f"{_date(c.first_day)}")]


def _poker(c: Any, now_ms: int) -> list[Moment]:
    return [Moment("poker", _before(c.first_day, c.heats_open),
                   f"Poker: the first heats open at {c.heats_open:%H:%M} on "
                   f"{_date(c.first_day)}")]


def _slots(c: Any, now_ms: int) -> list[Moment]:
    return [Moment("slots", _before(c.final_date, dt.time(18)),
                   f"Slots PAYOFF final night, {_date(c.final_date)}")]


SOURCES = {"wildcard": _wildcard, "super9": _super9, "roulette": _roulette, "poker": _poker,
           "slots": _slots}


def moments(now_ms: int) -> list[Moment]:
    """Each promotion's dated moments, the Wild Card draw first."""
    known = promotions()
    out: list[Moment] = []
    for name, source in SOURCES.items():
        feature = known.get(name)
        if feature is not None:
            out.extend(source(load(name, feature.config_model), now_ms))
    return out
