"""The log's health as operators and technicians see it (`ops:log`): what the check of the
whole log that runs while the controller serves found (issue 47).

A start checks the tail it folds and leaves the rest (an SQLite file's every page, every link
before the snapshot) to a check in the background (controller/cli/start_check.py). What that
finds must never go unsaid: a damaged log is put on the console and on the technicians'
/screens page (a banner on every page of /control: controller/web/link.js), on the
controller's output and in its log, naming the event. The show goes on from the state the
start loaded: what to do about a damaged log is the technician's and the auditor's call. Like
`ops:devices`, a live view: nothing of it is an event.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from controller.audit.whole_check import WholeCheck
from controller.realtime.hub import Hub
from showrunner.contract.words import printable

VIEW = "ops:log"
MAX_SENTENCE = 500
logger = logging.getLogger(__name__)


async def report_whole_check(hub: Hub, whole: Callable[[], Awaitable[WholeCheck]],
                             log_name: str) -> None:
    """Say that the whole log (`log_name`) is being checked, then what the check found."""
    _put(hub, "checking", "The whole log (every page and every link) is being checked beside "
         "the show; the start checked the events after its snapshot.")
    try:
        found = await whole()
    except Exception as exc:
        sentence = f"The whole log could not be checked ({type(exc).__name__}: {exc})."
        _put(hub, "unchecked", sentence)
        logger.error("%s", sentence, exc_info=exc)
        print(f"ERROR: {sentence}", flush=True)
        return
    if found.problem is None:
        _put(hub, "intact", f"The whole log was checked: intact up to event {found.checked_to}.",
             checked_to=found.checked_to)
        print(f"log check: the whole log is intact up to event {found.checked_to} (every page "
              f"and link, {found.took_s:.1f} s)", flush=True)
        return
    sentence = (f"THE SHOW LOG IS DAMAGED: {found.problem}. The show goes on from the state "
                "the controller started with; tell the technician: keep the log as it is and "
                f"run `showrunner-controller audit verify --db {log_name}`.")
    _put(hub, "damaged", sentence, seq=found.seq, checked_to=found.checked_to)
    logger.critical("%s", sentence)
    print(f"ERROR: {sentence}", flush=True)


def _put(hub: Hub, state: str, sentence: str, seq: int = 0, checked_to: int = 0) -> None:
    service = hub.service
    doc: dict[str, Any] = {"state": state, "sentence": printable(sentence)[:MAX_SENTENCE],
                           "seq": seq, "checked_to": checked_to, "since_ms": service.clock()}
    view = service.show.put_live(VIEW, doc, service.log.last_seq)
    if view is not None:
        hub.publish([view])
