"""The config a promotion ran under is in the log: replay and audit never read today's files.

Real logs (each store), written through the service and `record_configs` (what the app runs at
start-up); the refusals go through `showrunner-controller serve` in a subprocess.
"""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.access.keys import Principal
from controller.application.configs import record_configs
from controller.application.features import build_features
from controller.application.service import Service
from controller.application.settings import CONFIG_DIR, CONFIG_DIR_ENV
from controller.application.show import Show
from controller.cli.main import main
from controller.promotions.super9 import Super9
from controller.promotions.wildcard import Wildcard
from controller.store.target import LogAt, open_log
from tests.promotions.super9_floor import SESSION, WEDNESDAY, ms
from tests.promotions.wildcard_show import CLOSE, OPEN
from tests.support.stores import run_dir

NUMBERS = [1, 5, 9, 12, 17, 23, 28, 31, 36]


MC = Principal("operator", "mc", "key:mc")


class Venue:
    """A venue's config directory (a copy of the shipped files) and its event log."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, db: LogAt) -> None:
        self.dir = tmp_path / "config"
        shutil.copytree(CONFIG_DIR, self.dir)
        monkeypatch.setenv(CONFIG_DIR_ENV, str(self.dir))
        self.db = db
        self.now = 0
        self.service: Service | None = None

    def edit(self, promotion: str, old: str, new: str) -> None:
        path = self.dir / f"{promotion}.yaml"
        text = path.read_text()
        assert old in text
        path.write_text(text.replace(old, new))

    def start(self) -> Service:
        """What the app does at start-up: replay, then record the venue's configs."""
        self.service = Service(open_log(self.db), Show(build_features()), lambda: self.now)
        self.service.replay()
        record_configs(self.service)
        return self.service

    def send(self, type_: str, payload: dict | None = None, at: int | None = None) -> dict:
        assert self.service is not None
        self.now = at if at is not None else self.now
        ack, _, _ = self.service.execute({"type": type_, "payload": payload or {},
                                       "command_id": f"c{self.service.log.last_seq}"},
                                      MC)
        assert ack["ok"], ack
        return ack

    def stop(self) -> None:
        assert self.service is not None
        self.service.log.close()

    def types(self) -> list[str]:
        log = open_log(self.db)
        try:
            return [e.type for e in log.read()]
        finally:
            log.close()


def serve(db: LogAt, config_dir: Path) -> subprocess.CompletedProcess[str]:
    """`serve` as a venue runs it; only used where it must refuse to start."""
    env = {"PATH": "/usr/bin:/bin", CONFIG_DIR_ENV: str(config_dir)}
    return subprocess.run([sys.executable, "-m", "controller.cli", "serve", "--db", str(db),
                           "--port", "0"], cwd=run_dir(db), env=env, capture_output=True, text=True,
                          timeout=30)


def play_a_super9_session(venue: Venue) -> None:
    venue.start()
    venue.send("super9.sell_ticket", {"ticket": "0421"}, at=ms(f"{WEDNESDAY} 10:00"))
    venue.send("super9.enter_ticket", {"ticket": "0421", "original": NUMBERS,
                                       "duplicate": NUMBERS})
    venue.send("super9.start_session", {"session": SESSION}, at=ms(f"{WEDNESDAY} 19:00"))
    venue.stop()


def test_moving_a_played_super9_session_is_refused_at_start_with_a_sentence(
        tmp_path, log_at, monkeypatch):
    # rule 4: the 19:00 session of 4 June was played; moving Wednesday's 19:00 rewrites history
    venue = Venue(tmp_path, monkeypatch, log_at)
    play_a_super9_session(venue)
    before = venue.types()
    venue.edit("super9", 'wednesday: ["19:00", "21:00"]', 'wednesday: ["19:30", "21:00"]')

    result = serve(venue.db, venue.dir)

    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    sentence = result.stderr.strip()
    assert str(venue.dir / "super9.yaml") in sentence
    assert "key 'sessions.wednesday'" in sentence
    assert "Wednesday 4 June 19:00 session is already in the log" in sentence
    assert "Super9TicketEntered" in sentence
    assert venue.types() == before  # nothing was logged


