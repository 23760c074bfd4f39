"""The trail of a running controller: checkpoints signed at start, every N events and at a
clean shutdown; a key revoked at the command line while it runs is refused at the next
connect, and the log goes on intact."""

from __future__ import annotations

from pathlib import Path

import pytest
import socketio

from controller.cli.main import main
from controller.store.target import files_of, open_log
from tests.support.live import Client, live_controller


async def test_checkpoints_at_start_every_n_events_and_at_shutdown(log_at, capsys):
    db = log_at
    checkpoints = Path(f"{files_of(db)}.checkpoints")  # beside the log, where serve keeps them
    async with live_controller(db, ("--checkpoint-every", "2")) as ctl, ctl.client() as mc:
        for n in range(3):
            ack = await mc.send("register_member", {"card": f"100000{n}",
                                                    "display_name": f"Player {n}"})
            assert ack["ok"], ack
        last = ack["seq"]
    log = open_log(db)
    assert log.last_seq == last
    log.close()
    lines = checkpoints.read_text().splitlines()
    assert len(lines) >= 2  # at start (after the configs) and at shutdown, at least
    assert f'"seq":{last}' in lines[-1]
    assert main(["audit", "verify", "--db", str(db), "--checkpoint", str(checkpoints)]) == 0
    assert f"the latest vouches for events 1-{last}" in capsys.readouterr().out


async def test_a_key_revoked_while_running_is_refused_at_its_next_connect(log_at, capsys):
    db = log_at
    async with live_controller(db) as ctl:
        async with ctl.client() as mc:
            assert main(["key", "revoke", "--db", str(db), "--name", "test operator"]) == 0
            # the running controller appends after the revocation without breaking the chain
            ack = await mc.send("register_member", {"card": "1000001",
                                                    "display_name": "Thandi Mokoena"})
            assert ack["ok"], ack
        refused = Client(ctl.url, "operator", ctl.keys["operator"])
        with pytest.raises(socketio.exceptions.ConnectionError, match="failed to connect"):
            await refused.connect()
        async with ctl.client("technician"):  # other keys still connect
            pass
    assert main(["audit", "verify", "--db", str(db)]) == 0
