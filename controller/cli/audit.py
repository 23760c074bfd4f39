"""`audit verify | keygen | checkpoint | export | report`: check the log, export it (or its
retention pack), or make a promotion's PDF record, for an auditor.
Also where a log's checkpoint files are found (beside the db unless given) and how a broken
link is told, which `serve` uses too."""

from __future__ import annotations

import argparse
import datetime as dt
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
from controller.audit.document import PROMOTIONS, Period
from controller.audit.verify import export, utc, verify_log
from controller.rehearsal.log import REHEARSAL, log_kind
from controller.store.chain import COVERAGE
from controller.store.log import StoredLog
from controller.store.target import db_arg, files_of, open_log


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    audit = sub.add_parser("audit", help="check or export the log for an auditor")
    audit_sub = audit.add_subparsers(dest="audit_command", required=True)
    verify = audit_sub.add_parser("verify", help="check the hash chain (events, acks, keys), "
                                  "every draw's pool and, given, the signed checkpoints")
    verify.add_argument("--db", type=db_arg, required=True)
    verify.add_argument("--checkpoint", type=Path, help="a checkpoint file (kept by the auditor)")
    verify.add_argument("--public-key", type=Path, help="the checkpoints' public key "
                        "(default: the checkpoint file's name + .pub, else the signing key's)")
    verify.set_defaults(run=_verify)
    new_key = audit_sub.add_parser("keygen", help="create a checkpoint signing key (mode 0600) "
                                   "and its public key FILE.pub for the auditor")
    new_key.add_argument("--out", type=Path, required=True)
    new_key.set_defaults(run=_keygen)
    checkpoint = audit_sub.add_parser("checkpoint", help="sign a checkpoint of the log's end now")
    checkpoint.add_argument("--db", type=db_arg, required=True)
    checkpoint.add_argument("--key", type=Path, help="signing key (default: DB.checkpoint-key)")
    checkpoint.add_argument("--out", type=Path, help="checkpoint file to append to (default: "
                            "DB.checkpoints)")
    checkpoint.set_defaults(run=_checkpoint)
    exporting = audit_sub.add_parser("export", help="write draws, claims, redraws and scores, "
                                     "or the whole retention pack")
    exporting.add_argument("--db", type=db_arg, required=True)
    where = exporting.add_mutually_exclusive_group(required=True)
    where.add_argument("--out", type=Path, help="directory for CSV and JSON")
    where.add_argument("--pack", type=Path, metavar="OUT", help="the retention pack to keep "
                       "three years (a new directory, or OUT.zip): a PDF per promotion, CSV, "
                       "JSON, signatures, checkpoints and a MANIFEST of SHA-256s")
    exporting.add_argument("--checkpoint", type=Path, help="checkpoint file (default: "
                           "DB.checkpoints)")
    exporting.add_argument("--public-key", type=Path, help="its public key (default: the "
                           "checkpoint file's name + .pub, else the signing key's)")
    exporting.set_defaults(run=_export)
    report = audit_sub.add_parser("report", help="the PDF record of one promotion for the "
                                  "auditor")
    report.add_argument("--db", type=db_arg, required=True)
    report.add_argument("--promotion", required=True, choices=sorted(PROMOTIONS))
    report.add_argument("--from", dest="start", type=_date, metavar="DATE",
                        help="first day reported, YYYY-MM-DD in the venue's calendar")
    report.add_argument("--to", dest="end", type=_date, metavar="DATE",
                        help="last day reported (included)")
    report.add_argument("--out", type=Path, required=True, help="the PDF to write")
    report.add_argument("--checkpoint", type=Path, help="checkpoint file (default: "
                        "DB.checkpoints)")
    report.add_argument("--public-key", type=Path, help="its public key (default: the "
                        "checkpoint file's name + .pub, else the signing key's)")
    report.set_defaults(run=_report)


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date like 2024-01-18") from None


def beside(db: Path, suffix: str) -> Path:
    """A file kept next to the db: DB.checkpoint-key, DB.checkpoints."""
    return db.with_name(db.name + suffix)


