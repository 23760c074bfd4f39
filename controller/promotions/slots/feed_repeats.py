"""A bank's start or end of a feed heat that the log already has: a retry of the same call, or
a conflicting one, said in words a feed's integrator can act on (docs/slots-feed.md).

A feed heat is started once and ended once, by its id (`feed_heat`). The same call again (its
answer was lost) is answered as the first; a call with other content (other machines, start
credits or duration; other final credits) is refused naming what differs and what the log
holds, never as a reused command id, which a feed cannot send again under a new id. A feed heat
the director restarted (slots rule 27) is void: it is started again under a new id.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from controller.domain.calendar import zone
from controller.domain.errors import Rejected

if TYPE_CHECKING:
    from controller.promotions.slots.feed import FeedHeat

CONFLICT = "feed_heat_conflict"
VOID = "feed_heat_void"
SHOWN = 8  # machines named in a sentence; the rest are counted


def listed(items: Sequence[str]) -> str:
    if len(items) <= SHOWN:
        return ", ".join(items)
    return f"{', '.join(items[:SHOWN])} and {len(items) - SHOWN} more"


def void(feed: FeedHeat, what: str) -> Rejected:
    return Rejected(VOID, f"Heat {feed.feed_heat} on bank {feed.bank} was restarted by the "
                          f"director (slots rule 27) and is void, so this {what} was not "
                          "applied. Start the heat again under a new feed_heat.")


def start_conflict(feed: FeedHeat, machines: Sequence[str], start_credits: int,
                   duration_s: int, timezone: str) -> Rejected | None:
    """None when a start of `feed`'s id says what the log holds (a retry); else why not."""
    if feed.status == "restarted":
        return void(feed, "start")
    duration = (feed.ends_ms - feed.started_ms) // 1000
    differs = []
    if list(machines) != feed.machines:
        differs.append(f"machines {listed(machines)}")
    if start_credits != feed.start_credits:
        differs.append(f"{start_credits} start credits")
    if duration_s != duration:
        differs.append(f"{duration_s} s")
    if not differs:
        return None
    at = dt.datetime.fromtimestamp(feed.started_ms / 1000, zone(timezone)).strftime("%H:%M:%S")
    return Rejected(CONFLICT, f"Heat {feed.feed_heat} was already started on bank {feed.bank} "
                              f"at {at} with machines {listed(feed.machines)}, "
                              f"{feed.start_credits} start credits and {duration} s; this call "
                              f"says {' and '.join(differs)}, so it was not applied. A feed heat "
                              "is started once: start another heat under a new feed_heat.")


def end_conflict(feed: FeedHeat, finals: Iterable[tuple[str, int]]) -> Rejected | None:
    """None when an end of `feed`'s id gives the final credits the log holds (a retry, or
    `feed` still playing); else why not."""
    if feed.status == "restarted":
        return void(feed, "end")
    if feed.status == "live":
        return None
    held = {f["machine"]: f["credits"] for f in feed.finals}
    given = dict(finals)
    if given == held:
        return None
    differs = [f"machine {m} {held[m]} (this call: {given[m]})" for m in feed.machines
               if m in held and m in given and held[m] != given[m]]
    others = sorted(set(given) ^ set(held))
    said = listed(differs) if differs else f"other machines ({listed(others)})"
    return Rejected(CONFLICT, f"Heat {feed.feed_heat} on bank {feed.bank} has already ended "
                              f"with other final credits: {said}, so this end was not applied. "
                              "A heat ends once; a score is corrected by the director on the "
                              "console, with a reason.")
