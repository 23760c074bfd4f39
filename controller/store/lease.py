"""Leadership of a PostgreSQL log: one leader at a time, by a lease with a fencing epoch.

Several controllers follow one PostgreSQL log; the leader alone appends and runs the clock
loop. A lease alone is not safe: a leader paused (SIGSTOP, a frozen VM, a long stall) past its
lease wakes up believing it still leads. So every append runs `Lease.fence` in its own
transaction: the epoch it holds must still be the row's, read `FOR SHARE`. A takeover raises the
epoch with an UPDATE of that row, which waits for an append in flight to end; once it commits,
no append of the old epoch can commit. The leader's log connection also sets
`idle_in_transaction_session_timeout` (`prepare`), so a leader frozen inside an append cannot hold
that row's lock, and with it the takeover, past a second.

Time is the database's (`now()`, one clock for every controller), never a PC's. A leader that
cannot renew steps down by its own clock once the lease it last renewed has run out
(`Lease.holds`), whether or not another has taken over yet.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import psycopg

#: how long a lease lasts unless renewed; the leader renews every `RENEW_S`, a standby tries to
#: take over every `RENEW_S`: a leader's PC that dies is replaced within LEASE_S + RENEW_S
LEASE_S = 3.0
RENEW_S = 0.5
#: how long an append may hold the leadership row's lock idle (a frozen leader mid-append)
IDLE_IN_APPEND_S = 1.0

SCHEMA = """
CREATE TABLE IF NOT EXISTS leadership (
    id         SMALLINT PRIMARY KEY CHECK (id = 1),
    epoch      BIGINT NOT NULL,
    holder     TEXT NOT NULL,
    address    TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
)"""
#: every controller on the log, by the address its clients reach it at, as it last tried or
#: renewed the lease: where a page whose controller died goes next
CONTROLLERS = """
CREATE TABLE IF NOT EXISTS controllers (
    address TEXT PRIMARY KEY,
    seen_at TIMESTAMPTZ NOT NULL
)"""
#: a controller not seen for this long is not offered to pages (a PC taken away)
SEEN_S = 60.0


class NotLeader(Exception):
    """This controller does not lead the log (any more): nothing was written. `address` is the
    leader's, for a client to go to ("" when none holds the lease)."""

    def __init__(self, address: str) -> None:
        super().__init__("This controller does not lead the show now: the leader "
                         + (f"is at {address}." if address else "is being chosen; try again in "
                            "a few seconds."))
        self.address = address


@dataclass(frozen=True)
class Leader:
    """Who holds the lease as the database has it."""

    epoch: int
    holder: str
    address: str
    live: bool  # its lease has not run out


