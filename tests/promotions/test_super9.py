"""Super 9 rules, driven through a pure Show (shared/rules/super-9.txt)."""

from __future__ import annotations

import json

import pytest

from controller.domain.events import event_from
from controller.promotions.super9 import cues
from controller.promotions.super9.events import Super9SessionClosed, Super9Won
from controller.promotions.super9.views import SCHEDULE
from tests.promotions.super9_floor import SESSION, WEDNESDAY, Floor, ms

A = [1, 2, 3, 4, 5, 6, 7, 8, 9]
B = [0, 2, 3, 4, 5, 6, 7, 8, 9]
C = [20, 21, 22, 23, 24, 25, 26, 27, 28]
D = [28, 29, 30, 31, 32, 33, 34, 35, 36]
OTHERS = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]


@pytest.fixture
def floor() -> Floor:
    f = Floor()
    f.member("1234567", "Thandi Mokoena")
    f.member("7654321", "Sipho Ndlovu")
    f.ticket("0421", A, card="1234567")
    f.ticket("0422", B, card="7654321")
    f.ticket("0423", C)
    f.ticket("0424", D)
    return f


def won(f: Floor) -> Super9Won:
    event, *prizes = f.do("super9.confirm_win")
    assert isinstance(event, Super9Won) and len(prizes) == len(event.winners)
    return event


# -- tickets -------------------------------------------------------------------------------
@pytest.mark.parametrize(("numbers", "code", "words"), [
    (A[:8], "bad_numbers", "has 8 numbers"),             # rule 8: exactly nine numbers
    ([*A, 10], "bad_numbers", "has 10 numbers"),         # rule 9: more than 9 numbers
    ([*A[:8], 1], "repeated_number", "1 more than once"),  # rule 9: a duplicated number
    ([*A[:8], 37], "bad_payload", "Original (item 9) must be at most 36."),  # rule 8: 0 to 36
    ([*A[:8], -1], "bad_payload", "Original (item 9) must be at least 0."),  # rule 8: 0 to 36
])
def test_a_ticket_must_hold_nine_different_numbers_from_0_to_36(numbers, code, words):
    f = Floor()
    f.do("super9.sell_ticket", {"ticket": "0421"})
    refusal = f.refused("super9.enter_ticket",
                        {"ticket": "0421", "original": numbers, "duplicate": numbers})
    assert refusal.code == code and words in refusal.message


def test_a_duplicate_that_differs_from_the_original_is_refused():
    # rule 9: a difference between the original and the duplicate invalidates the ticket
    f = Floor()
    f.do("super9.sell_ticket", {"ticket": "0421"})
    refusal = f.refused("super9.enter_ticket",
                        {"ticket": "0421", "original": A, "duplicate": [*A[:8], 10]})
    assert refusal.code == "duplicate_mismatch"
    assert "only on the original: 9; only on the duplicate: 10" in refusal.message
    # rule 9 (ruling): refused as a likely typing slip, and the refusal offers the void action
    assert refusal.message.endswith("If the copies really differ, void the ticket (rule 9).")


def test_voiding_a_ticket_disqualifies_its_holder_for_the_day(floor):
    # rule 9: the claim is invalid and the participant is disqualified from that day's promotion
    floor.do("super9.sell_ticket", {"ticket": "0500", "card": "1234567"})
    floor.do("super9.void_ticket", {"ticket": "0421", "reason": "duplicate differs (rule 9)"})
    assert floor.super9.tickets["0421"].void == "duplicate differs (rule 9)"
    assert floor.refused("super9.enter_ticket", {"ticket": "0500", "original": C,
                                                 "duplicate": C}).code == "disqualified"
    assert floor.refused("super9.sell_ticket", {"ticket": "0501", "card": "1234567"}
                         ).code == "disqualified"
    floor.start()
    assert floor.board()["tickets"] == 3
    floor.now = ms("2025-06-08 10:00")  # the next draw day, Sunday: the holder may play again
    floor.do("super9.sell_ticket", {"ticket": "0502", "card": "1234567"})


