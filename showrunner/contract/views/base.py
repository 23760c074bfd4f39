"""What every view model shares: the base class, the bounded numbers and texts of views, and
the check that keeps pass-through data (playlists, scene parameters) plain finite JSON."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, StrictStr

from showrunner.contract.fields import PRINTABLE

MAX_ROWS = 1_000
"""The most rows, seats or entries any list in a view holds."""
MAX_JSON_DEPTH = 12

Place: TypeAlias = Annotated[StrictInt, Field(ge=1, le=1_000_000)]
Movement: TypeAlias = Annotated[StrictInt, Field(ge=-1_000_000, le=1_000_000)]
Pocket: TypeAlias = Annotated[StrictInt, Field(ge=0, le=36)]
PocketColour: TypeAlias = Literal["red", "black", "green"]
MaskedCard: TypeAlias = Annotated[StrictStr, Field(pattern=r"^\u2022{4} [0-9A-Za-z]{1,4}$")]
CueText: TypeAlias = Annotated[StrictStr, Field(max_length=5_000), PRINTABLE]
"""What an announcer reads out: a seat draw reads every seat of a stage."""
Digest: TypeAlias = Annotated[StrictStr, Field(pattern=r"^[0-9a-f]{64}$")]


def json_safe(value: Any, depth: int = 0) -> Any:
    """Plain JSON values only, finite numbers, bounded depth: playlists and scene parameters
    pass through screen views as data."""
    if depth > MAX_JSON_DEPTH:
        raise ValueError("is nested too deeply")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("holds a number that is not finite")
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError("has a key that is not text")
            json_safe(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            json_safe(item, depth + 1)
    elif value is not None and not isinstance(value, str | int | float | bool):
        raise ValueError(f"holds a {type(value).__name__}, which is not JSON")
    return value


JsonData: TypeAlias = Annotated[Any, AfterValidator(json_safe)]


class ViewModel(BaseModel):
    """Base: strict types, unknown fields refused, documents never changed by checking."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
