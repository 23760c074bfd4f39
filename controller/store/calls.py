"""The `member_calls` table: every call a kiosk or the member app made for a member card.

A member's own calls (look up my entries, activate my tickets) are recorded like commands: who
asked (the key's principal and holder name, its role), when, for which card, what, and how it
was answered (`ok` or the refusal's code). An activation is also an event in the log; a look-up
changes nothing, so it is only here, beside the log and outside its hash chain. An auditor or
the venue's privacy officer reads who looked at a card (`calls_for`).
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.store.dialect import Database

SCHEMA = """CREATE TABLE IF NOT EXISTS member_calls (
    id        {serial},
    at_ms     {big} NOT NULL,
    principal TEXT NOT NULL,
    name      TEXT NOT NULL,
    role      TEXT NOT NULL,
    card      TEXT NOT NULL,
    action    TEXT NOT NULL,
    outcome   TEXT NOT NULL
)"""


@dataclass(frozen=True)
class MemberCall:
    at_ms: int
    principal: str  # the key's stable principal id
    name: str  # the key's holder name: the kiosk, or the app backend
    role: str  # kiosk or app
    card: str  # the member card the call names, as given (it may be no member's)
    action: str  # e.g. "entries", "activate", "leaderboards", "super9"
    outcome: str  # "ok" or the refusal's code


_COLUMNS = "at_ms, principal, name, role, card, action, outcome"


def put(db: Database, call: MemberCall) -> None:
    db.execute(f"INSERT INTO member_calls ({_COLUMNS}) VALUES (?,?,?,?,?,?,?)",
               (call.at_ms, call.principal, call.name, call.role, call.card, call.action,
                call.outcome))


def calls_for(db: Database, card: str) -> list[MemberCall]:
    """Every call that named `card`, oldest first."""
    return [MemberCall(*row) for row in db.execute(
        f"SELECT {_COLUMNS} FROM member_calls WHERE card = ? ORDER BY id", (card,))]
