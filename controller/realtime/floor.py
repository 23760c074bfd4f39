"""What technicians read about the floor's screens: one report for the CLI's `GET /screens`
and the /screens page's `screens` query (controller/realtime/queries.py)."""

from __future__ import annotations

from typing import Any

from controller.realtime.hub import Hub
from controller.screens.views import OPS_VIEW


async def screens_report(hub: Hub) -> dict[str, Any]:
    """Every enrolled screen with its status and its latest heartbeat (telemetry)."""
    summaries = hub.screens.view(OPS_VIEW)["screens"]
    reports = await hub.telemetry.reports([summary["screen"] for summary in summaries])
    rows = [{**summary, **reports[summary["screen"]]} for summary in summaries]
    return {"server_ms": hub.service.clock(), "screens": rows}
