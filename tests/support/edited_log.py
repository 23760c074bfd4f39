"""A show's log edited by hand in its middle, before the snapshot a start loads (issue 47): its
chain broken at event 14 of 28, where a start's check (the tail after its snapshot) does not
look, and the check of the whole log that runs while the controller serves must.

Made the way a venue's log is: keys issued at the shell, a controller started (its configs
recorded), members registered at the console, a clean stop (the snapshot of all 28 events);
then an event's data changed on a connection of its own, as someone with the database would.
"""

from __future__ import annotations

from controller.store.target import LogAt, open_log
from tests.support.live import STARTUP, LiveController
from tests.support.stores import by_hand

EVENTS = 28
EDITED = 14
#: what the whole check says of it (controller/audit/verify.py's sentence)
FOUND = f"event {EDITED} (MemberRegistered): its content does not match its hash"


async def log_edited_in_the_middle(db: LogAt) -> dict[str, str]:
    """The log at `db`, made and edited as above; its keys by role."""
    ctl = LiveController(db)
    ctl.issue_keys()
    await ctl.start()
    try:
        async with ctl.client() as mc:
            for n in range(EVENTS - STARTUP):
                ack = await mc.send("register_member", {"card": f"{7_000_000 + n}",
                                                        "display_name": f"Guest {n}"})
                assert ack["ok"], ack
    finally:
        ctl.stop()  # a clean stop: the snapshot of every event
    with open_log(db, create=False) as log:
        assert log.last_seq == EVENTS and log.snapshots()[0].seq == EVENTS
        assert next(e for e in log.read(EDITED - 1)).type == "MemberRegistered"
    with by_hand(db) as edit:
        assert edit.execute("UPDATE events SET data = replace(data, 'Guest', 'Mallory') "
                            "WHERE seq = ?", (EDITED,)).rowcount == 1
    return ctl.keys
