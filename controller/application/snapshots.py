"""Snapshots of the folded state: what start-up loads instead of replaying a whole season.

A snapshot is the pickled features (every promotion's state, the screens', keys', people's)
and the revision of every view they publish, at one sequence of the log. It is only ever a
shortcut to what replaying the log up to that sequence gives, so:

- its `FORMAT` is a digest of the code that folds events into state (every module of the
  controller and of the contract it shares with the screens): a snapshot written by any other
  release, or any other build of this one, is never loaded; the first start after an upgrade
  replays the log in full and writes a new one;
- start-up loads the newest snapshot whose format is this code's, whose chain hash is the log's
  at its sequence and whose bytes are whole, then replays only the events after it; anything
  else is logged and the log is replayed from its first event (`Service.replay`);
- `audit verify` replays from the first event and compares its state with every snapshot's at
  that sequence (`fingerprint`).

Cadence: every `EVERY_EVENTS` events or `EVERY_S` seconds with new events, pickled by a forked
child (the loop never waits for the pickling of a million entries; the child sees the state
as it was at the fork) and kept in the log by the fresh process it then becomes; and at a
clean shutdown, in-process.
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import os
import pickle
import signal
import sys
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import controller
import showrunner.contract
from controller.application.heap import collector_off
from controller.application.show import Show
from controller.domain.feature import Feature
from controller.store import keep_snapshot
from controller.store import snapshots as table
from controller.store.log import StoredLog

logger = logging.getLogger(__name__)

EVERY_EVENTS = 10_000
EVERY_S = 300.0
CHILD_LIMIT_S = 300.0  # a child still writing after this long is stopped (and logged)


def _code_format() -> str:
    """The digest of every source file of the controller and the shared contract."""
    digest = hashlib.sha256(b"showrunner snapshot 1\n")
    for package in (controller, showrunner.contract):
        root = Path(str(package.__file__)).parent
        for path in sorted(root.rglob("*.py")):
            digest.update(str(path.relative_to(root.parent)).encode() + b"\n")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


FORMAT = _code_format()


@dataclass(frozen=True)
class Restored:
    """A snapshot loaded: the features' state and its views (`Show.folded_views`), at `seq`."""

    seq: int
    features: list[Feature]
    views: dict[str, tuple[int, int]]


def capture(show: Show) -> bytes:
    """The features and the views folded from the log (not the live ones)."""
    return pickle.dumps((show.features, show.folded_views()), protocol=pickle.HIGHEST_PROTOCOL)


def restore(blob: bytes) -> tuple[list[Feature], dict[str, tuple[int, int]]]:
    """The snapshot's features and views (the collector off: see `collector_off`)."""
    with collector_off():
        features, views = pickle.loads(blob)
    return features, views


def start_point(log: StoredLog) -> int:
    """The sequence of the newest snapshot of this code's format that the chain holds (0 for
    none): where a start will fold from, and so follow the chain from."""
    return next((row.seq for row in log.snapshots()
                 if row.format == FORMAT and log.hash_at(row.seq) == row.hash), 0)


def load(log: StoredLog, row: table.Snapshot) -> Restored | str:
    """The snapshot of `row`, or why it may not be started from: written by another build, not
    held by the chain, damaged, or unreadable."""
    if row.format != FORMAT:
        return f"written by another build (format {row.format}, this one {FORMAT})"
    if log.hash_at(row.seq) != row.hash:
        return "the log does not hold it (its event's chain hash differs or is gone)"
    blob = log.snapshot_blob(row)
    if blob is None:
        return "damaged (its bytes do not hash to its SHA-256)"
    try:
        features, views = restore(blob)
    except Exception as exc:  # a blob that hashes right but will not load
        return f"unreadable ({exc.__class__.__name__}: {exc})"
    return Restored(row.seq, features, views)


def newest(log: StoredLog) -> Restored | None:
    """The newest snapshot this code may start from, or None (each one passed over is logged
    with the reason)."""
    for row in log.snapshots():
        loaded = load(log, row)
        if isinstance(loaded, Restored):
            return loaded
        logger.warning("snapshot at event %d not used: %s", row.seq, loaded)
    return None


def fingerprint(features: list[Feature]) -> str:
    """A digest of the features' state that equal states share however they were reached
    (dicts and sets compared by content, not order): audit verify and the tests compare a
    snapshot's state with a replay's by it."""
    return hashlib.sha256(json.dumps(_canonical(features, {}), separators=(",", ":"),
                                     sort_keys=True).encode()).hexdigest()


