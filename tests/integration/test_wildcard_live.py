"""The Wild Card draw through a real controller: reveal on time, a SIGKILL mid-countdown, cues."""

from __future__ import annotations

import asyncio

from controller.application.service import wall_clock_ms
from tests.support.live import live_controller
from tests.support.wildcard import freeze_when_bins_close, write_wildcard_config

MEMBERS = (("1000001", "Thandi Mokoena"), ("1000002", "Sipho Ndlovu"),
           ("1000003", "Lerato Dlamini"))


async def test_claim_countdown_survives_a_sigkill(tmp_path, log_at, monkeypatch):
    # rules 39-40: the 90 s run from an absolute deadline that a restart does not move
    write_wildcard_config(tmp_path / "config", close_in_ms=12_000)  # a loaded start: seconds
    monkeypatch.setenv("SHOWRUNNER_CONFIG_DIR", str(tmp_path / "config"))
    async with live_controller(log_at) as ctl:
        async with ctl.client() as mc:
            for card, name in MEMBERS:
                assert (await mc.send("register_member",
                                      {"card": card, "display_name": name}))["ok"]
                assert (await mc.send("wildcard.activate", {"card": card}))["ok"]
            frozen = await freeze_when_bins_close(mc)
            assert frozen["ok"], frozen
            doc = await mc.wait_view("draw:wildcard", lambda d: d["phase"] == "frozen")
            assert doc["pool"]["tickets"] == 3
            ack = await mc.send("wildcard.draw")
            assert ack["ok"], ack
            drawn = ack["events"][0]["data"]
            again = await mc.send("wildcard.draw")
            assert again["error"]["code"] == "draw_running"
            doc = await mc.wait_view("draw:wildcard", lambda d: d["winner"])
            # the reveal reached the views no earlier than the short lead before reveal_at
            assert wall_clock_ms() >= drawn["reveal_at_ms"] - 500
            assert doc["claim_deadline"] == drawn["claim_deadline_ms"]
        ctl.kill()  # SIGKILL during the countdown
        await ctl.start()
        async with ctl.client() as mc:
            doc = await mc.wait_view("draw:wildcard", lambda d: d["phase"] == "claim")
            assert doc["claim_deadline"] == drawn["claim_deadline_ms"]
            assert doc["reveal_at"] == drawn["reveal_at_ms"]
            assert wall_clock_ms() < doc["claim_deadline"]  # the 90 s are not over yet
            while wall_clock_ms() < doc["reveal_at"]:  # the claim opens at the reveal
                await asyncio.sleep(0.1)
            ack = await mc.send("wildcard.claim", {"card_checked": True, "id_checked": True})
            assert ack["ok"], ack
            # slots rules 19, 43: the finalist, and the seat in the Final recorded as a prize
            assert [e["type"] for e in ack["events"]] == ["WildcardClaimed", "PrizeAwarded",
                                                          "WildcardFinalist"]
            doc = await mc.wait_view("draw:wildcard", lambda d: d["phase"] == "finalist")
            assert doc["finalist"]["present"] is True


async def test_announcer_reads_and_acknowledges_the_winner_cue(tmp_path, log_at, monkeypatch):
    # rules 35, 39: the winner is called over the PA with 90 seconds to come forward
    write_wildcard_config(tmp_path / "config", close_in_ms=12_000)  # a loaded start: seconds
    monkeypatch.setenv("SHOWRUNNER_CONFIG_DIR", str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        card, name = MEMBERS[0]
        await mc.send("register_member", {"card": card, "display_name": name})
        await mc.send("wildcard.activate", {"card": card})
        assert (await freeze_when_bins_close(mc))["ok"]
        assert (await mc.send("wildcard.draw"))["ok"]
        async with ctl.client("announcer") as pa:
            doc = await pa.wait_view(
                "cues", lambda d: any(c["id"] == "wildcard-r1-winner" for c in d["cues"]))
            winner = next(c for c in doc["cues"] if c["id"] == "wildcard-r1-winner")
            assert "Thandi M., ticket number 1, card ending in 0001" in winner["text"]
            assert "90 seconds to come to the stage" in winner["text"]
            while wall_clock_ms() < winner["at_ms"]:
                await asyncio.sleep(0.1)
            ack = await pa.send("cue.acknowledge", {"cue_id": "wildcard-r1-winner"})
            assert ack["ok"], ack
            await pa.wait_view("cues", lambda d: any(
                c["id"] == "wildcard-r1-winner" and c["acknowledged"] for c in d["cues"]))
            refused = await pa.send("wildcard.redraw")
            assert refused["error"]["code"] == "forbidden"
