"""The one way a controller runs its long-lived tasks (controller/application/background.py,
issue 47): a failing turn is logged once, counted, retried and its recovery said; a loop ends
only when its turn says so; a task that ends when it should run on is said loudly."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from controller.application.background import DONE, forever, start

LOGGER = "test.background"


async def test_a_failing_turn_is_logged_once_retried_and_its_recovery_said(caplog) -> None:
    caplog.set_level(logging.WARNING, logger=LOGGER)
    turns: list[int] = []

    async def turn() -> object:
        turns.append(len(turns))
        if len(turns) <= 3:
            raise OSError(28, "No space left on device")
        return DONE if len(turns) == 6 else None

    await asyncio.wait_for(forever("Signed checkpoints", turn, logging.getLogger(LOGGER),
                                   retry_s=0), 10)
    assert len(turns) == 6  # it went on after the failures, and ended when told
    assert [r.getMessage() for r in caplog.records] == [
        "Signed checkpoints failed, retrying: OSError: [Errno 28] No space left on device",
        "Signed checkpoints: the same error again (1 times so far)",
        "Signed checkpoints: that error repeated 2 times in all",
        "Signed checkpoints works again",
    ]
    assert caplog.records[0].exc_info  # the traceback once, with the first failure


async def test_the_pause_after_a_failure_grows_while_it_keeps_failing(monkeypatch) -> None:
    pauses: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    failures = iter(range(7))

    async def turn() -> object:
        if next(failures, None) is not None:
            raise ValueError("the database is away")
        return DONE

    await forever("The lease", turn, logging.getLogger(LOGGER), retry_s=0.5, retry_max_s=4)
    assert pauses == [0.5, 1, 2, 4, 4, 4, 4]


async def test_a_turn_that_fails_in_a_new_way_is_logged_again(caplog) -> None:
    caplog.set_level(logging.WARNING, logger=LOGGER)
    errors = iter([OSError("disk I/O error"), PermissionError("read-only")])

    async def turn() -> object:
        error = next(errors, None)
        if error is not None:
            raise error
        return DONE

    await forever("Snapshots", turn, logging.getLogger(LOGGER), retry_s=0)
    assert [r.getMessage() for r in caplog.records] == [
        "Snapshots failed, retrying: OSError: disk I/O error",
        "Snapshots failed, retrying: PermissionError: read-only",
        "Snapshots works again",
    ]


@pytest.mark.parametrize("how", ["returned", "raised"])
async def test_a_task_that_ends_when_it_should_run_on_is_said_loudly(how, caplog,
                                                                     capsys) -> None:
    caplog.set_level(logging.WARNING, logger=LOGGER)

    async def job() -> None:  # a loop of its own, not run by `forever`
        if how == "raised":
            raise OSError(28, "No space left on device")
        return None

    task = start("The log's watch", job(), logging.getLogger(LOGGER))
    await asyncio.wait([task])
    await asyncio.sleep(0)  # the done callback runs
    why = "OSError: [Errno 28] No space left on device" if how == "raised" else "it returned"
    said = f"The log's watch stopped ({why}) and does not run again until the controller is " \
        "restarted"
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [("CRITICAL", said)]
    assert bool(caplog.records[0].exc_info) == (how == "raised")  # with its traceback
    assert f"ERROR: {said}" in capsys.readouterr().out


async def test_a_task_cancelled_at_shutdown_or_that_may_end_is_not_said(caplog,
                                                                        capsys) -> None:
    caplog.set_level(logging.WARNING, logger=LOGGER)

    async def one_off() -> None:
        return None

    async def runs_on() -> None:
        await asyncio.Event().wait()

    cancelled = start("The clock", runs_on(), logging.getLogger(LOGGER))
    finished = start("Preparing payloads", one_off(), logging.getLogger(LOGGER), ends=True)
    await finished
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    await asyncio.sleep(0)
    assert caplog.records == [] and capsys.readouterr().out == ""


#: the tasks made without `start`, and why: each is awaited by the code that made it, or is
#: not the controller's (the wheel's reader is a process of its own that may not import it)
NOT_LONG_LIVED = {
    "controller/demo/run.py": 2,  # the demo script's night and its stop, awaited together
    "controller/demo/night.py": 1,  # a bank's heat played beside the script, awaited
    # the reader's port, link and clock: the first to end stops the others and the process,
    # loudly (controller.wheel.reader.ReaderStopped; tests/wheel/test_reader.py)
    "controller/wheel/reader.py": 3,
}


def test_every_task_of_the_controller_is_started_through_the_guard() -> None:
    # a task made with asyncio.create_task elsewhere would die silently (issue 47)
    root = Path(__file__).resolve().parents[2]
    made = {}
    for path in sorted((root / "controller").rglob("*.py")):
        count = path.read_text(encoding="utf-8").count("create_task(")
        if count and path.name != "background.py":
            made[str(path.relative_to(root))] = count
    assert made == NOT_LONG_LIVED
