"""Announcer cues for the Wild Card draw: what to say, and when."""

from __future__ import annotations

import pytest

from controller.domain.errors import Rejected
from tests.promotions.wildcard_show import CLOSE, DECLINE_PAYLOAD, ScriptedRng, activated_show


def texts(show) -> dict[str, str]:
    return {c["id"]: c["text"] for c in show.cue_list()}


def test_cues_follow_the_draw_claim_and_redraw():
    # rules 35, 39-40: winners are called over the PA and given 90 seconds
    s = activated_show()
    s.send("wildcard.freeze", at=CLOSE)
    assert "about to start: 14 tickets from 4 rewards members" in texts(s)["wildcard-r1-start"]
    (drawn,) = s.send("wildcard.draw", at=CLOSE, rng=ScriptedRng(0))
    assert "wildcard-r1-winner" not in texts(s)  # not before the reveal
    s.tick(drawn.reveal_at_ms)
    winner = next(c for c in s.cue_list() if c["id"] == "wildcard-r1-winner")
    assert winner["at_ms"] == drawn.reveal_at_ms
    assert winner["text"] == (
        "The Wild Card winner is Thandi M., ticket number 1, card ending in 0001. Thandi M., "
        "you have 90 seconds to come to the stage with your rewards card and your ID!")
    reminders = {c["id"]: c["at_ms"] for c in s.cue_list() if "remind" in c["id"]}
    assert reminders == {f"wildcard-r1-remind-{n}": drawn.claim_deadline_ms - n * 1000
                         for n in (60, 30, 10)}
    assert "30 seconds left to come to the stage" in texts(s)["wildcard-r1-remind-30"]
    s.send("wildcard.redraw", at=drawn.claim_deadline_ms)
    assert texts(s)["wildcard-r1-redraw"] == (
        "Thandi M. did not come to the stage within 90 seconds. We will draw again for the "
        "Wild Card.")
    assert "drawing again" in texts(s)["wildcard-r2-start"]
    (second,) = s.send("wildcard.draw", at=drawn.claim_deadline_ms, rng=ScriptedRng(0))
    s.tick(second.reveal_at_ms)
    s.send("wildcard.claim", {"card_checked": True, "id_checked": True},
           at=second.claim_deadline_ms - 45_000)
    ids = texts(s)
    assert "Sipho N. has claimed the Wild Card" in ids["wildcard-r2-claimed"]
    # the 30 s and 10 s reminders are withdrawn; the claim replaces the unread call and 60 s
    # reminder of its topic: nobody reads them once the winner is at the stage
    assert not {"wildcard-r2-remind-60", "wildcard-r2-remind-30", "wildcard-r2-remind-10",
                "wildcard-r2-winner"} & set(ids)
    assert "wildcard-r1-redraw" in ids  # another round's topic
    times = [c["at_ms"] for c in s.cue_list()]
    assert times == sorted(times)


def test_registered_winner_cue_has_no_countdown():
    # rule 41: the registered winner is the finalist without coming to the stage
    s = activated_show()
    s.send("wildcard.register_decline", DECLINE_PAYLOAD, at=CLOSE - 1000)
    s.send("wildcard.freeze", at=CLOSE)
    (drawn,) = s.send("wildcard.draw", at=CLOSE, rng=ScriptedRng(12))
    s.tick(drawn.reveal_at_ms)
    assert "signed the decline-to-attend register" in texts(s)["wildcard-r1-winner"]
    assert not [c for c in s.cue_list() if "remind" in c["id"]]


def test_announcer_acknowledges_a_due_cue_once():
    s = activated_show()
    s.send("wildcard.freeze", at=CLOSE)
    (drawn,) = s.send("wildcard.draw", at=CLOSE, rng=ScriptedRng(0))
    s.tick(drawn.reveal_at_ms)
    ack = {"cue_id": "wildcard-r1-remind-10"}
    with pytest.raises(Rejected) as early:
        s.send("cue.acknowledge", ack, at=drawn.claim_deadline_ms - 20_000, role="announcer")
    assert early.value.code == "not_due" and "10 seconds" in early.value.message
    with pytest.raises(Rejected) as wrong_role:
        s.send("cue.acknowledge", ack, at=drawn.claim_deadline_ms, role="display")
    assert wrong_role.value.code == "forbidden"
    s.send("cue.acknowledge", ack, at=drawn.claim_deadline_ms - 10_000, role="announcer")
    assert [c["acknowledged"] for c in s.cue_list() if c["id"] == ack["cue_id"]] == [True]
    with pytest.raises(Rejected) as twice:
        s.send("cue.acknowledge", ack, at=drawn.claim_deadline_ms, role="announcer")
    assert twice.value.code == "already_acknowledged"
    with pytest.raises(Rejected) as unknown:
        s.send("cue.acknowledge", {"cue_id": "nope"}, at=CLOSE, role="announcer")
    assert unknown.value.code == "unknown_cue"


def test_time_up_replaces_the_reminders_and_a_read_cue_stays():
    # rule 40: no claim within 90 seconds; the reminders before "time is up" are withdrawn
    s = activated_show()
    s.send("wildcard.freeze", at=CLOSE)
    (drawn,) = s.send("wildcard.draw", at=CLOSE, rng=ScriptedRng(0))
    s.tick(drawn.reveal_at_ms)
    deadline = drawn.claim_deadline_ms
    s.send("cue.acknowledge", {"cue_id": "wildcard-r1-remind-60"}, at=deadline - 60_000,
           role="announcer")
    s.tick(deadline + 100)
    cues = {c["id"]: c for c in s.cue_list()}
    up = cues["wildcard-r1-time-up"]
    assert up["text"] == "Time is up for Thandi M., card ending in 0001."
    assert up["at_ms"] == deadline and up["topic"] == "wildcard-r1-claim"
    assert "Rule 40" in up["notes"]
    assert "wildcard-r1-remind-60" in cues  # read: kept for the history
    assert "wildcard-r1-remind-30" not in cues and "wildcard-r1-remind-10" not in cues
    assert "wildcard-r1-winner" not in cues


def test_cue_text_is_for_reading_aloud_and_notes_are_for_the_operator():
    # rule 39 is the MC's to check; the announcer never reads "(rule 39)" aloud
    s = activated_show()
    s.send("wildcard.freeze", at=CLOSE)
    (drawn,) = s.send("wildcard.draw", at=CLOSE, rng=ScriptedRng(0))
    s.tick(drawn.reveal_at_ms)
    cues = s.cue_list()
    assert cues and all("rule" not in c["text"].lower() for c in cues)
    winner = next(c for c in cues if c["id"] == "wildcard-r1-winner")
    assert winner["notes"].startswith("Rule 39: check the rewards card and the ID")
