"""Short sentences for the announcer after each Super 9 spin (the "cues:super9" view).

Each is a `Line`: what is `said` over the PA, as it stands, and a `note` for the operator (the
rule behind it, what the dealer or the MC must do), never read aloud.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from showrunner.contract.money import format_zar
from showrunner.contract.wheel import colour

WORDS = {1: "one more number", 2: "two more numbers", 3: "three more numbers"}


class Line(NamedTuple):
    said: str
    note: str = ""


def spin_line(number: int, counted: bool, limit: int) -> Line:
    if counted:
        return Line(f"Number {number}, {colour(number)}.")
    return Line(f"Number {number}, {colour(number)}, again: a repeat does not count toward the "
                f"{limit} spins.", "Rule 19: a repeated number is disregarded for the jackpot.")


def counted_line(counted: int, limit: int, consolation_cents: int) -> Line:
    if counted < limit:
        return Line(f"{counted} of {limit} counted spins.")
    if counted == limit:
        return Line(f"{counted} of {limit} counted spins: the last spin for the jackpot. "
                    f"Now playing for the consolation of {format_zar(consolation_cents)}.")
    return Line(f"{counted} counted spins; playing for the consolation of "
                f"{format_zar(consolation_cents)}.")


def need_line(need: dict[int, int]) -> Line | None:
    """The closest tickets to a win: "3 tickets need one more number."."""
    for more in (1, 2, 3):
        count = need.get(more, 0)
        if count:
            verb = "ticket needs" if count == 1 else "tickets need"
            return Line(f"{count} {verb} {WORDS[more]}.")
    return None


def names_phrase(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def super9_line(names: list[str], prize: str, prize_cents: int) -> Line:
    holder = "has" if len(names) == 1 else "have"
    share = "" if len(names) == 1 else ", shared equally"
    note = "Check the ticket and confirm the call."
    if len(names) > 1:
        note += " Rule 20: winners at the same spin share the prize equally."
    return Line(f"SUPER 9! {names_phrase(names)} {holder} all nine numbers. The {prize} is "
                f"{format_zar(prize_cents)}{share}.", note)


def won_line(names: list[str], prize: str, shares: list[int]) -> Line:
    if len(names) == 1:
        return Line(f"Confirmed: {names[0]} wins the {prize} of {format_zar(shares[0])}!")
    amounts = sorted(set(shares), reverse=True)
    each = " or ".join(format_zar(a) for a in amounts)
    return Line(f"Confirmed: {names_phrase(names)} share the {prize}: {each} each!")


NO_TICKETS = Line("No ticket is in play any more, so nobody can win this game.",
                  "Close the game with a reason (Close session).")


def void_line(ticket: str, reason: str, others: int) -> Line:
    also = "" if not others else (f" The holder's {others} other ticket"
                                  f"{'s are' if others > 1 else ' is'} void too.")
    note = "Rule 9: a disqualified holder's other tickets that day are void." if others else ""
    return Line(f"Ticket {ticket} is void: {_spoken(reason)}. The game goes on.{also}", note)


def disqualified_cause(ticket: str, day: str, reason: str) -> str:
    """Why a holder's other tickets are void: the voided ticket and its reason (rule 9)."""
    return f"holder disqualified on {day} (rule 9): ticket {ticket} is void ({reason})"


def consolation_too_line(consolation_cents: int, winners: int) -> Line:
    whom = "the winner" if winners == 1 else "the winners, shared equally"
    return Line(f"The consolation of {format_zar(consolation_cents)} goes to {whom} too.",
                "Rule 16: the consolation is paid with the jackpot.")


def closed_line(reason: str, jackpot_next_cents: int) -> Line:
    return Line(f"The game is closed without a winner: {_spoken(reason)}. The jackpot grows to "
                f"{format_zar(jackpot_next_cents)}.",
                "Rule 15: with no winner the jackpot carries over to the next game.")


def started_lines(label: str, in_play: int, jackpot_cents: int, limit: int,
                  consolation_cents: int) -> list[Line]:
    return [
        Line(f"Super 9, {label}: {in_play} tickets in play."),
        Line(f"The jackpot of {format_zar(jackpot_cents)} is won with all nine numbers within "
             f"{limit} counted spins."),
        Line(f"The consolation of {format_zar(consolation_cents)} goes to the first to complete, "
             "with the jackpot or after it.", "Rule 16: the consolation."),
    ]


def no_spin_lines(back_to: int | None) -> list[Line]:
    """Rules 18.2, 18.3: the spin is void; the dealer returns the ball to the previous number."""
    said = Line("No spin: that spin does not count and no number is recorded.",
                "Rule 18.2: a spin after the dealer's \u201cNo spin\u201d is invalid.")
    if back_to is None:
        return [said]
    return [said, Line("", f"Rule 18.3: the dealer returns the ball to {back_to}, reverses the "
                           "wheel one revolution and spins again.")]


def _spoken(reason: str) -> str:
    """An operator's reason as read aloud: without its rule references, e.g. "(rule 9)"."""
    return re.sub(r"\s*\(rules? [^)]*\)", "", reason).strip().rstrip(".")