def test_a_void_claim_mid_game_takes_the_ticket_out_and_the_game_continues(floor):
    # rule 9: "the claim ... invalid ... The promotion will then continue as normal"
    floor.start()
    floor.spins(*A)
    assert floor.board()["status"] == "super9"
    floor.do("super9.void_ticket", {"ticket": "0421", "reason": "duplicate differs"})
    assert floor.board()["status"] == "playing" and floor.board()["winners"] == []
    floor.spins(0)
    assert [w["ticket"] for w in won(floor).winners] == ["0422"]


def test_ineligible_people_cannot_buy_a_ticket():
    # rules 1-3: under 18, self-excluded and insiders may not take part
    f = Floor()
    f.member("5555555", "Lebo Khumalo", flags=["self_excluded"])
    refusal = f.refused("super9.sell_ticket", {"ticket": "0001", "card": "5555555"})
    assert refusal.code == "ineligible" and "rules 1-3" in refusal.message


def test_sales_window_and_hand_in_cut_off():
    # rule 6: sold from 08h00 on draw days, until 30 minutes before each session
    f = Floor()
    for when, words in [(f"{WEDNESDAY} 07:59", "open at 08:00"), ("2025-06-05 10:00", "draw days"),
                        (f"{WEDNESDAY} 18:30", "reopen when the Wednesday 4 June 19:00 session"),
                        (f"{WEDNESDAY} 20:31", "closed for today")]:
        f.now = ms(when)
        refusal = f.refused("super9.sell_ticket", {"ticket": "0001"})
        assert refusal.code == "sales_closed" and words in refusal.message
    f.now = ms(f"{WEDNESDAY} 19:10")  # after the 19h00 session starts, sales reopen for 21h00
    f.do("super9.sell_ticket", {"ticket": "0001"})
    f.do("super9.sell_ticket", {"ticket": "0002"})
    f.do("super9.sell_ticket", {"ticket": "0003"})
    # rule 6: handed in 15 minutes before a session it plays in it; later, in the next one
    for serial, when, session in [("0001", "18:45", SESSION), ("0002", "18:45:01",
                                  f"{WEDNESDAY}T21:00"), ("0003", "20:46", "2025-06-08T15:00")]:
        f.now = ms(f"{WEDNESDAY} {when}")
        f.do("super9.enter_ticket", {"ticket": serial, "original": A, "duplicate": A})
        assert f.super9.tickets[serial].session == session


def test_a_session_starts_at_its_advertised_time_not_before(floor):
    # rule 4: "every Wednesday at 19h00": not at 18:45, when hand-in closes (rule 6)
    for when in ("18:44", "18:45", "18:59:59"):
        floor.now = ms(f"{WEDNESDAY} {when}")
        refusal = floor.refused("super9.start_session", {"session": SESSION})
        assert refusal.code == "too_early"
        assert refusal.message == ("The Wednesday 4 June 19:00 session starts at 19:00, not "
                                   "before (rule 4).")
    assert floor.refused("super9.start_session", {"session": f"{WEDNESDAY}T20:00"}
                         ).code == "unknown_session"  # rule 4: no session at 20h00
    floor.now = ms(f"{WEDNESDAY} 19:00")
    floor.do("super9.start_session", {"session": SESSION})


# -- the game ------------------------------------------------------------------------------
def test_spin_refusals_change_nothing(floor):
    assert floor.refused("super9.spin", {"number": 5}).code == "no_session"
    floor.start()
    assert floor.refused("super9.spin", {"number": 37}).code == "bad_payload"  # rule 8
    assert floor.refused("super9.undo_spin", {"reason": "typo"}).code == "nothing_to_undo"
    floor.spins(*A)
    # rule 13: the game is won; nothing more is spun until the call is confirmed or undone
    assert floor.refused("super9.spin", {"number": 10}).code == "super9_pending"
    assert floor.refused("super9.undo_spin", {"reason": "  "}).code == "reason_required"
    won(floor)
    refusal = floor.refused("super9.spin", {"number": 10})
    assert refusal.code == "game_over" and "over" in refusal.message
    assert floor.refused("super9.confirm_win").code == "game_over"


