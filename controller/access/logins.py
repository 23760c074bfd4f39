"""Logged-in people: session tokens that expire, and a lock-out after repeated wrong passwords.

A session is kept in the log's database (controller/store/sessions.py), so a person stays logged
in when the controller restarts or a standby takes the lead; the browser holds its random token
in an HttpOnly, SameSite=Strict cookie. A person is locked out
for the rest of the window after `failures` wrong passwords within `window_s` seconds, counted
per name (whatever the address), each one logged.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.access.keys import Principal
from controller.access.people import user_principal
from controller.store.log import StoredLog
from controller.store.sessions import StoredSession

log = logging.getLogger("controller.access.logins")

COOKIE = "showrunner_session"
REHEARSAL_COOKIE = "showrunner_rehearsal_session"
LOCKED = "Too many wrong passwords for this name: wait 15 minutes, or ask a technician."
WRONG = "Wrong name or password."
MAX_TRACKED = 4096  # names with failures kept before a sweep of those past the window


@dataclass(frozen=True)
class LoginPolicy:
    session_s: float = 12 * 3600
    failures: int = 5
    window_s: float = 15 * 60
    secure_cookie: bool = False  # set the cookie's Secure flag (served over https)
    cookie: str = COOKIE  # a rehearsal's has its own: a browser sends cookies to every port


@dataclass(frozen=True)
class Session:
    name: str
    role: str
    expires: float


def _wall_ms() -> int:
    return time.time_ns() // 10**6


@dataclass
class Logins:
    policy: LoginPolicy = LoginPolicy()
    clock: Callable[[], float] = time.monotonic
    wall_ms: Callable[[], int] = _wall_ms  # the stored sessions' expiry: one clock for all
    _sessions: dict[str, Session] = field(default_factory=dict)  # opened here, or read back
    _failures: dict[str, deque[float]] = field(default_factory=dict)
    _log: StoredLog | None = None

    def keep_in(self, log: StoredLog) -> None:
        """Keep sessions in the log's database from now on, and honour those it holds (opened
        by the process that served the show before this one)."""
        self._log = log

    # -- lock-out ----------------------------------------------------------------------------
    def _recent(self, name: str) -> deque[float]:
        times = self._failures.get(name, deque())
        cutoff = self.clock() - self.policy.window_s
        while times and times[0] <= cutoff:
            times.popleft()
        if not times:
            self._failures.pop(name, None)
        return times

    def locked(self, name: str) -> bool:
        return len(self._recent(name)) >= self.policy.failures

    def failed(self, name: str, address: str) -> None:
        """Count and log one wrong password for `name` (never the password)."""
        if len(self._failures) >= MAX_TRACKED:  # many names guessed: forget the expired ones
            for old in list(self._failures):
                self._recent(old)
        times = self._recent(name)
        times.append(self.clock())
        self._failures[name] = times
        log.warning("wrong password for %r from %s (%d in %g s)", name, address, len(times),
                    self.policy.window_s)
        if len(times) == self.policy.failures:
            log.warning("locking out %r for up to %g s after %d wrong passwords", name,
                        self.policy.window_s, len(times))

    # -- sessions ----------------------------------------------------------------------------
    def open(self, name: str, role: str) -> str:
        """A new session for a person whose password was right; returns its token."""
        self._failures.pop(name, None)
        token = secrets.token_urlsafe(32)
        if self._log is not None:  # kept before the cookie is sent
            self._log.put_session(token, StoredSession(
                name, role, self.wall_ms() + int(self.policy.session_s * 1000)), self.wall_ms())
        self._sessions[token] = Session(name, role, self.clock() + self.policy.session_s)
        now = self.clock()
        for old in [t for t, s in self._sessions.items() if s.expires <= now]:
            del self._sessions[old]
        return token

    def handoff(self, token: str) -> str | None:
        """Another token for the live session of `token`, ending when it ends: a page keeps it
        to log in at another controller of the same log without a password (its own login
        cookie is that host's only), or None if `token` has no live session."""
        session = self.session(token)
        if session is None or self._log is None:
            return None
        stored = self._log.stored_session(token)
        if stored is None:
            return None
        other = secrets.token_urlsafe(32)
        self._log.put_session(other, stored, self.wall_ms())
        return other

    def session(self, token: str | None) -> Session | None:
        """The live session of `token`, or None (unknown, logged out or expired)."""
        found = self._sessions.get(token) if token else None
        if found is None and token and self._log is not None:
            stored = self._log.stored_session(token)
            if stored is not None:
                left_s = (stored.expires_ms - self.wall_ms()) / 1000
                found = self._sessions[token] = Session(stored.name, stored.role,
                                                        self.clock() + left_s)
        if found is not None and found.expires <= self.clock():
            del self._sessions[token]  # type: ignore[arg-type]
            return None
        return found

    def close(self, token: str | None) -> None:
        self._sessions.pop(token or "", None)
        if token and self._log is not None:
            self._log.end_session(token)

    def close_user(self, name: str) -> None:
        """A disabled person: every session of theirs ends now."""
        for token in [t for t, s in self._sessions.items() if s.name == name]:
            del self._sessions[token]
        if self._log is not None:
            self._log.end_sessions_of(name)


LOGGED_OUT = "Log in again: your session ended."


def live_session(logins: Logins, log: StoredLog, token: str | None) -> Session | None:
    """The session of `token` if it is live and its person is still an active user."""
    session = logins.session(token)
    if session is None:
        return None
    found = log.users(session.name)
    if not found or found[0].disabled:
        logins.close_user(session.name)
        return None
    return session


def person(logins: Logins, log: StoredLog, environ: dict[str, Any]) -> Principal | None:
    """The logged-in person behind a Socket.IO connection, from its session cookie."""
    request = environ.get("aiohttp.request")
    token = request.cookies.get(logins.policy.cookie) if request is not None else None
    session = live_session(logins, log, token)
    if session is None:
        return None
    return Principal(session.role, session.name, user_principal(session.name))
