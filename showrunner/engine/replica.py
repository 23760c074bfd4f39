"""The views a screen holds, and their last-known copy on disk.

A screen that starts while the controller is down shows what it saved; a corrupt file is set
aside with a warning rather than stopping the screen. The id of the log the views came from is
kept with them, so a screen meeting another log (a restored backup) knows to drop them.
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path
from typing import Any

from showrunner.contract.delta import patch

log = logging.getLogger(__name__)


class Replica:
    def __init__(self) -> None:
        self.views: dict[str, dict[str, Any]] = {}
        self.revisions: dict[str, int] = {}
        self.saved_at_ms: int | None = None
        self.log_id: str | None = None

    def apply(self, name: str, revision: int, doc: dict[str, Any]) -> bool:
        """Take a view if it is newer than the one held; True if it changed."""
        if revision < self.revisions.get(name, -1):
            return False
        if self.revisions.get(name) == revision and self.views.get(name) == doc:
            return False
        self.views[name] = doc
        self.revisions[name] = revision
        return True

    def patch(self, name: str, revision: int, base: int, delta: dict[str, Any]) -> bool:
        """Apply a delta from revision `base`; False if the view held is not that revision
        or the delta does not fit it (the view must then be fetched whole)."""
        if self.revisions.get(name) != base or name not in self.views:
            return False
        try:
            doc = patch(self.views[name], delta)
        except ValueError as exc:
            log.warning("view %s: %s", name, exc)
            return False
        self.views[name] = doc
        self.revisions[name] = revision
        return True

    def clear(self) -> None:
        """Forget every view: they belong to a log the controller no longer serves."""
        self.views.clear()
        self.revisions.clear()

    def to_json(self) -> dict[str, Any]:
        return {
            "saved_at_ms": time.time_ns() // 1_000_000,
            "log_id": self.log_id,
            "views": {n: {"revision": self.revisions[n], "doc": d} for n, d in self.views.items()},
        }

    def save(self, path: Path) -> None:
        """Write atomically: a crash mid-write leaves the previous file intact."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), ensure_ascii=False))
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path) -> Replica:
        replica = cls()
        if not path.exists():
            return replica
        try:
            data = json.loads(path.read_text())
            views = data["views"]
            for name, item in views.items():
                replica.apply(name, int(item["revision"]), dict(item["doc"]))
            replica.saved_at_ms = data.get("saved_at_ms")
            log_id = data.get("log_id")
            replica.log_id = log_id if isinstance(log_id, str) else None
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            aside = path.with_name(f"{path.name}.corrupt-{int(time.time())}")
            os.replace(path, aside)
            log.warning("saved state %s is unreadable (%s); set aside as %s", path, exc, aside)
            return cls()
        return replica

    @classmethod
    def from_state_file(cls, path: Path) -> Replica:
        """Load a state file for `render`: the saved format, or a plain {view: doc} map."""
        data = json.loads(Path(path).read_text())
        if isinstance(data.get("views"), dict):
            return cls.load(path)
        replica = cls()
        for name, doc in data.items():
            replica.apply(name, 0, doc)
        return replica
