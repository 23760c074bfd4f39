"""`GET /audit/report.pdf?promotion=P&from=DATE&to=DATE`: the auditor's PDF as a download.

For a logged-in auditor or operator (the session cookie); anyone else is refused in words. The
PDF is made in a worker thread on a read-only connection of its own (a snapshot of the log as
it is when asked), so a long report never holds up the show's event loop.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from pathlib import Path

from aiohttp import web

from controller.access.logins import live_session
from controller.audit.checkpoints import Anchoring, public_path
from controller.audit.document import PROMOTIONS, Period
from controller.http.logins import logins_key
from controller.store.log import StoredLog
from controller.store.target import db_arg, open_read_only

REPORT_READERS = frozenset({"auditor", "operator"})


def anchoring_of(db: Path, anchor: Anchoring | None) -> tuple[Path, Path]:
    """The checkpoint file and public key a report states: the running controller's, else
    the defaults beside the db (as `audit checkpoint` writes them)."""
    if anchor is not None:
        return anchor.path, public_path(anchor.key)
    return db.with_name(db.name + ".checkpoints"), db.with_name(db.name + ".checkpoint-key.pub")


def make_report(db: str, files: Path, promotion: str, period: Period, now_ms: int,
                anchor: Anchoring | None) -> bytes:
    """The PDF, from a read-only snapshot of the log at `db` (run off the event loop); `files`:
    what the files beside it are named after."""
    from controller.audit.report import report_pdf  # the PDF library loads with a first report

    checkpoints, public = anchoring_of(files, anchor)
    log = open_read_only(db_arg(db))
    try:
        return report_pdf(log, promotion, period, now_ms, checkpoints, public)
    finally:
        log.close()


def _day(request: web.Request, name: str) -> dt.date | None:
    text = request.query.get(name, "").strip()
    if not text:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise web.HTTPBadRequest(text=f"The {name!r} date must be written like 2024-01-18, "
                                 f"not {text!r}.") from None


def add_report_routes(app: web.Application, log_of: Callable[[web.Application], StoredLog],
                      now_of: Callable[[web.Application], int],
                      anchor: Anchoring | None) -> None:
    async def report(request: web.Request) -> web.Response:
        logins = request.app[logins_key]
        log = log_of(request.app)
        session = live_session(logins, log, request.cookies.get(logins.policy.cookie))
        if session is None:
            raise web.HTTPUnauthorized(text="Log in as an auditor or an operator to download "
                                       "the report.")
        if session.role not in REPORT_READERS:
            raise web.HTTPForbidden(text=f"{session.name} is logged in as {session.role}: only "
                                    "an auditor or an operator may download the report.")
        promotion = request.query.get("promotion", "")
        if promotion not in PROMOTIONS:
            raise web.HTTPBadRequest(text=f"Say which promotion: one of "
                                     f"{', '.join(PROMOTIONS)}.")
        period = Period(_day(request, "from"), _day(request, "to"))
        if period.start and period.end and period.end < period.start:
            raise web.HTTPBadRequest(text="The period ends before it starts.")
        pdf = await asyncio.to_thread(make_report, log.address, log.path, promotion, period,
                                      now_of(request.app), anchor)
        name = f"{promotion}-record.pdf"
        return web.Response(body=pdf, content_type="application/pdf", headers={
            "Content-Disposition": f'attachment; filename="{name}"',
            "Cache-Control": "no-store"})

    app.router.add_get("/audit/report.pdf", report)
