"""JSON text as every door of the controller reads it: strictly, and never by recursion without
a bound.

The standard parser descends one call per level of nesting, so a small text of a thousand `[`
raises RecursionError (a 500, or a half-handled packet) rather than a refusal; it takes the
last of two values for one key; and it reads `NaN` and `Infinity`. Here a text is refused, with
a sentence its sender can act on, when it is nested deeper than `MAX_DEPTH` (counted before it
is parsed, so no parser, model or walk of ours meets a deeper value), names a key twice in one
object, holds a number JSON does not allow or an integer of more than `MAX_INT_DIGITS` digits,
or is not UTF-8 JSON at all.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

#: far above any body or message the controller takes (the API's are 3 levels deep, a console
#: command's at most 8), far below the interpreter's recursion limit
MAX_DEPTH = 32
MAX_INT_DIGITS = 100
SHOWN_KEY = 40  # characters of an offending key said back

# a string (closed, or running to the end of an unfinished text), or one bracket
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\Z)', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class JsonRefused(ValueError):
    """A text that is not taken: str() is the sentence saying why."""


class _Fault(Exception):
    """What a parser hook found wrong, as the end of a sentence ("holds NaN, ...")."""


def loads(raw: str | bytes, what: str = "The body") -> Any:
    """The value of a JSON text, or `JsonRefused` saying what is wrong with it, in a sentence
    about `what` ("The body", "The message")."""
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise JsonRefused(f"{what} is not UTF-8 text.") from None
    else:
        text = raw
    if deeper_than(text, MAX_DEPTH):
        raise JsonRefused(f"{what} is nested deeper than {MAX_DEPTH} levels of objects and "
                          "lists.")
    try:
        return json.loads(text, object_pairs_hook=_object, parse_constant=_no_constant,
                          parse_int=_whole)
    except _Fault as exc:
        raise JsonRefused(f"{what} {exc}") from None
    except json.JSONDecodeError as exc:
        raise JsonRefused(f"{what} is not valid JSON ({exc.msg} at line {exc.lineno}, column "
                          f"{exc.colno}).") from None
    except ValueError:
        raise JsonRefused(f"{what} is not valid JSON.") from None


def deeper_than(text: str, limit: int) -> bool:
    """Whether `text` opens more than `limit` objects and lists inside each other anywhere
    (outside its strings). For a text that is not JSON this may count more than a parser
    would reach before it stops, never less: a text it passes cannot take a parser deeper."""
    if text.count("[") + text.count("{") <= limit:
        return False  # nearly every text: no need to look closer
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > limit


def shown(key: str) -> str:
    """A key said back in a sentence: quoted, escaped, and cut short when long."""
    quoted = json.dumps(key[:SHOWN_KEY])
    return quoted if len(key) <= SHOWN_KEY else f"{quoted[:-1]}...\""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) == len(pairs):
        return found
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise _Fault(f"names the field {shown(key)} twice in one object; give each field "
                         "once.")
        seen.add(key)
    raise AssertionError("unreachable: dict() kept fewer keys, so one is repeated")


def _no_constant(name: str) -> Any:
    raise _Fault(f"holds {name}, which is not a number JSON allows (every number must be "
                 "finite).")


def _whole(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise _Fault(f"holds a whole number of more than {MAX_INT_DIGITS} digits.")
    return int(digits)
