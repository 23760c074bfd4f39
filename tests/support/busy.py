"""A service over a real log (either store) with a show under way: members registered, entries
seated and scored in each tournament, a Super 9 ticket sold, screens enrolled. Commands sent to
it get past their first checks, so a test of what a command may change reaches the rules."""

from __future__ import annotations

import hashlib
import pickle
from typing import Any

from controller.access.keys import Principal
from controller.application.features import build_features
from controller.application.service import Service
from controller.application.show import Show
from controller.store.target import LogAt, open_log
from tests.promotions.super9_floor import WEDNESDAY, ms

ROLE_OF = {"screens": "technician", "playlists": "technician", "cue": "announcer"}

SETUP: list[tuple[str, dict[str, Any]]] = [
    ("register_member", {"card": "1000001", "display_name": "Thandi Mokoena"}),
    ("register_member", {"card": "1000002", "display_name": "Sipho Dlamini"}),
    ("register_member", {"card": "1000003", "display_name": "Lerato Khumalo",
                         "rewards_member": False}),
    ("slots.enter", {"card": "1000001"}),
    ("slots.enter", {"card": "1000002"}),
    ("slots.record_score", {"entry": "S1", "score": 1200}),
    ("roulette.enter", {"card": "1000001"}),
    ("poker.enter", {"card": "1000002"}),
    ("super9.sell_ticket", {"ticket": "0421", "card": "1000001"}),
    ("screens.enrol", {"screen": "lobby-1", "group": "lobby",
                       "key_hash": hashlib.sha256(b"lobby-1").hexdigest()}),
    ("screens.authorise", {"screen": "lobby-1"}),
]


#: commands sent at another venue time: each tournament's buy-in hours (roulette rules 3-4,
#: poker Qualifying Heats); the clock then returns to the Super 9 Wednesday
AT = {"roulette.enter": ms("2024-07-15 14:00"), "poker.enter": ms("2026-07-03 14:00")}


def role_for(command_type: str) -> str:
    return ROLE_OF.get(command_type.partition(".")[0], "operator")


class Busy:
    """The service, the commands it answered, and fingerprints of what a refusal must keep."""

    def __init__(self, path: LogAt) -> None:
        self.now = ms(f"{WEDNESDAY} 10:00")
        self.log = open_log(path)
        self.service = Service(self.log, Show(build_features()), self.tick)
        self.service.replay()
        self.sent = 0
        for command_type, payload in SETUP:
            resume = self.now
            self.now = AT.get(command_type, resume)
            ack, _ = self.send(command_type, payload)
            assert ack["ok"], (command_type, ack)
            if command_type in AT:
                self.now = resume

    def tick(self) -> int:
        self.now += 1000
        return self.now

    def send(self, command_type: str, payload: Any,
             role: str | None = None) -> tuple[dict[str, Any], list[Any]]:
        self.sent += 1
        envelope = {"type": command_type, "payload": payload, "command_id": f"c{self.sent}"}
        return self.execute(envelope, role or role_for(command_type))

    def execute(self, envelope: Any, role: str) -> tuple[dict[str, Any], list[Any]]:
        ack, views, _ = self.service.execute(envelope,
                                             Principal(role, f"{role}-1", f"key:{role}-1"))
        return ack, views

    def fingerprint(self) -> tuple[Any, ...]:
        """The log's length and last hash, every view as published and every feature's state."""
        show = self.service.show
        views = {name: view.message() for name, view in show.views.items()}
        rendered = {name: f.view(name) for f in show.features for name in f.view_names()}
        return (self.log.last_seq, self.log.last_hash, self._rows(), views, rendered,
                pickle.dumps(show.features))

    def _rows(self) -> int:
        return self.log._db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
