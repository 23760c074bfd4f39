"""Joins the service to Socket.IO: run a command, then push the views it changed."""

from __future__ import annotations

import asyncio
from typing import Any

import socketio

from controller.auth import Principal
from controller.service import Service
from controller.show import View, is_public

OPERATOR_AUDIENCE = "/control"
PUBLIC_AUDIENCES = ("/display", "/cue")
VIEWS_ROOM = "views"


TICK_S = 0.05


class Hub:
    def __init__(self, service: Service, sio: socketio.AsyncServer) -> None:
        self.service = service
        self.sio = sio

    async def execute(self, envelope: Any, principal: Principal) -> dict[str, Any]:
        ack, views = self.service.execute(envelope, principal.name, principal.role)
        if views:
            await self.broadcast(views)
        return ack

    async def run_clock(self) -> None:
        """Emit time-driven events (reveals, expiries) as they fall due."""
        while True:
            views = self.service.tick()
            if views:
                await self.broadcast(views)
            await asyncio.sleep(TICK_S)

    async def broadcast(self, views: list[View]) -> None:
        """Operators get every changed view; screens and cues only the public ones."""
        everything = [v.message() for v in views]
        await self.sio.emit("views", {"views": everything}, room=VIEWS_ROOM,
                            namespace=OPERATOR_AUDIENCE)
        public = [m for m in everything if is_public(m["name"])]
        if public:
            for namespace in PUBLIC_AUDIENCES:
                await self.sio.emit("views", {"views": public}, room=VIEWS_ROOM,
                                    namespace=namespace)
