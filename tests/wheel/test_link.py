"""The reader's queue while the controller is away (controller/wheel/link.py)."""

from __future__ import annotations

from controller.wheel.link import QUEUE_SIZE, ControllerLink, Outgoing


def test_the_newest_readings_wait_in_order_and_the_oldest_are_dropped() -> None:
    link = ControllerLink(("http://127.0.0.1:1",), "key")
    for game in range(QUEUE_SIZE + 5):
        link.submit(Outgoing(f"wheel:AR14:{game}:number", {"game": game}, f"*X;5;{game};1"))
    assert [o.command_id for o in link.queue] == [
        f"wheel:AR14:{game}:number" for game in range(5, QUEUE_SIZE + 5)]


def test_the_port_status_is_sent_as_the_interface_says() -> None:
    link = ControllerLink(("http://127.0.0.1:1",), "key")
    link.set_port(True, "port /dev/ttyUSB0 open")
    assert link.port_status == {"port": "open", "detail": "port /dev/ttyUSB0 open"}
    link.set_port(False, "x" * 500)
    assert link.port_status["port"] == "closed" and len(link.port_status["detail"]) == 200
