"""The slot tournament system's feed, the rules' side (controller/promotions/slots/feed.py):
a bank's heat bound to a Showrunner heat, its final credits, the director's accept and its
refusals (shared/rules/slots-payoff-tournament.txt rules 11, 14, 27)."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from controller.domain.commands import Context
from controller.domain.config import PromotionConfigured
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.feeds.live import LiveCredits, render
from controller.promotions.slots.events import (
    SlotsFeedAccepted,
    SlotsFeedHeatEnded,
    SlotsFeedHeatStarted,
)
from controller.promotions.tournament.events import (
    TournamentHeatStarted,
    TournamentScoreRecorded,
)
from showrunner.contract.views import view_model
from tests.promotions.helpers import Driver

MACHINES = ["101", "102", "103", "104"]


def feed(d: Driver, type_: str, payload: dict[str, Any], bank: str = "bank-1"
         ) -> list[DomainEvent]:
    """A command from the bank's device key (its holder name is the bank)."""
    events = d.show.decide(type_, payload, Context(bank, "device", d.now, d.rng))
    for event in events:
        d.apply(event)
    return events


def feed_refused(d: Driver, type_: str, payload: dict[str, Any],
                 bank: str = "bank-1") -> Rejected:
    before = pickle.dumps(d.show.features)
    with pytest.raises(Rejected) as refused:
        d.show.decide(type_, payload, Context(bank, "device", d.now, d.rng))
    assert pickle.dumps(d.show.features) == before  # nothing changed
    return refused.value


def seated(d: Driver, n: int = 4) -> list[str]:
    """n players entered: Heat 1, seats 1..n in entry order (rule 11)."""
    return [d.entry("slots.enter", {"card": c}) for c in d.members(n)]


def start(heat: str = "F-1", machines: list[str] | None = None) -> dict[str, Any]:
    return {"bank": "bank-1", "feed_heat": heat, "machines": machines or MACHINES,
            "start_credits": 1000, "duration_s": 300}


def end(heat: str = "F-1", credits: list[int] | None = None) -> dict[str, Any]:
    values = credits or [1000 + 100 * i for i in range(len(MACHINES))]
    return {"bank": "bank-1", "feed_heat": heat,
            "finals": [{"machine": m, "credits": c}
                       for m, c in zip(MACHINES, values, strict=True)]}


def test_the_feed_starts_the_next_heat_and_seats_are_machines_in_order():
    d = Driver()
    entries = seated(d)
    events = feed(d, "slots.feed_heat_started", start())
    # slots rule 11: machines allocated in sequential order; the heat not started is started now
    assert isinstance(events[0], TournamentHeatStarted) and events[0].heat == "Heat 1"
    bound = events[-1]
    assert isinstance(bound, SlotsFeedHeatStarted)
    assert (bound.stage, bound.heat, bound.seats) == ("qualifying", "Heat 1", [1, 2, 3, 4])
    assert bound.ends_ms == d.now + 300_000
    slots = d.feature("slots")
    assert [slots.holder(slots.bank_heats["bank-1"], m).id for m in MACHINES] == entries


def test_the_feed_binds_the_heat_the_mc_already_started_without_starting_it_again():
    d = Driver()
    seated(d)
    d.do("slots.start_heat", {"stage": "qualifying", "heat": "Heat 1"})
    events = feed(d, "slots.feed_heat_started", start())
    assert [type(e) for e in events] == [SlotsFeedHeatStarted]


def test_end_then_one_tap_accept_records_every_seat_with_the_feed_as_its_source():
    d = Driver()
    entries = seated(d)
    feed(d, "slots.feed_heat_started", start())
    ended = feed(d, "slots.feed_heat_ended", {**end(), "last_readings": [
        {"machine": "101", "credits": 990, "at_ms": d.now}]})[0]
    assert isinstance(ended, SlotsFeedHeatEnded)
    assert ended.finals[0] == {"machine": "101", "seat": 1, "entry": entries[0],
                               "credits": 1000}
    assert ended.last_readings == [{"machine": "101", "credits": 990, "at_ms": d.now}]
    events = d.do("slots.accept_feed", {"stage": "qualifying", "heat": "Heat 1"})
    scores = [e for e in events if isinstance(e, TournamentScoreRecorded)]
    assert [(e.entry, e.score) for e in scores] == list(zip(entries, [1000, 1100, 1200, 1300],
                                                            strict=True))
    assert scores[0].detail == {"source": "feed", "bank": "bank-1", "machine": "101",
                                "feed_credits": 1000}
    assert isinstance(events[-1], SlotsFeedAccepted)
    # slots rule 14: the qualifying leaderboard shows them at once
    assert [r["score"] for r in d.view("leaderboard:slots")["rows"]] == [1300, 1200, 1100, 1000]
    assert d.refuse("slots.accept_feed", {"stage": "qualifying", "heat": "Heat 1"}).code == \
        "already_accepted"


