"""A controller with a qualifying heat seated, the bank's device key in a file and the feed's
command line run against it (tests/slotbank/)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from controller.access.keys import issue_key
from controller.application.child_process import ROOT
from controller.store.target import LogAt, open_log
from tests.support.live import Client, LiveController, live_controller

BANK = "bank-1"
MACHINES = ["101", "102", "103", "104"]


@dataclass
class Floor:
    ctl: LiveController
    mc: Client
    key_file: Path

    def feed(self, command: str, *args: str) -> list[str]:
        """The argv of a feed command for this floor's bank."""
        return [sys.executable, "-m", "controller.cli", command, "--url", self.ctl.url,
                "--key-file", str(self.key_file), "--bank", BANK, *args]

    async def run(self, command: str, *args: str) -> subprocess.CompletedProcess[str]:
        return await asyncio.to_thread(subprocess.run, self.feed(command, *args), cwd=ROOT,
                                       capture_output=True, text=True, timeout=60)

    async def seq(self) -> int:
        """The log's last sequence number (nothing changed: it stays the same)."""
        async with aiohttp.ClientSession() as http, http.get(f"{self.ctl.url}/healthz") as r:
            return int((await r.json())["seq"])


@asynccontextmanager
async def floor(tmp_path: Path, log_at: LogAt, players: int = len(MACHINES)
                ) -> AsyncIterator[Floor]:
    """`players` members seated in Heat 1 of qualifying, in seat order, and bank-1's key file;
    the controller on the log at `log_at`."""
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        for i in range(players):
            card = str(1_000_000 + i)
            for type_, payload in (("register_member", {"card": card,
                                                        "display_name": f"Player{i} S."}),
                                   ("slots.enter", {"card": card})):
                ack = await mc.send(type_, payload)
                assert ack["ok"], ack
        log = open_log(ctl.db_path)
        try:
            key = issue_key(log, "device", BANK, 0)
            issued = log.last_seq
        finally:
            log.close()
        f = Floor(ctl, mc, tmp_path / "bank-1.key")
        while await f.seq() < issued:  # the controller takes in the key appended at the shell
            await asyncio.sleep(0.05)
        key_file = tmp_path / "bank-1.key"
        key_file.write_text(key + "\n")
        os.chmod(key_file, 0o600)
        yield f
