"""Following the hash chain's links: what `first_broken_link` compares, on either store.

Beside each row's own hash, a scheme-2 chain covers its commands' acks and every key and person
issued, revoked, added or disabled; the keys and users tables are compared with what the chain
says of them once every link has been followed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from controller.store import users as users_table
from controller.store.chain import ack_digest
from controller.store.dialect import Database, Dialect
from controller.store.writes import KEY_ISSUED, KEY_REVOKED

#: the events the keys and people tables follow (`follow_tables`) are few among millions: a
#: start from a snapshot reads the ones before it from this index, not from the whole table (a
#: partial index is only used by a query that names its types as the same literals)
TABLE_TYPES = ", ".join(f"'{t}'" for t in (KEY_ISSUED, KEY_REVOKED, users_table.USER_ADDED,
                                           users_table.USER_DISABLED))
TABLES_INDEX = ("CREATE INDEX IF NOT EXISTS events_of_tables ON events (seq) "
                f"WHERE type IN ({TABLE_TYPES})")

AckRow = tuple[str, str, str | None, str]  # principal, command id, digest, ack JSON

#: the acks by the event they name (`Dialect.ack_event`): a start from a snapshot reads the
#: tail's acks by it, not the whole table (an index is only used by a query that names the
#: same expression)
ACKS_INDEX = "acks_by_event"


def acks_index(dialect: Dialect) -> str:
    return f"CREATE INDEX IF NOT EXISTS {ACKS_INDEX} ON acks (({dialect.ack_event}))"


def acks_after(db: Database, dialect: Dialect, after: int) -> Iterable[AckRow]:
    """Every ack when `after` is 0, else those that name an event after it or no event (by
    `ACKS_INDEX`)."""
    columns = "principal, command_id, digest, ack"
    if not after:
        return db.execute(f"SELECT {columns} FROM acks")
    event = dialect.ack_event
    return db.execute(f"SELECT {columns} FROM acks WHERE {event} > ? UNION ALL "
                      f"SELECT {columns} FROM acks WHERE {event} < 0", (after,))


def acks_by_seq(rows: Iterable[AckRow]) -> dict[int, list[AckRow]]:
    """The acks by the event they name (-1: none)."""
    found: dict[int, list[AckRow]] = {}
    for row in rows:
        seq = json.loads(row[3]).get("seq")
        found.setdefault(seq if isinstance(seq, int) else -1, []).append(row)
    return found


def ack_problem(ack_link: str | None, acks: list[AckRow]) -> str | None:
    """A scheme-2 row carries its command's ack digest on its last row, and only there."""
    if ack_link is None:
        return "an ack names this event, but its command's ack is hashed elsewhere" if acks \
            else None
    if not acks:
        return "its command's ack is missing"
    if len(acks) > 1 or ack_digest(*acks[0]) != ack_link:
        return "its command's ack does not match its hash"
    return None


def follow_tables(type_: str, data_json: str, keys: dict[str, tuple[str, str, bool]],
                  people: dict[str, tuple[str, bool]]) -> None:
    """Follow the keys and people the chain issues, revokes, adds and disables (compared with
    their tables at the end)."""
    if type_ in (KEY_ISSUED, KEY_REVOKED):
        data: dict[str, Any] = json.loads(data_json)
        keys[data["key_hash"]] = (data["role"], data["name"], type_ == KEY_REVOKED)
    elif type_ in (users_table.USER_ADDED, users_table.USER_DISABLED):
        users_table.follow(type_, json.loads(data_json), people)


def keys_problem(table: dict[str, tuple[str, str, bool]],
                 keys: dict[str, tuple[str, str, bool]]) -> tuple[int, str] | None:
    """Why the keys table (key hash: role, name, revoked) disagrees with the chain, or None."""
    for key_hash in sorted(set(table) | set(keys)):
        if key_hash not in keys:
            role, name, _ = table[key_hash]
            return 0, (f"the keys table holds a {role} key for {name!r} (hash "
                       f"{key_hash[:12]}) that no KeyIssued event issued")
        if table.get(key_hash) != keys[key_hash]:
            role, name, revoked = keys[key_hash]
            state = "revoked" if revoked else "live"
            return 0, (f"the keys table does not match the log for the {role} key of "
                       f"{name!r} (hash {key_hash[:12]}; the log says it is {state})")
    return None
