"""One promotion's record for a period, read from the log: what the auditor's PDF says.

The log's stored events are read by type name and data (`stored.type`, `stored.data`, upcast to
their current shape where this Showrunner knows the type), so events a newer feature writes
(prizes, signatures) are reported as the log holds them. Names come from the member register
(the public name, "Thandi M."), card numbers are masked as screens mask them, amounts are rand
(`format_zar`) and times are the venue's wall clock. Nothing here decides a rule: it tells what
the log holds, section by section (`Section`), for controller/audit/report.py to lay out.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Callable, Iterable
from typing import Any

from controller.audit.document import (
    DEFAULT_ZONE,
    PROMOTIONS,
    Chain,
    Clock,
    Para,
    Period,
    Record,
    Section,
    Signature,
    SignatureSheet,
    Table,
    day_words,
    masked,
)
from controller.audit.super9_record import super9_sections
from controller.domain.events import event_from
from controller.store.chain import canonical_json
from controller.store.sqlite import StoredEvent
from showrunner.contract.money import format_int, format_zar

TOURNAMENTS = ("slots", "roulette", "poker")
_PREFIXES = {"Wildcard": "wildcard", "Super9": "super9", "Roulette": "roulette",
             "Slots": "slots"}


def decoded(stored: StoredEvent) -> dict[str, Any]:
    """The event's data in its current shape (upcast), or as stored for a type this
    Showrunner does not know (written by a newer feature)."""
    try:
        return event_from(stored.type, stored.version, stored.data).to_data()
    except LookupError:
        return dict(stored.data)


def promotion_of(stored: StoredEvent, data: dict[str, Any],
                 entries: dict[str, str], prizes: dict[str, str]) -> str | None:
    """Which promotion an event belongs to: its `promotion` field, its type's prefix, or the
    entry or prize it names."""
    if isinstance(data.get("promotion"), str):
        return data["promotion"]
    if stored.type == "WildcardFinalist":
        return "wildcard"
    for prefix, name in _PREFIXES.items():
        if stored.type.startswith(prefix):
            return name
    if isinstance(data.get("prize"), str) and data["prize"] in prizes:
        return prizes[data["prize"]]
    if isinstance(data.get("entry"), str):
        return entries.get(data["entry"])
    return None


class Builder:
    """Folds the stored events into one promotion's sections."""

    def __init__(self, promotion: str, period: Period,
                 image_of: Callable[[str], bytes | None]) -> None:
        self.promotion, self.period, self.image_of = promotion, period, image_of
        self.names: dict[str, str] = {}  # card -> public name
        self.roles: dict[str, str] = {}  # person or key name -> role
        self.entries: dict[str, str] = {}  # entry -> promotion
        self.prize_of: dict[str, str] = {}  # prize id -> promotion
        self.mine: list[tuple[StoredEvent, dict[str, Any]]] = []
        self.configs: list[tuple[StoredEvent, dict[str, Any]]] = []
        self.zone = DEFAULT_ZONE

    def feed(self, events: Iterable[StoredEvent]) -> None:
        clock: Clock | None = None
        for stored in events:
            data = decoded(stored)
            kind = stored.type
            if kind == "MemberRegistered":
                self.names[data["card"]] = data["display_name"]
            elif kind in ("UserAdded", "KeyIssued"):
                self.roles[data["name"]] = data["role"]
            elif kind == "TournamentEntered":
                self.entries[data["entry"]] = data["promotion"]
            elif kind == "PrizeAwarded":
                self.prize_of[data["prize"]] = data["promotion"]
            if promotion_of(stored, data, self.entries, self.prize_of) != self.promotion:
                continue
            if kind == "PromotionConfigured":
                self.configs.append((stored, data))
                zone = data["config"].get("timezone")
                if isinstance(zone, str):
                    self.zone, clock = zone, Clock(zone)
                continue
            clock = clock or Clock(self.zone)
            if kind == "AuditCertified":  # by the days it certifies, whenever it was signed
                if self._overlaps(data["period_from"], data["period_to"]):
                    self.mine.append((stored, data))
            elif self._in_period(clock, stored.at_ms):
                self.mine.append((stored, data))

    def _in_period(self, clock: Clock, at_ms: int) -> bool:
        day = clock.local(at_ms).date()
        return ((self.period.start is None or day >= self.period.start)
                and (self.period.end is None or day <= self.period.end))

    def _overlaps(self, start: str, end: str) -> bool:
        first, last = dt.date.fromisoformat(start), dt.date.fromisoformat(end)
        return ((self.period.end is None or first <= self.period.end)
                and (self.period.start is None or last >= self.period.start))

    def of(self, *types: str) -> list[tuple[StoredEvent, dict[str, Any]]]:
        return [(s, d) for s, d in self.mine if s.type in types]

    def name(self, card: str | None) -> str:
        return self.names.get(card or "", "(not in the register)")

    def who(self, card: str | None) -> str:
        return f"{self.name(card)} ({masked(card)})"

    def signature(self, caption: str, ref: Any) -> Signature | Para:
        sha = ref.get("sha256") if isinstance(ref, dict) else None
        if not isinstance(sha, str):
            return Para(f"{caption}: no signature recorded.")
        return Signature(caption, sha, self.image_of(sha))

    # -- sections ---------------------------------------------------------------------------
    def sections(self) -> list[Section]:
        clock = Clock(self.zone)
        found = [self.rules(clock), self.people(clock)]
        if self.promotion in TOURNAMENTS:
            found += self.tournament(clock)
        if self.promotion == "wildcard":
            found += self.wildcard(clock)
        if self.promotion == "super9":
            found += super9_sections(self, clock)
        found += [self.prizes(clock), self.disputes(clock), self.certifications(clock)]
        return found

    def rules(self, clock: Clock) -> Section:
        section = Section("The rules in force")
        rows = []
        for stored, data in self.configs:
            config = data["config"]
            digest = hashlib.sha256(canonical_json(config).encode()).hexdigest()
            dates = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sorted(config.items())
                              if k.endswith(("_date", "_day", "_from", "_to")) and
                              isinstance(v, str))
            rows.append([str(stored.seq), clock(stored.at_ms), digest[:16] + "…",
                         dates or "-"])
        section.table(["Event", "Logged", "Config SHA-256", "Dates in the config"], rows,
                      [12, 40, 38, 70],
                      "No PromotionConfigured event for this promotion: it ran under the "
                      "shipped config of the Showrunner that wrote the log.")
        if self.configs:
            last = self.configs[-1][1]["config"]
            full = hashlib.sha256(canonical_json(last).encode()).hexdigest()
            section.blocks.append(Para(f"The config in force last has SHA-256 {full} "
                                       "(of its canonical JSON, as the event holds it)."))
        return section

    def people(self, clock: Clock) -> Section:
        section = Section("Who conducted it")
        seen: dict[str, list[int]] = {}
        for stored, _ in self.mine:
            if stored.actor != "controller":
                seen.setdefault(stored.actor, []).append(stored.at_ms)
        rows = [[actor, self.roles.get(actor, "-"), format_int(len(times)), clock(min(times)),
                 clock(max(times))] for actor, times in sorted(seen.items())]
        section.table(["Who", "Role", "Events", "First", "Last"], rows, [40, 22, 14, 42, 42],
                      "Nobody sent a command of this promotion in the period.")
        return section

    def tournament(self, clock: Clock) -> list[Section]:
        entries: dict[str, dict[str, Any]] = {}
        buy_ins = 0
        changes: list[list[str]] = []
        refunds: list[list[str]] = []
        removed: list[list[str]] = []
        for stored, d in self.mine:
            kind = stored.type
            if kind == "TournamentEntered":
                entries[d["entry"]] = {"card": d["card"], "stage": d["stage"],
                                       "heat": d["heat"], "seat": d["seat"], "score": None,
                                       "signed": False, "signature": None,
                                       "payment": d["payment"]}
                buy_ins += d["paid"]
            elif kind == "RouletteRebought":
                buy_ins += d["paid"]
            elif kind == "TournamentSeated":
                for entry, heat, seat in d["seats"]:
                    if entry in entries:
                        entries[entry].update(heat=heat, seat=seat)
            elif kind == "TournamentScoreRecorded" and d["entry"] in entries:
                entries[d["entry"]]["score"] = d["score"]
            elif kind == "TournamentScoreCorrected" and d["entry"] in entries:
                entries[d["entry"]].update(score=d["new"], signed=False)  # to be signed again
                changes.append([clock(stored.at_ms), self._entry_who(entries, d["entry"]),
                                f"{format_int(d['old'])} -> {format_int(d['new'])}",
                                d["reason"], stored.actor])
            elif kind == "TournamentScoreVoided" and d["entry"] in entries:
                entries[d["entry"]].update(score=None, signed=False)
                changes.append([clock(stored.at_ms), self._entry_who(entries, d["entry"]),
                                f"{format_int(d['old'])} voided", d["reason"], stored.actor])
            elif kind == "TournamentScoreAcknowledged" and d["entry"] in entries:
                entry = entries[d["entry"]]
                entry["signed"] = d["score"] == entry["score"]  # signed for the score it has
                entry["signature"] = d["signature"] if entry["signed"] else None
            elif kind == "TournamentEntryRemoved":
                row = [clock(stored.at_ms), self._entry_who(entries, d["entry"]), d["status"],
                       d["reason"], format_zar(d["refund"]) if d["refund"] else "-"]
                (refunds if d["refund"] else removed).append(row)
        summary = Section("Entries and buy-ins")
        summary.blocks.append(Para(f"{format_int(len(entries))} seats taken in every stage; "
                                   f"buy-ins and re-buys {format_zar(buy_ins)}."))
        sections = [summary]
        stages: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        for entry, e in entries.items():
            stages.setdefault(e["stage"], []).append((entry, e))
        closed = {d["stage"]: d["ranking"] for _, d in self.of("TournamentStageClosed")}
        order = {"qualifying": 0, "semi": 1, "final": 2}
        for stage, members in sorted(stages.items(), key=lambda s: order.get(s[0], 3)):
            ranking = closed.get(stage, [])
            place = {entry: i + 1 for i, entry in enumerate(ranking)}
            members.sort(key=lambda m: (place.get(m[0], 10**6), _natural(m[1]["heat"]),
                                        m[1]["seat"] or 0))
            rows = [[str(place.get(entry, "")), str(e["heat"] or "-"), str(e["seat"] or "-"),
                     self.name(e["card"]), masked(e["card"]),
                     "-" if e["score"] is None else format_int(e["score"]),
                     "signed" if e["signed"] else "not signed"] for entry, e in members]
            section = Section(f"Stage: {stage}" + (" (closed)" if stage in closed else ""))
            section.table(["Place", "Heat", "Seat", "Player", "Card", "Score", "Score sheet"],
                          rows, [14, 22, 12, 44, 26, 26, 28], "No entries.")
            signed = [self.signature(f"{self.name(e['card'])}: {format_int(e['score'])}",
                                     e["signature"]) for _, e in members if e["signed"]]
            sheet = [s for s in signed if isinstance(s, Signature)]
            if sheet:  # poker rules 20, 35, 51; roulette rule 18: each signed for their score
                section.blocks.append(SignatureSheet(sheet))
            sections.append(section)
        corrections = Section("Score corrections and voids")
        corrections.table(["When", "Player", "Change", "Reason", "By"], changes,
                          [40, 44, 30, 44, 24], "No score was corrected or voided.")
        money_back = Section("Refunds, disqualifications and no-shows")
        money_back.table(["When", "Player", "Status", "Reason", "Refund"], refunds + removed,
                         [40, 44, 24, 48, 26], "No entry was refunded or removed.")
        return [*sections, corrections, money_back]

    def _entry_who(self, entries: dict[str, dict[str, Any]], entry: str) -> str:
        found = entries.get(entry)
        return self.name(found["card"]) if found else entry

    def wildcard(self, clock: Clock) -> list[Section]:
        draws = Section("Every draw")
        pools = {d["round"]: d for _, d in self.of("WildcardPoolFrozen")}
        outcome: dict[int, str] = {}
        for stored, d in self.of("WildcardClaimed", "WildcardRedrawStarted"):
            if stored.type == "WildcardClaimed":
                how = "claimed in person" if d["present"] else "finalist from the register"
                outcome[d["round"]] = f"{how} {clock.time(d['at_ms'])} ({d['operator']})"
            else:
                outcome[d["round"]] = f"redrawn {clock.time(d['at_ms'])}: {d['cause']}"
        rows = []
        for _, d in sorted(self.of("WildcardDrawn"), key=lambda s: s[1]["round"]):
            pool = pools.get(d["round"], {})
            rows.append([str(d["round"]), clock(d["drawn_at_ms"]),
                         f"{format_int(pool.get('members', 0))} members, "
                         f"{format_int(d['tickets'])} tickets", d["digest"][:16] + "…",
                         f"{format_int(d['pick'] + 1)}", self.who(d["card"]),
                         outcome.get(d["round"], "open"), d["operator"]])
        draws.table(["Rnd", "Drawn", "Pool", "Pool SHA-256", "Ticket", "Winner", "Outcome",
                     "By"], rows, [10, 30, 26, 26, 12, 32, 50, 22], "No draw in the period.")
        for stored, d in sorted(self.of("WildcardPoolFrozen"), key=lambda s: s[1]["round"]):
            excluded = ", ".join(self.who(c) for c in d["excluded"]) or "none"
            draws.blocks.append(Para(
                f"Round {d['round']} pool frozen {clock(d['at_ms'])} by {d['operator']} "
                f"(event {stored.seq}): {format_int(d['members'])} members, "
                f"{format_int(d['tickets'])} tickets, SHA-256 {d['digest']}; absent winners "
                f"excluded: {excluded}."))
        declines = Section("The decline-to-attend register")
        declines.table(["When", "Member", "Identity document", "Contact"],
                       [[clock(d["at_ms"]), self.who(d["card"]),
                         "\u2022\u2022\u2022" + str(d["id_document"])[-4:],
                         str(d["contact"])] for _, d in self.of("WildcardDeclineRegistered")],
                       [40, 50, 40, 50], "Nobody registered to decline attending.")
        stand_ins = [[clock(d["at_ms"]), self.who(d["card"]), d["stand_in"], d["operator"]]
                     for _, d in self.of("WildcardStandInNamed")]
        if stand_ins:
            declines.blocks.append(Table(["When", "Finalist", "Stand-in", "By"], stand_ins,
                                         [40, 50, 50, 40]))
        return [draws, declines]

    def prizes(self, clock: Clock) -> Section:
        section = Section("Prizes")
        paid = {d["prize"]: (s, d) for s, d in self.of("PrizePaid")}
        lapsed = {d["prize"]: (s, d) for s, d in self.of("PrizeLapsed")}
        awarded = self.of("PrizeAwarded")
        if not awarded:
            section.blocks.append(Para("No prize was awarded in the period."))
        rows = []
        for _, d in awarded:
            what = d["what"] if d.get("kind") == "seat" else \
                f"{d['what']}: {format_zar(d['cents'])}"
            if d["prize"] in paid:
                p = paid[d["prize"]][1]
                state = (f"paid {clock(p['at_ms'])}, {p['method']}, by {p['paid_by']}; "
                         f"{p['id_type']} \u2022\u2022\u2022{p['id_last4']}")
            elif d["prize"] in lapsed:
                lap = lapsed[d["prize"]][1]
                state = f"lapsed {clock(lap['at_ms'])}: {lap['consequence']}"
            elif d.get("kind") == "seat":
                state = "seat handed over when awarded"
            else:
                state = f"owed until {clock(d['deadline_ms'])}"
            rows.append([self.who(d["card"]), what, d["rule"],
                         clock(d["decided_ms"]), state])
        if rows:
            section.blocks.append(Table(["Winner", "Prize", "Rule", "Decided", "State"], rows,
                                        [38, 48, 22, 34, 58]))
        for _, d in awarded:
            if d["prize"] in paid:
                p = paid[d["prize"]][1]
                section.blocks.append(self.signature(
                    f"Received by {self.who(d['card'])}: {format_zar(p['cents'])} "
                    f"({d['what']}), {clock(p['at_ms'])}", p.get("signature")))
        return section

    def disputes(self, clock: Clock) -> Section:
        section = Section("Disputes")
        found = self.of("RouletteDisputeRecorded")
        if not found:
            section.blocks.append(Para("No dispute was recorded."))
        for _, d in found:
            section.blocks.append(Para(
                f"{clock(d['at_ms'])}, {d['heat']}, spin {d['spin']}: {self.who(d['card'])} "
                f"disputed: {d['what']}. Decided by {d['decided_by']}: {d['decision']}."))
            section.blocks.append(self.signature(f"Signed by {self.name(d['card'])}",
                                                 d.get("signature")))
        return section

    def certifications(self, clock: Clock) -> Section:
        section = Section("Certifications")
        found = self.of("AuditCertified")
        if not found:
            section.blocks.append(Para("Not certified yet for this period."))
        for _, d in found:
            section.blocks.append(Para(
                f"{d['auditor']} certified {_day(d['period_from'])} to "
                f"{_day(d['period_to'])} on "
                f"{clock(d['at_ms'])}: \u201c{d['statement']}\u201d"))
            section.blocks.append(self.signature(f"Signed by {d['auditor']}",
                                                 d.get("signature")))
        return section


def _natural(name: Any) -> tuple[Any, ...]:
    """"Heat 2" before "Heat 10": a name's numbers compared as numbers."""
    return tuple(int(part) if part.isdigit() else part
                 for part in re.split(r"(\d+)", str(name or "")))


def _day(iso: str) -> str:
    """A certified period's day as the venue writes it ("18 January 2024")."""
    return day_words(dt.date.fromisoformat(iso))


def build_record(events: Iterable[StoredEvent], promotion: str, period: Period,
                 image_of: Callable[[str], bytes | None], chain: Chain,
                 now_ms: int) -> Record:
    """Everything the report says about `promotion` in `period`."""
    if promotion not in PROMOTIONS:
        raise ValueError(f"There is no promotion called {promotion!r}; say one of "
                         f"{', '.join(PROMOTIONS)}.")
    builder = Builder(promotion, period, image_of)
    builder.feed(events)
    title = next((d["config"]["title"] for _, d in reversed(builder.configs)
                  if isinstance(d["config"].get("title"), str)), PROMOTIONS[promotion])
    return Record(promotion, title, period, builder.zone, builder.sections(), chain,
                  Clock(builder.zone)(now_ms), len(builder.mine))
