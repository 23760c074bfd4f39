"""Seat draws are read out: the announcer gets who sits where, by display name."""

from controller.promotions.poker import Poker
from tests.promotions.test_poker import driver, play_semi, stage, to_semi


def test_a_seat_draw_becomes_a_cue_naming_every_seat():
    d = driver(seed=5)
    to_semi(d)
    play_semi(d)
    seated = d.do("poker.draw_seats", {})[0]  # poker rule 40: final seats by random draw
    cues = [c for c in d.view("cues")["cues"] if c["id"].startswith("poker-final-seats")]
    assert len(cues) == 1
    (cue,) = cues
    assert cue["at_ms"] == d.now and cue["acknowledged"] is False
    poker = d.show.feature(Poker)
    names = {e.id: poker.name_of(e.card) for e in stage(d, "final")}
    assert cue["text"].startswith("The seat draw for the ")
    for entry, _heat, seat in seated.seats:
        assert f"Seat {seat}, {names[entry]}" in cue["text"]
    assert "Final 1. Seat 1, " in cue["text"] and ".." not in cue["text"]