def test_a_correction_needs_a_reason_and_keeps_the_feed_credits():
    d = Driver()
    entries = seated(d)
    feed(d, "slots.feed_heat_started", start())
    feed(d, "slots.feed_heat_ended", end())
    bad = {"stage": "qualifying", "heat": "Heat 1",
           "corrections": [{"entry": entries[1], "score": 1500, "reason": "  "}]}
    assert d.refuse("slots.accept_feed", bad).code == "reason_required"
    good = {**bad, "corrections": [{"entry": entries[1], "score": 1500,
                                    "reason": "meter photo shows 1500"}]}
    scores = [e for e in d.do("slots.accept_feed", good)
              if isinstance(e, TournamentScoreRecorded)]
    assert scores[1].score == 1500
    assert scores[1].detail == {"source": "feed", "bank": "bank-1", "machine": "102",
                                "feed_credits": 1100, "correction": "meter photo shows 1500"}


def test_refusals_change_nothing():
    d = Driver()
    seated(d)
    assert feed_refused(d, "slots.feed_heat_started",
                        start(machines=["101", "102"])).code == "seats_mismatch"  # slots rule 11
    assert feed_refused(d, "slots.feed_heat_started", start(), bank="bank-2").code == \
        "wrong_bank"
    assert d.refuse("slots.accept_feed", {"stage": "qualifying", "heat": "Heat 1"}).code == \
        "no_feed"
    feed(d, "slots.feed_heat_started", start())
    assert feed_refused(d, "slots.feed_heat_started", start("F-2")).code == "heat_live"
    assert d.refuse("slots.accept_feed", {"stage": "qualifying", "heat": "Heat 1"}).code == \
        "heat_live"
    assert feed_refused(d, "slots.feed_heat_ended", end("F-9")).code == "unknown_feed_heat"
    stray = end()
    stray["finals"][0]["machine"] = "999"
    assert feed_refused(d, "slots.feed_heat_ended", stray).code == "unknown_machine"
    negative = end(credits=[1000, -5, 1000, 1000])
    refused = feed_refused(d, "slots.feed_heat_ended", negative)
    assert refused.code == "bad_payload" and "at least 0" in refused.message
    fraction: dict[str, Any] = end()
    fraction["finals"][0]["credits"] = 10.5
    assert feed_refused(d, "slots.feed_heat_ended", fraction).code == "bad_payload"
    short = end()
    short["finals"].pop()
    assert feed_refused(d, "slots.feed_heat_ended", short).code == "bad_payload"
    feed(d, "slots.feed_heat_ended", end())
    assert feed_refused(d, "slots.feed_heat_ended", end()).code == "already_ended"


def test_a_feed_heat_started_or_ended_again_is_a_retry_or_a_conflict_said_in_words():
    d = Driver()
    seated(d)
    feed(d, "slots.feed_heat_started", start())
    # the same start again under another command id: done already (the CSV tool's "done")
    assert feed_refused(d, "slots.feed_heat_started", start()).code == "already_started"
    other = feed_refused(d, "slots.feed_heat_started",
                         {**start(machines=["101", "102", "103", "105"]), "duration_s": 600})
    assert other.code == "feed_heat_conflict"
    assert "already started on bank bank-1 at " in other.message
    assert "with machines 101, 102, 103, 104, 1000 start credits and 300 s; this call says " \
           "machines 101, 102, 103, 105 and 600 s" in other.message
    assert "new feed_heat" in other.message
    feed(d, "slots.feed_heat_ended", end())
    assert feed_refused(d, "slots.feed_heat_ended", end()).code == "already_ended"
    changed = feed_refused(d, "slots.feed_heat_ended", end(credits=[1000, 1100, 1250, 1300]))
    assert changed.code == "feed_heat_conflict"
    assert "machine 103 1200 (this call: 1250)" in changed.message
    assert "corrected by the director" in changed.message


