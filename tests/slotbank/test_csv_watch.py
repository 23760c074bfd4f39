"""`slots-feed-csv` against a real controller: the three kinds of file a slot system drops
become the heat's start, live credits and end; a malformed or refused file goes to failed/
with its reason in words and changes nothing; a file waits while the controller is away."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from controller.application.child_process import ROOT
from controller.slotbank.csv_watch import Malformed, parse
from tests.slotbank.floor import MACHINES, Floor, floor

VIEW = "live_heat:slots"
START = "feed_heat,machine,start_credits,duration_s\n" + "".join(
    f"F-0042,{m},1000,300\n" for m in MACHINES)


@asynccontextmanager
async def watching(f: Floor, folder: Path) -> AsyncIterator[asyncio.subprocess.Process]:
    folder.mkdir(exist_ok=True)
    watcher = await asyncio.create_subprocess_exec(
        *f.feed("slots-feed-csv", "--dir", str(folder)), cwd=ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    try:
        yield watcher
    finally:
        watcher.terminate()
        await watcher.wait()


def drop(folder: Path, name: str, text: str) -> None:
    """Write the file as a slot system would: it appears, then is complete."""
    (folder / name).write_text(text, encoding="utf-8")


async def moved(folder: Path, name: str, timeout: float = 10.0) -> str:
    """Where the watcher put `name`: "done" or "failed"."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for sub in ("done", "failed"):
            if (folder / sub / name).exists():
                return sub
        await asyncio.sleep(0.1)
    raise AssertionError(f"{name} was never taken from {folder}")


async def test_the_three_kinds_of_file_play_a_heat_to_the_directors_accept(tmp_path, log_at):
    drops = tmp_path / "drops"
    async with floor(tmp_path, log_at) as f, f.ctl.client("display") as screen, watching(f, drops):
        # slots rule 11: the rows in order are the bank's machines, seats 1..4
        drop(drops, "heat_start-0001.csv", START)
        assert await moved(drops, "heat_start-0001.csv") == "done"
        live = await screen.wait_view(VIEW, lambda d: d["status"] == "live")
        assert sorted((r["seat"], r["machine"]) for r in live["rows"]) == list(
            enumerate(MACHINES, start=1))
        # rule 14: the heat's live credits on the screens as it plays
        drop(drops, "credits-0002.csv", "feed_heat,machine,credits\nF-0042,101,1250\n"
                                        "F-0042,103,640\n")
        assert await moved(drops, "credits-0002.csv") == "done"
        doc = await screen.wait_view(VIEW, lambda d: {r["machine"]: r["credits"] for r in
                                                      d["rows"]}.get("103") == 640)
        assert {r["machine"]: r["credits"] for r in doc["rows"]}["101"] == 1250
        drop(drops, "heat_end-0003.csv", "feed_heat,machine,credits\n" + "".join(
            f"F-0042,{m},{c}\n" for m, c in zip(MACHINES, (1300, 700, 650, 1800), strict=True)))
        assert await moved(drops, "heat_end-0003.csv") == "done"
        ended = await screen.wait_view(VIEW, lambda d: d["status"] == "ended")
        assert [r["credits"] for r in ended["rows"]] == [1800, 1300, 700, 650]
        ack = await f.mc.send("slots.accept_feed", {"stage": "qualifying", "heat": "Heat 1"})
        assert ack["ok"], ack
        board = await f.mc.wait_view("leaderboard:slots", lambda d: d["entries"] == 4)
        assert [r["score"] for r in board["rows"]] == [1800, 1300, 700, 650]
        assert sorted(p.name for p in (drops / "done").iterdir()) == [
            "credits-0002.csv", "heat_end-0003.csv", "heat_start-0001.csv"]


