"""A display's heartbeat as it would go to the controller, taken without a link."""

from __future__ import annotations

from typing import Any

from showrunner.engine.display import Display


def heartbeat_of(display: Display) -> dict[str, Any]:
    """What `display.heartbeat()` sends (its one `heartbeat` event's data)."""
    sent: list[tuple[str, dict[str, Any]]] = []

    class Link:
        def emit(self, event: str, data: dict[str, Any]) -> None:
            sent.append((event, data))

    display.link = Link()  # type: ignore[assignment]
    display.heartbeat()
    ((event, data),) = sent
    assert event == "heartbeat", event
    return data