def test_a_feed_heat_the_director_restarted_is_void_and_says_so():
    d = Driver()
    seated(d)
    feed(d, "slots.feed_heat_started", start())
    d.do("slots.restart_heat", {"stage": "qualifying", "heat": "Heat 1",
                                "reason": "tournament system froze"})  # slots rule 27
    for type_, payload in (("slots.feed_heat_started", start()),
                           ("slots.feed_heat_ended", end())):
        refused = feed_refused(d, type_, payload)
        assert refused.code == "feed_heat_void"
        assert "restarted by the director (slots rule 27)" in refused.message
        assert "under a new feed_heat" in refused.message


def test_a_machine_moved_after_a_malfunction_is_not_scored_from_its_old_machine():
    d = Driver()
    entries = seated(d, 10 + 4)  # Heat 1 full (10 machines), 4 in Heat 2
    machines = [str(101 + i) for i in range(10)]
    feed(d, "slots.feed_heat_started", start(machines=machines))
    # slots rule 27: the player moves to the first free seat of a later heat
    d.do("slots.malfunction", {"entry": entries[3]})
    ended = feed(d, "slots.feed_heat_ended", {"bank": "bank-1", "feed_heat": "F-1", "finals": [
        {"machine": m, "credits": 500} for m in machines]})[0]
    assert isinstance(ended, SlotsFeedHeatEnded)
    assert ended.finals[3]["entry"] is None
    scores = [e.entry for e in d.do("slots.accept_feed", {"stage": "qualifying",
                                                          "heat": "Heat 1"})
              if isinstance(e, TournamentScoreRecorded)]
    assert entries[3] not in scores and len(scores) == 9


def test_a_restarted_heat_frees_the_bank_and_is_fed_again():
    d = Driver()
    seated(d)
    feed(d, "slots.feed_heat_started", start())
    d.do("slots.restart_heat", {"stage": "qualifying", "heat": "Heat 1",
                                "reason": "tournament system froze"})  # slots rule 27
    again = feed(d, "slots.feed_heat_started", start("F-2"))[-1]
    assert isinstance(again, SlotsFeedHeatStarted) and again.heat == "Heat 1"


def test_live_view_ranks_by_credits_places_on_the_board_and_flags_silence():
    d = Driver()
    earlier = seated(d, 10)  # Heat 1, played and scored by hand
    d.do("slots.start_heat", {"stage": "qualifying", "heat": "Heat 1"})
    for i, e in enumerate(earlier):
        d.do("slots.record_score", {"entry": e, "score": 2000 - 100 * i})
    for card in d.members(4, start=2_000_000):  # Heat 2
        d.do("slots.enter", {"card": card})
    feed(d, "slots.feed_heat_started", start())
    slots = d.feature("slots")
    silence_ms = slots.config.feed_silence_s * 1000
    credits = LiveCredits()
    credits.put("bank-1", "F-1", {"101": 1750, "102": 1750, "103": 2500}, d.now)
    docs = render(slots, credits, d.now + silence_ms)
    doc = docs["live_heat:slots"]
    view_model("live_heat:slots").model_validate(doc)
    view_model("ops:feed").model_validate(docs["ops:feed"])
    rows = {r["machine"]: r for r in doc["rows"]}
    assert (doc["status"], doc["heat"]) == ("live", "Heat 2")
    # ties share a rank; the board holds 2000, 1900, ..., 1100: if the heat ended now 2500
    # would place 1st and 1750 5th, after 2000, 1900, 1800 and this heat's 2500 (rule 14)
    assert (rows["103"]["rank"], rows["101"]["rank"], rows["102"]["rank"]) == (1, 2, 2)
    assert (rows["103"]["place"], rows["101"]["place"], rows["102"]["place"]) == (1, 5, 5)
    assert rows["104"]["credits"] is None and rows["104"]["rank"] is None
    assert [r["machine"] for r in doc["rows"]] == ["103", "101", "102", "104"]
    assert rows["101"]["name"] == "Player0 S."  # the display name, as the leaderboard shows it
    # slots rule 27: every machine silent for 10 s is flagged, to the floor and to the director
    assert all(r["silent"] for r in doc["rows"])
    credits.put("bank-1", "F-1", {"101": 1800}, d.now + 5000)
    docs = render(slots, credits, d.now + silence_ms)
    assert [r["machine"] for r in docs["live_heat:slots"]["rows"] if r["silent"]] == \
        ["103", "102", "104"]
    silent = docs["ops:feed"]["banks"][0]["silent"]
    assert [(s["machine"], s["since_ms"]) for s in silent] == \
        [("102", d.now), ("103", d.now), ("104", d.now)]
    assert silent[2]["entry"] == slots.holder(slots.bank_heats["bank-1"], "104").id


