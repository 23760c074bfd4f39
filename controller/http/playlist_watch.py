"""Development: reload changed playlist files onto the screens that already play them.

Polls the directory's *.yaml files; when one changes, it is assigned again to every screen and
group that plays it, through the ordinary `playlists.assign` command (validated, logged, by
actor "playlist-watcher"). A broken file is refused like any other: the problems are printed
and the screens keep what they had.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import uuid
from pathlib import Path

from controller.access.keys import Principal
from controller.application.background import forever
from controller.http.client import assign_payload
from controller.realtime.hub import Hub

log = logging.getLogger(__name__)
POLL_S = 1.0
WATCHER = Principal("technician", "playlist-watcher", "controller:playlist-watcher")


def _digests(directory: Path) -> dict[str, str]:
    out = {}
    for path in sorted(directory.glob("*.yaml")):
        try:
            out[path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            continue
    return out


async def watch_playlists(hub: Hub, directory: Path) -> None:
    seen = _digests(directory)

    async def turn() -> None:
        nonlocal seen
        now = _digests(directory)
        for name, digest in now.items():
            if seen.get(name) != digest:
                await reload(hub, directory / name)
        seen = now

    await asyncio.sleep(POLL_S)
    await forever("The playlists' watch", turn, log, every_s=POLL_S, retry_s=POLL_S)


async def reload(hub: Hub, path: Path) -> None:
    targets = hub.screens.targets_of_file(path.name)
    if not targets:
        return
    screens = [t.removeprefix("screen:") for t in targets if t.startswith("screen:")]
    groups = [t.removeprefix("group:") for t in targets if t.startswith("group:")]
    envelope = {"type": "playlists.assign", "command_id": uuid.uuid4().hex,
                "payload": assign_payload(path, screens, groups)}
    ack = await hub.execute(envelope, WATCHER)
    if ack["ok"]:
        print(f"reloaded {path.name} onto {', '.join(targets)}", flush=True)
    else:
        print(f"not reloaded: {ack['error']['message']}", flush=True)
