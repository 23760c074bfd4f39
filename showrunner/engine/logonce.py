"""Log a problem once per key, so a bad view drawn 60 times a second makes one log line."""

from __future__ import annotations

import logging

_seen: set[tuple[str, str]] = set()


def warn_once(logger: logging.Logger, key: str, message: str, *args: object) -> bool:
    """Warn the first time `key` is seen for this logger; returns True when it logged."""
    marker = (logger.name, key)
    if marker in _seen:
        return False
    _seen.add(marker)
    logger.warning(message, *args)
    return True


def forget() -> None:
    """Clear what was logged (tests use it to observe the next warning)."""
    _seen.clear()
