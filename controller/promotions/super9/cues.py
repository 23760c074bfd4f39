"""Short sentences for the announcer after each Super 9 spin (the "cues:super9" view)."""

from __future__ import annotations

from controller.domain.roulette import colour
from showrunner.contract.money import format_zar

WORDS = {1: "one more number", 2: "two more numbers", 3: "three more numbers"}


def spin_line(number: int, counted: bool, limit: int) -> str:
    if counted:
        return f"Number {number}, {colour(number)}."
    return (f"Number {number}, {colour(number)}, again: a repeat does not count "
            f"toward the {limit} spins (rule 19).")


def counted_line(counted: int, limit: int, consolation_cents: int) -> str:
    if counted < limit:
        return f"{counted} of {limit} counted spins."
    if counted == limit:
        return (f"{counted} of {limit} counted spins: the last spin for the jackpot. "
                f"Now playing for the consolation of {format_zar(consolation_cents)}.")
    return f"{counted} counted spins; playing for the consolation of " \
           f"{format_zar(consolation_cents)}."


def need_line(need: dict[int, int]) -> str | None:
    """The closest tickets to a win: "3 tickets need one more number."."""
    for more in (1, 2, 3):
        count = need.get(more, 0)
        if count:
            verb = "ticket needs" if count == 1 else "tickets need"
            return f"{count} {verb} {WORDS[more]}."
    return None


def names_phrase(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def super9_line(names: list[str], prize: str, prize_cents: int) -> str:
    holder = "has" if len(names) == 1 else "have"
    share = "" if len(names) == 1 else ", shared equally (rule 20)"
    return (f"SUPER 9! {names_phrase(names)} {holder} all nine numbers: check the ticket and "
            f"confirm the call. The {prize} is {format_zar(prize_cents)}{share}.")


def won_line(names: list[str], prize: str, shares: list[int]) -> str:
    if len(names) == 1:
        return f"Confirmed: {names[0]} wins the {prize} of {format_zar(shares[0])}!"
    amounts = sorted(set(shares), reverse=True)
    each = " or ".join(format_zar(a) for a in amounts)
    return f"Confirmed: {names_phrase(names)} share the {prize}: {each} each!"


NO_TICKETS = ("No ticket is in play any more, so nobody can win this game: close it with a "
              "reason (super9.close_session).")


def void_line(ticket: str, reason: str, others: int) -> str:
    also = "" if not others else (f" The holder's {others} other ticket"
                                  f"{'s are' if others > 1 else ' is'} void too (rule 9).")
    return f"Ticket {ticket} is void: {reason.rstrip('.')}. The game goes on.{also}"


def disqualified_cause(ticket: str, day: str, reason: str) -> str:
    """Why a holder's other tickets are void: the voided ticket and its reason (rule 9)."""
    return f"holder disqualified on {day} (rule 9): ticket {ticket} is void ({reason})"


def consolation_too_line(consolation_cents: int, winners: int) -> str:
    whom = "the winner" if winners == 1 else "the winners, shared equally"
    return (f"The consolation of {format_zar(consolation_cents)} goes to {whom} too "
            "(rule 16).")


def closed_line(reason: str, jackpot_next_cents: int) -> str:
    return (f"The game is closed without a winner: {reason.rstrip('.')}. The jackpot grows to "
            f"{format_zar(jackpot_next_cents)} (rule 15).")
