"""Promotion configs as files: the shipped defaults and the venue's own copies.

The shipped files in controller/config/ carry the rule texts' values. A venue edits its own copy
(in $SHOWRUNNER_CONFIG_DIR), never the code; a wrong file is refused at start with a sentence
naming the file, the key and its line. What the log recorded wins at replay (docs/config.md);
these files are read only at start-up, to give features their defaults and to record changes.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import ValidationError

from controller.domain.commands import dotted
from controller.domain.config import ConfigError, PromotionConfig

CONFIG_DIR = Path(__file__).resolve().parents[1] / "config"
CONFIG_DIR_ENV = "SHOWRUNNER_CONFIG_DIR"  # a venue's own files; missing ones fall back
C = TypeVar("C", bound=PromotionConfig)
#: yaml.safe_load's loader, on libyaml's parser where PyYAML was built with it: every start
#: reads the five promotions' files, and the pure-Python parser took 35 ms of it
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def config_path(promotion: str) -> Path:
    """`$SHOWRUNNER_CONFIG_DIR/<promotion>.yaml` when the venue has one, else the shipped file."""
    override = os.environ.get(CONFIG_DIR_ENV)
    if override and (Path(override) / f"{promotion}.yaml").is_file():
        return Path(override) / f"{promotion}.yaml"
    return CONFIG_DIR / f"{promotion}.yaml"


def load(promotion: str, model: type[C], path: Path | None = None) -> C:
    """The venue's file (see `config_path`), or `path`, as a checked `model`; `ConfigError`
    with a sentence naming the file, key and line when it is wrong."""
    path = path or config_path(promotion)
    try:
        text = path.read_text(encoding="utf-8")
        raw = yaml.load(text, Loader=SAFE_LOADER)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror}).") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark else ""
        raise ConfigError(f"{path}{where}: is not valid YAML.") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: must be a mapping of named settings.")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(f"{path}: {describe(exc, text)}") from None


@cache
def shipped(promotion: str, model: type[C]) -> C:
    """The package's default for `promotion`: what a log without config events ran under."""
    return load(promotion, model, CONFIG_DIR / f"{promotion}.yaml")


_WORDS = {
    "extra_forbidden": "is not a known setting",
    "missing": "is required",
    "int_type": "must be a whole number",
    "string_type": "must be text",
    "bool_type": "must be true or false",
    "list_type": "must be a list",
    "tuple_type": "must be a list",
    "dict_type": "must be a mapping",
    "model_type": "must be a mapping",
}


def describe(exc: ValidationError, text: str = "") -> str:
    """The first error as a sentence: "key 'sessions.sunday[1]' (line 5): must be ..."."""
    error = exc.errors(include_url=False)[0]
    loc = tuple(error["loc"])
    message = _WORDS.get(error["type"]) or error["msg"].removeprefix("Value error, ")
    if loc and loc[-1] == "[key]":  # a mapping's key, not its value, is wrong
        loc, message = loc[:-1], f"is not a known name ({message.lower()})"
    if error["type"].startswith(("greater_than", "less_than")):
        message = f"{message}, not {error['input']!r}"
    if not loc:
        return f"{message}."
    line = _line_of(text, loc)
    where = f" (line {line})" if line else ""
    return f"key '{dotted(loc)}'{where}: {message}."


def _line_of(text: str, loc: tuple[Any, ...]) -> int | None:
    """The line of the deepest node of `loc` found in the YAML text (cheap: one compose)."""
    try:
        node = yaml.compose(text)
    except yaml.YAMLError:
        return None
    line = None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            match = next(((k, v) for k, v in node.value if k.value == str(part)), None)
            if match is None:
                break
            line, node = match[0].start_mark.line + 1, match[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) \
                and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line
