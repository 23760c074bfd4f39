"""Behind a venue's NAT or TLS proxy every screen shares one address: a revoked screen that
retries for ever, and wrong keys tried beside it, must not keep the good screens out. Real
controller, real screen links (showrunner/engine/link.py, their own backoff), one address."""

from __future__ import annotations

import asyncio
import contextlib

from showrunner.engine.link import Link, LinkRefused, LinkStatus, LinkTimings
from tests.integration.test_keys import Raw, enrol
from tests.support.live import live_controller

GOOD = 20
BACK_WITHIN_S = 15.0  # the acceptance figure
RETRY_EVERY_S = LinkTimings(backoff_first_s=0.5, backoff_max_s=0.5)  # a revoked screen's loop


class Watched:
    """A real link whose messages are drained into its latest online state."""

    def __init__(self, url: str, screen: str, key: str,
                 timings: LinkTimings | None = None) -> None:
        self.link = Link(url, screen, key, timings=timings)
        self.online = False
        self.refusals: list[str] = []

    def drain(self) -> None:
        while not self.link.inbox.empty():
            message = self.link.inbox.get_nowait()
            if isinstance(message, LinkStatus):
                self.online = message.online
            elif isinstance(message, LinkRefused):
                self.refusals.append(message.reason)


async def every(screens: list[Watched], online: bool) -> None:
    while True:
        for screen in screens:
            screen.drain()
        if all(screen.online == online for screen in screens):
            return
        await asyncio.sleep(0.05)


async def wrong_keys_for_ever(url: str) -> None:
    """Someone at the same address trying display keys that do not exist (on, and through the
    restart: a refused TCP connect is just another try)."""
    n = 0
    while True:
        n += 1
        with contextlib.suppress(Exception):
            await Raw(url, "/display", {"key": f"guess-{n}", "screen": "stage-01"}).connect()
        await asyncio.sleep(0.3)


async def test_a_revoked_screen_retrying_beside_20_good_ones_keeps_none_of_them_out(log_at):
    async with live_controller(log_at) as ctl:
        async with ctl.client("technician") as tech:
            keys = {f"stage-{n:02}": await enrol(tech, f"stage-{n:02}") for n in range(1, 21)}
            revoked_key = await enrol(tech, "stolen-1")
            assert (await tech.send("screens.revoke", {"screen": "stolen-1",
                                                       "reason": "stolen"}))["ok"]
        good = [Watched(ctl.url, screen, key) for screen, key in keys.items()]
        revoked = Watched(ctl.url, "stolen-1", revoked_key, RETRY_EVERY_S)
        guesser = asyncio.create_task(wrong_keys_for_ever(ctl.url))
        try:
            revoked.link.start()
            for screen in good:
                screen.link.start()
            await asyncio.wait_for(every(good, online=True), 60)  # first start: no deadline
            ctl.kill()  # every good screen is cut; they retry on their own backoff
            await asyncio.wait_for(every(good, online=False), 30)
            await ctl.start()
            await asyncio.wait_for(every(good, online=True), BACK_WITHIN_S)
            await asyncio.sleep(1)  # the revoked screen and the guesser are still at it
            assert "slowing wrong keys from 127.0.0.1" in "".join(ctl.output)
            revoked.drain()
            assert not revoked.online and revoked.refusals
            assert all("was revoked" in why for why in revoked.refusals), revoked.refusals[-3:]
        finally:
            guesser.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await guesser
            for screen in [*good, revoked]:
                screen.link.stop()
    output = "".join(ctl.output)
    assert "Traceback" not in output and "guess-" not in output
