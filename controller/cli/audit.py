"""`audit verify | keygen | checkpoint | export`: check the log, or export it, for an auditor.
Also where a log's checkpoint files are found (beside the db unless given) and how a broken
link is told, which `serve` uses too."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from controller.application.service import wall_clock_ms
from controller.audit.checkpoints import (
    CheckpointError,
    keygen,
    load_private,
    load_public,
    public_path,
    write_checkpoint,
)
from controller.audit.checkpoints import verify as verify_checkpoints
from controller.audit.verify import Finding, check_draws, export, utc
from controller.rehearsal.log import REHEARSAL, log_kind
from controller.store.chain import COVERAGE
from controller.store.sqlite import EventLog


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    audit = sub.add_parser("audit", help="check or export the log for an auditor")
    audit_sub = audit.add_subparsers(dest="audit_command", required=True)
    verify = audit_sub.add_parser("verify", help="check the hash chain (events, acks, keys), "
                                  "every draw's pool and, given, the signed checkpoints")
    verify.add_argument("--db", type=Path, required=True)
    verify.add_argument("--checkpoint", type=Path, help="a checkpoint file (kept by the auditor)")
    verify.add_argument("--public-key", type=Path, help="the checkpoints' public key "
                        "(default: the checkpoint file's name + .pub, else the signing key's)")
    verify.set_defaults(run=_verify)
    new_key = audit_sub.add_parser("keygen", help="create a checkpoint signing key (mode 0600) "
                                   "and its public key FILE.pub for the auditor")
    new_key.add_argument("--out", type=Path, required=True)
    new_key.set_defaults(run=_keygen)
    checkpoint = audit_sub.add_parser("checkpoint", help="sign a checkpoint of the log's end now")
    checkpoint.add_argument("--db", type=Path, required=True)
    checkpoint.add_argument("--key", type=Path, help="signing key (default: DB.checkpoint-key)")
    checkpoint.add_argument("--out", type=Path, help="checkpoint file to append to (default: "
                            "DB.checkpoints)")
    checkpoint.set_defaults(run=_checkpoint)
    exporting = audit_sub.add_parser("export", help="write draws, claims, redraws and scores")
    exporting.add_argument("--db", type=Path, required=True)
    exporting.add_argument("--out", type=Path, required=True, help="directory for CSV and JSON")
    exporting.set_defaults(run=_export)


def beside(db: Path, suffix: str) -> Path:
    """A file kept next to the db: DB.checkpoint-key, DB.checkpoints."""
    return db.with_name(db.name + suffix)


def signing_key(db: Path, given: Path | None) -> Path:
    key = given or beside(db, ".checkpoint-key")
    if key.resolve() == db.resolve():
        raise CheckpointError("the checkpoint signing key must be a file of its own, not the db.")
    return key


def finding(log: EventLog, broken: tuple[int, str]) -> Finding:
    """The log's first broken link, as a finding that names the event (or table) it is in."""
    seq, reason = broken
    table = "users" if reason.startswith("the users table") else "keys"  # seq 0: a table
    return Finding(seq, _type_at(log, seq) if seq else table, reason)


def _type_at(log: EventLog, seq: int) -> str:
    return next((e.type for e in log.read(seq - 1) if e.seq == seq), "missing")


def _verify(args: argparse.Namespace) -> int:
    with EventLog.open(args.db, create=False) as log:
        broken = log.first_broken_link()
        findings = [finding(log, broken)] if broken else []
        draw = check_draws(log.read())
        findings += [draw] if draw else []
        anchor, problem = None, None
        if args.checkpoint is not None:
            anchor, problem = verify_checkpoints(log, args.checkpoint,
                                                 load_public(_public_key(args)))
        count = log.last_seq
        coverage = log.coverage()
        kind = log_kind(log)
    if findings or problem:
        first = min(findings, key=lambda f: f.seq) if findings else None
        lines = [f.sentence() for f in findings if f is not first] + ([problem] if problem else [])
        head = first.sentence() if first else lines.pop()
        print(f"FAILED: {head}", file=sys.stderr)
        for other in lines:
            print(f"also: {other}", file=sys.stderr)
        return 1
    print(f"OK: {count} events; the hash chain is intact and every draw's pool recomputes.")
    if kind == REHEARSAL:
        print("  this is a REHEARSAL log (its show clock was set, docs/rehearsal.md): nothing "
              "in it happened on the floor")
    for scheme, first_seq, last_seq in coverage:
        print(f"  events {first_seq}-{last_seq}: hash scheme {scheme}, the chain covers "
              f"{COVERAGE[scheme]}")
    if anchor is not None:
        print(f"  {anchor.count} signed checkpoints match; the latest vouches for events "
              f"1-{anchor.seq} (signed {utc(anchor.at_ms)})")
        if anchor.seq < count:
            print(f"  events {anchor.seq + 1}-{count} come after the last checkpoint: not yet "
                  "anchored outside the db")
    else:
        print("  no checkpoint file given: a rewrite that recomputes every hash, or a removed "
              "tail, needs --checkpoint to be found")
    return 0


def _public_key(args: argparse.Namespace) -> Path:
    if args.public_key is not None:
        return args.public_key
    next_to = public_path(args.checkpoint)
    return next_to if next_to.exists() else public_path(beside(args.db, ".checkpoint-key"))


def _keygen(args: argparse.Namespace) -> int:
    public = keygen(args.out)
    print(f"signing key written to {args.out} (mode 0600; keep it off the db's disk if you "
          f"can); public key for the auditor: {public}")
    return 0


def _checkpoint(args: argparse.Namespace) -> int:
    key = load_private(signing_key(args.db, args.key))
    out = args.out or beside(args.db, ".checkpoints")
    with EventLog.open(args.db, create=False) as log:
        record = write_checkpoint(log, key, out, wall_clock_ms())
    print(f"checkpoint of event {record['seq']} appended to {out}")
    return 0


def _export(args: argparse.Namespace) -> int:
    with EventLog.open(args.db, create=False) as log:
        if log_kind(log) == REHEARSAL:
            print(f"showrunner-controller: {args.db} is a rehearsal log: its show clock was set "
                  "and nothing in it happened on the floor, so it is not exported for the "
                  "auditor. Export the live show's log.", file=sys.stderr)
            return 1
        counts = export(log.read(), args.out)
    print(f"wrote {counts['events']} events and {counts['draws']} draws to {args.out}")
    return 0
