"""When Super 9 sessions happen, when tickets may be sold and which session a ticket plays in.

Rule 4: Wednesdays 19h00 and 21h00, Sundays 15h00 and 17h00 except the last Sunday of the
month (all from the config). Rule 6: sales from 08h00 on draw days, closing 30 minutes before
each session; tickets handed in at least 15 minutes before a session play in it, later ones
play in the next session. Times are the venue's wall clock; instants are UTC epoch ms.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

if TYPE_CHECKING:
    from controller.promotions.super9.config import Super9Config

SUNDAY = 6
LOOKAHEAD_DAYS = 400


@dataclass(frozen=True)
class Session:
    """One scheduled session; `id` is its local start, e.g. "2025-06-04T19:00"."""

    id: str
    start_ms: int
    label: str
    day: str  # local date, ISO: a disqualification lasts for this day (rule 9)


def session_words(session_id: str) -> str:
    """A session as people name it, on the venue's wall clock: "2025-06-04T19:00" ->
    "Wednesday 4 June 19:00" (an id that is not a time stays as it is)."""
    try:
        start = dt.datetime.fromisoformat(session_id)
    except ValueError:
        return session_id
    return f"{start:%A} {start.day} {start:%B} {start:%H:%M}"


def session_day(session_id: str) -> str:
    """The local date of a session id ("2025-06-04T19:00" -> "2025-06-04")."""
    return session_id.partition("T")[0]


class Schedule:
    def __init__(self, config: Super9Config) -> None:
        self.config = config
        self.tz = ZoneInfo(config.timezone)
        self.sessions = config.by_weekday()

    def _local(self, ms: int) -> dt.datetime:
        return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).astimezone(self.tz)

    def _ms(self, day: dt.date, at: dt.time) -> int:
        return int(dt.datetime.combine(day, at, self.tz).timestamp() * 1000)

    def day_of(self, ms: int) -> str:
        """The venue's local date of an instant, ISO."""
        return self._local(ms).date().isoformat()

    def is_draw_day(self, day: dt.date) -> bool:
        """Rule 4: a session weekday, and not the month's last Sunday when that is excluded."""
        if day.weekday() not in self.sessions:
            return False
        last_of_month = (day + dt.timedelta(days=7)).month != day.month
        return not (
            day.weekday() == SUNDAY and self.config.skip_last_sunday_of_month and last_of_month
        )

    def sessions_on(self, day: dt.date) -> list[Session]:
        if not self.is_draw_day(day):
            return []
        return [self._session(day, t) for t in self.sessions[day.weekday()]]

    def _session(self, day: dt.date, at: dt.time) -> Session:
        session_id = f"{day.isoformat()}T{at:%H:%M}"
        return Session(session_id, self._ms(day, at), session_words(session_id), day.isoformat())

    def _from(self, now_ms: int) -> Iterator[Session]:
        """Every session starting at or after `now_ms`, in order."""
        today = self._local(now_ms).date()
        for offset in range(LOOKAHEAD_DAYS):
            for session in self.sessions_on(today + dt.timedelta(days=offset)):
                if session.start_ms >= now_ms:
                    yield session

    def next_sessions(self, now_ms: int, count: int) -> list[Session]:
        """The next `count` sessions starting after `now_ms`."""
        out: list[Session] = []
        for session in self._from(now_ms + 1):
            out.append(session)
            if len(out) == count:
                break
        return out

    def played(self, session_id: str) -> Session:
        """A session the log holds, whether or not today's schedule still has it."""
        start = dt.datetime.fromisoformat(session_id)
        return self.session(session_id) or self._session(start.date(), start.time())

    def session(self, session_id: str) -> Session | None:
        """The scheduled session with this id, or None if no session is scheduled then."""
        try:
            start = dt.datetime.fromisoformat(session_id)
        except ValueError:
            return None
        return next((s for s in self.sessions_on(start.date()) if s.id == session_id), None)

    def sales_refusal(self, now_ms: int) -> str | None:
        """Why a ticket cannot be sold now (rule 6), or None when sales are open."""
        local = self._local(now_ms)
        if not self.is_draw_day(local.date()):
            return "Super 9 tickets are sold only on draw days (rules 4 and 6)."
        if local.time() < self.config.sales_open:
            return f"Super 9 ticket sales open at {self.config.sales_open:%H:%M} (rule 6)."
        close_ms = self.config.sales_close_minutes * 60_000
        later = [s for s in self.sessions_on(local.date()) if s.start_ms > now_ms]
        if not later:
            return "Today's Super 9 sessions have started; ticket sales are closed (rule 6)."
        if now_ms >= later[0].start_ms - close_ms:
            minutes = self.config.sales_close_minutes
            reopen = (f"they reopen when the {later[0].label} session starts" if len(later) > 1
                      else "sales are closed for today")
            return f"Ticket sales close {minutes} minutes before each session; {reopen} (rule 6)."
        return None

    def hand_in_session(self, now_ms: int) -> Session:
        """The session a ticket handed in now plays in: the first whose cut-off is not past."""
        cutoff = self.config.hand_in_minutes * 60_000
        return next(self._from(now_ms + cutoff))