async def test_a_malformed_or_refused_file_fails_in_words_and_changes_nothing(tmp_path, log_at):
    drops = tmp_path / "drops"
    async with floor(tmp_path, log_at) as f, f.ctl.client("display") as screen, watching(f, drops):
        before = await f.seq()
        drop(drops, "heat_start-0001.csv", START.replace("F-0042,103,1000,300",
                                                         "F-0042,103,a lot,300"))
        assert await moved(drops, "heat_start-0001.csv") == "failed"
        reason = (drops / "failed" / "heat_start-0001.csv.error.txt").read_text()
        assert reason == ("heat_start-0001.csv line 4: start_credits 'a lot' is not a whole "
                          "number of 0 or more (at most 18 digits).\n")
        # slots rule 11: the heat's seats are the bank's 4 machines in order, not 3 of them;
        # the controller's refusal is the file's reason
        drop(drops, "heat_start-0002.csv", START.replace("F-0042,104,1000,300\n", ""))
        assert await moved(drops, "heat_start-0002.csv") == "failed"
        refused = (drops / "failed" / "heat_start-0002.csv.error.txt").read_text()
        assert "Heat 1" in refused and "{" not in refused
        drop(drops, "scores-0003.csv", "feed_heat,machine,credits\nF-0042,101,5\n")
        assert await moved(drops, "scores-0003.csv") == "failed"
        assert "kind is unknown" in (drops / "failed" / "scores-0003.csv.error.txt").read_text()
        assert await f.seq() == before
        assert screen.views.get(VIEW, {}).get("status", "idle") == "idle"
        assert not list((drops / "done").iterdir())


async def test_a_file_waits_while_the_controller_is_away(tmp_path, log_at):
    drops = tmp_path / "drops"
    async with floor(tmp_path, log_at) as f, watching(f, drops):
        f.ctl.kill()
        drop(drops, "heat_start-0001.csv", START)
        await asyncio.sleep(2)  # polled while nobody answers: neither done nor failed
        assert (drops / "heat_start-0001.csv").exists()
        await f.ctl.start()
        assert await moved(drops, "heat_start-0001.csv", timeout=40) == "done"
        async with f.ctl.client("display") as screen:
            await screen.wait_view(VIEW, lambda d: d["status"] == "live")


@pytest.mark.parametrize(("name", "text", "sentence"), [
    ("credits-1.csv", "feed_heat,machine\nF-1,101\n",
     "credits-1.csv must start with the header line feed_heat,machine,credits."),
    ("credits-1.csv", "feed_heat,machine,credits\n",
     "credits-1.csv has a header but no machines."),
    ("credits-1.csv", "feed_heat,machine,credits\nF-1,101\n",
     "credits-1.csv line 2 has 2 values; 3 are needed (feed_heat,machine,credits)."),
    ("heat_end-1.csv", "feed_heat,machine,credits\nF-1,101,5\nF-2,102,6\n",
     "heat_end-1.csv must name one feed heat on every line."),
    ("heat_end-1.csv", "feed_heat,machine,credits\nF-1,101,5\nF-1,101,6\n",
     "heat_end-1.csv lists machine 101 twice."),
    ("heat_end-1.csv", "feed_heat,machine,credits\nF-1,101,-5\n",
     "heat_end-1.csv line 2: credits '-5' is not a whole number of 0 or more (at most 18 "
     "digits)."),
    # what the csv module or int() would raise on is said in words too, not a dead watcher
    ("credits-1.csv", "feed_heat,machine,credits\nF-1,101," + "9" * 5000 + "\n",
     "credits-1.csv line 2: credits '999999999999999999...' is not a whole number of 0 or "
     "more (at most 18 digits)."),
    ("credits-1.csv", "feed_heat,machine,credits\nF-1,101," + "1" * 200_000 + "\n",
     "credits-1.csv is not CSV this watcher reads (field larger than field limit (131072))."),
    ("heat_start-1.csv", "feed_heat,machine,start_credits,duration_s\nF-1,101,1000,300\n"
     "F-1,102,1000,200\n",
     "heat_start-1.csv must give the same start_credits and duration_s on every line."),
])
def test_what_is_wrong_with_a_file_is_said_where(name: str, text: str, sentence: str):
    with pytest.raises(Malformed) as refused:
        parse(name, text.encode())
    assert str(refused.value) == sentence


def test_a_spreadsheets_file_reads_as_written():
    # Excel's UTF-8 export starts with a byte-order mark and ends lines with CRLF
    message = parse("heat_start-7.csv", ("\ufeff" + START).replace("\n", "\r\n").encode())
    assert (message.kind, message.feed_heat) == ("heat_start", "F-0042")
    assert [m for m, _ in message.readings] == MACHINES
    assert (message.start_credits, message.duration_s) == (1000, 300)
