"""People as events: who may log in is part of what the hash chain proves.

An event names the person and their role, never their password or its hash: the argon2 hash
lives in the store's `users` table, written in the same transaction as `UserAdded`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from controller.domain.events import DomainEvent
from controller.domain.feature import Feature

PEOPLE_ROLES = ("operator", "technician", "announcer", "auditor")


@dataclass(frozen=True)
class UserAdded(DomainEvent, type_name="UserAdded"):
    name: str
    role: str


@dataclass(frozen=True)
class UserDisabled(DomainEvent, type_name="UserDisabled"):
    name: str
    role: str
    reason: str = ""


class Users(Feature):
    """Folds user events on replay. Logins are checked against the store's `users` table,
    which the store keeps in the same transaction as the event."""

    name = "users"

    def events(self) -> Iterable[type[DomainEvent]]:
        return (UserAdded, UserDisabled)

    def apply(self, event: DomainEvent) -> Iterable[str]:
        return ()
