"""Super 9 sessions (rule 4), the sales window (rule 6) and the shipped configuration."""

from __future__ import annotations

import datetime as dt

import pytest
from pydantic import ValidationError

from controller.application.settings import describe, shipped
from controller.promotions.super9.config import Super9Config
from controller.promotions.super9.schedule import Schedule
from tests.promotions.super9_floor import ms

SCHEDULE = Schedule(shipped("super9", Super9Config))


def test_shipped_defaults_are_the_rule_values():
    c = shipped("super9", Super9Config)
    assert c.jackpot_seed_cents == 500_000  # rule 15: R5,000
    assert c.jackpot_growth_percent == 75  # rule 15
    assert c.consolation_percent == 25  # rule 16
    assert c.jackpot_counted_spins == 18  # rule 14
    assert (c.numbers_per_ticket, c.highest_number) == (9, 36)  # rule 8
    assert (c.sales_open, c.sales_close_minutes, c.hand_in_minutes) == (dt.time(8), 30, 15)


def test_sessions_wednesday_and_sunday_but_not_the_last_sunday():
    # rule 4: Wednesday 19h00 and 21h00; Sunday 15h00 and 17h00, excluding the last Sunday
    wednesday = SCHEDULE.sessions_on(dt.date(2025, 6, 4))
    assert [s.label for s in wednesday] == ["Wednesday 4 June 19:00", "Wednesday 4 June 21:00"]
    assert [s.id for s in SCHEDULE.sessions_on(dt.date(2025, 6, 22))] == [
        "2025-06-22T15:00", "2025-06-22T17:00"]
    assert SCHEDULE.sessions_on(dt.date(2025, 6, 29)) == []  # last Sunday of June
    assert SCHEDULE.sessions_on(dt.date(2025, 6, 5)) == []  # a Thursday
    assert SCHEDULE.session("2025-06-29T15:00") is None
    assert SCHEDULE.session("not a time") is None


def test_next_sessions_are_computed_from_now():
    upcoming = SCHEDULE.next_sessions(ms("2025-06-22 15:00"), 3)
    assert [s.id for s in upcoming] == ["2025-06-22T17:00", "2025-06-25T19:00",
                                        "2025-06-25T21:00"]
    assert upcoming[0].start_ms == ms("2025-06-22 17:00")


def test_a_bad_config_value_names_its_key():
    raw = {"sessions": {"wednesday": ["19:00"]}, "sales_close_minutes": 30,
           "hand_in_minutes": 15, "ticket_price_cents": 5000, "numbers_per_ticket": 9,
           "highest_number": 36, "jackpot_seed_cents": 500000, "jackpot_growth_percent": 75,
           "jackpot_counted_spins": 18, "consolation_percent": 25}
    raw = {**raw, "timezone": "Africa/Johannesburg", "skip_last_sunday_of_month": False,
           "sales_open": "08:00"}
    assert Super9Config.model_validate(raw).by_weekday() == {2: (dt.time(19),)}
    for bad, key in (({"consolation_percent": 125}, "consolation_percent"),
                     ({"sessions": {"funday": ["19:00"]}}, "sessions.funday"),
                     ({"sessions": {"wednesday": ["7pm"]}}, "sessions.wednesday[0]")):
        with pytest.raises(ValidationError) as caught:
            Super9Config.model_validate({**raw, **bad})
        assert f"key '{key}'" in describe(caught.value)
