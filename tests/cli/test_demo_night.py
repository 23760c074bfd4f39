"""The demo's script yields to the MC (a score the MC types stands, a refusal never stops it),
and its night leaves the paper the rules require: a signed score sheet, a prize paid, a record."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import subprocess

from controller.application.settings import CONFIG_DIR_ENV
from controller.cli.main import main
from controller.demo.night import MC, Night
from controller.demo.venue import FAST, write_configs
from controller.store.target import open_log
from tests.audit.test_report import images_of, text_of
from tests.support.live import live_controller
from tests.support.stores import by_hand


async def test_the_script_leaves_the_mc_s_score_alone_and_carries_on_after_refusals(log_at):
    said: list[str] = []
    pace = dataclasses.replace(FAST, hold_s=4, score_every_s=0.3)
    async with live_controller(log_at) as ctl, ctl.client() as tablet:
        script = MC(said.append)
        await script.connect(ctl.url, ctl.keys["operator"])
        try:
            night = Night(script, pace, 1, dt.datetime.now(dt.UTC))
            await night.register()
            running = asyncio.create_task(night.slots())
            doc = await tablet.wait_view("leaderboard:slots", lambda d: len(d["rows"]) == 12)
            await asyncio.sleep(1)
            # the MC corrects a score from the tablet while the script is feeding scores
            thandi = next(r for r in doc["rows"] if r["name"] == "Thandi M.")
            entry = next(e for e, name in night.slots_entries.items() if name == "Thandi M.")
            ack = await tablet.send("slots.record_score", {"entry": entry, "score": 123_456})
            assert ack["ok"], ack
            await running  # no exception: refusals (no screen group here) were only printed
        finally:
            await script.close()
        doc = await tablet.wait_view("leaderboard:slots", lambda d: any(
            r["name"] == "Thandi M." and r["score"] == 123_456 for r in d["rows"]))
        assert thandi["score"] != 123_456
        assert next(r for r in doc["rows"] if r["name"] == "Thandi M.")["score"] == 123_456
        assert any("refused takeover.start" in line for line in said)
        assert any("Thandi M.'s score was changed by the MC" in line for line in said)


async def test_the_night_signs_a_roulette_score_sheet_and_pays_a_prize(tmp_path, log_at,
                                                                      monkeypatch):
    # roulette rule 18: each player of the heat signs for their score; poker rule 55: the top
    # qualifying score's prize is collected and signed for
    pace = dataclasses.replace(FAST, hold_s=0.5)
    super9_at = write_configs(tmp_path / "config", pace, dt.datetime.now(dt.UTC))
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client() as tablet:
        said: list[str] = []
        script = MC(said.append)
        await script.connect(ctl.url, ctl.keys["operator"])
        try:
            night = Night(script, pace, 1, super9_at)
            await night.register()
            await night.roulette()
            await night.poker()
        finally:
            await script.close()
        register = await tablet.call("prize_register", {})
        paid = [row for row in register["prizes"] if row["state"] == "paid"]
        refused = [line for line in said if "refused" in line and "takeover" not in line]
        assert [row["prize"] for row in paid] == ["poker-topscore-1"], refused
        assert paid[0]["paid"]["method"] == "cash" and len(paid[0]["paid"]["id_last4"]) == 4
    log = open_log(log_at)
    signed = [e.data for e in log.read() if e.type == "TournamentScoreAcknowledged"]
    log.close()
    with by_hand(log_at) as db:
        last, head = db.execute("SELECT seq, hash FROM events ORDER BY seq DESC").fetchone()
    assert len(signed) == 6 and {e["promotion"] for e in signed} == {"roulette"}
    # the auditor's record of the night: the winner, the amount in rand, the signature image
    # the winner signed with, and the chain head to check it against (CPA regulation 11)
    out = tmp_path / "poker.pdf"
    assert main(["audit", "report", "--db", str(log_at), "--promotion", "poker",
                 "--out", str(out)]) == 0
    text = text_of(out)
    winner = paid[0]["name"]
    assert winner in text and paid[0]["amount_text"] in text and "signed" in text
    assert f"The log ends at event {last}; its hash is {head}." in text
    assert [row[3:5] for row in images_of(out) if row[2] == "image"].count(["600", "200"]) == 1
    pages = subprocess.run(["pdftoppm", "-r", "30", "-png", str(out), str(tmp_path / "page")],
                           check=True)
    assert pages.returncode == 0 and list(tmp_path.glob("page*.png"))
    sheet = tmp_path / "roulette.pdf"
    assert main(["audit", "report", "--db", str(log_at), "--promotion",
                 "roulette", "--out", str(sheet)]) == 0
    assert "not signed" not in text_of(sheet).lower()  # rule 18: every score on the sheet
    images = [row[3:5] for row in images_of(sheet) if row[2] == "image"]
    assert images.count(["600", "200"]) == 6  # each player's own signature on the sheet
