"""An audit trail an outsider can trust (issue 12): the chain covers acks and keys, signed
checkpoints outside the db catch a rewrite with recomputed hashes, a removed tail and a forged
checkpoint, `serve` refuses a broken chain, and a revoked key is refused. On each store, through
the CLI."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

from controller.access.keys import issue_key
from controller.cli.main import main
from controller.store.chain import canonical_json
from controller.store.target import open_log
from tests.audit.test_audit import record_show, rehash, seq_of
from tests.support.stores import by_hand, run_dir


def anchored_show(tmp_path, log_at, capsys):
    """A recorded show, a signing key and a checkpoint of its end, as the auditor keeps them."""
    db, key, checkpoints = log_at, tmp_path / "signing.key", tmp_path / "cp.jsonl"
    record_show(db)
    assert main(["audit", "keygen", "--out", str(key)]) == 0
    assert main(["audit", "checkpoint", "--db", str(db), "--key", str(key),
                 "--out", str(checkpoints)]) == 0
    capsys.readouterr()
    return db, key, checkpoints


def verify(db, checkpoints, key, capsys):
    code = main(["audit", "verify", "--db", str(db), "--checkpoint", str(checkpoints),
                 "--public-key", f"{key}.pub"])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_keygen_writes_a_private_key_only_its_owner_reads_and_never_overwrites(tmp_path, capsys):
    key = tmp_path / "signing.key"
    assert main(["audit", "keygen", "--out", str(key)]) == 0
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert (tmp_path / "signing.key.pub").read_text().startswith("-----BEGIN PUBLIC KEY")
    before = key.read_bytes()
    assert main(["audit", "keygen", "--out", str(key)]) == 2
    assert "never overwritten" in capsys.readouterr().err and key.read_bytes() == before


def test_an_anchored_log_verifies_and_says_what_covers_what(tmp_path, log_at, capsys):
    db, key, checkpoints = anchored_show(tmp_path, log_at, capsys)
    code, out, _ = verify(db, checkpoints, key, capsys)
    assert code == 0
    last = open_log(db).last_seq
    assert f"events 1-{last}: hash scheme 2, the chain covers the events, each command's ack" \
        in out
    assert f"1 signed checkpoints match; the latest vouches for events 1-{last}" in out


def test_moving_the_pick_onto_another_members_ticket_with_rehashed_chain_is_caught(
        tmp_path, log_at, capsys):
    # rule 33: the win moved to another member, pool-consistent, every hash recomputed
    db, key, checkpoints = anchored_show(tmp_path, log_at, capsys)
    seq = seq_of(db, "WildcardDrawn")
    with by_hand(db) as con:
        (data,) = con.execute("SELECT data FROM events WHERE seq = ?", (seq,)).fetchone()
        doc = json.loads(data)
        doc["pick"], doc["card"] = 12, "1000003"  # ticket 13 is 1000003's (docs/draws.md)
        con.execute("UPDATE events SET data = ? WHERE seq = ?", (canonical_json(doc), seq))
    rehash(db)
    assert main(["audit", "verify", "--db", str(db)]) == 0  # the chain alone cannot tell
    capsys.readouterr()
    code, _, err = verify(db, checkpoints, key, capsys)
    last = open_log(db).last_seq
    assert code == 1
    assert f"event {last} does not match the checkpoint on line 1 of cp.jsonl: the log was " \
        "rewritten" in err


def test_an_edited_score_with_rehashed_chain_is_caught(tmp_path, log_at, capsys):
    db, key, checkpoints = anchored_show(tmp_path, log_at, capsys)
    seq = seq_of(db, "TournamentScoreRecorded")
    with by_hand(db) as con:
        (data,) = con.execute("SELECT data FROM events WHERE seq = ?", (seq,)).fetchone()
        con.execute("UPDATE events SET data = ? WHERE seq = ?",
                    (data.replace("500", "5000"), seq))
    rehash(db)
    code, _, err = verify(db, checkpoints, key, capsys)
    assert code == 1 and "the log was rewritten" in err


def test_removing_the_last_event_is_caught(tmp_path, log_at, capsys):
    db, key, checkpoints = anchored_show(tmp_path, log_at, capsys)
    with by_hand(db) as con:
        last = con.execute("SELECT MAX(seq) FROM events").fetchone()[0]
        con.execute("DELETE FROM events WHERE seq = ?", (last,))
    code, _, err = verify(db, checkpoints, key, capsys)
    assert code == 1
    # the chain alone sees the orphaned ack; the checkpoint sees the missing tail
    assert f"names event {last}, which is not in the log: events were removed" in err
    assert f"the log ends at event {last - 1} but the checkpoint on line 1 of cp.jsonl " \
        f"vouches for event {last}: events were removed from the end" in err


def test_removing_the_tail_with_its_acks_is_caught_by_the_checkpoint(tmp_path, log_at, capsys):
    db, key, checkpoints = anchored_show(tmp_path, log_at, capsys)
    with by_hand(db) as con:
        last = con.execute("SELECT MAX(seq) FROM events").fetchone()[0]
        con.execute("DELETE FROM events WHERE seq > ?", (last - 2,))
        for principal, command_id, ack in con.execute(
                "SELECT principal, command_id, ack FROM acks").fetchall():
            if json.loads(ack).get("seq", 0) > last - 2:
                con.execute("DELETE FROM acks WHERE principal = ? AND command_id = ?",
                            (principal, command_id))
    assert main(["audit", "verify", "--db", str(db)]) == 0  # consistent without the anchor
    capsys.readouterr()
    code, _, err = verify(db, checkpoints, key, capsys)
    assert code == 1 and f"vouches for event {last}: events were removed" in err


def test_a_forged_checkpoint_is_caught(tmp_path, log_at, capsys):
    db, key, checkpoints = anchored_show(tmp_path, log_at, capsys)
    record = json.loads(checkpoints.read_text())
    seq = seq_of(db, "WildcardDrawn")
    forged = {**record, "seq": seq, "hash": open_log(db).hash_at(seq)}
    checkpoints.write_text(canonical_json(forged) + "\n")
    code, _, err = verify(db, checkpoints, key, capsys)
    assert code == 1
    assert "FAILED: checkpoint on line 1 of cp.jsonl has a signature that does not verify" in err
    # a checkpoint re-signed with another key is a forgery too
    other = tmp_path / "other.key"
    assert main(["audit", "keygen", "--out", str(other)]) == 0
    checkpoints.unlink()
    assert main(["audit", "checkpoint", "--db", str(db), "--key", str(other),
                 "--out", str(checkpoints)]) == 0
    capsys.readouterr()
    code, _, err = verify(db, checkpoints, key, capsys)
    assert code == 1 and "does not verify with the public key" in err


def test_an_edited_or_removed_ack_breaks_the_chain(log_at, capsys):
    db = log_at
    record_show(db)
    with by_hand(db) as con:
        con.execute("UPDATE acks SET ack = replace(ack, '\"ok\":true', '\"ok\":false') "
                    "WHERE command_id = 'c3'")
        seq = json.loads(con.execute("SELECT ack FROM acks WHERE command_id = 'c3'")
                         .fetchone()[0])["seq"]
    assert main(["audit", "verify", "--db", str(db)]) == 1
    assert f"event {seq} (MemberRegistered): its command's ack does not match its hash" \
        in capsys.readouterr().err
    with by_hand(db) as con:
        con.execute("DELETE FROM acks WHERE command_id = 'c3'")
    assert main(["audit", "verify", "--db", str(db)]) == 1
    assert f"event {seq} (MemberRegistered): its command's ack is missing" \
        in capsys.readouterr().err


def test_keys_are_in_the_chain_and_a_revoked_key_is_refused(log_at, capsys):
    db = log_at
    assert main(["key", "issue", "--db", str(db), "--role", "operator", "--name", "MC tablet"]) == 0
    key = capsys.readouterr().out.strip()
    log = open_log(db)
    (issued,) = list(log.read())
    assert issued.type == "KeyIssued" and key not in json.dumps(issued.data)
    assert issued.data["role"] == "operator" and issued.data["name"] == "MC tablet"
    log.close()
    assert main(["key", "revoke", "--db", str(db), "--name", "MC tablet"]) == 0
    assert "refused from its next connect" in capsys.readouterr().out
    log = open_log(db)
    assert [e.type for e in log.read()] == ["KeyIssued", "KeyRevoked"]
    assert log.principal(issued.data["key_hash"]) is None and log.first_broken_link() is None
    log.close()
    # un-revoking it in the table behind the log's back is caught
    with by_hand(db) as con:
        con.execute("UPDATE principals SET revoked = 0")
    assert main(["audit", "verify", "--db", str(db)]) == 1
    assert "keys: the keys table does not match the log for the operator key of 'MC tablet'" \
        in capsys.readouterr().err


def test_revoke_by_name_needs_one_live_key_and_takes_a_hash_prefix(log_at, capsys):
    db = log_at
    log = open_log(db)
    issue_key(log, "display", "screen", 1)
    issue_key(log, "display", "screen", 2)
    prefix = log.principals()[1].key_hash[:8]
    log.close()
    assert main(["key", "revoke", "--db", str(db), "--name", "screen"]) == 1
    assert "2 live keys are named 'screen'" in capsys.readouterr().err
    assert main(["key", "revoke", "--db", str(db), "--hash", prefix]) == 0
    assert main(["key", "list", "--db", str(db)]) == 0
    listing = capsys.readouterr().out
    assert f"{prefix}" in listing and "revoked" in listing and "live" in listing


def test_serve_refuses_a_broken_chain_with_a_sentence(log_at):
    db = log_at
    record_show(db)
    seq = seq_of(db, "TournamentScoreRecorded")
    with by_hand(db) as con:
        con.execute("UPDATE events SET data = replace(data, '500', '5000') WHERE seq = ?", (seq,))
    result = subprocess.run(
        [sys.executable, "-m", "controller.cli", "serve", "--db", str(db), "--port", "0"],
        cwd=run_dir(db), capture_output=True, text=True, timeout=60, env=os.environ)
    assert result.returncode == 2
    assert f"event {seq} (TournamentScoreRecorded): its content does not match its hash. " \
        "The controller does not start" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