def test_a_non_conflicting_super9_edit_is_recorded_and_applies_to_what_comes_next(
        tmp_path, log_at, monkeypatch):
    venue = Venue(tmp_path, monkeypatch, log_at)
    play_a_super9_session(venue)
    venue.edit("super9", 'wednesday: ["19:00", "21:00"]', 'wednesday: ["19:00", "21:30"]')
    venue.edit("super9", "ticket_price_cents: 5000", "ticket_price_cents: 6000")

    service = venue.start()
    super9 = service.show.feature(Super9)
    assert isinstance(super9, Super9)
    assert venue.types()[-1] == "PromotionConfigured"
    wednesday = super9.schedule.sessions_on(dt.date.fromisoformat(WEDNESDAY))
    assert [s.id for s in wednesday] == [SESSION, f"{WEDNESDAY}T21:30"]
    venue.send("super9.sell_ticket", {"ticket": "0422"}, at=ms(f"{WEDNESDAY} 19:45"))
    assert (super9.tickets["0421"].price_cents, super9.tickets["0422"].price_cents) == (
        5000, 6000)
    live = {name: view.doc for name, view in service.show.views.items()}
    venue.stop()

    # a second start with the same files logs nothing more
    count = len(venue.types())
    venue.start()
    venue.stop()
    assert len(venue.types()) == count

    # replay reads the log, not the files: an empty config directory changes nothing
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv(CONFIG_DIR_ENV, str(empty))
    replayed = Service(open_log(venue.db), Show(build_features()))
    replayed.replay()
    again = replayed.show.feature(Super9)
    assert isinstance(again, Super9)
    assert again.config.ticket_price_cents == 6000
    assert again.tickets["0421"].price_cents == 5000
    assert {name: view.doc for name, view in replayed.show.views.items()} == live
    replayed.log.close()


def draw_a_wildcard(venue: Venue) -> None:
    """Members with activated tickets, the pool frozen and drawn (rules 33-38)."""
    venue.start()
    for card, name in (("1000001", "Thandi Mokoena"), ("1000002", "Sipho Ndlovu")):
        venue.send("register_member", {"card": card, "display_name": name}, at=OPEN - 1000)
        venue.send("wildcard.activate", {"card": card}, at=OPEN + 1000)
    venue.send("slots.enter", {"card": "1000001"}, at=OPEN + 2000)
    venue.send("slots.record_score", {"entry": "S1", "score": 500}, at=OPEN + 3000)
    venue.send("slots.close_stage", {"stage": "qualifying"}, at=CLOSE)  # rule 17
    venue.send("wildcard.freeze", at=CLOSE)
    venue.send("wildcard.draw", at=CLOSE + 1000)
    venue.stop()


def test_audit_verify_needs_only_the_log(tmp_path, log_at, monkeypatch, capsys):
    # rule 33: an auditor recomputes the draw's pool, here one the venue ran with 2 tickets each
    venue = Venue(tmp_path, monkeypatch, log_at)
    venue.edit("wildcard", "tickets_per_cardholder: 1", "tickets_per_cardholder: 2")
    draw_a_wildcard(venue)
    empty = tmp_path / "auditor"
    empty.mkdir()
    monkeypatch.setenv(CONFIG_DIR_ENV, str(empty))

    assert main(["audit", "verify", "--db", str(venue.db)]) == 0
    assert capsys.readouterr().out.startswith("OK:")


def test_changing_tickets_per_cardholder_after_a_draw_is_not_tampering(
        tmp_path, log_at, monkeypatch, capsys):
    # rules 18.1, 33.1: the pool was frozen with one ticket per cardholder
    venue = Venue(tmp_path, monkeypatch, log_at)
    draw_a_wildcard(venue)
    venue.edit("wildcard", "tickets_per_cardholder: 1", "tickets_per_cardholder: 3")

    assert main(["audit", "verify", "--db", str(venue.db)]) == 0
    assert capsys.readouterr().out.startswith("OK:")

    result = serve(venue.db, venue.dir)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "wildcard.yaml: key 'tickets_per_cardholder' cannot change" in result.stderr
    assert "WildcardPoolFrozen" in result.stderr


def test_a_venue_config_applies_from_the_start_of_a_new_log(tmp_path, log_at, monkeypatch):
    venue = Venue(tmp_path, monkeypatch, log_at)
    venue.edit("wildcard", "tickets_per_cardholder: 1", "tickets_per_cardholder: 2")
    service = venue.start()
    wildcard = service.show.feature(Wildcard)
    assert isinstance(wildcard, Wildcard) and wildcard.config.tickets_per_cardholder == 2
    assert venue.types().count("PromotionConfigured") == 5  # one per promotion
    venue.stop()


@pytest.mark.parametrize(("promotion", "old", "new", "key"), [
    ("super9", "ticket_price_cents: 5000", "ticket_price_cents: .nan", "ticket_price_cents"),
    ("slots", "buy_in: 5000", "buy_in: fifty", "buy_in"),
    ("wildcard", "timezone: Africa/Johannesburg", "timezone: UTC+2", "timezone"),
    ("super9", "consolation_percent: 25", "consolation_percent: 25\ncolour: red", "colour"),
])
def test_a_malformed_config_is_refused_at_start_naming_file_key_and_line(
        tmp_path, log_at, monkeypatch, promotion, old, new, key):
    venue = Venue(tmp_path, monkeypatch, log_at)
    venue.edit(promotion, old, new)
    line = next(n for n, text in enumerate((venue.dir / f"{promotion}.yaml").read_text()
                                           .splitlines(), 1) if text.startswith(f"{key}:"))

    result = serve(venue.db, venue.dir)

    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert f"{venue.dir / promotion}.yaml: key '{key}' (line {line}):" in result.stderr
