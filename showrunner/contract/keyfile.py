"""Secret keys for the command line: from a file only its owner can read, or the environment.

Never from argv: a process's command line is readable by every user of the machine
(`/proc/PID/cmdline`, `ps`); its environment and a mode-600 file are not.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class KeyFileError(ValueError):
    """Why no key could be read, as a sentence for the technician."""


def read_key(path: Path | None, env_name: str, what: str) -> str:
    """The key in `path` (owner-only permissions, surrounding whitespace ignored), else in the
    environment variable `env_name`. `what` names the key in the sentences."""
    if path is None:
        key = os.environ.get(env_name, "").strip()
        if not key:
            raise KeyFileError(f"Give {what} with --key-file PATH or in {env_name}.")
        return key
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise KeyFileError(f"Cannot read the key file {path}: {exc.strerror}.") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise KeyFileError(f"The key file {path} may be read or changed by other users "
                           f"(mode {stat.S_IMODE(mode):o}); run `chmod 600 {path}` first.")
    try:
        key = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise KeyFileError(f"Cannot read the key file {path}: {exc}.") from None
    if not key:
        raise KeyFileError(f"The key file {path} is empty.")
    return key
