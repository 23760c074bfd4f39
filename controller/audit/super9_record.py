"""Super 9's part of the auditor's record: the sessions and the numbers called, the wins and
the ticket changes, in the order the sessions were played. A session is named in words
("Wednesday 4 June 19:00", the venue's wall clock), never by its id ("2025-06-04T19:00")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.audit.document import Clock, Para, Section, Table
from controller.promotions.super9.schedule import session_words
from showrunner.contract.money import format_int, format_zar

if TYPE_CHECKING:
    from controller.audit.record import Builder


def super9_sections(b: Builder, clock: Clock) -> list[Section]:
    """The sessions (super9 rules 4, 13-16), the wins (rule 20) and the ticket changes signed
    off (rule 23), from the promotion's events in the period."""
    sold = {d["ticket"]: d for _, d in b.of("Super9TicketSold")}
    sales = sum(d["price_cents"] for d in sold.values())
    sessions = Section("Sessions and numbers called")
    word = "ticket" if len(sold) == 1 else "tickets"
    sessions.blocks.append(Para(f"{format_int(len(sold))} {word} sold for "
                                f"{format_zar(sales)}."))
    called: dict[str, list[int]] = {}
    no_spins: dict[str, int] = {}
    for stored, d in b.mine:
        if stored.type == "Super9SpinEntered":
            called.setdefault(d["session"], []).append(d["number"])
        elif stored.type == "Super9SpinUndone" and called.get(d["session"]):
            called[d["session"]].pop()
        elif stored.type == "Super9NoSpin":
            no_spins[d["session"]] = no_spins.get(d["session"], 0) + 1
    ends = {d["session"]: d for _, d in b.of("Super9Won", "Super9SessionClosed")}
    rows = []
    # in the order they were played: an id is its local start ("2025-06-04T19:00"), said in
    # words ("Wednesday 4 June 19:00"), never as the id
    for _, d in sorted(b.of("Super9SessionStarted"), key=lambda s: s[1]["session"]):
        end = ends.get(d["session"], {})
        result = ("won: " + end["prize"]) if "prize" in end else \
            ("closed: " + end["reason"]) if end else "open"
        numbers = called.get(d["session"], [])
        rows.append([session_words(d["session"]), clock(d["at_ms"]),
                     format_zar(d["jackpot_cents"]), format_zar(d["consolation_cents"]),
                     " ".join(map(str, numbers)) or "-",
                     str(no_spins.get(d["session"], 0)), result])
    sessions.table(["Session", "Started", "Jackpot", "Consolation", "Numbers called",
                    "No spins", "Result"], rows, [30, 36, 22, 22, 46, 14, 28],
                   "No session in the period.")
    wins = Section("Wins")
    win_rows = []
    for stored, d in sorted(b.of("Super9Won"), key=lambda s: s[1]["session"]):
        for w in d["winners"]:
            card = sold.get(w["ticket"], {}).get("card")
            win_rows.append([session_words(d["session"]), clock(d["at_ms"]), d["prize"],
                             w["ticket"], b.who(card), format_zar(w["share_cents"]),
                             format_zar(w.get("consolation_share_cents", 0)),
                             stored.actor])
    wins.table(["Session", "Confirmed", "Prize", "Ticket", "Winner", "Share",
                "Consolation", "By"], win_rows, [28, 36, 18, 16, 38, 20, 20, 18],
               "No SUPER 9 in the period.")
    tickets = Section("Ticket changes and voids")
    rows = [[clock(stored.at_ms), d["ticket"], f"void: {d['reason']}", d["by"]]
            for stored, d in b.of("Super9TicketVoided")]
    for stored, d in b.of("Super9TicketChanged"):
        rows.append([clock(stored.at_ms), d["ticket"],
                     f"{' '.join(map(str, d['old']))} -> {' '.join(map(str, d['new']))}",
                     d["director"]])
        tickets.blocks.append(b.signature(
            f"Ticket {d['ticket']} change, signed off by {d['director']} (rule 23)",
            d.get("signature")))
    tickets.blocks.insert(0, Table(["When", "Ticket", "What", "By"], rows,
                                   [40, 24, 70, 30]) if rows else
                          Para("No ticket was changed or voided."))
    return [sessions, wins, tickets]