def test_a_seat_vacated_mid_heat_shows_so_and_the_others_keep_their_players():
    # slots rule 27: a player removed while the heat plays leaves the machine's seat vacated
    d = Driver()
    entries = seated(d, 4)
    feed(d, "slots.feed_heat_started", start())
    d.do("slots.disqualify", {"entry": entries[1], "reason": "left the machine"})
    credits = LiveCredits()
    credits.put("bank-1", "F-1", dict.fromkeys(MACHINES, 1000), d.now)
    docs = render(d.feature("slots"), credits, d.now)
    names = {r["machine"]: r["name"] for r in docs["live_heat:slots"]["rows"]}
    assert names == {"101": "Player0 S.", "102": "Seat vacated", "103": "Player2 S.",
                     "104": "Player3 S."}
    ops = docs["ops:feed"]["banks"][0]["rows"]
    assert [(r["machine"], r["entry"]) for r in ops] == [
        ("101", entries[0]), ("102", None), ("103", entries[2]), ("104", entries[3])]


def test_the_venue_sets_how_long_a_machine_may_be_silent():
    # slots rule 27 leaves the figure to the venue: its config's feed_silence_s (10 shipped)
    d = Driver()
    seated(d, 4)
    assert d.feature("slots").config.feed_silence_s == 10
    config = d.feature("slots").config.to_data()
    d.apply(PromotionConfigured("slots", {**config, "feed_silence_s": 3}))
    feed(d, "slots.feed_heat_started", start())
    credits = LiveCredits()
    credits.put("bank-1", "F-1", dict.fromkeys(MACHINES, 1000), d.now)
    slots = d.feature("slots")
    assert not any(r["silent"] for r in render(slots, credits, d.now + 2999)[
        "live_heat:slots"]["rows"])
    assert all(r["silent"] for r in render(slots, credits, d.now + 3000)[
        "live_heat:slots"]["rows"])


def test_the_first_heat_places_as_it_ranks_on_an_empty_board():
    # slots rule 14: with nothing on the leaderboard yet, the heat's credits are the board
    d = Driver()
    seated(d, 4)
    feed(d, "slots.feed_heat_started", start())
    credits = LiveCredits()
    credits.put("bank-1", "F-1", {"101": 900, "102": 1200, "103": 900, "104": 300}, d.now)
    rows = render(d.feature("slots"), credits, d.now)["live_heat:slots"]["rows"]
    assert [(r["machine"], r["rank"], r["place"]) for r in rows] == \
        [("102", 1, 1), ("101", 2, 2), ("103", 2, 2), ("104", 4, 4)]


def test_no_heat_is_idle_and_an_accepted_heat_stays_on_show():
    d = Driver()
    slots = d.feature("slots")
    assert render(slots, LiveCredits(), d.now)["live_heat:slots"]["status"] == "idle"
    seated(d)
    feed(d, "slots.feed_heat_started", start())
    feed(d, "slots.feed_heat_ended", end())
    d.do("slots.accept_feed", {"stage": "qualifying", "heat": "Heat 1"})
    doc = render(slots, LiveCredits(), d.now + 60_000)["live_heat:slots"]
    assert doc["status"] == "accepted" and doc["rows"][0]["credits"] == 1300
    assert not any(r["silent"] for r in doc["rows"])
    # rule 14: the accepted scores are on the board now, each counted once
    assert [r["place"] for r in doc["rows"]] == [r["rank"] for r in doc["rows"]]
