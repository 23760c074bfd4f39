"""A member's own Wild Card entry (controller/promotions/wildcard/entries.py), as the kiosk and
the member app see it: tickets by rules 18.1-18.2, self-activation at ehost/APP on the day
(rules 18.3, 33.3) only while the bins are open (rule 36), and one answer for every card that
holds no tickets, whatever the private reason."""

from __future__ import annotations

import pytest

from controller.domain.errors import Rejected
from controller.promotions.wildcard.entries import (
    NO_ENTRIES,
    EntryDoc,
    member_entry,
    self_activation,
)
from controller.promotions.wildcard.events import WildcardDrawn
from tests.promotions.wildcard_show import (
    CLOSE,
    OPEN,
    FixedRoster,
    ScriptedRng,
    WildcardShow,
    activated_show,
)

THANDI, SIPHO, LERATO = "1000001", "1000002", "1000003"
DURING = OPEN + 30 * 60_000  # 16:30


def show() -> WildcardShow:
    """Thandi took part in the tournament, Sipho did not; Lerato is in the Final already."""
    s = WildcardShow(FixedRoster(participants={THANDI}, finalists={LERATO}))
    s.member(THANDI, "Thandi Mokoena")
    s.member(SIPHO, "Sipho Ndlovu")
    s.member(LERATO, "Lerato Dlamini")
    return s


def test_a_cardholder_holds_one_ticket_and_a_participant_five_more():
    s = show()
    thandi = member_entry(s.wildcard, THANDI, DURING)
    sipho = member_entry(s.wildcard, SIPHO, DURING)
    # rule 18.1: 1 ticket per active Rewards cardholder; 18.2: 5 more for taking part
    assert (sipho.cardholder_tickets, sipho.participant_tickets, sipho.tickets) == (1, 0, 1)
    assert (thandi.cardholder_tickets, thandi.participant_tickets, thandi.tickets) == (1, 5, 6)
    assert thandi.name == s.members.by_card[THANDI].display_name


def test_the_state_follows_the_bins_hours():
    s = show()
    # rule 36: the entry bins are open from 16h00 to 18h00 on the day of the draw
    states = [member_entry(s.wildcard, SIPHO, at).state
              for at in (OPEN - 1, OPEN, CLOSE - 1, CLOSE)]
    assert states == ["bins_not_open", "open", "open", "closed"]
    assert member_entry(s.wildcard, SIPHO, DURING).can_activate
    assert not member_entry(s.wildcard, SIPHO, CLOSE).can_activate


def test_a_member_activates_at_ehost_or_app_only_while_the_bins_are_open():
    s = show()
    # rules 18.3, 33.3: activated at ehost/APP on the day, within the bins' hours (36)
    with pytest.raises(Rejected) as early:
        self_activation(s.wildcard, SIPHO, OPEN - 60_000)
    assert early.value.code == "bins_not_open"
    assert "16:00 on 18 January 2024" in early.value.message
    with pytest.raises(Rejected) as late:
        self_activation(s.wildcard, SIPHO, CLOSE)
    assert late.value.code == "bins_closed"
    assert "18:00 on 18 January 2024" in late.value.message
    s.send("wildcard.activate_in_app", {"card": SIPHO}, at=DURING, role="app",
           actor="Venue app")
    entry = member_entry(s.wildcard, SIPHO, DURING)
    assert (entry.activated_at_ms, entry.can_activate) == (DURING, False)
    assert s.log[-1].actor == "Venue app"
    with pytest.raises(Rejected) as again:
        self_activation(s.wildcard, SIPHO, DURING + 1)
    assert again.value.code == "already_activated"
    assert "16:30:00" in again.value.message


def test_the_kiosk_activates_the_same_way():
    s = show()
    s.send("wildcard.activate_at_kiosk", {"card": THANDI}, at=DURING, role="kiosk",
           actor="Lobby kiosk")
    assert member_entry(s.wildcard, THANDI, DURING).activated_at_ms == DURING


@pytest.mark.parametrize("case", ["unknown", "guest", "under_18", "self_excluded", "insider",
                                  "finalist", "disqualified"])
def test_every_card_without_tickets_gets_the_one_answer(case):
    s = WildcardShow(FixedRoster(finalists={LERATO}, barred={"1000009"}))
    card = {"unknown": "1999999", "finalist": LERATO, "disqualified": "1000009"}.get(case,
                                                                                     "1000005")
    if case == "guest":  # no Rewards member (rule 3)
        s.member(card, "Guest Person", rewards=False)
    elif case in ("under_18", "self_excluded", "insider"):  # rules 2-3
        s.member(card, "Flagged Person", flags=[case])
    elif case != "unknown":
        s.member(card, "Someone Else")
    for at in (OPEN - 1, DURING, CLOSE):
        with pytest.raises(Rejected) as refused:
            member_entry(s.wildcard, card, at)
        assert refused.value is NO_ENTRIES
        with pytest.raises(Rejected) as activation:
            self_activation(s.wildcard, card, at)
        assert activation.value is NO_ENTRIES
    assert "Person" not in NO_ENTRIES.message and "rule" not in NO_ENTRIES.message


def test_after_the_freeze_a_member_sees_their_numbers_in_the_pool_and_its_digest():
    s = show()
    for card in (THANDI, SIPHO):
        s.send("wildcard.activate", {"card": card}, at=DURING)
    s.send("wildcard.freeze", at=CLOSE + 1)
    digest = s.wildcard.pool.digest if s.wildcard.pool else None
    thandi = member_entry(s.wildcard, THANDI, CLOSE + 2)
    sipho = member_entry(s.wildcard, SIPHO, CLOSE + 2)
    assert thandi.state == sipho.state == "frozen"
    assert len(thandi.ticket_numbers) == 6 and len(sipho.ticket_numbers) == 1
    assert sorted([*thandi.ticket_numbers, *sipho.ticket_numbers]) == list(range(1, 8))
    assert thandi.pool_digest == sipho.pool_digest == digest is not None
    doc = EntryDoc.of(s.wildcard, thandi)
    assert (doc.ticket_numbers, doc.pool_digest, doc.activated_at) == \
        (list(thandi.ticket_numbers), digest, "16:30:00")
    assert (doc.bins_open, doc.bins_close) == ("16:00 on 18 January 2024",
                                               "18:00 on 18 January 2024")


def test_an_entry_not_activated_has_no_numbers_after_the_freeze():
    s = show()
    s.send("wildcard.activate", {"card": THANDI}, at=DURING)
    s.send("wildcard.freeze", at=CLOSE + 1)
    sipho = member_entry(s.wildcard, SIPHO, CLOSE + 2)
    assert (sipho.state, sipho.ticket_numbers, sipho.activated_at_ms) == ("frozen", (), None)


def test_a_winner_left_out_of_the_redrawn_pool_gets_the_one_answer():
    s = activated_show()
    s.send("wildcard.freeze", at=CLOSE)
    (first,) = s.send("wildcard.draw", at=CLOSE, rng=ScriptedRng(3))  # Thandi's tickets
    assert isinstance(first, WildcardDrawn)
    s.tick(first.reveal_at_ms)
    # rule 40: not claimed in time, so the pool is frozen again without the absent winner
    s.send("wildcard.redraw", {"note": "no response on the floor"},
           at=first.claim_deadline_ms)
    with pytest.raises(Rejected) as refused:
        member_entry(s.wildcard, first.card, first.claim_deadline_ms + 1)
    assert refused.value is NO_ENTRIES
    assert member_entry(s.wildcard, SIPHO, first.claim_deadline_ms + 1).state == "frozen"
