"""Technician commands against a running controller: a /control client for the command line.

The key comes from --key-file (owner-only) or the SHOWRUNNER_KEY environment variable (a
technician's key from `showrunner-controller key issue --role technician`), never from argv.
"""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import aiohttp
import socketio

from controller.domain.keys import key_hash, new_key
from controller.http.middleware import KEY_HEADER


async def _send(url: str, key: str, type_: str, payload: dict[str, Any]) -> dict[str, Any]:
    sio = socketio.AsyncClient(reconnection=False)
    await sio.connect(url, namespaces=["/control"], auth={"key": key},
                      transports=["websocket"], wait_timeout=10)
    try:
        envelope = {"type": type_, "payload": payload, "command_id": uuid.uuid4().hex}
        return await sio.call("command", envelope, namespace="/control", timeout=10)
    finally:
        await sio.disconnect()


def send(url: str, key: str, type_: str, payload: dict[str, Any]) -> dict[str, Any]:
    """Send one command; the ack."""
    return asyncio.run(_send(url, key, type_, payload))


def enrol(url: str, key: str, screen: str, group: str, name: str = "") -> tuple[str, dict]:
    """Make a new screen key here, enrol its hash; (the key, to show once; the ack)."""
    screen_key, payload = enrol_payload(screen, group, name)
    return screen_key, send(url, key, "screens.enrol", payload)


def enrol_payload(screen: str, group: str, name: str = "") -> tuple[str, dict[str, Any]]:
    """A new key for `screen` and the `screens.enrol` payload carrying only its hash."""
    screen_key = new_key()
    return screen_key, {"screen": screen, "group": group, "name": name,
                        "key_hash": key_hash(screen_key)}


def assign_payload(path: Path, screens: list[str], groups: list[str]) -> dict[str, Any]:
    return {"file": path.name, "yaml": path.read_text(encoding="utf-8"),
            "screens": screens, "groups": groups}


async def _get(url: str, key: str) -> dict[str, Any]:
    async with aiohttp.ClientSession() as session, session.get(
            f"{url}/screens", headers={KEY_HEADER: key}) as response:
        if response.status != 200:
            raise RuntimeError(await response.text())
        return await response.json()


def screens(url: str, key: str) -> dict[str, Any]:
    return asyncio.run(_get(url, key))


async def _add_media(url: str, key: str, path: Path, name: str | None) -> tuple[int, dict]:
    form = aiohttp.FormData()
    if name:
        form.add_field("name", name)
    with path.open("rb") as file:  # streamed from the file, never read whole
        form.add_field("file", file, filename=path.name,
                       content_type="application/octet-stream")
        async with aiohttp.ClientSession() as session, session.post(
                f"{url}/media", data=form, headers={KEY_HEADER: key}) as response:
            return response.status, await response.json(content_type=None)


def add_media(url: str, key: str, path: Path, name: str | None = None) -> tuple[int, dict]:
    """Upload a picture or video (`POST /media`): (HTTP status, the answer)."""
    return asyncio.run(_add_media(url, key, path, name))


def format_screens(report: dict[str, Any]) -> str:
    """A table a technician reads at a glance."""
    header = ("SCREEN", "GROUP", "STATUS", "ONLINE", "SCENE", "FPS", "DROPPED", "PLAYLISTS")
    rows = [header]
    for s in report["screens"]:
        rows.append((s["screen"], s["group"], s["status"], "yes" if s["online"] else "no",
                     f"{s['takeover']} (takeover)" if s.get("takeover") else s.get("scene", "-"),
                     str(s.get("fps", "-")), str(s.get("dropped_frames", "-")),
                     ", ".join(s["playlists"]) or "-"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                     for r in rows)
