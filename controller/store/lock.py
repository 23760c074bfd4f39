"""One writer per log: `serve` holds an exclusive lock on `<db>.lock` for as long as it runs.

The lock is `flock`, so the kernel releases it when the process ends, however it ends (a
SIGKILL leaves no stale lock). The file holds the holder's PID so that a second `serve` can say
who has the log. The file itself is left in place: deleting it could let two processes lock
two different files of the same name.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from controller.store.sqlite import StoreError

WAIT_S = 0.1  # how often a standby tries the lock: its takeover starts at most this late
_held: list[int] = []  # the lock file's descriptor while this process holds the lock


def _close_in_child() -> None:
    """A forked child (the snapshot writer) must not hold the lock: it shares the lock file's
    open description, so the lock would outlive a killed controller until the child ends."""
    for fd in _held:
        os.close(fd)
    _held.clear()


os.register_at_fork(after_in_child=_close_in_child)


def lock_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".lock")


@contextmanager
def writer_lock(db_path: Path, waiting: Callable[[str], None] | None = None,
                every_s: float = WAIT_S) -> Iterator[None]:
    """Hold the log's writer lock, or raise StoreError naming the process that holds it.
    `waiting`: wait for the lock instead (a standby), calling it with the holder's name every
    `every_s` until the lock is free (the kernel frees it the moment its holder ends)."""
    path = lock_path(db_path)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise StoreError(f"{path}: cannot create the log's lock file ({exc.strerror}).") from exc
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if waiting is None:
                    raise StoreError(
                        f"{db_path} is already in use by another controller ({_holder(fd)}); "
                        "only one may write a show's log. Stop that one first, or use another "
                        "--db.") from None
            waiting(_holder(fd))
            time.sleep(every_s)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        _held.append(fd)
        yield
    finally:
        if fd in _held:
            _held.remove(fd)
        os.close(fd)  # releases the lock


def _holder(fd: int) -> str:
    pid = os.pread(fd, 32, 0).decode(errors="replace").strip()
    return f"PID {pid}" if pid.isdigit() else "PID unknown: it is still starting"
