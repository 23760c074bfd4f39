"""A leader SIGKILLed while an MC appends without pause comes back as the standby of the
controller that took over, as systemd starts it again (`--standby`, docs/operations.md), and
follows it: its start checks the log while the new leader appends to it (issue 47: the check
took a command committed between its reads for tampering and refused to start), and when the
new leader is killed in its turn, the rejoined one takes over with every acknowledged command.

On each store (`log_at`): an SQLite file's standby waits on the same PC for the file's lock and
takes the same port; a PostgreSQL log's runs on a "PC" of its own (folder and port) and
serves screens while it stands by. The log starts with 30,000 commands (an ack each, as a
night's commands have), so a start's check takes long enough for appends to land amid it.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import pytest

from controller.application.service import wall_clock_ms
from controller.store.target import LogAt, is_database, open_log
from tests.support.live import LiveController, said
from tests.support.persistent_mc import PersistentMC, keep_registering
from tests.support.ports import free_port
from tests.support.season import write_members

COMMANDS = 30_000
RATE = 40.0  # the MC's commands a second: several land amid every start's check
ACKED_BETWEEN = 20  # acknowledged commands between each step, so each runs amid appends
STANDING_BY = "taking over when"  # both stores' standby says it once it follows the leader


def on_its_pc(db: LogAt, folder: Path, port: int, standby: bool) -> LiveController:
    """A controller as its PC runs it: on PostgreSQL in a folder of its own, saying where it
    is reached; on SQLite beside the file, on the one port both take in turn."""
    args: tuple[str, ...] = ("--standby",) if standby else ()
    if is_database(db):
        folder.mkdir(parents=True, exist_ok=True)
        process = LiveController(db, extra_args=("--advertise", f"http://127.0.0.1:{port}",
                                                  *args), cwd=folder)
    else:
        process = LiveController(db, extra_args=args)
    process.port = port
    return process


async def leads(process: LiveController, db: LogAt) -> None:
    if is_database(db):
        await said(process, "leading the show's log", 60)
    else:
        await asyncio.to_thread(process.listening, 60)


@pytest.mark.timeout(300)
async def test_a_killed_leader_rejoins_as_the_standby_while_the_new_leader_appends(
        log_at: LogAt, tmp_path: Path) -> None:
    write_members(log_at, COMMANDS, wall_clock_ms())
    on_pg = is_database(log_at)
    ports = (free_port(), free_port()) if on_pg else (free_port(),) * 2
    first = on_its_pc(log_at, tmp_path / "pc-a", ports[0], standby=False)
    first.issue_keys()
    keys = first.keys
    second = on_its_pc(log_at, tmp_path / "pc-b", ports[1], standby=True)
    rejoined: LiveController | None = None
    stop = asyncio.Event()
    mc = PersistentMC([f"http://127.0.0.1:{port}" for port in sorted(set(ports))],
                      keys["operator"])
    sender: asyncio.Task[None] | None = None
    try:
        await first.start(timeout=60)
        second.keys = keys
        second.spawn()
        await said(second, STANDING_BY, 60)
        sender = asyncio.create_task(keep_registering(mc, RATE, stop))
        await mc.acked_more(ACKED_BETWEEN, 30)

        first.kill()  # mid-append: the MC does not wait between commands
        await leads(second, log_at)
        await mc.acked_more(ACKED_BETWEEN, 60)  # the new leader appends

        rejoined = on_its_pc(log_at, tmp_path / "pc-a", ports[0], standby=True)
        rejoined.keys = keys
        rejoined.spawn()  # as systemd's Restart=always does, amid the new leader's appends
        await said(rejoined, "standby: the show's state is ready at event", 60)
        await said(rejoined, STANDING_BY, 60)
        await mc.acked_more(ACKED_BETWEEN, 60)  # it follows them as a standby

        second.kill()
        await leads(rejoined, log_at)
        await mc.acked_more(ACKED_BETWEEN, 60)  # and leads from where they left it
        stop.set()
        await asyncio.wait_for(sender, 30)
        sender = None
        assert rejoined.process is not None and rejoined.process.poll() is None
    finally:
        stop.set()
        if sender is not None:
            sender.cancel()
        await mc.drop()
        for process in (rejoined, second, first):
            if process is not None:
                process.stop()
    with open_log(log_at, create=False) as log:
        per_command = Counter(e.command_id for e in log.read() if e.seq > COMMANDS)
        assert log.first_broken_link() is None
    lost = [c for c in mc.acked if per_command[c] != 1]
    assert lost == [] and len(mc.acked) >= 4 * ACKED_BETWEEN  # every acknowledged one, once
    output = "".join(rejoined.output)
    assert "does not start on a log that may have been tampered with" not in output
