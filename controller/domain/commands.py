"""Commands: the envelope's payload checked into a typed dataclass, and the context they run in.

A command handler is a plain function `(payload, ctx) -> list[DomainEvent]` that reads state and
raises `Rejected` with a sentence when a rule says no. It never mutates state: the service
appends the returned events to the log first and only then applies them.
"""

from __future__ import annotations

import builtins
import functools
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, dataclass_transform

from pydantic import ConfigDict, TypeAdapter, ValidationError, with_config

from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.strict_json import shown

P = TypeVar("P")

#: how every payload is checked: its fields are strict types, and a field it lacks is refused
PAYLOAD_CONFIG = ConfigDict(extra="forbid")

#: `device`: a machine on the floor that reports what it reads (a wheel's number reader, a bank of
#: slot machines' feed); its key's holder name is the table or bank it may report for.
#: `kiosk`: an ehost kiosk on the floor, where a member activates their own draw entries;
#: `app`: the venue's member-app backend, acting for the member card each call names
ROLES = ("operator", "technician", "announcer", "display", "auditor", "device", "kiosk", "app")


class Randomness:
    """The one source of draw randomness: the OS CSPRNG, integers only."""

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("nothing to pick from")
        return secrets.randbelow(n)


@dataclass(frozen=True)
class Context:
    """Who sends the command and when (the controller's clock, UTC epoch ms)."""

    actor: str
    role: str
    now_ms: int
    rng: Randomness = field(default_factory=Randomness)


#: the largest command envelope, in bytes of canonical JSON, unless its command says more
MAX_ENVELOPE_BYTES = 16 * 1024


@dataclass(frozen=True)
class Command(Generic[P]):
    """A command type: who may send it, what its payload is, and the handler that decides.
    `max_bytes`: its envelope's limit (a bank's heat end lists every machine's credits).
    `said`: what was done, as the sentence its ack carries (`said`), made from the events
    before they are applied: for a command whose page cannot say it alone (a card swiped at
    the desk, answered with the member's name)."""

    type: str
    role: str
    payload: builtins.type[P]  # `type` in this body is the field above
    handle: Callable[[P, Context], list[DomainEvent]]
    summary: str = ""
    max_bytes: int = MAX_ENVELOPE_BYTES
    said: Callable[[list[DomainEvent]], str] | None = None


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def payload(cls: type[P]) -> type[P]:
    """Make `cls` a command payload: a frozen dataclass whose unknown fields are refused.

    Its fields are annotated with the contract's strict types (`showrunner.contract.fields`), so
    the same annotations check a payload and give the tablet its JSON Schema.
    """
    return with_config(PAYLOAD_CONFIG)(dataclass(frozen=True)(cls))


@functools.cache
def _adapter(cls: type[P]) -> TypeAdapter[P]:
    return TypeAdapter(cls)


def prepare_payload(cls: type) -> None:
    """Build the payload's checker now (pydantic's schema for it, ms each) rather than at the
    command's first use, where it added to the loop callback that ran it."""
    _adapter(cls)


def payload_schema(cls: type) -> dict[str, Any]:
    """The payload's JSON Schema: field types, required fields, defaults, bounds, enums."""
    return _adapter(cls).json_schema()


def parse_payload(cls: type[P], raw: Any) -> P:
    """Check a JSON payload against its type and build it; one sentence says what is wrong."""
    try:
        return _adapter(cls).validate_python(raw)  # type: ignore[arg-type]  # a class is hashable; mypy says not (python/mypy#20409)
    except ValidationError as exc:
        raise Rejected("bad_payload", explain(exc.errors())) from None


def explain(errors: list[Any]) -> str:
    """pydantic's errors as the one sentence an MC reads: unknown fields first, each named at
    its place (`bonus`, `readings[0].colour`), else the first field that is wrong, named as
    the form labels it ("Display name", "Original (item 9)", "Signature strokes") or, below a
    list's item, by its place ("readings[1].credits")."""
    unknown = [dotted((*e["loc"][:-1], field_name(e["loc"][-1])))
               for e in errors if e["type"] in _UNKNOWN and e["loc"]]
    if unknown:
        return f"Unknown field(s): {', '.join(unknown)}."
    error = errors[0]
    if not error["loc"]:
        return "The command's payload must be an object of named fields."
    name, *at = error["loc"]
    label = _LABELS.get(str(name), str(name).replace("_", " ").capitalize())
    if len(at) > 1 and any(isinstance(part, int) for part in at):
        label = dotted(error["loc"])
    elif at and isinstance(at[0], int):
        label += f" (item {at[0] + 1})"
    elif at:  # a field of an object field, as the form groups it: "Signature strokes"
        label += "".join(f" {str(part).replace('_', ' ')}" for part in at)
    ctx = error.get("ctx") or {}
    template = _SENTENCES.get(error["type"], "is not valid ({msg})")
    return f"{label} {template.format(msg=error['msg'], **_readable(ctx))}."


def dotted(loc: tuple[Any, ...] | list[Any]) -> str:
    """A field's place in a document: `sessions.sunday[1]`, `readings[0].colour`."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}" if out else str(part)
    return out


def field_name(key: Any) -> str:
    """A key the sender chose, said back: as it is when it reads as a name, else quoted and
    cut short (it may be anything: long, blank, unprintable)."""
    text = str(key)
    return text if _NAME.fullmatch(text) else shown(text)


def _readable(ctx: dict[str, Any]) -> dict[str, Any]:
    """Bounds written as an MC reads them (999 999 999), the validator's own words as text."""
    out: dict[str, Any] = {}
    for key, value in ctx.items():
        is_int = isinstance(value, int) and not isinstance(value, bool)
        out[key] = f"{value:,}".replace(",", " ") if is_int else str(value)
    return out


_UNKNOWN = {"unexpected_keyword_argument", "extra_forbidden"}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,39}")
#: field names that read badly as labels
_LABELS = {"yaml": "The playlist's text", "id_last4": "The ID's last 4 characters",
           "id_type": "The ID type"}
_SENTENCES = {
    "missing": "is required",
    "missing_argument": "is required",
    "int_type": "must be a whole number",
    "string_type": "must be text",
    "bool_type": "must be true or false",
    "list_type": "must be a list",
    "dict_type": "must be an object of named fields",
    "less_than_equal": "must be at most {le}",
    "greater_than_equal": "must be at least {ge}",
    "string_too_long": "must be at most {max_length} characters",
    "string_too_short": "must be at least {min_length} character(s)",
    "too_long": "must have at most {max_length} items",
    "too_short": "must have at least {min_length} items",
    "literal_error": "must be one of {expected}",
    "value_error": "{error}",
}
