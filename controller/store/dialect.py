"""What the two stores of the log (SQLite, PostgreSQL) do differently in SQL, and the little
they share to run the same statements.

The tables and their helpers are written once, with `?` placeholders and SQL both databases
read (`ON CONFLICT` rather than `INSERT OR IGNORE`); a schema names its column types as
`{big}` (seq and times), `{blob}` and `{serial}` (a key the database numbers), which each
store's `Dialect` fills in. PostgreSQL's connection is wrapped to take `?`
(controller/store/postgres.py).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class Cursor(Protocol):
    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Database(Protocol):
    """A connection outside any transaction until it runs its dialect's `begin`."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Any: ...

    @property
    def in_transaction(self) -> bool: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Dialect:
    begin: str  # what opens a write transaction
    big: str
    blob: str
    serial: str
    error: type[Exception]  # what the driver raises
    integrity_error: type[Exception]  # a constraint broken: a bug, not the storage
    #: an acks row's event, the integer `seq` in its JSON (-1 for none): a start reads the acks
    #: of the events after its snapshot by an index on it (controller/store/links.py)
    ack_event: str

    def ddl(self, schema: str) -> str:
        return schema.format(big=self.big, blob=self.blob, serial=self.serial)

    def statements(self, schema: str) -> list[str]:
        """The schema's statements, one each (a driver may run only one at a time)."""
        return [s for s in self.ddl(schema).split(";") if s.strip()]


#: SQLite's INTEGER is 64 bits, and as a table's only key it is the rowid
SQLITE = Dialect("BEGIN IMMEDIATE", "INTEGER", "BLOB", "INTEGER PRIMARY KEY", sqlite3.Error,
                 sqlite3.IntegrityError, "CASE WHEN json_type(ack, '$.seq') = 'integer' THEN "
                 "json_extract(ack, '$.seq') ELSE -1 END")
