"""The audit trail: a tampered log is caught and named; the export lists every draw's story."""

from __future__ import annotations

import csv
import json

from controller.application.features import build_features
from controller.application.show import Show
from controller.audit.verify import check_draws
from controller.cli.main import main
from controller.domain.commands import Context
from controller.promotions.wildcard import Wildcard
from controller.promotions.wildcard.pool import pool_digest
from controller.store.sqlite import GENESIS, canonical_json, event_hash
from controller.store.target import LogAt, open_log
from tests.promotions.wildcard_show import CLOSE, OPEN, ScriptedRng
from tests.support.stores import by_hand


class Recorder:
    """Drives the real show and appends each command's events to a real log, as the service."""

    def __init__(self, db: LogAt) -> None:
        self.log = open_log(db)
        self.show = Show(build_features())
        self.count = 0

    def send(self, type_, payload=None, *, at, rng=None, actor="mc-thabo"):
        ctx = Context(actor, "operator", at, rng or ScriptedRng())
        self._append(self.show.decide(type_, payload or {}, ctx), actor, at)

    def tick(self, at):
        self._append([e for f in self.show.features for e in f.due(at)], "controller", at)

    def _append(self, events, actor, at):
        if not events:
            return
        self.count += 1
        self.log.append(f"c{self.count}", actor, at, [e.record() for e in events],
                        {"ok": True}, principal=f"key:{actor}", digest=f"c{self.count}")
        for event in events:
            self.show.apply(event)


def record_show(db: LogAt) -> None:
    """Four members in the Wild Card pool, two of them tournament players (two more went
    straight to the final); round 1 unclaimed, round 2 claimed."""
    r = Recorder(db)
    for card, name in (("1000001", "Thandi Mokoena"), ("1000002", "Sipho Ndlovu"),
                       ("1000003", "Lerato Dlamini"), ("1000004", "Pieter van Wyk")):
        r.send("register_member", {"card": card, "display_name": name}, at=OPEN - 1000)
        r.send("wildcard.activate", {"card": card}, at=OPEN + 1000)
    r.send("slots.enter", {"card": "1000001"}, at=OPEN)
    r.send("slots.enter", {"card": "1000002"}, at=OPEN)
    r.send("slots.record_score", {"entry": "S1", "score": 500}, at=OPEN, actor="td-naledi")
    r.send("slots.record_score", {"entry": "S2", "score": 400}, at=OPEN, actor="td-naledi")
    # rule 17: the two highest qualifying scores go straight to the final, out of the pool;
    # qualifying closes before the pool is frozen
    for n, (card, name) in enumerate((("1000005", "Ayanda Khumalo"), ("1000006", "Marius Botha")),
                                     start=3):
        r.send("register_member", {"card": card, "display_name": name}, at=OPEN - 1000)
        r.send("slots.enter", {"card": card}, at=OPEN)
        r.send("slots.record_score", {"entry": f"S{n}", "score": 900 + n}, at=OPEN,
               actor="td-naledi")
    r.send("slots.close_stage", {"stage": "qualifying"}, at=CLOSE)
    r.send("wildcard.freeze", at=CLOSE)
    r.send("wildcard.draw", at=CLOSE + 1000, rng=ScriptedRng(2))  # Thandi
    wildcard = r.show.feature(Wildcard)
    d1 = wildcard.draw
    r.tick(d1.reveal_at_ms)
    r.send("wildcard.redraw", at=d1.claim_deadline_ms)
    r.send("wildcard.draw", at=d1.claim_deadline_ms + 5000, rng=ScriptedRng(7))  # Pieter
    d2 = wildcard.draw
    r.tick(d2.reveal_at_ms)
    r.send("wildcard.claim", {"card_checked": True, "id_checked": True},
           at=d2.reveal_at_ms + 20_000)
    r.log.close()


def rehash(db: LogAt) -> None:
    """What a forger with shell access does after editing rows: recompute every hash."""
    with by_hand(db) as con:
        prev = GENESIS
        for row in con.execute("SELECT seq, command_id, type, version, data, actor, at_ms, "
                               "scheme, ack_hash FROM events ORDER BY seq").fetchall():
            digest = event_hash(prev, *row)
            con.execute("UPDATE events SET prev_hash = ?, hash = ? WHERE seq = ?",
                        (prev, digest, row[0]))
            prev = digest