def _canonical(obj: Any, seen: dict[int, tuple[int, Any]]) -> Any:
    """`obj` as JSON data: containers and arrays by content (sorted), objects by class and
    reduced state; an object met again (a feature another one follows) by the number of its
    first visit. `seen` keeps every object it numbers alive, so the id of a state made for
    the walk (a `__getstate__`'s) is never another object's later in it."""
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, bytes):
        return ["bytes", obj.hex()]
    if isinstance(obj, array):
        return ["array", obj.typecode, obj.tobytes().hex()]
    if isinstance(obj, (list, tuple)):
        return [type(obj).__name__, [_canonical(x, seen) for x in obj]]
    if isinstance(obj, dict):
        keys = {_key(k): k for k in obj}
        return ["dict", [(k, _canonical(obj[keys[k]], seen)) for k in sorted(keys)]]
    if isinstance(obj, (set, frozenset)):
        return ["set", sorted(_key(x) for x in obj)]
    if isinstance(obj, type):
        return ["class", f"{obj.__module__}.{obj.__qualname__}"]
    if id(obj) in seen:
        return ["seen", seen[id(obj)][0]]
    seen[id(obj)] = (len(seen), obj)
    _, args, *rest = obj.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    parts = [args[1:] if args and isinstance(args[0], type) else args]  # not the class again
    parts += [list(part) if part is not None and not isinstance(part, dict) else part
              for part in rest[:3]]  # state, list items, dict items
    cls = type(obj)
    return [f"{cls.__module__}.{cls.__qualname__}", [_canonical(p, seen) for p in parts]]


def _key(value: Any) -> str:
    """A dict key or set member as a sortable string (keys are values: no shared objects)."""
    if isinstance(value, str):
        return "s" + value
    if isinstance(value, int) and not isinstance(value, bool):
        return f"i{value}"
    return "j" + json.dumps(_canonical(value, {}), separators=(",", ":"), sort_keys=True)


def _write_in_child(path: Path, address: str, seq: int, hash_: str, show: Show) -> int:
    """The forked child's life: pickle the state as it was at the fork into a file beside the
    log (named after `path`), then become `python -m controller.store.keep_snapshot`, which
    keeps it in the log at `address` (a fresh process: a connection must not be used across a
    fork, and the exec closes every file of the controller's). The single-writer lock is
    closed in the child at the fork (controller/store/lock.py): a controller killed while the
    child pickles frees the log at once. It dies at a stop signal as the process group gets it
    and runs no finalizer of the parent's objects (collector off)."""
    gc.disable()
    for stop in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop, signal.SIG_DFL)
    file = path.with_name(f"{path.name}.snapshot-{seq}")
    try:
        file.write_bytes(capture(show))
        os.execv(sys.executable, [sys.executable, "-m", keep_snapshot.__name__, address,
                                  str(seq), hash_, FORMAT, str(time.time_ns() // 10**6),
                                  str(file)])
    except BaseException:
        logger.exception("snapshot at event %d could not be written", seq)
        file.unlink(missing_ok=True)
    return 1


class Snapshots:
    """Writes the service's state as snapshots at the cadence above."""

    def __init__(self, log: StoredLog, show: Callable[[], Show],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.log = log
        self._show = show
        self._clock = clock
        self._last_seq = start_point(log)
        self._last_at = clock()
        self._child: tuple[int, float] | None = None  # (pid, started)
        for stale in log.path.parent.glob(f"{log.path.name}.snapshot-*"):
            stale.unlink(missing_ok=True)  # a child's file, cut off by a crash before it was kept

    def maybe(self) -> None:
        """Start a child writing a snapshot if the cadence says so and none is being written."""
        self._reap()
        new = self.log.last_seq - self._last_seq
        if self._child is not None or new <= 0:
            return
        if new >= EVERY_EVENTS or self._clock() - self._last_at >= EVERY_S:
            self._fork()

    def _fork(self) -> None:
        seq, hash_ = self.log.last_seq, self.log.last_hash
        show = self._show()
        pid = os.fork()
        if pid == 0:  # the child: the state as it was at the fork; never returns
            os._exit(_write_in_child(self.log.path, self.log.address, seq, hash_, show))
        self._child = (pid, self._clock())
        self._last_seq, self._last_at = seq, self._clock()

    def _reap(self) -> None:
        if self._child is None:
            return
        pid, started = self._child
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == 0:
            if self._clock() - started > CHILD_LIMIT_S:
                logger.error("snapshot writer %d still running after %.0f s: stopped", pid,
                             CHILD_LIMIT_S)
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                self._child = None
            return
        self._child = None
        if os.waitstatus_to_exitcode(status) != 0:
            logger.error("snapshot writer %d failed (exit %s): the next one is tried at the "
                         "next cadence", pid, os.waitstatus_to_exitcode(status))

    def close(self) -> None:
        """At a clean shutdown: wait for a child, then write the state as it ends."""
        if self._child is not None:
            os.waitpid(self._child[0], 0)
            self._child = None
        if self.log.last_seq > start_point(self.log):
            self.log.put_snapshot(self.log.last_seq, self.log.last_hash, FORMAT,
                                  time.time_ns() // 10**6, capture(self._show()))

