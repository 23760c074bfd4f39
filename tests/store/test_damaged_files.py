"""Damaged log files are refused and never made worse: the db and its WAL stay byte-identical,
whether opened by the store or by `showrunner-controller serve` (issue 12)."""

# SQLite's file: damaged and truncated .db files and their WAL, byte for byte (not parametrised)
from __future__ import annotations

import gc
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.application.child_process import ROOT
from controller.application.startup import replayed
from controller.cli.start_check import Checking
from controller.store.sqlite import EventLog, StoreError


def wal_of(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


#: where half the file is gone decides which check sees it first: the open, or the integrity check
REFUSED_TRUNCATED = "not a readable Showrunner event log|is corrupt"


def log_with_wal(directory: Path) -> Path:
    """A copy of a live log whose latest events are still only in its WAL (not checkpointed),
    as a power cut leaves it."""
    source = directory / "live.db"
    log = EventLog.open(source)
    for i in range(300):
        log.append(f"c{i}", "mc", i, [("Thing", 1, {"n": i, "pad": "x" * 200})], {"ok": True},
                   principal="key:mc", digest=f"d{i}")
    log.close()  # checkpointed: the db holds these
    log = EventLog.open(source)
    for i in range(300, 320):
        log.append(f"c{i}", "mc", i, [("Thing", 1, {"n": i})], {"ok": True},
                   principal="key:mc", digest=f"d{i}")
    copy = directory / "show.db"
    shutil.copyfile(source, copy)  # while the connection is open: the WAL is not yet merged
    shutil.copyfile(wal_of(source), wal_of(copy))
    log.close()
    assert wal_of(copy).stat().st_size > 0
    return copy


def serve(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "controller.cli", "serve", "--db", str(path), "--port", "0"],
        capture_output=True, text=True, timeout=60, cwd=ROOT)


def snapshot(*paths: Path) -> list[bytes | None]:
    return [p.read_bytes() if p.exists() else None for p in paths]


def test_a_log_with_its_wal_opens_and_keeps_every_event(tmp_path):
    path = log_with_wal(tmp_path)
    log = EventLog.open(path)
    assert log.last_seq == 320 and log.first_broken_link() is None
    log.close()


def test_a_truncated_db_is_refused_and_it_and_its_wal_are_untouched(tmp_path):
    path = log_with_wal(tmp_path)
    with path.open("r+b") as f:
        f.truncate(path.stat().st_size // 2)
    before = snapshot(path, wal_of(path))
    with pytest.raises(StoreError, match=REFUSED_TRUNCATED):
        EventLog.open(path)
    gc.collect()  # a connection left open would checkpoint or delete the WAL when collected
    assert snapshot(path, wal_of(path)) == before


def test_serve_refuses_a_truncated_db_and_leaves_db_and_wal_byte_identical(tmp_path):
    path = log_with_wal(tmp_path)
    with path.open("r+b") as f:
        f.truncate(path.stat().st_size // 2)
    before = snapshot(path, wal_of(path))
    result = serve(path)
    assert result.returncode == 2
    assert re.search(REFUSED_TRUNCATED, result.stderr), result.stderr
    assert "the file was not changed" in result.stderr
    assert "Traceback" not in result.stderr
    assert snapshot(path, wal_of(path)) == before


@pytest.mark.parametrize("state", ["empty", "missing"])
def test_serve_refuses_an_empty_or_missing_db_beside_a_wal(tmp_path, state):
    path = log_with_wal(tmp_path)
    if state == "empty":
        path.write_bytes(b"")
    else:
        path.unlink()
    before = snapshot(path, wal_of(path))
    result = serve(path)
    assert result.returncode == 2
    assert f"{path} is {state} but show.db-wal beside it may hold the show's events" in (
        result.stderr)
    assert "Traceback" not in result.stderr
    assert snapshot(path, wal_of(path)) == before  # the WAL that holds the events is kept


def test_the_store_refuses_an_empty_db_beside_a_wal_even_to_read(tmp_path):
    path = log_with_wal(tmp_path)
    path.write_bytes(b"")
    for create in (True, False):
        with pytest.raises(StoreError, match="may hold the show's events"):
            EventLog.open(path, create=create)
    with pytest.raises(StoreError, match="may hold the show's events"):
        EventLog.open_read_only(path)  # SQLite's own read-only open deletes that WAL
    assert path.read_bytes() == b"" and wal_of(path).stat().st_size > 0


@pytest.mark.parametrize("damage", ["truncated", "a page overwritten"])
def test_a_start_replaying_beside_its_check_leaves_a_refused_log_byte_identical(tmp_path,
                                                                                damage):
    # the state is replayed on a read-only connection while a forked process checks the file
    # (controller/application/startup.py): the check's refusal is what the start says
    path = log_with_wal(tmp_path)
    with path.open("r+b") as f:
        if damage == "truncated":
            f.truncate(path.stat().st_size // 2)
        else:
            f.seek(path.stat().st_size // 2)
            f.write(b"\xa5" * 4096)
    before = snapshot(path, wal_of(path))
    with pytest.raises(StoreError, match=REFUSED_TRUNCATED):
        replayed(path, lambda: 0, Checking(path))
    gc.collect()  # a connection left open would checkpoint or delete the WAL when collected
    assert snapshot(path, wal_of(path)) == before
