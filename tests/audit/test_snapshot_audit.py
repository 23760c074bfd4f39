"""`audit verify` checks every snapshot against the state its own replay reaches there."""

from __future__ import annotations

from controller.application import snapshots
from controller.application.features import build_features
from controller.application.show import Show
from controller.cli.main import main
from controller.domain.events import event_from
from controller.domain.members import Members
from controller.store.target import LogAt, open_log
from tests.audit.test_audit import record_show, seq_of


def snapshot_at(db: LogAt, seq: int, forge: bool = False) -> None:
    """The state after event `seq`, folded as start-up does, kept as that event's snapshot;
    `forge`: with one member's name changed, as a hand-edited snapshot would be."""
    with open_log(db) as log:
        show = Show(build_features())
        for stored in log.read():
            if stored.seq > seq:
                break
            show.apply(event_from(stored.type, stored.version, stored.data))
        if forge:
            members = show.feature(Members)
            assert isinstance(members, Members)
            members.by_card["1000004"].display_name = "Somebody Else"
        hash_ = log.hash_at(seq)
        assert hash_ is not None
        log.put_snapshot(seq, hash_, snapshots.FORMAT, 0, snapshots.capture(show))


def test_a_snapshot_that_is_the_fold_of_the_log_verifies(log_at, capsys):
    # rule 33: the auditor's replay from the first event also vouches for the snapshots
    db = log_at
    record_show(db)
    snapshot_at(db, seq_of(db, "WildcardDrawn"))
    assert main(["audit", "verify", "--db", str(db)]) == 0
    assert "1 snapshot(s) of the state match the replay" in capsys.readouterr().out


def test_a_snapshot_whose_state_the_log_does_not_give_fails_verify(log_at, capsys):
    db = log_at
    record_show(db)
    drawn = seq_of(db, "WildcardDrawn")
    snapshot_at(db, drawn, forge=True)
    assert main(["audit", "verify", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"FAILED: event {drawn} (snapshot): the snapshot here: its state is "
                          "not the state the events up to here give"), err
