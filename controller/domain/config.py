"""Promotion parameters (dates, prices, limits, splits) from one YAML file per promotion.

The shipped files in controller/config/ carry the rule texts' values. A venue edits the YAML,
never the code; a wrong file is refused at start with its name and the field at fault.
"""

from __future__ import annotations

import dataclasses
import os
import types
import typing
from pathlib import Path
from typing import Any, TypeVar

import yaml

T = TypeVar("T")

CONFIG_DIR = Path(__file__).resolve().parents[1] / "config"
CONFIG_DIR_ENV = "SHOWRUNNER_CONFIG_DIR"  # a venue's own files; missing ones fall back


class ConfigError(ValueError):
    """A promotion file that does not describe a valid promotion."""


def config_path(promotion: str) -> Path:
    """`$SHOWRUNNER_CONFIG_DIR/<promotion>.yaml` when the venue has one, else the shipped file."""
    override = os.environ.get(CONFIG_DIR_ENV)
    if override and (Path(override) / f"{promotion}.yaml").is_file():
        return Path(override) / f"{promotion}.yaml"
    return CONFIG_DIR / f"{promotion}.yaml"


def load_config(promotion: str, cls: type[T], directory: Path | None = None) -> T:
    """Read `<directory>/<promotion>.yaml` into the dataclass `cls`, checking every field.

    Without a directory: $SHOWRUNNER_CONFIG_DIR if it holds the file, else the shipped one.
    """
    path = config_path(promotion) if directory is None else directory / f"{promotion}.yaml"
    with path.open(encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    try:
        return build(cls, raw, "")
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def build(cls: type[T], raw: Any, where: str) -> T:
    """A dataclass from plain YAML values; nested dataclasses and lists are followed."""
    if not isinstance(raw, dict):
        raise ConfigError(f"{where or 'the file'} must be a mapping of named fields")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        raise ConfigError(f"unknown field(s) {', '.join(where + u for u in unknown)}")
    values = {}
    for name, f in fields.items():
        if name not in raw:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ConfigError(f"the field '{where}{name}' is required")
            continue
        values[name] = _value(hints[name], raw[name], f"{where}{name}")
    return cls(**values)


def _value(hint: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        (inner,) = [a for a in typing.get_args(hint) if a is not type(None)]
        return _value(inner, value, where)
    if origin in (list, tuple):
        item = typing.get_args(hint)[0]
        if not isinstance(value, list):
            raise ConfigError(f"the field '{where}' must be a list")
        items = [_value(item, v, f"{where}[{i}]") for i, v in enumerate(value)]
        return tuple(items) if origin is tuple else items
    if dataclasses.is_dataclass(hint):
        return build(hint, value, f"{where}.")  # type: ignore[arg-type]
    if hint is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ConfigError(f"the field '{where}' must be a whole number")
    if hint is str and not isinstance(value, str):
        raise ConfigError(f"the field '{where}' must be text (quote dates: \"2024-01-18\")")
    if hint is bool and not isinstance(value, bool):
        raise ConfigError(f"the field '{where}' must be true or false")
    return value
