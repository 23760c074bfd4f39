"""People's passwords, sessions and lock-out, without a server (controller/access/people.py,
controller/access/logins.py)."""

from __future__ import annotations

import json

import pytest

from controller.access import people
from controller.access.logins import LoginPolicy, Logins, Session
from controller.access.people import (
    add_user,
    check_password,
    disable_user,
    hash_password,
    password_matches,
)
from controller.store import sessions
from controller.store.target import LogAt, open_log
from tests.support.stores import by_hand


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_password_is_stored_as_an_argon2_hash_that_only_it_matches() -> None:
    digest = hash_password("correct horse battery")
    assert digest.startswith("$argon2id$") and "correct horse" not in digest
    assert password_matches(digest, "correct horse battery")
    assert not password_matches(digest, "correct horse batterY")
    assert not password_matches("not a hash", "correct horse battery")


def test_five_wrong_passwords_lock_the_name_for_the_window() -> None:
    clock = Clock()
    logins = Logins(LoginPolicy(failures=5, window_s=900), clock)
    for _ in range(4):
        logins.failed("alice", "10.0.0.9")
    assert not logins.locked("alice")
    logins.failed("alice", "10.0.0.9")
    assert logins.locked("alice") and not logins.locked("bob")
    clock.now += 899
    assert logins.locked("alice")
    clock.now += 2
    assert not logins.locked("alice")


def test_wrong_passwords_are_logged_by_name_never_the_password(
        caplog: pytest.LogCaptureFixture) -> None:
    logins = Logins(LoginPolicy(failures=2), Clock())
    logins.failed("alice", "10.0.0.9")
    logins.failed("alice", "10.0.0.9")
    assert "wrong password for 'alice' from 10.0.0.9" in caplog.text
    assert "locking out 'alice'" in caplog.text


def test_a_session_expires_and_logout_ends_it() -> None:
    clock = Clock()
    logins = Logins(LoginPolicy(session_s=3600), clock)
    token = logins.open("alice", "operator")
    assert logins.session(token).name == "alice"
    clock.now += 3599
    assert logins.session(token) is not None
    clock.now += 2
    assert logins.session(token) is None
    other = logins.open("alice", "operator")
    logins.close(other)
    assert logins.session(other) is None
    assert logins.session("made-up") is None and logins.session(None) is None


def test_disabling_a_user_ends_their_sessions() -> None:
    logins = Logins()
    mine, theirs = logins.open("alice", "operator"), logins.open("bob", "announcer")
    logins.close_user("alice")
    assert logins.session(mine) is None and logins.session(theirs) is not None


def test_adding_and_disabling_a_user_are_events_that_never_hold_the_password(
        log_at: LogAt) -> None:
    log = open_log(log_at)
    add_user(log, "Alice Smith", "operator", "correct horse battery", 5)
    disable_user(log, "Alice Smith", 6, "left the team")
    events = list(log.read())
    assert [(e.type, e.data, e.actor) for e in events] == [
        ("UserAdded", {"name": "Alice Smith", "role": "operator"}, "shell"),
        ("UserDisabled", {"name": "Alice Smith", "role": "operator",
                          "reason": "left the team"}, "shell")]
    (user,) = log.users()
    assert user.disabled and user.password_hash.startswith("$argon2id$")
    assert "argon2" not in json.dumps([e.data for e in events])
    assert log.first_broken_link() is None
    assert not check_password(user, "correct horse battery")  # disabled: refused
    log.close()


@pytest.mark.parametrize(("name", "role", "password", "why"), [
    ("", "operator", "correct horse battery", "a name is"),
    ("alice", "display", "correct horse battery", "unknown role 'display'"),
    ("alice", "operator", "short", "at least 8 characters"),
])
def test_a_bad_user_is_refused_and_nothing_is_recorded(log_at: LogAt, name: str, role: str,
                                                       password: str, why: str) -> None:
    log = open_log(log_at)
    with pytest.raises(ValueError, match=why):
        add_user(log, name, role, password, 5)
    assert log.last_seq == 0 and log.users() == []
    log.close()


def test_a_name_is_taken_once_and_only_an_active_user_is_disabled(log_at: LogAt) -> None:
    log = open_log(log_at)
    add_user(log, "alice", "operator", "correct horse battery", 5)
    with pytest.raises(ValueError, match="already a user named 'alice'"):
        add_user(log, "alice", "announcer", "correct horse battery", 6)
    with pytest.raises(ValueError, match="no active user named 'bob'"):
        disable_user(log, "bob", 7)
    assert log.last_seq == 1
    (user,) = log.users()
    assert check_password(user, "correct horse battery")
    assert not check_password(user, "wrong horse battery")
    assert not check_password(None, "correct horse battery")
    log.close()


def test_a_person_slipped_into_the_users_table_is_caught_by_verify(log_at: LogAt) -> None:
    log = open_log(log_at)
    add_user(log, "alice", "announcer", "correct horse battery", 5)
    log.close()
    with by_hand(log_at) as db:
        db.execute("UPDATE users SET role = 'operator'")
    log = open_log(log_at)
    assert log.first_broken_link() == (0, "the users table does not match the log for the "
                                          "announcer 'alice' (the log says they are active)")
    log.close()
    with by_hand(log_at) as db:
        db.execute("UPDATE users SET role = 'announcer'")
        db.execute("INSERT INTO users VALUES ('mallory', 'operator', 'x', 0, 0)")
    log = open_log(log_at)
    assert log.first_broken_link() == (0, "the users table holds the operator 'mallory', whom "
                                          "no UserAdded event added")
    log.close()


def test_an_unknown_name_costs_a_whole_verification_like_a_known_one() -> None:
    # the dummy hash is a literal (hashing it at import slowed every process's start): it must
    # be well formed, or verifying it would fail at once, and made with the hasher's parameters
    assert password_matches(people._DUMMY, "not anyone's password")
    assert not people._hasher.check_needs_rehash(people._DUMMY)


def test_a_login_outlives_the_process_that_opened_it_on_either_store(log_at) -> None:
    """A restarted controller, or a standby that took the lead, honours the logins the one
    before it opened; a logout, a disabled person and an expiry end them for every process.
    The table holds the token's SHA-256, never the token."""
    wall = [1_000_000]
    first_log, second_log = open_log(log_at), open_log(log_at)
    try:
        first = Logins(LoginPolicy(session_s=3600), wall_ms=lambda: wall[0])
        first.keep_in(first_log)
        alice, bob = first.open("alice", "operator"), first.open("bob", "announcer")
        carol = first.open("carol", "auditor")
        second = Logins(LoginPolicy(session_s=3600), wall_ms=lambda: wall[0])
        second.keep_in(second_log)  # another process, after the first one ended
        assert second.session(alice) == Session("alice", "operator", second.session(alice).expires)
        assert second.session(bob).role == "announcer"
        second.close(alice)
        second.close_user("bob")
        third = Logins(wall_ms=lambda: wall[0])
        third.keep_in(first_log)
        assert third.session(alice) is None and third.session(bob) is None
        assert third.session(carol).name == "carol"
        wall[0] += 3600 * 1000  # an hour on the wall clock: carol's session has expired
        fourth = Logins(wall_ms=lambda: wall[0])
        fourth.keep_in(second_log)
        assert fourth.session(carol) is None
        kept = [row for (row,) in first_log._db.execute("SELECT token_hash FROM login_sessions")]
        assert carol not in kept and kept == [sessions.token_hash(carol)]
    finally:
        first_log.close()
        second_log.close()
