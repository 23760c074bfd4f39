"""What technicians read about the floor's screens: one report for the CLI's `GET /screens`
and the /screens page's socket, and playlist checks that change nothing."""

from __future__ import annotations

from typing import Any

from controller.realtime.hub import Hub
from controller.screens.views import OPS_VIEW
from showrunner.contract.fields import MAX_PLAYLIST_CHARS
from showrunner.contract.playlist.validate import PlaylistError, validate


async def screens_report(hub: Hub) -> dict[str, Any]:
    """Every enrolled screen with its status and its latest heartbeat (telemetry)."""
    summaries = hub.screens.view(OPS_VIEW)["screens"]
    reports = await hub.telemetry.reports([summary["screen"] for summary in summaries])
    rows = [{**summary, **reports[summary["screen"]]} for summary in summaries]
    return {"server_ms": hub.service.clock(), "screens": rows}


def check_playlist(data: Any) -> dict[str, Any]:
    """Validate {"file", "yaml"} as `playlists.assign` would, without assigning it: every
    problem with its file, line and column, or the playlist's name and scene count."""
    file = data.get("file") if isinstance(data, dict) else None
    text = data.get("yaml") if isinstance(data, dict) else None
    if not isinstance(file, str) or not file.strip() or not isinstance(text, str):
        return {"ok": False, "message": "Give the playlist's file name and its text."}
    if len(text) > MAX_PLAYLIST_CHARS:
        return {"ok": False, "message": "That playlist is too long: at most "
                                        f"{MAX_PLAYLIST_CHARS} characters."}
    try:
        playlist = validate(text, file.strip())
    except PlaylistError as exc:
        return {"ok": False, "message": "The playlist has errors; nothing was changed.",
                "problems": [{"file": p.file, "line": p.line, "column": p.column,
                              "message": p.message} for p in exc.problems]}
    return {"ok": True, "name": playlist["name"], "scenes": len(playlist["items"])}