def test_jackpot_won_on_the_18th_counted_spin_with_repeats_before_it(floor):
    # rule 19: a repeated number is disregarded for the jackpot, so 21 spins are 18 counted;
    # rule 14: all 9 numbers within the first 18 (counted) spins win the jackpot
    floor.start()
    floor.spins(10, 11, 10, 12, 13, 1, 2, 14, 11, 15, 3, 4, 16, 5, 6, 17, 7, 8, 1, 18)
    board = floor.board()
    assert board["spins"] == 20 and board["counted_spins"] == 17
    assert board["counted_label"] == "17 of 18" and board["jackpot_live"] is True
    assert board["last"] == {"number": 18, "colour": "red", "repeat": False}
    floor.spins(9)
    board = floor.board()
    assert board["counted_label"] == "18 of 18" and board["status"] == "super9"
    assert board["winners"] == [{"name": "Thandi M.", "share": None}]
    assert board["playing_for"] == "jackpot" and board["prize"] == "R5\u00a0000"
    event = won(floor)
    assert (event.prize, event.prize_cents, event.counted_spin) == ("jackpot", 500_000, 18)
    assert floor.board()["winners"] == [{"name": "Thandi M.",
                                         "share": "R5\u00a0000 + R50 consolation"}]  # rule 16


def test_ninth_number_on_the_19th_counted_spin_wins_the_consolation(floor):
    # rule 16: after the 18th spin, 25% of the buy-ins go to the first to get 9 numbers
    floor.start()
    floor.spins(*OTHERS[:10], *A[:8])
    assert floor.board()["jackpot_live"] is False
    assert "the last spin for the jackpot" in floor.cues()[1]
    floor.spins(9)
    event = won(floor)
    buy_ins = 4 * 5000
    assert (event.prize, event.prize_cents, event.counted_spin) == ("consolation",
                                                                   buy_ins // 4, 19)


def test_jackpot_grows_by_75_percent_when_only_the_consolation_is_won(floor):
    # rule 15: "increase by 75% of the total buy-ins for each session that it is not won";
    # a session that paid the consolation did not win the jackpot, so it grows
    floor.start()
    floor.spins(*OTHERS, *A)
    event = won(floor)
    assert event.jackpot_next_cents == 500_000 + 4 * 5000 * 75 // 100
    assert floor.jackpot()["jackpot_cents"] == event.jackpot_next_cents
    floor.now = ms(f"{WEDNESDAY} 20:00")
    floor.ticket("0600", A)
    floor.start(f"{WEDNESDAY}T21:00")
    assert floor.board()["jackpot"] == "R5\u00a0150"  # the jackpot on offer is the grown one
    floor.spins(*A)
    event = won(floor)
    # rule 15: a won jackpot restarts from R5 000
    assert (event.prize, event.prize_cents) == ("jackpot", 515_000)
    assert floor.jackpot()["jackpot_cents"] == 500_000


def test_no_spin_records_no_number(floor):
    # rules 18, 18.2: a "No spin" is invalid; rule 18.3: the board does not pick it up
    floor.start()
    floor.spins(10, 11)
    floor.do("super9.no_spin", {"reason": "ball left the wheel"})
    board = floor.board()
    assert board["called"] == [10, 11] and board["spins"] == 2 and board["no_spins"] == 1
    assert floor.cues() == ["No spin: that spin does not count and no number is recorded."]
    assert floor.notes() == [  # for the MC, never read aloud
        "Rule 18.2: a spin after the dealer's \u201cNo spin\u201d is invalid.",
        "Rule 18.3: the dealer returns the ball to 11, reverses the wheel one revolution and "
        "spins again."]


def test_simultaneous_winners_share_equally_remainder_to_the_lower_ticket():
    # rule 20: simultaneous winners share equally; the odd cent goes to the lower ticket number
    f = Floor(ticket_price_cents=3333)
    f.ticket("0422", B)
    f.ticket("0421", A)
    f.ticket("0423", C)
    f.start()
    f.spins(*OTHERS, 2, 3, 4, 5, 6, 7, 8, 1, 0)  # 19 counted spins: consolation
    assert f.board()["status"] == "playing"
    f.spins(9)
    assert "Ticket 0421 and Ticket 0422 have all nine numbers" in f.cues()[1]
    event = won(f)
    consolation = 3 * 3333 * 25 // 100  # rule 16
    assert event.winners == [
        {"ticket": "0421", "share_cents": consolation // 2 + 1, "consolation_share_cents": 0},
        {"ticket": "0422", "share_cents": consolation // 2, "consolation_share_cents": 0}]
    assert f.cues() == ["Confirmed: Ticket 0421 and Ticket 0422 share the consolation: "
                        "R12.50 or R12.49 each!"]


def test_undo_reverses_a_wrong_number_exactly(floor):
    floor.start()
    floor.spins(1, 2, 3, 10)
    before = floor.board()
    floor.spins(4)
    floor.do("super9.undo_spin", {"reason": "entered 4, the ball is in 14"})
    assert floor.board() == before
    assert floor.log[-1].reason == "entered 4, the ball is in 14" and floor.log[-1].by == "mc"
    assert floor.cues()[0] == "Correction: number 4 is taken off the board."


def test_undo_of_a_false_super9_reopens_the_game(floor):
    # rule 13: only a real completion wins; a mis-entered ninth number is corrected
    floor.start()
    floor.spins(*A)
    floor.do("super9.undo_spin", {"reason": "it was 19"})
    assert floor.board()["status"] == "playing" and floor.board()["winners"] == []
    floor.spins(19)


def test_board_counts_tickets_needing_one_two_three_and_cues_the_announcer(floor):
    floor.start()
    floor.spins(2, 3, 4, 5, 6, 7, 8)
    need = {row["more"]: row["tickets"] for row in floor.board()["need"]}
    assert need == {1: 0, 2: 2, 3: 0}
    floor.spins(17)
    assert floor.cues() == ["Number 17, black.", "8 of 18 counted spins.",
                            "2 tickets need two more numbers."]
    floor.spins(1)
    assert floor.cues() == ["Number 1, red.", "9 of 18 counted spins.",
                            "1 ticket needs one more number."]
    floor.spins(1)
    assert floor.cues()[0] == ("Number 1, red, again: a repeat does not count toward the 18 "
                               "spins.")
    assert floor.notes() == ["Rule 19: a repeated number is disregarded for the jackpot."]


def test_board_shows_all_37_numbers_in_order_and_no_card_numbers(floor):
    floor.start()
    floor.spins(0, 32, 0)
    board = floor.board()
    assert [n["number"] for n in board["numbers"]] == list(range(37))
    assert board["numbers"][0] == {"number": 0, "colour": "green", "order": 1}
    assert board["numbers"][32] == {"number": 32, "colour": "red", "order": 2}
    assert board["numbers"][15] == {"number": 15, "colour": "black", "order": None}
    assert board["called"] == [0, 32] and board["last"]["repeat"] is True
    text = json.dumps([floor.board(), floor.cues(), floor.jackpot()])
    assert "1234567" not in text and "7654321" not in text


def test_next_sessions_skip_the_last_sunday_of_the_month():
    # rule 4: Wednesdays 19h00/21h00, Sundays 15h00/17h00 but not the month's last Sunday
    f = Floor()
    f.now = ms("2025-06-25 10:00")
    f.do("super9.sell_ticket", {"ticket": "0001"})
    ids = [s["id"] for s in f.super9.view(SCHEDULE)["events"]]
    assert ids == ["2025-06-25T19:00", "2025-06-25T21:00", "2025-07-02T19:00",
                   "2025-07-02T21:00"]  # Sunday 29 June is the last Sunday of June


def test_state_is_the_fold_of_the_log(floor):
    floor.start()
    floor.spins(10, 1, 2, 10)
    floor.do("super9.no_spin")
    floor.do("super9.undo_spin", {"reason": "typo"})
    replayed = Floor()
    for event in floor.log:
        replayed.show.apply(event_from(event.type_name, event.version,
                                       json.loads(json.dumps(event.to_data()))))
    assert replayed.board() == floor.board() and replayed.cues() == floor.cues()


# -- audit findings and rulings (issue 13) -------------------------------------------------
def test_leftover_cents_go_in_ticket_number_order_not_text_order():
    # rule 20: shared equally; the cents left over go to the lowest ticket numbers first
    # (docs/super9.md): ticket 9 comes before 10 and 100, although "10" < "9" as text
    f = Floor(ticket_price_cents=3335)
    for serial in ("100", "10", "9"):
        f.ticket(serial, A)
    f.start()
    f.spins(*OTHERS, 0, *A)  # completes on counted spin 20: the consolation
    consolation = 3 * 3335 * 25 // 100
    assert consolation % 3 == 2
    event = won(f)
    assert [(w["ticket"], w["share_cents"]) for w in event.winners] == [
        ("9", consolation // 3 + 1), ("10", consolation // 3 + 1), ("100", consolation // 3)]


def test_after_18_counted_spins_the_board_plays_for_the_consolation(floor):
    # rule 14: the jackpot needs all 9 numbers within the first 18 spins; rule 16: after the
    # 18th spin the first to complete wins the consolation, so that is what is played for
    floor.start()
    floor.spins(*OTHERS, 20, 21, 22, 23, 24, 25, 26)  # 17 counted spins, no ticket complete
    board = floor.board()
    assert (board["playing_for"], board["prize"], board["jackpot_live"]) == (
        "jackpot", "R5\u00a0000", True)
    floor.spins(27)  # the 18th counted spin completes nobody: the jackpot is out of reach
    board = floor.board()
    assert board["status"] == "playing" and board["counted_label"] == "18 of 18"
    assert (board["playing_for"], board["prize"], board["jackpot_live"]) == (
        "consolation", "R50", False)
    assert "Now playing for the consolation of R50" in floor.cues()[1]
    floor.spins(27)  # rule 19: a repeat changes nothing
    assert floor.board()["playing_for"] == "consolation"


def test_the_consolation_is_paid_with_the_jackpot(floor):
    # rule 16 (ruling): "At each of the tournaments, 25% of the buy-ins will be issued as a
    # consolation prize to the first person/s to get 9 numbers", also when they win the jackpot
    floor.start()
    floor.spins(*A)
    event = won(floor)
    assert (event.prize, event.prize_cents, event.consolation_cents) == ("jackpot", 500_000,
                                                                        4 * 5000 * 25 // 100)
    assert event.winners == [{"ticket": "0421", "share_cents": 500_000,
                              "consolation_share_cents": 5000}]
    assert event.jackpot_next_cents == 500_000  # rule 15: a won jackpot restarts
    assert floor.board()["winners"] == [{"name": "Thandi M.",
                                         "share": "R5\u00a0000 + R50 consolation"}]
    assert floor.cues() == ["Confirmed: Thandi M. wins the jackpot of R5\u00a0000!",
                            "The consolation of R50 goes to the winner too."]


def test_a_consolation_win_pays_the_consolation_once(floor):
    # rule 16: after the 18th spin the consolation is the prize, not paid twice
    floor.start()
    floor.spins(*OTHERS, *A)
    event = won(floor)
    assert (event.prize, event.prize_cents, event.consolation_cents) == ("consolation", 5000, 0)


def test_a_game_with_every_ticket_void_is_closed_with_a_reason_and_the_jackpot_grows(floor):
    # rule 9: voided tickets cannot win; with none left nobody can win, and the game must end
    # so that the next session can start; rule 15: the jackpot was not won, so it grows by 75%
    floor.start()
    floor.spins(10, 11)
    refusal = floor.refused("super9.close_session", {"reason": "all void"})
    assert refusal.code == "winner_possible" and "4 tickets are still in play" in refusal.message
    for serial in ("0421", "0422", "0423", "0424"):
        floor.do("super9.void_ticket", {"ticket": serial, "reason": "marked ticket (rule 21)"})
    assert floor.cues()[-1] == cues.NO_TICKETS.said
    floor.now = ms(f"{WEDNESDAY} 20:00")
    floor.ticket("0600", C)
    floor.now = ms(f"{WEDNESDAY} 21:00")
    assert floor.refused("super9.start_session", {"session": f"{WEDNESDAY}T21:00"}
                         ).code == "session_running"
    assert floor.refused("super9.close_session", {"reason": "  "}).code == "reason_required"
    (event,) = floor.do("super9.close_session", {"reason": "every ticket is void"})
    assert isinstance(event, Super9SessionClosed)
    grown = 500_000 + 4 * 5000 * 75 // 100  # voided tickets' buy-ins count (docs/super9.md)
    assert (event.reason, event.by, event.jackpot_next_cents) == ("every ticket is void", "mc",
                                                                  grown)
    board = floor.board()
    assert board["status"] == "closed" and board["winners"] == []
    assert board["message"] == "No winner this game: the jackpot grows to R5\u00a0150"
    assert floor.cues() == ["The game is closed without a winner: every ticket is void. The "
                            "jackpot grows to R5\u00a0150."]
    assert floor.notes() == ["Rule 15: with no winner the jackpot carries over to the next game."]
    assert floor.jackpot()["jackpot_cents"] == grown
    assert floor.refused("super9.spin", {"number": 1}).code == "game_over"
    assert floor.refused("super9.close_session", {"reason": "again"}).code == "game_over"
    floor.start(f"{WEDNESDAY}T21:00")
    assert floor.board()["jackpot_cents"] == grown
    replayed = Floor()
    for e in floor.log:
        replayed.show.apply(event_from(e.type_name, e.version, json.loads(json.dumps(e.to_data()))))
    assert replayed.board() == floor.board() and replayed.jackpot() == floor.jackpot()


def test_a_game_with_a_complete_ticket_cannot_be_closed(floor):
    # rule 13: a ticket with all 9 numbers is a winner: confirm it or undo the number
    floor.start()
    floor.spins(*A)
    assert floor.refused("super9.close_session", {"reason": "x"}).code == "super9_pending"


def test_a_rule_9_void_disqualifies_the_holders_other_tickets_that_day(floor):
    # rule 9: the participant "will be disqualified from that day's promotion"; the holder's
    # ticket for the 21h00 session is void too, recorded with the cause
    floor.do("super9.sell_ticket", {"ticket": "0430", "card": "1234567"})
    floor.now = ms(f"{WEDNESDAY} 18:50")  # handed in after the cut-off: plays at 21h00
    floor.do("super9.enter_ticket", {"ticket": "0430", "original": C, "duplicate": C})
    assert floor.super9.tickets["0430"].session == f"{WEDNESDAY}T21:00"
    floor.start()
    floor.spins(*A)  # Thandi's 0421 claims SUPER 9; the check finds the copies differ
    floor.do("super9.void_ticket", {"ticket": "0421", "reason": "copies differ (rule 9)"})
    assert floor.cues()[0] == ("Ticket 0421 is void: copies differ. The game goes on. "
                               "The holder's 1 other ticket is void too.")
    assert floor.notes()[0] == "Rule 9: a disqualified holder's other tickets that day are void."
    assert floor.super9.tickets["0430"].void == (
        f"holder disqualified on {WEDNESDAY} (rule 9): ticket 0421 is void (copies differ "
        "(rule 9))")
    assert floor.refused("super9.enter_ticket", {"ticket": "0430", "original": C,
                                                 "duplicate": C}).code == "ticket_void"
