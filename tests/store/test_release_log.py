"""Logs written by released code (tests/fixtures/README.md) replay and verify with today's code.

This guards every future change: an event renamed, a field added or a store format changed
must keep these files opening, every event rebuilding, the views coming out and the chain and
draws verifying. Never regenerate a fixture to make this pass; add an upcaster or a migration.

release-0.1.db is log format 1 (before type names, versions, principals in acks and keys in the
chain): the tests of its upgrade are its own. release-0.2.db (commit 9bb413d, format 3) holds
every event type that release defines but `RehearsalStarted`, which only a rehearsal log holds:
release-0.2-rehearsal.db.
"""

# SQLite's file: the release-migration fixtures are .db files (not parametrised)
from __future__ import annotations

import hashlib
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest

from controller.access.keys import Principal
from controller.access.people import user_principal
from controller.application.features import build_features
from controller.application.service import Service
from controller.application.show import Show
from controller.audit.verify import check_draws
from controller.cli.main import main
from controller.domain.events import event_from
from controller.rehearsal.log import LIVE, REHEARSAL, log_kind, require_kind
from controller.store import migrations
from controller.store.principal_ids import CLOCK, LEGACY
from controller.store.sqlite import SCHEMA_VERSION, EventLog, StoreError

FIXTURES = Path(__file__).parents[1] / "fixtures"


@dataclass(frozen=True)
class Release:
    """One fixture as its release wrote it: pinned bytes, events, types and what replay shows."""

    file: str
    sha256: str
    events: int  # as the release wrote them
    types: int
    kind: str  # live or rehearsal (controller/rehearsal/log.py)
    views: tuple[str, ...]  # views the replayed show must publish, changed by the log
    carried_keys: int = 0  # KeyIssued events the upgrade from format 1 adds (release 0.1)

    @property
    def path(self) -> Path:
        return FIXTURES / self.file


TOURNAMENT_VIEWS = ("leaderboard:slots", "prizes:slots", "draw:wildcard", "leaderboard:roulette",
                    "board:super9", "prizes:poker", "screen:stage-1", "cues")
RELEASE_01 = Release("release-0.1.db",
                     "aee46d66d165d5fa36c8610cba762cbc7cd1162bcc61fb7397631e165c855f43",
                     454, 45, LIVE, TOURNAMENT_VIEWS, carried_keys=4)
RELEASE_02 = Release("release-0.2.db",
                     "c005d2c48341c282b42051b007500c8f53b774c53ce9621224081adbab00aceb",
                     604, 52, LIVE, (*TOURNAMENT_VIEWS, "leaderboard:slots:final",
                                     "leaderboard:roulette:final", "leaderboard:poker:final",
                                     "ops:screens", "venue"))
RELEASE_02_REHEARSAL = Release(
    "release-0.2-rehearsal.db",
    "ee92878eec7b7d7f5db7b52e85c15eaec1516f7724aa7d49d1768d0f244f838a",
    18, 8, REHEARSAL, ("draw:wildcard", "rehearsal", "cues", "venue"))
RELEASES = [pytest.param(r, id=r.file) for r in (RELEASE_01, RELEASE_02, RELEASE_02_REHEARSAL)]

MC_KEY = "f" * 64  # a key named like release 0.1's operator, added before its upgrade


def copy_of(release: Release, tmp_path: Path) -> Path:
    """A copy of the fixture: opening a log upgrades it in place, the fixture must not change."""
    assert hashlib.sha256(release.path.read_bytes()).hexdigest() == release.sha256
    path = tmp_path / release.file
    shutil.copyfile(release.path, path)
    return path


@pytest.fixture
def old_log(tmp_path) -> Path:
    return copy_of(RELEASE_01, tmp_path)


@pytest.fixture
def release_02(tmp_path) -> Path:
    return copy_of(RELEASE_02, tmp_path)


@pytest.fixture
def no_configs(tmp_path, monkeypatch) -> Path:
    """An auditor needs only the log: a venue config directory with nothing in it is enough."""
    empty = tmp_path / "no-configs"
    empty.mkdir()
    monkeypatch.setenv("SHOWRUNNER_CONFIG_DIR", str(empty))
    return empty


