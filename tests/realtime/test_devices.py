"""ops:devices kept in memory (docs/wheel.md): every live device key listed, its state moving
with the reader's connection and port, and a view only when its document changes."""

from __future__ import annotations

from controller.access.keys import issue_key, revoke_key
from controller.application.features import build_features
from controller.application.service import Service
from controller.application.show import Show, View
from controller.realtime.devices import VIEW, Devices
from controller.store.target import LogAt, open_log
from showrunner.contract.views import view_model


class Clock:
    def __init__(self) -> None:
        self.now = 1_000

    def __call__(self) -> int:
        return self.now


def test_each_device_key_is_listed_and_follows_its_reader(log_at: LogAt) -> None:
    log = open_log(log_at)
    try:
        issue_key(log, "device", "AR14", 0)
        issue_key(log, "device", "bank-1", 0)
        clock = Clock()
        service = Service(log, Show(build_features()), clock)
        service.replay()
        sent: list[View] = []
        devices = Devices(service, sent.extend)

        def rows() -> dict[str, dict]:
            doc = service.show.views[VIEW].doc
            view_model(VIEW).model_validate(doc)
            return {d["name"]: d for d in doc["devices"]}

        devices.publish()
        assert {n: (r["kind"], r["state"], r["since_ms"]) for n, r in rows().items()} == {
            "AR14": ("wheel", "offline", 1_000), "bank-1": ("feed", "offline", 1_000)}
        clock.now = 2_000
        devices.connected("AR14", "sid-1")
        assert rows()["AR14"]["state"] == "port_closed"  # connected, its port not yet said
        clock.now = 3_000
        assert devices.status("AR14", {"port": "open", "detail": "/dev/ttyUSB0"}) == {"ok": True}
        assert (rows()["AR14"]["state"], rows()["AR14"]["since_ms"]) == ("reading", 3_000)
        clock.now = 8_000
        count = len(sent)
        devices.status("AR14", {"port": "open", "detail": "/dev/ttyUSB0"})  # every 5 s
        assert len(sent) == count and rows()["AR14"]["since_ms"] == 3_000  # nothing new
        assert devices.status("AR14", {"port": "ajar"})["error"]["code"] == "bad_payload"
        clock.now = 9_000
        devices.disconnected("AR14", "sid-1")
        assert (rows()["AR14"]["state"], rows()["AR14"]["since_ms"]) == ("offline", 9_000)
        revoke_key(log, 0, name="bank-1")
        devices.publish()
        assert set(rows()) == {"AR14"}  # a revoked key is not listed
        # not rebuilt from the log: whatever revision a page holds, its sync gets it again
        assert VIEW in {v.name for v in service.show.views_since({VIEW: 10**9}, operator=True)}
    finally:
        log.close()
