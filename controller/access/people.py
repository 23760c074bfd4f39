"""People who log in: added and disabled as events in the log, passwords hashed with argon2.

The event names the person and the role (controller/domain/users.py); the password never
leaves this module except as its argon2id hash, kept in the store's `users` table.
"""

from __future__ import annotations

import re

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from controller.domain.users import PEOPLE_ROLES, UserAdded, UserDisabled
from controller.store import users as users_table
from controller.store.log import StoredLog
from controller.store.principal_ids import SHELL
from controller.store.users import User

ACTOR = "shell"  # who the log names for a person added or disabled at the command line
USER_PREFIX = "user:"  # a person's principal id (acks are keyed by it)
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._ -]{0,63}")
MIN_PASSWORD = 8
MAX_PASSWORD = 1024

_hasher = PasswordHasher()


def user_principal(name: str) -> str:
    return USER_PREFIX + name


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def password_matches(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


#: a hash no one's password opens, so an unknown name costs one verification, as a known one
#: does; a literal with the hasher's parameters (tests/access/test_logins.py checks them),
#: since hashing it at import cost every command-line tool and controller start 0.1-0.7 s
_DUMMY = ("$argon2id$v=19$m=65536,t=3,p=4$ktPzzLx6Xl8jfSq6/7flmQ"
          "$HyzNxUHR5zWlztaN0JaQ9EIN6sb2vRbRWzSE1ESFyuY")


def check_password(user: User | None, password: str) -> bool:
    """Does `password` open `user`'s account (which exists and is not disabled)? Always one
    argon2 verification, so the time taken does not tell whether the name exists."""
    if not isinstance(password, str) or len(password) > MAX_PASSWORD:
        return False
    ok = password_matches(user.password_hash if user else _DUMMY, password)
    return ok and user is not None and not user.disabled


def add_user(log: StoredLog, name: str, role: str, password: str, now_ms: int) -> UserAdded:
    """Record `UserAdded` and the person's password hash in one transaction. Raises
    ValueError, in words for a technician, for a bad name, role or password or a name taken."""
    if not NAME.fullmatch(name):
        raise ValueError("a name is 1-64 letters, digits, spaces, dots, dashes or underscores, "
                         "starting with a letter or digit")
    if role not in PEOPLE_ROLES:
        raise ValueError(f"unknown role {role!r}; use one of {', '.join(PEOPLE_ROLES)}")
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ValueError(f"a password has at least {MIN_PASSWORD} characters")
    if log.users(name):
        raise ValueError(f"there is already a user named {name!r} (`user list` shows them)")
    event = UserAdded(name, role)
    log.append(f"user:{now_ms}:{name}", ACTOR, now_ms, [event.record()], {"ok": True},
               principal=SHELL, digest=None,
               also=[users_table.insert(name, role, hash_password(password), now_ms)])
    return event


def copy_user(log: StoredLog, user: User, now_ms: int) -> UserAdded:
    """Record `UserAdded` for a person of another log with the same password hash: a
    rehearsal's log knows the venue's people, who log in to it with their own passwords."""
    event = UserAdded(user.name, user.role)
    log.append(f"user:{now_ms}:{user.name}", ACTOR, now_ms, [event.record()], {"ok": True},
               principal=SHELL, digest=None,
               also=[users_table.insert(user.name, user.role, user.password_hash, now_ms)])
    return event


def disable_user(log: StoredLog, name: str, now_ms: int, reason: str = "") -> UserDisabled:
    """Record `UserDisabled`: the person can no longer log in, and a running controller cuts
    their open pages. Raises ValueError when no such live user exists."""
    found = log.users(name)
    if not found or found[0].disabled:
        raise ValueError(f"no active user named {name!r}; `user list` shows every user")
    event = UserDisabled(name, found[0].role, reason)
    log.append(f"user-disable:{now_ms}:{name}", ACTOR, now_ms, [event.record()], {"ok": True},
               principal=SHELL, digest=None, also=[users_table.disable(name)])
    return event
