"""Joins the service to Socket.IO: run a command, then push the views it changed."""

from __future__ import annotations

from typing import Any

import socketio

from controller.auth import Principal
from controller.service import Service
from controller.show import View

AUDIENCES = ("/control", "/display", "/cue")
VIEWS_ROOM = "views"


class Hub:
    def __init__(self, service: Service, sio: socketio.AsyncServer) -> None:
        self.service = service
        self.sio = sio

    async def execute(self, envelope: Any, principal: Principal) -> dict[str, Any]:
        ack, views = self.service.execute(envelope, principal.name, principal.role)
        if views:
            await self.broadcast(views)
        return ack

    async def broadcast(self, views: list[View]) -> None:
        message = {"views": [v.message() for v in views]}
        for namespace in AUDIENCES:
            await self.sio.emit("views", message, room=VIEWS_ROOM, namespace=namespace)