def rows(db: LogAt) -> list[tuple]:
    with by_hand(db) as con:
        return con.execute("SELECT seq, type, data FROM events ORDER BY seq").fetchall()


def seq_of(db: LogAt, type_: str) -> int:
    return next(seq for seq, t, _ in rows(db) if t == type_)


def test_an_intact_log_verifies(log_at, capsys):
    # rule 33: an auditor recomputes every draw from the log
    db = log_at
    record_show(db)
    assert main(["audit", "verify", "--db", str(db)]) == 0
    assert "hash chain is intact" in capsys.readouterr().out


def test_editing_one_stored_event_fails_verify_and_names_it(log_at, capsys):
    # rule 33: tampering with a draw is detectable
    db = log_at
    record_show(db)
    seq = seq_of(db, "WildcardDrawn")
    with by_hand(db) as con:
        (data,) = con.execute("SELECT data FROM events WHERE seq = ?", (seq,)).fetchone()
        doc = json.loads(data)
        doc["card"] = "1000003"  # give the win to someone else
        con.execute("UPDATE events SET data = ? WHERE seq = ?", (canonical_json(doc), seq))
    assert main(["audit", "verify", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"FAILED: event {seq} (WildcardDrawn):")


def test_a_rehashed_forgery_of_the_pool_is_still_caught(log_at, capsys):
    # rules 18, 33: the pool must be what the activations give, even if the chain is rebuilt
    db = log_at
    record_show(db)
    seq = seq_of(db, "WildcardPoolFrozen")
    with by_hand(db) as con:
        (data,) = con.execute("SELECT data FROM events WHERE seq = ?", (seq,)).fetchone()
        doc = json.loads(data)
        doc["listing"] = [row for row in doc["listing"] if row[0] != "1000002"]
        doc["members"], doc["tickets"] = 3, sum(t for _, t in doc["listing"])
        doc["digest"] = pool_digest(doc["listing"])
        con.execute("UPDATE events SET data = ? WHERE seq = ?", (canonical_json(doc), seq))
    rehash(db)
    assert main(["audit", "verify", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"FAILED: event {seq} (WildcardPoolFrozen): its listing is not")


def test_check_draws_names_a_pick_outside_the_winners_tickets(log_at):
    db = log_at
    record_show(db)
    log = open_log(db)
    events = list(log.read())
    log.close()
    drawn = next(e for e in events if e.type == "WildcardDrawn")
    forged = [e if e is not drawn else type(e)(**{**e.__dict__,
                                                  "data": {**e.data, "pick": 12}})
              for e in events]
    finding = check_draws(forged)
    assert finding is not None and finding.seq == drawn.seq
    assert finding.reason == "its pick does not fall on the winner's tickets"


def test_export_writes_draws_claims_redraws_and_scores(tmp_path, log_at, capsys):
    # rules 39-40: each draw's outcome, cause, operator and time, for the independent auditor
    db = log_at
    record_show(db)
    out = tmp_path / "audit"
    assert main(["audit", "export", "--db", str(db), "--out", str(out)]) == 0
    draws = json.loads((out / "draws.json").read_text())
    assert [(d["round"], d["winner_card"], d["outcome"]) for d in draws] == [
        (1, "1000001", "redrawn"), (2, "1000004", "claimed in person")]
    assert "rule 40" in draws[0]["cause"] and draws[0]["outcome_by"] == "mc-thabo"
    assert draws[0]["pool_tickets"] == 14 and draws[1]["pool_tickets"] == 8
    with (out / "draws.csv").open() as f:
        assert [row["outcome"] for row in csv.DictReader(f)] == ["redrawn", "claimed in person"]
    with (out / "events.csv").open() as f:
        kinds = {(row["kind"], row["actor"]) for row in csv.DictReader(f)}
    assert {("draw", "mc-thabo"), ("claim", "mc-thabo"), ("redraw", "mc-thabo"),
            ("score", "td-naledi"), ("entry", "mc-thabo")} <= kinds
    events = json.loads((out / "events.json").read_text())
    assert events[0]["at_utc"].endswith("Z") and isinstance(events[0]["data"], dict)
