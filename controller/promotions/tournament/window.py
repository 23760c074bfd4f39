"""When a tournament takes buy-ins: its qualifying days and daily hours, in the venue's zone.

Roulette rules 3-4 (15 July to 19 September 2024, tables open 14h00 to 21h00) and the poker
"Qualifying Heats" heading (03 to 30 July 2026, 13h00 until the final buy-ins at 00h00) name a
window; a buy-in outside it is refused with a sentence naming the window. The hours count to
the second: a table open "14h00 to 21h00" takes a buy-in from 14:00:00 to 21:00:00 and none
after (21:00:30 is after closing). A closing time at or before the opening time is after
midnight and belongs to the day the hours opened (poker's final buy-ins at 00:00 end 30 July's
heats).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from controller.domain.calendar import zone
from controller.domain.errors import Rejected


def day_text(day: dt.date, year: bool = True) -> str:
    text = f"{day.day} {day:%B}"
    return f"{text} {day.year}" if year else text


@dataclass(frozen=True)
class BuyInWindow:
    first_day: dt.date
    last_day: dt.date
    opens: dt.time
    closes: dt.time  # the last second a buy-in is taken
    timezone: str

    def day_of(self, now_ms: int) -> dt.date | None:
        """The qualifying day whose hours hold `now_ms`, or None outside every day's hours."""
        local = dt.datetime.fromtimestamp(now_ms / 1000, zone(self.timezone))
        clock = local.time().replace(microsecond=0)
        day = local.date()
        if self.opens < self.closes:
            held = day if self.opens <= clock <= self.closes else None
        elif clock >= self.opens:
            held = day
        else:
            held = day - dt.timedelta(days=1) if clock <= self.closes else None
        return held if held is not None and self.first_day <= held <= self.last_day else None

    def text(self) -> str:
        """"15 July to 19 September 2024, daily from 14:00 to 21:00 (Africa/Johannesburg)"."""
        same_year = self.first_day.year == self.last_day.year
        return (f"{day_text(self.first_day, not same_year)} to {day_text(self.last_day)}, "
                f"daily from {self.opens:%H:%M} to {self.closes:%H:%M} ({self.timezone} time)")

    def check(self, now_ms: int, what: str, rule: str) -> None:
        """Refuse, naming the window and the venue's clock, unless `now_ms` is inside it."""
        if self.day_of(now_ms) is not None:
            return
        local = dt.datetime.fromtimestamp(now_ms / 1000, zone(self.timezone))
        raise Rejected("outside_hours", f"{what} are taken {self.text()} ({rule}); it is now "
                                        f"{local:%H:%M} on {day_text(local.date())}.")
