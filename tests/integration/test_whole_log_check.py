"""The rest of the log is checked while the controller serves (issue 47): a start checks only
the tail after the snapshot it loads, and a log edited in its middle, before that snapshot,
starts and serves, then is said to be damaged, naming the event, on the console's `ops:log`
view, on the controller's output and in its log; it used to start without a word. A log
that is whole is said to be so. A real controller on each store (`log_at`)."""

from __future__ import annotations

from controller.store.target import LogAt, shown
from showrunner.contract.views import view_model
from tests.support.edited_log import EDITED, EVENTS, FOUND, log_edited_in_the_middle
from tests.support.live import LiveController, live_controller, said


async def test_a_log_edited_before_its_snapshot_serves_then_is_said_to_be_damaged(
        log_at: LogAt) -> None:
    keys = await log_edited_in_the_middle(log_at)
    ctl = LiveController(log_at)
    ctl.keys = keys
    await ctl.start()  # the start checked the tail after its snapshot: nothing to check
    try:
        async with ctl.client() as mc, ctl.client("technician") as tech:
            doc = await mc.wait_view("ops:log", lambda d: d["state"] == "damaged", timeout=30)
            view_model("ops:log").model_validate(doc)
            assert doc["seq"] == EDITED and doc["checked_to"] == EVENTS
            assert doc["sentence"] == (
                f"THE SHOW LOG IS DAMAGED: {FOUND}. The show goes on from the state the "
                "controller started with; tell the technician: keep the log as it is and run "
                f"`showrunner-controller audit verify --db {shown(log_at)}`.")
            assert (await tech.wait_view("ops:log"))["state"] == "damaged"  # /screens' link
            line = await said(ctl, "ERROR: THE SHOW LOG IS DAMAGED", 10)
            assert FOUND in line
            ack = await mc.send("register_member", {"card": "7999999",
                                                    "display_name": "Late Guest"})
            assert ack["ok"], ack  # it serves on: what to do is the technician's call
    finally:
        ctl.stop()
    output = "".join(ctl.output)
    assert output.count(f"THE SHOW LOG IS DAMAGED: {FOUND}") == 2  # on the output, in the log


async def test_a_whole_log_is_said_to_be_intact(log_at: LogAt) -> None:
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        doc = await mc.wait_view("ops:log", lambda d: d["state"] == "intact", timeout=30)
        assert doc["sentence"] == (f"The whole log was checked: intact up to event "
                                   f"{doc['checked_to']}.") and doc["checked_to"] > 0
        line = await said(ctl, "log check: the whole log is intact up to event", 10)
        assert "every page and link" in line
