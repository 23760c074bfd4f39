"""`slots-feed-sim` against a real controller: a simulated bank plays a heat through real
HTTP, its live credits reach a screen, a machine that stops reporting is flagged, and the heat
ends waiting for the tournament director's accept."""

from __future__ import annotations

import asyncio

from controller.application.child_process import ROOT
from tests.slotbank.floor import MACHINES, floor
from tests.support.slots import venue_slots_config

VIEW = "live_heat:slots"
SILENCE_S = 2  # the venue's feed_silence_s: the bank's system reports every 250 ms here
DURATION_S = 12  # machine 104 falls silent at 6 s, is flagged at 8 s: 4 s before the heat ends


def silent(machines: list[str]) -> bool:
    """Exactly machine 104 flagged. On a loaded machine a POST that takes over SILENCE_S (the
    simulator sends the next one after the answer) flags every machine until the next report
    arrives, so this waits for the flags to settle rather than taking the first flag seen."""
    return machines == ["104"]


async def test_a_simulated_heat_reaches_the_screens_and_waits_for_the_director(tmp_path, log_at,
                                                                               monkeypatch):
    venue_slots_config(tmp_path, monkeypatch, feed_silence_s=SILENCE_S)
    async with floor(tmp_path, log_at) as f, f.ctl.client("display") as screen:
        sim = await asyncio.create_subprocess_exec(
            *f.feed("slots-feed-sim", "--machines", "4", "--rate", "4", "--duration",
                    str(DURATION_S), "--silent", "104"),
            cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        # slots rule 11: the bank's machines in order are the heat's seats 1..4;
        # rule 14: the qualifying heat's live credits are on the screens as it plays
        live = await screen.wait_view(VIEW, lambda d: d["status"] == "live" and all(
            r["credits"] is not None for r in d["rows"]))
        assert live["heat"] == "Heat 1"
        assert sorted((r["seat"], r["machine"]) for r in live["rows"]) == list(
            enumerate(MACHINES, start=1))
        assert {r["name"] for r in live["rows"]} == {f"Player{i} S." for i in range(4)}
        moved = await screen.wait_view(VIEW, lambda d: any(
            r["credits"] != 1000 for r in d["rows"]))
        assert all(r["credits"] >= 0 for r in moved["rows"])
        # rule 27: machine 104 stops reporting halfway: flagged SILENCE_S later, before the heat
        # ends, to the director and on the screens, while the machines still reporting are not
        ops = await f.mc.wait_view("ops:feed", lambda d: silent(
            [s["machine"] for b in d["banks"] for s in b["silent"]]), timeout=DURATION_S)
        assert ops["banks"][0]["silent"][0]["seat"] == 4  # rule 11: the bank's fourth machine
        flagged = await screen.wait_view(VIEW, lambda d: silent(
            [r["machine"] for r in d["rows"] if r["silent"]]), timeout=DURATION_S)
        assert flagged["status"] == "live"
        out, err = await asyncio.wait_for(sim.communicate(), 30)
        assert sim.returncode == 0, err.decode()
        assert "Heat 1 started on bank-1" in out.decode()
        assert "wait for the tournament director's accept" in out.decode()
        ended = await screen.wait_view(VIEW, lambda d: d["status"] == "ended")
        assert sorted(r["machine"] for r in ended["rows"]) == MACHINES
        # the final credits are recorded, but are scores only once the director accepts them
        board = f.mc.views["leaderboard:slots"]
        assert all(r["score"] is None for r in board["rows"]) or not board["rows"]
        ack = await f.mc.send("slots.accept_feed", {"stage": "qualifying", "heat": "Heat 1"})
        assert ack["ok"], ack
        accepted = await f.mc.wait_view("leaderboard:slots", lambda d: d["entries"] == 4)
        finals = {r["machine"]: r["credits"] for r in ended["rows"]}
        assert sorted(r["score"] for r in accepted["rows"]) == sorted(finals.values())


async def test_a_refused_heat_start_is_said_in_words(tmp_path, log_at):
    async with floor(tmp_path, log_at) as f:
        before = await f.seq()
        # slots rule 11: a heat's machines are its seats; 4 players are seated, not 6
        sim = await f.run("slots-feed-sim", "--machines", "6", "--duration", "2")
        assert sim.returncode == 1
        assert sim.stderr.startswith("refused: ") and "Heat 1" in sim.stderr
        assert "{" not in sim.stderr
        assert await f.seq() == before
