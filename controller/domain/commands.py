"""Commands: the envelope's payload parsed into a typed dataclass, and the context they run in.

A command handler is a plain function `(payload, ctx) -> list[DomainEvent]` that reads state and
raises `Rejected` with a sentence when a rule says no. It never mutates state: the service
appends the returned events to the log first and only then applies them.
"""

from __future__ import annotations

import dataclasses
import secrets
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import pydantic

from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent

P = TypeVar("P")

ROLES = ("operator", "technician", "announcer", "display", "auditor")


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


@dataclass(frozen=True)
class Command(Generic[P]):
    """A command type: who may send it, what its payload is, and the handler that decides."""

    type: str
    role: str
    payload: type[P]
    handle: Callable[[P, Context], list[DomainEvent]]
    summary: str = ""


def describe_payload(cls: type) -> list[dict[str, Any]]:
    """The payload's fields for a form: name, JSON type, whether it is required and, when it
    is not, the default a form should show (so a toggle starts in the state the server assumes).
    """
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        entry = {"name": f.name, "type": _json_type(hints[f.name]), "required": required}
        if f.default is not dataclasses.MISSING:
            entry["default"] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            entry["default"] = f.default_factory()
        out.append(entry)
    return out


def _json_type(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return _json_type(next(a for a in typing.get_args(hint) if a is not type(None)))
    if origin is list:
        return "list"
    if origin is dict:
        return "object"
    return {int: "integer", str: "string", bool: "boolean"}.get(hint, "string")


def parse_payload(cls: type[P], raw: Any) -> P:
    """Check a JSON payload against a dataclass and build it; say precisely what is wrong."""
    if not isinstance(raw, dict):
        raise Rejected("bad_payload", "The command's payload must be an object of named fields.")
    hints = typing.get_type_hints(cls, include_extras=True)
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        raise Rejected("bad_payload", f"Unknown field(s): {', '.join(unknown)}.")
    values: dict[str, Any] = {}
    for name, f in fields.items():
        if name not in raw:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise Rejected("bad_payload", f"The field '{name}' is required.")
            continue
        values[name] = _check(name, hints[name], raw[name])
    return cls(**values)


def _check(name: str, hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:  # a contract field type (showrunner.contract.fields)
        return _check_constrained(name, hint, value)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        inner = [o for o in options if o is not type(None)]
        return _check(name, inner[0], value)
    if origin is list:
        (item,) = typing.get_args(hint)
        if not isinstance(value, list):
            raise Rejected("bad_payload", f"The field '{name}' must be a list.")
        return [_check(f"{name}[{i}]", item, v) for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise Rejected("bad_payload", f"The field '{name}' must be an object.")
        return value
    if hint is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise Rejected("bad_payload", f"The field '{name}' must be a whole number.")
    if hint is str:
        if not isinstance(value, str):
            raise Rejected("bad_payload", f"The field '{name}' must be text.")
        if len(value) > 500:
            raise Rejected("bad_payload", f"The field '{name}' is too long (500 characters max).")
    if hint is bool and not isinstance(value, bool):
        raise Rejected("bad_payload", f"The field '{name}' must be true or false.")
    return value


def _check_constrained(name: str, hint: Any, value: Any) -> Any:
    try:
        return pydantic.TypeAdapter(hint).validate_python(value)
    except pydantic.ValidationError as exc:
        error = exc.errors()[0]
        reason = {"string_type": "must be text",
                  "string_too_long": "is too long ({max_length} characters max)",
                  }.get(error["type"], str(error["msg"]).removeprefix("Value error, "))
        raise Rejected("bad_payload", f"The field '{name}' "
                       f"{reason.format(**error.get('ctx', {}))}.") from exc
