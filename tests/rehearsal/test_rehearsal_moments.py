"""The dated moments the console offers to rehearse, from the shipped configs."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from controller.rehearsal.log import rehearsing
from controller.rehearsal.moments import moments

MONDAY = int(dt.datetime(2024, 1, 15, 9, tzinfo=ZoneInfo("Africa/Johannesburg"))
             .timestamp() * 1000)


def test_the_wild_card_draw_is_offered_five_minutes_before_the_bins_close_first():
    # rules 33, 36: the draw at 18:00 on 18 January 2024, when the bins close
    first = moments(MONDAY)[0]
    assert (first.promotion, first.at) == ("wildcard", "2024-01-18 17:55")
    assert first.label == "Wild Card draw: the bins close at 18:00 on 18 January 2024"


def test_super9_offers_its_next_sessions_while_tickets_are_still_sold():
    # rules 4, 6: Wednesdays 19h00 and 21h00; sales close 30 minutes before each session
    super9 = [m for m in moments(MONDAY) if m.promotion == "super9"]
    assert [m.at for m in super9] == ["2024-01-17 18:25", "2024-01-17 20:25"]
    assert "tickets on sale until 18:30" in super9[0].label


def test_every_moment_offered_can_be_rehearsed():
    for moment in moments(MONDAY):
        assert rehearsing(moment.promotion, moment.at).at_local == moment.at