def signing_key(db: Path, given: Path | None) -> Path:
    key = given or beside(db, ".checkpoint-key")
    if key.resolve() == db.resolve():
        raise CheckpointError("the checkpoint signing key must be a file of its own, not the db.")
    return key


def _verify(args: argparse.Namespace) -> int:
    with open_log(args.db, create=False) as log:
        verdict = verify_log(log)
        findings = verdict.findings
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
    print(f"OK: {count} events; the hash chain is intact, every draw's pool recomputes and "
          "every signature image is the one signed.")
    if kind == REHEARSAL:
        print("  this is a REHEARSAL log (its show clock was set, docs/rehearsal.md): nothing "
              "in it happened on the floor")
    if verdict.snapshots:
        print(f"  {verdict.snapshots} snapshot(s) of the state match the replay at their event")
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
    if next_to.exists():
        return next_to
    return public_path(beside(files_of(args.db), ".checkpoint-key"))


def _anchoring(args: argparse.Namespace) -> tuple[Path, Path]:
    """The checkpoint file and its public key a report states (the defaults beside the db)."""
    if args.checkpoint is None:
        args.checkpoint = beside(files_of(args.db), ".checkpoints")
    return args.checkpoint, _public_key(args)


def _keygen(args: argparse.Namespace) -> int:
    public = keygen(args.out)
    print(f"signing key written to {args.out} (mode 0600; keep it off the db's disk if you "
          f"can); public key for the auditor: {public}")
    return 0


def _checkpoint(args: argparse.Namespace) -> int:
    key = load_private(signing_key(files_of(args.db), args.key))
    out = args.out or beside(files_of(args.db), ".checkpoints")
    with open_log(args.db, create=False) as log:
        record = write_checkpoint(log, key, out, wall_clock_ms())
    print(f"checkpoint of event {record['seq']} appended to {out}")
    return 0


def _export(args: argparse.Namespace) -> int:
    with open_log(args.db, create=False) as log:
        if log_kind(log) == REHEARSAL:
            print(f"showrunner-controller: {args.db} is a rehearsal log: its show clock was set "
                  "and nothing in it happened on the floor, so it is not exported for the "
                  "auditor. Export the live show's log.", file=sys.stderr)
            return 1
        if args.pack is not None:
            return _pack(log, args)
        counts = export(log.read(), args.out)
    print(f"wrote {counts['events']} events and {counts['draws']} draws to {args.out}")
    return 0


def _pack(log: StoredLog, args: argparse.Namespace) -> int:
    from controller.audit.pack import write_pack  # the PDF library: not for `serve`'s start

    checkpoints, public = _anchoring(args)
    now = wall_clock_ms()
    try:
        files = write_pack(log, args.pack, now, utc(now), checkpoints, public)
    except FileExistsError as exc:
        print(f"showrunner-controller: {exc}", file=sys.stderr)
        return 1
    print(f"wrote the retention pack {args.pack}: {len(files)} files, MANIFEST.txt with their "
          f"SHA-256 and the chain head (event {log.last_seq}); keep it three years "
          "(CPA regulation 11)")
    return 0


def _report(args: argparse.Namespace) -> int:
    from controller.audit.report import report_pdf  # the PDF library: not for `serve`'s start

    checkpoints, public = _anchoring(args)
    with open_log(args.db, create=False) as log:
        if log_kind(log) == REHEARSAL:
            print(f"showrunner-controller: {args.db} is a rehearsal log: nothing in it "
                  "happened on the floor, so there is no record for the auditor.",
                  file=sys.stderr)
            return 1
        pdf = report_pdf(log, args.promotion, Period(args.start, args.end), wall_clock_ms(),
                         checkpoints, public)
    args.out.write_bytes(pdf)
    print(f"wrote {args.out}: the {args.promotion} record for "
          f"{Period(args.start, args.end).words()} ({len(pdf)} bytes)")
    return 0