class Lease:
    """One controller's candidacy: its own autocommit connection to the log's database."""

    def __init__(self, url: str, holder: str, address: str, lease_s: float = LEASE_S) -> None:
        self.holder = holder
        self.address = address
        self.lease_s = lease_s
        self.epoch: int | None = None  # the epoch held, while leading
        self._until = 0.0  # monotonic end of the lease as last renewed (its start, to be safe)
        self._url = url
        self._db = psycopg.connect(url, autocommit=True)
        self._execute(SCHEMA)
        self._execute(CONTROLLERS)

    def close(self) -> None:
        self._db.close()

    def _execute(self, sql: str, params: Any = None) -> psycopg.Cursor[Any]:
        """A statement on the lease's own connection, made again if the server ended it
        (PostgreSQL restarted or failed over): the statement never reached the server."""
        try:
            return self._db.execute(sql, params)
        except psycopg.OperationalError:
            if not self._db.broken:
                raise
        self._db = psycopg.connect(self._url, autocommit=True)
        return self._db.execute(sql, params)

    def try_acquire(self) -> int | None:
        """Take the lease if nobody holds a live one: the new epoch (one above the last), or None.
        A holder whose own lease ran out takes a new epoch too: it may have been taken and lost
        in between."""
        asked = time.monotonic()
        self._seen()
        row = self._execute(
            "INSERT INTO leadership (id, epoch, holder, address, expires_at) "
            "VALUES (1, 1, %(holder)s, %(address)s, now() + %(lease)s * interval '1 second') "
            "ON CONFLICT (id) DO UPDATE SET epoch = leadership.epoch + 1, "
            "holder = EXCLUDED.holder, address = EXCLUDED.address, "
            "expires_at = EXCLUDED.expires_at WHERE leadership.expires_at < now() "
            "RETURNING epoch",
            {"holder": self.holder, "address": self.address, "lease": self.lease_s}).fetchone()
        if row is None:
            return None
        self.epoch, self._until = int(row[0]), asked + self.lease_s
        return self.epoch

    def take_over_from(self, ended: str) -> int | None:
        """Take the lease at once from the holder `ended`, its lease live or not: for a holder
        known to have ended (this PC's controller, killed and started again), whose lease would
        otherwise keep the show waiting up to `LEASE_S`. The new epoch fences anything of the
        old one. None if the lease has meanwhile gone to another."""
        asked = time.monotonic()
        self._seen()
        row = self._execute(
            "UPDATE leadership SET epoch = epoch + 1, holder = %(holder)s, address = %(address)s, "
            "expires_at = now() + %(lease)s * interval '1 second' "
            "WHERE id = 1 AND holder = %(ended)s RETURNING epoch",
            {"holder": self.holder, "address": self.address, "lease": self.lease_s,
             "ended": ended}).fetchone()
        if row is None:
            return None
        self.epoch, self._until = int(row[0]), asked + self.lease_s
        return self.epoch

    def renew(self) -> bool:
        """Extend the lease held; False (and no longer leading) if the epoch moved on."""
        if self.epoch is None:
            return False
        asked = time.monotonic()
        self._seen()
        row = self._execute(
            "UPDATE leadership SET expires_at = now() + %s * interval '1 second' "
            "WHERE id = 1 AND epoch = %s RETURNING epoch", (self.lease_s, self.epoch)).fetchone()
        if row is None:
            self.epoch = None
            return False
        self._until = asked + self.lease_s
        return True

    def holds(self) -> bool:
        """Whether this controller may act as leader now by its own clock (the fence still
        decides every append)."""
        return self.epoch is not None and time.monotonic() < self._until

    def must_lead(self) -> None:
        """`NotLeader` (with the leader's address) unless this controller holds the lease by its
        own clock: a command is refused before it is decided on a standby's state."""
        if not self.holds():
            raise NotLeader(self.leader_address())

    def step_down(self) -> None:
        """Give the lease up at a clean stop: a standby takes over at once, not after it runs
        out."""
        if self.epoch is not None:
            self._execute("UPDATE leadership SET expires_at = now() - interval '1 second' "
                             "WHERE id = 1 AND epoch = %s", (self.epoch,))
        self.epoch = None

    def reached_at(self, address: str) -> None:
        """This controller is reached at `address` now it listens (a port the system chose):
        other controllers and their pages are told so, and not the address it was started
        with."""
        if address == self.address:
            return
        self._execute("DELETE FROM controllers WHERE address = %s", (self.address,))
        self.address = address
        self._seen()
        if self.epoch is not None:
            self._execute("UPDATE leadership SET address = %s WHERE id = 1 AND epoch = %s",
                          (address, self.epoch))

    def _seen(self) -> None:
        self._execute("INSERT INTO controllers (address, seen_at) VALUES (%s, now()) "
                         "ON CONFLICT (address) DO UPDATE SET seen_at = now()", (self.address,))

    def controllers(self) -> list[str]:
        """The addresses of the controllers on this log seen in the last `SEEN_S`, this one's
        first."""
        rows = self._execute("SELECT address FROM controllers WHERE seen_at > now() - "
                                "%s * interval '1 second' ORDER BY address", (SEEN_S,))
        others = [row[0] for row in rows if row[0] != self.address]
        return [self.address, *others]

    def leader_address(self) -> str:
        """Where the controller whose lease is live is reached ("" while none holds one)."""
        leader = self.leader()
        return leader.address if leader is not None and leader.live else ""

    def leader(self) -> Leader | None:
        row = self._execute("SELECT epoch, holder, address, expires_at > now() "
                               "FROM leadership WHERE id = 1").fetchone()
        return None if row is None else Leader(int(row[0]), row[1], row[2], bool(row[3]))

    # -- on the log's own connection --------------------------------------------------------
    @staticmethod
    def prepare(conn: psycopg.Connection) -> None:
        """Set the log connection up for fenced appends (see the module's docstring), before it
        opens a transaction."""
        conn.execute(f"SET idle_in_transaction_session_timeout = "
                     f"{int(IDLE_IN_APPEND_S * 1000)}")
        if not conn.autocommit:
            conn.commit()

    def fence(self, conn: psycopg.Connection) -> None:
        """Inside an append's transaction: `NotLeader` unless the epoch held is still the
        log's; the row stays locked (shared) until the append ends."""
        row = conn.execute("SELECT epoch, address, expires_at > now() FROM leadership "
                           "WHERE id = 1 FOR SHARE").fetchone()
        if self.epoch is None or row is None or int(row[0]) != self.epoch:
            self.epoch = None
            raise NotLeader(row[1] if row is not None and row[2] else "")
