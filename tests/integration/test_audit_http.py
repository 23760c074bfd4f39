"""The auditor's report as a download, and "Verify the chain now", on a running controller."""

from __future__ import annotations

import re

import aiohttp

from tests.support.live import live_controller
from tests.support.people import add_person, log_in


async def download(ctl, role: str | None, query: str = "promotion=wildcard"
                   ) -> tuple[int, str, bytes]:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        if role is not None:
            add_person(ctl.db_path, f"test-{role}", role)
            status, answer = await log_in(http, ctl.url, f"test-{role}")
            assert status == 200, answer
        async with http.get(f"{ctl.url}/audit/report.pdf?{query}") as response:
            return response.status, response.content_type, await response.read()


async def test_an_auditor_and_an_operator_download_the_report_and_a_technician_may_not(tmp_path):
    async with live_controller(tmp_path / "show.db") as ctl:
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


async def test_verify_the_chain_now_answers_in_words_for_the_auditor_only(tmp_path):
    async with live_controller(tmp_path / "show.db") as ctl:
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
