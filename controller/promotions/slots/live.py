"""The heat in progress as the floor sees it (`live_heat:slots`) and as the director sees the
feed (`ops:feed`): pure renderings of the Slots state and the live credits passed in, which
are not events (controller/feeds/ keeps them and publishes these documents)."""

from __future__ import annotations

import bisect
import operator
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.promotions.slots.feature import Slots
from controller.promotions.slots.feed import FeedHeat
from controller.promotions.tournament.state import Entry

LIVE_HEAT_VIEW = "live_heat:slots"
OPS_FEED_VIEW = "ops:feed"


@dataclass(frozen=True)
class Reading:
    """A machine's latest credit meter and when the controller received it."""

    credits: int
    at_ms: int


def shown_feed(slots: Slots) -> FeedHeat | None:
    """The heat on the floor: the latest one playing, else the latest one (ended or accepted
    stay on show until the next starts); None when that one was restarted or there is none."""
    live = [f for f in slots.feed_order if f.status == "live"]
    feed = live[-1] if live else (slots.feed_order[-1] if slots.feed_order else None)
    return None if feed is None or feed.status == "restarted" else feed


def holders(slots: Slots, feed: FeedHeat) -> dict[str, Entry | None]:
    """Who sits at each of the heat's machines now (None where the seat was vacated, rule
    27), from one pass over the heat's entries: `Slots.holder` asked of every machine scans the
    heat once a machine, 90,000 steps for a bank of 300 at each rendering."""
    seated: dict[int | None, Entry] = {}
    for entry in slots.stages[feed.stage].in_heat(feed.heat):
        if entry.active:
            seated.setdefault(entry.seat, entry)  # the first in entry order, as `holder`
    return {machine: seated.get(feed.seat_of(machine)) for machine in feed.machines}


def credits_of(slots: Slots, feed: FeedHeat, readings: Mapping[str, Reading]) -> dict[str, int]:
    """Each machine's credits as they stand: live readings while it plays, the final credits
    once ended, the recorded score once accepted."""
    if feed.status == "live":
        return {m: r.credits for m, r in readings.items()}
    out: dict[str, int] = {}
    for final in feed.finals:
        entry = slots.entries.get(final["entry"]) if final["entry"] else None
        score = entry.score if entry is not None and feed.status == "accepted" else None
        out[final["machine"]] = final["credits"] if score is None else score
    return out


def live_heat_doc(slots: Slots, readings: Mapping[str, Mapping[str, Reading]],
                  silent_since: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
    """LiveHeatView (showrunner/contract/views/live_heat.py): rank by credits (ties share a
    rank) and where each score would place on the stage's leaderboard if the heat ended now,
    its other seats' credits with it (rule 14)."""
    feed = shown_feed(slots)
    stage = slots.stages[feed.stage if feed else slots.order[0]]
    doc: dict[str, Any] = {"title": slots.title, "stage": stage.spec.title, "heat": "",
                           "status": "idle", "started_at_ms": None, "ends_at_ms": None,
                           "rows": [], "leaderboard_rows": stage.spec.rows}
    if feed is None:
        return doc
    credits = credits_of(slots, feed, readings.get(feed.bank, {}))
    silent = silent_since.get(feed.bank, {})
    standings = stage.standings
    ranked = sorted(credits.values(), reverse=True)
    rows = []
    for machine, holder in holders(slots, feed).items():
        score = credits.get(machine)
        place = None
        if score is not None:
            # the board as it would stand with the whole heat on it: the scores there, and
            # the other seats' credits above this one (a tie shares the place)
            ahead = standings.board.at_least(score)
            if feed.status != "accepted":  # once accepted, the heat's scores are on the board
                ahead += bisect.bisect_left(ranked, -score, key=operator.neg)
            key = None if holder is None else standings.key(holder.id, holder.card)
            if key is not None and key in standings and standings.score(key) >= score:
                ahead -= 1  # its own score on the board is not ahead of itself
            place = ahead + 1 if ahead < stage.spec.rows else None
        rows.append({"seat": feed.seat_of(machine), "machine": machine,
                     "name": slots.name_of(holder.card) if holder else "Seat vacated",
                     "credits": score,
                     "rank": None if score is None else
                     1 + bisect.bisect_left(ranked, -score, key=operator.neg),
                     "place": place,
                     "silent": feed.status == "live" and machine in silent})
    rows.sort(key=lambda r: (r["rank"] is None, r["rank"] or 0, r["seat"]))
    doc.update(heat=feed.heat, status=feed.status, started_at_ms=feed.started_ms,
               ends_at_ms=feed.ends_ms, rows=rows)
    return doc


def ops_feed_doc(slots: Slots, readings: Mapping[str, Mapping[str, Reading]],
                 silent_since: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
    """Every bank's latest heat for the director: its rows with entry ids (to correct one),
    and the machines silent while it plays with since when (rule 27)."""
    banks = []
    for bank, feed in sorted(slots.bank_heats.items()):
        live = readings.get(bank, {}) if feed.status == "live" else {}
        credits = credits_of(slots, feed, live)
        rows, silent = [], []
        for machine, holder in holders(slots, feed).items():
            name = slots.name_of(holder.card) if holder else "Seat vacated"
            entry = holder.id if holder else None
            row = {"seat": feed.seat_of(machine), "machine": machine, "name": name,
                   "entry": entry, "credits": credits.get(machine)}
            rows.append(row)
            since = silent_since.get(bank, {}).get(machine)
            if feed.status == "live" and since is not None:
                silent.append({"seat": row["seat"], "machine": machine, "name": name,
                               "entry": entry, "since_ms": since})
        last = max((r.at_ms for r in live.values()), default=None)
        banks.append({"bank": bank, "stage": feed.stage,
                      "stage_title": slots.stages[feed.stage].spec.title, "heat": feed.heat,
                      "feed_heat": feed.feed_heat, "status": feed.status,
                      "ends_at_ms": feed.ends_ms, "rows": rows, "silent": silent,
                      "last_report_ms": last})
    return {"banks": banks}
