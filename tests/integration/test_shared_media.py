"""Media on a PostgreSQL log reach every controller of it (issue 28): a picture a technician
adds at the leader is kept in the database too, and the standby that took the lead after the
leader's PC died sends it to a screen, copied down into its own folder the first time (in
more than one chunk, checked against its SHA-256)."""

from __future__ import annotations

import hashlib

import aiohttp

from controller.http.middleware import KEY_HEADER
from tests.integration.test_postgres_failover import said, two_pcs
from tests.support.media import picture, upload


async def test_a_picture_added_at_the_leader_is_sent_by_the_standby_that_took_over(
        tmp_path, postgres_url) -> None:
    body = picture(noise=1500)  # 1.5 MB: two chunks
    sha = hashlib.sha256(body).hexdigest()
    async with two_pcs(postgres_url, tmp_path) as (leader, standby):
        status, answer = await upload(leader.url, leader.keys["technician"], body, "logo.png")
        assert status == 200, answer
        assert answer["sha256"] == sha
        assert not list((tmp_path / "pc-b").rglob(sha))  # the standby's PC has no copy yet
        leader.kill()
        await said(standby, "leading the show's log (lease epoch 2)", 30)
        async with aiohttp.ClientSession() as http, http.get(
                f"{standby.url}/media/{sha}",
                headers={KEY_HEADER: leader.keys["technician"]}) as fetched:
            assert fetched.status == 200, await fetched.text()
            assert await fetched.read() == body
        copies = list((tmp_path / "pc-b").rglob(sha))
        assert len(copies) == 1 and copies[0].read_bytes() == body
