"""The auditor's report as a download, and "Verify the chain now", on a running controller."""

from __future__ import annotations

import asyncio
import re
import shutil
import statistics
import time
from pathlib import Path

import aiohttp

from tests.support.live import live_controller
from tests.support.people import add_person, log_in

FIXTURE = Path(__file__).parents[1] / "fixtures" / "release-0.1.db"


async def download(ctl, role: str | None, query: str = "promotion=wildcard"
                   ) -> tuple[int, str, bytes]:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        if role is not None:
            add_person(ctl.db_path, f"test-{role}", role)
            status, answer = await log_in(http, ctl.url, f"test-{role}")
            assert status == 200, answer
        async with http.get(f"{ctl.url}/audit/report.pdf?{query}") as response:
            return response.status, response.content_type, await response.read()


async def test_an_auditor_and_an_operator_download_the_report_and_a_technician_may_not(log_at):
    async with live_controller(log_at) as ctl:
        status, kind, body = await download(ctl, "auditor",
                                            "promotion=wildcard&from=2024-01-18&to=2024-01-18")
        assert (status, kind) == (200, "application/pdf") and body.startswith(b"%PDF")
        status, kind, body = await download(ctl, "operator", "promotion=super9")
        assert (status, kind) == (200, "application/pdf") and body.startswith(b"%PDF")
        status, _, body = await download(ctl, "technician")
        assert status == 403
        assert body.decode() == ("test-technician is logged in as technician: only an auditor "
                                 "or an operator may download the report.")
        status, _, body = await download(ctl, None)
        assert status == 401 and b"Log in as an auditor" in body
        status, _, body = await download(ctl, "auditor", "promotion=bingo")
        assert status == 400 and body.startswith(b"Say which promotion")
        status, _, body = await download(ctl, "auditor", "promotion=slots&from=18/01/2024")
        assert status == 400 and b"like 2024-01-18" in body


async def test_verify_the_chain_now_answers_in_words_for_the_auditor_only(log_at):
    async with live_controller(log_at) as ctl:
        async with ctl.client("auditor") as auditor:
            answer = await auditor.call("verify_chain", {})
            assert answer["ok"] and answer["holds"], answer
            assert re.fullmatch(r"Chain holds: \d+ events, head [0-9a-f]{4}…, checked "
                                r"\d\d:\d\d\.", answer["sentence"]), answer
        async with ctl.client("technician") as tech:
            answer = await tech.call("verify_chain", {})
            assert answer == {"ok": False, "error": {
                "code": "forbidden",
                "message": "Only an auditor or an operator may verify the chain."}}


# SQLite's file: the release-0.1 .db fixture
async def test_making_reports_leaves_the_loop_free(tmp_path):
    """Reports of the release-0.1 night (a few tenths of a second of work each) are made in a
    worker thread: the controller answers /healthz meanwhile. Made on the loop, every /healthz
    sent during a report would wait for the rest of it, half a report in the middle; so the
    middle answer must come in a small part of the quickest report (a measure of this
    machine's speed now, not a fixed time, and not of its slowest moment: on a loaded machine
    one answer may wait for the processor)."""
    db = tmp_path / "show.db"
    shutil.copyfile(FIXTURE, db)
    async with live_controller(db) as ctl, \
            aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        add_person(ctl.db_path, "test-auditor", "auditor")
        assert (await log_in(http, ctl.url, "test-auditor"))[0] == 200

        async def fetch(promotion: str) -> bytes:
            async with http.get(f"{ctl.url}/audit/report.pdf?promotion={promotion}") as r:
                assert r.status == 200
                return await r.read()

        pdfs, gaps, took = [], [], []
        for promotion in ("slots", "roulette", "poker", "slots"):
            started = time.monotonic()
            making = asyncio.ensure_future(fetch(promotion))
            while not making.done():
                sent = time.monotonic()
                async with http.get(f"{ctl.url}/healthz") as r:
                    assert r.status == 200
                gaps.append(time.monotonic() - sent)
                await asyncio.sleep(0.01)
            pdfs.append(await making)
            took.append(time.monotonic() - started)
    assert all(pdf.startswith(b"%PDF") for pdf in pdfs)
    assert len(gaps) >= 2 * len(took), (took, gaps)  # the reports were real work
    assert statistics.median(gaps) < min(took) / 8, (took, gaps)