def tables(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as db:
        return [db.execute("PRAGMA user_version").fetchone(),
                *db.execute("SELECT name, sql FROM sqlite_master ORDER BY name"),
                *db.execute("SELECT * FROM acks ORDER BY rowid"),
                *db.execute("SELECT * FROM events ORDER BY seq")]


# -- every release's log ----------------------------------------------------------------------
@pytest.mark.parametrize("release", RELEASES)
def test_every_event_rebuilds_and_the_show_replays(release, tmp_path, no_configs):
    log = EventLog.open(copy_of(release, tmp_path))
    with sqlite3.connect(log.path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    total = release.events + release.carried_keys
    stored = list(log.read())
    assert len(stored) == total
    assert len({s.type for s in stored[: release.events]}) == release.types
    for s in stored:
        event = event_from(s.type, s.version, s.data)
        assert event.type_name == s.type
    service = Service(log, Show(build_features()))
    assert service.replay() == total
    views = service.show.views
    for name in release.views:
        assert views[name].doc and 0 < views[name].revision <= total, name
    assert views["draw:wildcard"].doc["phase"] != "idle"
    assert log_kind(log) == release.kind


@pytest.mark.parametrize("release", RELEASES)
def test_the_chain_and_every_draw_verify(release, tmp_path, no_configs, capsys):
    path = copy_of(release, tmp_path)
    log = EventLog.open(path)
    assert log.first_broken_link() is None
    assert check_draws(log.read()) is None
    log.close()
    assert main(["audit", "verify", "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"OK: {release.events + release.carried_keys} events" in out
    assert ("this is a REHEARSAL log" in out) == (release.kind == REHEARSAL)


# -- release 0.2: format 3, every event type of commit 9bb413d --------------------------------
def test_release_02_holds_every_event_type_its_release_defined():
    """The types as the release's event registry listed them (tests/fixtures/README.md)."""
    with sqlite3.connect(f"{RELEASE_02.path.as_uri()}?mode=ro", uri=True) as db:
        live = {t for (t,) in db.execute("SELECT DISTINCT type FROM events")}
    with sqlite3.connect(f"{RELEASE_02_REHEARSAL.path.as_uri()}?mode=ro", uri=True) as db:
        rehearsal = {t for (t,) in db.execute("SELECT DISTINCT type FROM events")}
    assert len(live) == RELEASE_02.types and live | rehearsal == live | {"RehearsalStarted"}
    assert len(live | rehearsal) == 53


def test_release_02_keeps_its_hash_scheme_and_its_signed_checkpoints_match(release_02,
                                                                           no_configs, capsys):
    """The auditor's copies of the checkpoints still vouch for the upgraded log."""
    checkpoints = FIXTURES / "release-0.2.db.checkpoints"
    log = EventLog.open(release_02)
    assert log.coverage()[0] == (2, 1, RELEASE_02.events)
    log.close()
    assert main(["audit", "verify", "--db", str(release_02), "--checkpoint",
                 str(checkpoints)]) == 0
    out = capsys.readouterr().out
    assert f"events 1-{RELEASE_02.events}: hash scheme 2, the chain covers the events, each " \
        "command's ack and every key issued or revoked" in out
    assert f"17 signed checkpoints match; the latest vouches for events 1-{RELEASE_02.events}" \
        in out


def test_release_02_replays_under_the_configs_it_logged(release_02, no_configs):
    """The venue changed poker.yaml's weekly prize before the Showdown (PromotionConfigured):
    replay uses the log's config, not today's files."""
    service = Service(EventLog.open(release_02), Show(build_features()))
    service.replay()
    poker = next(f for f in service.show.features if f.name == "poker")
    assert poker.config.weekly_prize == 750_000  # the shipped file says 500 000
    assert service.show.views["draw:wildcard"].doc["phase"] == "finalist"
    assert service.show.views["board:super9"].doc["status"] == "closed"


def test_release_02_retries_get_their_acks_and_the_log_goes_on(release_02, no_configs):
    log = EventLog.open(release_02)
    service = Service(log, Show(build_features()))
    service.replay()
    mc = Principal("operator", "Thabo Nkosi", user_principal("Thabo Nkosi"))
    first = log.ack_for(mc.id, "fx2-1")
    assert first is not None and first.digest is not None and first.ack["seq"] == 16
    clock = next(s.command_id for s in log.read() if s.command_id.startswith("clock:"))
    assert log.ack_for(CLOCK, clock) is not None
    # a tablet retrying its first command of the night gets the ack it had then
    retry = {"type": "register_member", "command_id": "fx2-1",
             "payload": {"card": "2000001", "display_name": "Thandi Mokoena",
                         "rewards_member": True}}
    assert service.execute(retry, mc) == (first.ack, [], [])
    ack, _, _ = service.execute({"type": "register_member", "command_id": "new-1",
                                 "payload": {"card": "3000001", "display_name": "Ayanda Zulu"}},
                                mc)
    assert ack["ok"] and ack["seq"] == RELEASE_02.events + 1
    assert log.first_broken_link() is None


def test_release_02_rehearsal_log_stays_a_rehearsal(tmp_path):
    """The mark is in the chain: `serve` still refuses the rehearsal log, `rehearse` the live."""
    with EventLog.open(copy_of(RELEASE_02_REHEARSAL, tmp_path)) as rehearsal, \
            pytest.raises(StoreError, match="is a rehearsal log"):
        require_kind(rehearsal, rehearsing=False)
    with EventLog.open(copy_of(RELEASE_02, tmp_path)) as live, \
            pytest.raises(StoreError, match="is a live show's log"):
        require_kind(live, rehearsing=True)


# -- release 0.1: format 1, upgraded on first open ---------------------------------------------
def test_release_01_keys_are_carried_into_the_chain(old_log):
    stored = list(EventLog.open(old_log).read())
    assert len({s.type for s in stored}) == RELEASE_01.types + 1
    assert [(s.type, s.data["carried_over"]) for s in stored[RELEASE_01.events:]] == \
        [("KeyIssued", True)] * RELEASE_01.carried_keys


def test_release_01_report_says_what_each_part_of_the_log_is_covered_by(old_log, no_configs,
                                                                        capsys):
    events, keys = RELEASE_01.events, RELEASE_01.carried_keys
    assert main(["audit", "verify", "--db", str(old_log)]) == 0
    out = capsys.readouterr().out
    assert f"events 1-{events}: hash scheme 1, the chain covers the events only" in out
    assert f"events {events + 1}-{events + keys}: hash scheme 2, the chain covers the events, " \
        "each command's ack" in out


def test_old_rows_keep_their_scheme_and_a_key_slipped_into_the_table_is_caught(old_log):
    events, keys = RELEASE_01.events, RELEASE_01.carried_keys
    log = EventLog.open(old_log)
    assert log.coverage() == [(1, 1, events), (2, events + 1, events + keys)]
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
    events, keys = RELEASE_01.events, RELEASE_01.carried_keys
    assert ack["ok"] and ack["seq"] == events + keys + 2  # the fixture's keys and MC_KEY
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
