"""The log written by release 0.1 (tests/fixtures/README.md) replays with today's code.

This guards every future change: an event renamed, a field added or a store format changed
must keep this file opening, every event rebuilding, the views coming out and the chain and
draws verifying. Never regenerate the fixture to make this pass; add an upcaster or a migration.
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from controller.access.keys import Principal
from controller.application.features import build_features
from controller.application.service import Service
from controller.application.show import Show
from controller.audit.verify import check_draws
from controller.cli.main import main
from controller.domain.events import event_from
from controller.store import migrations
from controller.store.principal_ids import CLOCK, LEGACY
from controller.store.sqlite import SCHEMA_VERSION, EventLog

FIXTURE = Path(__file__).parents[1] / "fixtures" / "release-0.1.db"
FIXTURE_SHA256 = "aee46d66d165d5fa36c8610cba762cbc7cd1162bcc61fb7397631e165c855f43"
EVENTS, TYPES = 454, 45
KEYS = 4  # the fixture's keys: the upgrade to format 3 brings each into the chain (KeyIssued)
MC_KEY = "f" * 64  # a key named like the fixture's operator, added before the upgrade


@pytest.fixture
def old_log(tmp_path) -> Path:
    """A copy of the fixture: opening a log upgrades it in place, the fixture must not change."""
    assert hashlib.sha256(FIXTURE.read_bytes()).hexdigest() == FIXTURE_SHA256
    path = tmp_path / "release-0.1.db"
    shutil.copyfile(FIXTURE, path)
    return path


def tables(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as db:
        return [db.execute("PRAGMA user_version").fetchone(),
                *db.execute("SELECT name, sql FROM sqlite_master ORDER BY name"),
                *db.execute("SELECT * FROM acks ORDER BY rowid"),
                *db.execute("SELECT * FROM events ORDER BY seq")]


def test_every_event_rebuilds_and_the_show_replays(old_log):
    log = EventLog.open(old_log)
    stored = list(log.read())
    assert len(stored) == EVENTS + KEYS and len({s.type for s in stored}) == TYPES + 1
    assert [(s.type, s.data["carried_over"]) for s in stored[EVENTS:]] == [("KeyIssued", True)] * 4
    for s in stored:
        event = event_from(s.type, s.version, s.data)
        assert event.type_name == s.type
    service = Service(log, Show(build_features()))
    assert service.replay() == EVENTS + KEYS
    views = service.show.views
    for name in ("leaderboard:slots", "prizes:slots", "draw:wildcard", "leaderboard:roulette",
                 "board:super9", "prizes:poker", "screen:stage-1", "cues"):
        assert views[name].doc and 0 < views[name].revision <= EVENTS, name
    assert views["draw:wildcard"].doc["phase"] != "idle"
    assert views["screen:stage-1"].doc["playlists"]


def test_the_chain_and_every_draw_verify(old_log, capsys, tmp_path, monkeypatch):
    """An auditor needs only the log: a venue config directory with nothing in it is enough."""
    empty = tmp_path / "no-configs"
    empty.mkdir()
    monkeypatch.setenv("SHOWRUNNER_CONFIG_DIR", str(empty))
    log = EventLog.open(old_log)
    assert log.first_broken_link() is None
    assert check_draws(log.read()) is None
    log.close()
    assert main(["audit", "verify", "--db", str(old_log)]) == 0
    out = capsys.readouterr().out
    assert f"OK: {EVENTS + KEYS} events" in out
    # the report says what each part of the log is covered by
    assert f"events 1-{EVENTS}: hash scheme 1, the chain covers the events only" in out
    assert f"events {EVENTS + 1}-{EVENTS + KEYS}: hash scheme 2, the chain covers the events, " \
        "each command's ack" in out


def test_old_rows_keep_their_scheme_and_a_key_slipped_into_the_table_is_caught(old_log):
    log = EventLog.open(old_log)
    assert log.coverage() == [(1, 1, EVENTS), (2, EVENTS + 1, EVENTS + KEYS)]
    log.close()
    with sqlite3.connect(old_log) as db:
        db.execute("INSERT INTO principals (key_hash, role, name, created_ms) VALUES "
                   "(?, 'operator', 'backdoor', 0)", (MC_KEY,))
    log = EventLog.open(old_log)
    assert log.first_broken_link() == (0, "the keys table holds a operator key for 'backdoor' "
                                          f"(hash {MC_KEY[:12]}) that no KeyIssued event issued")


def test_the_upgrade_binds_old_acks_and_the_log_goes_on(old_log):
    with sqlite3.connect(old_log) as db:
        db.execute("INSERT INTO principals (key_hash, role, name, created_ms) VALUES "
                   "(?, 'operator', 'mc-thabo', 0)", (MC_KEY,))
    log = EventLog.open(old_log)
    with sqlite3.connect(old_log) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    service = Service(log, Show(build_features()))
    service.replay()
    mc = Principal("operator", "mc-thabo", "key:" + MC_KEY)
    first = log.ack_for(mc.id, "fx-1")
    assert first is not None and first.digest is None and first.ack["seq"] == 1
    assert log.ack_for(LEGACY + "tech-ayanda", "fx-355") is not None  # no key of that name
    clock = next(s.command_id for s in log.read() if s.command_id.startswith("clock:"))
    assert log.ack_for(CLOCK, clock) is not None
    # a tablet retrying across the upgrade gets its ack; a new command continues the chain
    retry = {"type": "register_member", "command_id": "fx-1",
             "payload": {"card": "1000000", "display_name": "Player0 Surname0"}}
    assert service.execute(retry, mc) == (first.ack, [], [])
    ack, _, _ = service.execute({"type": "register_member", "command_id": "new-1",
                              "payload": {"card": "3000001", "display_name": "Ayanda Zulu"}}, mc)
    assert ack["ok"] and ack["seq"] == EVENTS + KEYS + 2  # the fixture's keys and MC_KEY
    assert log.first_broken_link() is None


def test_an_old_log_gets_an_identity_on_first_open_and_keeps_it(old_log):
    first = EventLog.open(old_log)
    first.close()
    again = EventLog.open(old_log)
    again.close()
    assert len(first.log_id) == 32 and again.log_id == first.log_id


def test_a_failed_upgrade_leaves_the_file_as_it_was(old_log, monkeypatch):
    before = tables(old_log)

    def half_then_fail(db):
        migrations._to_v2(db)
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setitem(migrations.STEPS, 1, half_then_fail)
    with pytest.raises(Exception, match="disk I/O error"):
        EventLog.open(old_log)
    assert tables(old_log) == before
