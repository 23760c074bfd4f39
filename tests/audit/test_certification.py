"""`audit.certify`: the independent auditor's signed certification (CPA regulation 11)."""

from __future__ import annotations

from controller.store.target import LogAt
from tests.audit.night import certify, record_night
from tests.support.stores import by_hand


def rows(db: LogAt) -> list[tuple]:
    with by_hand(db) as con:
        return con.execute("SELECT seq, type, data, hash FROM events ORDER BY seq").fetchall()


def test_an_auditor_certifies_and_the_event_names_them_the_period_and_the_signature(log_at):
    # CPA regulation 11: who certified, when, which period, signed
    db = log_at
    signature = record_night(db, prizes=False)  # certified by "ms-auditor" in it
    certified = [r for r in rows(db) if r[1] == "AuditCertified"]
    assert len(certified) == 1
    assert '"auditor":"ms-auditor"' in certified[0][2]
    assert '"period_from":"2024-01-18"' in certified[0][2]
    assert signature["sha256"] in certified[0][2]


def test_an_operator_may_not_certify_and_nothing_changes(log_at):
    # CPA regulation 11: the certification is the independent auditor's, not the MC's
    db = log_at
    signature = record_night(db, prizes=False)
    before = rows(db)
    ack = certify(db, "operator", signature)
    assert ack["ok"] is False
    assert ack["error"]["code"] == "forbidden"
    assert ack["error"]["message"] == "Only the auditor role may send 'audit.certify'."
    assert rows(db) == before


def test_a_period_that_ends_before_it_starts_is_refused_in_words(log_at):
    db = log_at
    signature = record_night(db, prizes=False)
    before = rows(db)
    ack = certify(db, "auditor", signature, period=("2024-01-19", "2024-01-18"))
    assert ack["error"]["message"] == ("The period ends (2024-01-18) before it starts "
                                       "(2024-01-19).")
    assert rows(db) == before


def test_a_certification_signed_with_no_stored_image_is_refused(log_at):
    # the signature must be an image the controller keeps (POST /signatures), never a made-up
    # reference
    db = log_at
    signature = record_night(db, prizes=False)
    before = rows(db)
    ack = certify(db, "auditor", {**signature, "sha256": "0" * 64})
    assert ack["ok"] is False and ack["error"]["code"] == "unknown_signature", ack
    assert rows(db) == before
