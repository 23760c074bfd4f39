"""Queries: the read-only requests on the sockets, catalogued like commands.

Each names the roles that may ask it and its payload (a `payload` class, checked like a
command's), and answers without changing anything. A role that may not ask, a payload that
does not fit, or an answer that raises `Rejected` gets the refusal every command gets
(controller/domain/errors.py `refusal`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from controller.domain.commands import parse_payload, payload_schema
from controller.domain.errors import Rejected, refusal

P = TypeVar("P")
S = TypeVar("S")  # what an answer reads: the hub, on a socket


@dataclass(frozen=True)
class Query(Generic[P, S]):
    """A query type: who may ask it, its payload, and the answer (never a change)."""

    name: str
    roles: frozenset[str]
    payload: type[P]
    answer: Callable[[P, S], Awaitable[dict[str, Any]]]
    forbidden: str  # the sentence a role that may not ask is refused with
    summary: str = ""

    async def ask(self, role: str, raw: Any, source: S) -> dict[str, Any]:
        """The answer, `{"ok": True, ...}`, or the refusal: the role is checked first, then
        the payload, then the answer's own rules."""
        if role not in self.roles:
            return refusal("forbidden", self.forbidden)
        try:
            return {"ok": True, **await self.answer(parse_payload(self.payload, raw), source)}
        except Rejected as exc:
            return exc.refusal()

    def describe(self) -> dict[str, Any]:
        """The query in the catalogue: its roles, summary and payload JSON Schema."""
        return {"name": self.name, "roles": sorted(self.roles), "summary": self.summary,
                "payload": payload_schema(self.payload)}
