"""The service over a real SQLite log: replay rebuilds views, the clock emits due events."""

from __future__ import annotations

from dataclasses import dataclass

from controller.domain.events import DomainEvent
from controller.domain.feature import Feature
from controller.features import build_features
from controller.service import Service
from controller.show import Show
from controller.store.sqlite import EventLog


@dataclass(frozen=True)
class AlarmRang(DomainEvent):
    at_ms: int


class Alarm(Feature):
    """Rings once at 5 000 ms: the shape of a reveal or an expiry."""

    name = "alarm"

    def __init__(self) -> None:
        self.rang = False

    def events(self):
        return (AlarmRang,)

    def due(self, now_ms: int) -> list[DomainEvent]:
        return [AlarmRang(now_ms)] if now_ms >= 5000 and not self.rang else []

    def apply(self, event):
        self.rang = True
        return ("alarm",)

    def view_names(self):
        return ("alarm",)

    def view(self, name):
        return {"rang": self.rang}


def test_due_events_are_logged_once_and_published(tmp_path):
    now = [1000]
    log = EventLog.open(tmp_path / "s.db")
    service = Service(log, Show([Alarm()]), lambda: now[0])
    service.replay()
    assert service.tick() == []
    now[0] = 5001
    (view,) = service.tick()
    assert view.doc == {"rang": True} and view.revision == 1
    assert service.tick() == []
    assert [(e.type, e.actor) for e in log.read()] == [("AlarmRang", "controller")]


def test_replay_rebuilds_the_same_views(tmp_path):
    log = EventLog.open(tmp_path / "s.db")
    live = Service(log, Show(build_features()))
    live.replay()
    for type_, payload in [
        ("register_member", {"card": "1234567", "display_name": "Thandi Mokoena"}),
        ("slots.enter", {"card": "1234567"}),
        ("slots.record_score", {"entry": "S1", "score": 50}),
    ]:
        ack, _ = live.execute({"type": type_, "payload": payload, "command_id": type_},
                              "mc", "operator")
        assert ack["ok"], ack
    restarted = Service(log, Show(build_features()))
    assert restarted.replay() == 3
    assert restarted.show.views == live.show.views
