"""A scene's parameters checked against the catalogue: refused with sentences, or clamped.

`check_params` is the strict door (playlists, takeovers): every problem becomes one short
sentence a technician or an MC understands. `drawable` is the lenient one a screen uses on what
it was given (an old log, a replica on disk): a value out of range is clamped to the nearest
bound, unprintable characters are dropped and text is cut to length, anything else falls back
to the default, so a scene always has something it can draw.
"""

from __future__ import annotations

import math
import types
import typing
from collections.abc import Iterator, Mapping
from typing import Any

import annotated_types as at
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from showrunner.contract.fields import printable_char
from showrunner.contract.scenes import CATALOGUE, SceneParams
from showrunner.contract.words import shown, suggest

Problem = tuple[str, str]  # (parameter, sentence)


def check_params(scene: str, given: Mapping[str, Any]) -> tuple[dict[str, Any], list[Problem]]:
    """The given parameters as the scene takes them (only those given), and every problem."""
    model = CATALOGUE[scene]
    checked: dict[str, Any] = {}
    problems: list[Problem] = []
    for key, raw in given.items():
        if key not in model.model_fields:
            known = sorted(model.model_fields)
            problems.append((key, f"scene {scene!r} has no parameter {key!r}"
                                  f"{suggest(key, known)}; its parameters: {', '.join(known)}"))
            continue
        try:
            checked[key] = _one(model, key, raw)
        except ValidationError as exc:
            problems.append((key, _sentence(model, key, raw, exc)))
    return checked, problems


def drawable(scene: str, given: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Every parameter of the scene (defaults for those not given), each one safe to draw, and
    a note for each given value that was clamped, repaired or ignored."""
    model = CATALOGUE[scene]
    out = model().model_dump()
    notes: list[str] = []
    for key, raw in given.items():
        if key not in model.model_fields:
            notes.append(f"scene {scene} has no parameter {key!r} (known: "
                         f"{', '.join(sorted(model.model_fields))})")
            continue
        for candidate in (raw, *_repairs(model.model_fields[key], raw)):
            try:
                out[key] = _one(model, key, candidate)
            except ValidationError:
                continue
            if candidate is not raw:
                notes.append(f"scene {scene}: parameter {key}={shown(raw)} is drawn as "
                             f"{shown(out[key])}")
            break
        else:
            notes.append(f"scene {scene}: parameter {key}={shown(raw)} cannot be drawn; "
                         f"using {shown(out[key])}")
    return out, notes


def _one(model: type[SceneParams], key: str, raw: Any) -> Any:
    return getattr(model.model_validate({key: raw}), key)


# -- sentences -------------------------------------------------------------------------------
def _sentence(model: type[BaseModel], key: str, raw: Any, exc: ValidationError) -> str:
    what = f"parameter {key!r} of scene {getattr(model, 'scene', '')!r}"
    error = exc.errors()[0]
    if error["type"] == "value_error":  # a validator's own words: "contains an unprintable…"
        return f"{what} {str(error['msg']).removeprefix('Value error, ')}"
    return f"{what} must be {expectation(model.model_fields[key])}, not {shown(raw)}"


def expectation(field: FieldInfo) -> str:
    """What a field accepts, in words: "a whole number from 1 to 50, or null"."""
    kinds = _kinds(field.annotation)
    limits = _limits(field.annotation, field.metadata)
    choices = [c for kind in kinds if typing.get_origin(kind) is typing.Literal
               for c in typing.get_args(kind)]
    if choices:
        words = "one of: " + ", ".join(str(c) for c in choices)
    elif list in kinds:
        item = _limits(typing.get_args(field.annotation)[0], [])
        words = f"a list of at most {limits.get('max_length', '∞')} texts"
        if "max_length" in item:
            words += f" (each up to {item['max_length']} characters)"
    elif int in kinds:
        words = f"a whole number{_range(limits)}"
    elif float in kinds:
        words = f"a number{_range(limits)}"
    elif bool in kinds:
        words = "true or false"
    else:
        words = f"text of at most {limits.get('max_length', '∞')} characters"
    return words + (", or null" if type(None) in kinds else "")


def _range(limits: Mapping[str, float]) -> str:
    low, high = limits.get("ge"), limits.get("le")
    if low is None or high is None:
        return ""
    return f" from {_plain_number(low)} to {_plain_number(high)}"


def _plain_number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


# -- what a field is -------------------------------------------------------------------------
def _kinds(annotation: Any) -> set[Any]:
    """The plain types an annotation accepts (through Annotated and unions)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _kinds(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return set().union(*(_kinds(arg) for arg in typing.get_args(annotation)))
    if origin is list:
        return {list}
    return {annotation}


def _limits(annotation: Any, metadata: list[Any]) -> dict[str, Any]:
    """ge, le and max_length found in the field's metadata and its (nested) annotation."""
    found: dict[str, Any] = {}
    for item in _constraints(annotation, metadata):
        if isinstance(item, at.Ge):
            found["ge"] = item.ge
        elif isinstance(item, at.Le):
            found["le"] = item.le
        elif isinstance(item, at.MaxLen):
            found["max_length"] = item.max_length
    return found


def _constraints(annotation: Any, metadata: list[Any]) -> Iterator[Any]:
    for item in metadata:
        yield from _constraints(None, item.metadata) if isinstance(item, FieldInfo) else (item,)
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        base, *extra = typing.get_args(annotation)
        yield from _constraints(base, extra)
    elif origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            yield from _constraints(arg, [])


# -- repairs ---------------------------------------------------------------------------------
def _repairs(field: FieldInfo, raw: Any) -> Iterator[Any]:
    """Values close to `raw` that may fit the field, best first."""
    limits = _limits(field.annotation, field.metadata)
    if isinstance(raw, str):
        yield from _text_repairs(raw, limits.get("max_length"))
        yield from _number_repairs(_parsed(raw), limits)
    elif isinstance(raw, (int, float)) and not isinstance(raw, bool):
        yield from _number_repairs(raw, limits)
    elif isinstance(raw, list) and list in _kinds(field.annotation):
        item = _limits(typing.get_args(field.annotation)[0], [])
        kept = [next(_text_repairs(x, item.get("max_length"))) for x in raw
                if isinstance(x, str)]
        yield [x for x in kept if x][: limits.get("max_length")]


def _text_repairs(raw: str, max_length: int | None) -> Iterator[str]:
    kept = "".join(c for c in raw if printable_char(c, breaks=True))
    yield kept[:max_length]
    yield "".join(c if printable_char(c) else " " for c in kept)[:max_length]


def _parsed(raw: str) -> float | None:
    try:
        return float(raw)
    except ValueError:
        return None


def _number_repairs(raw: float | None, limits: Mapping[str, Any]) -> Iterator[Any]:
    if raw is None or (isinstance(raw, float) and math.isnan(raw)):
        return
    clamped = min(max(raw, limits.get("ge", -math.inf)), limits.get("le", math.inf))
    if isinstance(clamped, float):
        if math.isfinite(clamped):
            yield clamped
            yield round(clamped)
    else:
        yield clamped
