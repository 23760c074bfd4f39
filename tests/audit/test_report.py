"""The auditor's PDF, its retention pack, and verify's check of every signature image.

Each PDF is read the way a person would: its text with `pdftotext`, its images with
`pdfimages -list`, its pages with `pdftoppm`.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from controller.cli.main import main
from controller.domain.awards import cash_prize
from controller.store.target import LogAt, files_of, open_log
from tests.audit.night import (
    append,
    keep_signature,
    receipt_png,
    record_night,
    signature_png,
)
from tests.promotions.super9_floor import SESSION, ms
from tests.support.busy import Busy
from tests.support.prize_signature import kept_signature
from tests.support.stores import by_hand

FIXTURE = Path(__file__).parents[1] / "fixtures" / "release-0.1.db"


def text_of(pdf: Path) -> str:
    done = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True,
                          check=True, text=True)
    return " ".join(done.stdout.split())  # words as read, whatever the columns


def images_of(pdf: Path) -> list[list[str]]:
    """`pdfimages -list` rows: page, num, type, width, height, ..."""
    done = subprocess.run(["pdfimages", "-list", str(pdf)], capture_output=True, check=True,
                          text=True)
    return [line.split() for line in done.stdout.splitlines()[2:]]


def signature_images(pdf: Path) -> list[list[str]]:
    """The 400x150 signature pad images (not the venue's logo)."""
    return [row for row in images_of(pdf) if row[2] == "image" and row[3:5] == ["400", "150"]]


def report(db: LogAt, out: Path, *extra: str) -> int:
    return main(["audit", "report", "--db", str(db), "--promotion", "wildcard",
                 "--out", str(out), *extra])


@pytest.fixture
def night(log_at) -> tuple[LogAt, dict]:
    return log_at, record_night(log_at)


@pytest.fixture
def certified(log_at) -> tuple[LogAt, dict]:
    """A night that replays with the features on this branch (no prize events yet)."""
    return log_at, record_night(log_at, prizes=False)


def test_the_report_shows_winners_draws_prizes_in_rand_and_the_chain_head(night, tmp_path):
    # wildcard rules 33, 39-41: pool size, digest, pick, winner, the redraw and why
    db, _ = night
    out = tmp_path / "wildcard.pdf"
    assert report(db, out) == 0
    with open_log(db) as log:
        head, seq = log.last_hash, log.last_seq
    text = text_of(out)
    assert "Wild Card draw" in text and "Showrunner Casino" in text
    assert "Thandi M." in text and "Pieter W." in text  # the two rounds' winners
    assert "\u2022\u2022\u2022\u2022 0004" in text and "1000004" not in text  # cards masked
    assert "4 members, 14 tickets" in text and "rule 40" in text
    assert "R1\u00a0500" in text or "R1 500" in text  # slots rule 43: the amount in rand
    assert "cash, by mc-thabo" in text and "\u2022\u2022\u20220123" in text
    assert "a seat in the Final" in text and "seat handed over when awarded" in text
    assert "Thu 18 Jan 2024 18:00:01" in text  # the venue's clock (UTC+2), not UTC 16:00
    assert "mc-thabo" in text and "td-naledi" not in text  # td-naledi scored slots, not this
    assert "ms-auditor certified 18 January 2024 to 19 January 2024" in text
    assert head in text and f"event {seq}" in text
    assert "showrunner-controller audit verify" in text
    # the rules in force: the logged config's digest
    assert "Config SHA-256" in text and "draw day 2024-01-18" in text


def test_the_paid_prize_and_the_certification_carry_their_signature_images(night, tmp_path):
    # slots rule 44 / super 9 rule 26 / poker rule 55: winners sign for receipt
    db, signature = night
    out = tmp_path / "wildcard.pdf"
    assert report(db, out) == 0
    assert len(signature_images(out)) == 2  # the receipt and the auditor's certification
    assert signature["sha256"] in text_of(out)
    pages = tmp_path / "page"
    subprocess.run(["pdftoppm", "-r", "50", "-png", str(out), str(pages)], check=True,
                   capture_output=True)
    assert len(list(tmp_path.glob("page-*.png"))) >= 2


def test_a_period_reports_only_its_days(night, tmp_path):
    db, _ = night
    out = tmp_path / "later.pdf"
    assert report(db, out, "--from", "2024-01-19", "--to", "2024-01-19") == 0
    text = text_of(out)
    assert "19 January 2024 to 19 January 2024" in text  # the venue's way, not an ISO date
    assert "No draw in the period." in text  # the draw was on the 18th
    assert "cash, by mc-thabo" not in text  # the award, on the 18th, is not in it


def test_the_pack_holds_reports_trail_signatures_checkpoints_and_a_true_manifest(night,
                                                                                 tmp_path):
    # CPA regulation 11: the rules, who conducted it and the winners, kept three years
    db, signature = night
    receipt = hashlib.sha256(receipt_png()).hexdigest()
    beside = files_of(db)  # show.db, or the database's name in the folder the test runs in
    assert main(["audit", "keygen", "--out", f"{beside}.checkpoint-key"]) == 0
    assert main(["audit", "checkpoint", "--db", str(db)]) == 0
    out = tmp_path / "pack.zip"
    assert main(["audit", "export", "--db", str(db), "--pack", str(out)]) == 0
    folder = tmp_path / "unpacked"
    with zipfile.ZipFile(out) as archive:
        archive.extractall(folder)
    names = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}
    assert {"reports/wildcard.pdf", "events.csv", "events.json", "draws.csv", "draws.json",
            f"signatures/{signature['sha256']}.png", f"signatures/{receipt}.png",
            f"checkpoints/{beside.name}.checkpoints",
            f"checkpoints/{beside.name}.checkpoint-key.pub", "README.txt", "MANIFEST.txt"} <= names
    assert f"{beside.name}.checkpoint-key" not in {Path(n).name for n in names}  # never the secret
    assert "three years" in (folder / "README.txt").read_text()
    assert "regulation 11" in (folder / "README.txt").read_text()
    manifest = (folder / "MANIFEST.txt").read_text().splitlines()
    with open_log(db) as log:
        assert manifest[0] == f"# chain head: event {log.last_seq}, hash {log.last_hash}"
    listed = {}
    for line in manifest:
        if not line.startswith("#"):
            digest, name = line.split("  ", 1)
            listed[name] = digest
    assert set(listed) == names - {"MANIFEST.txt"}
    for name, digest in listed.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name
    image = (folder / "signatures" / f"{signature['sha256']}.png").read_bytes()
    assert hashlib.sha256(image).hexdigest() == signature["sha256"]
    assert "signed checkpoints" in text_of(folder / "reports" / "wildcard.pdf")
    events = json.loads((folder / "events.json").read_text())
    kinds = {(e["type"], e["kind"]) for e in events}
    assert {("PrizeAwarded", "prize"), ("PrizePaid", "payment"),
            ("AuditCertified", "certification")} <= kinds


def test_a_pack_is_not_written_into_a_folder_that_holds_files(certified, tmp_path, capsys):
    db, _ = certified
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "mine.txt").write_text("keep")
    assert main(["audit", "export", "--db", str(db), "--pack", str(tmp_path / "busy")]) == 1
    assert "not empty" in capsys.readouterr().err
    assert [p.name for p in (tmp_path / "busy").iterdir()] == ["mine.txt"]


def seq_of(db: LogAt, type_: str) -> int:
    with by_hand(db) as con:
        return con.execute("SELECT seq FROM events WHERE type = ?", (type_,)).fetchone()[0]


def test_verify_holds_with_every_signature_image_kept(certified, capsys):
    db, _ = certified
    assert main(["audit", "verify", "--db", str(db)]) == 0
    assert "every signature image is the one signed" in capsys.readouterr().out


def test_verify_names_the_event_whose_signature_image_was_swapped(certified, capsys):
    # the signature's SHA-256 is in the event, so the chain proves the image: a swap is caught
    db, signature = certified
    with by_hand(db) as con:
        (png,) = con.execute("SELECT png FROM signatures WHERE sha256 = ?",
                             (signature["sha256"],)).fetchone()
        forged = bytes(png[:-20]) + b"\0" * 20
        con.execute("UPDATE signatures SET png = ? WHERE sha256 = ?",
                    (forged, signature["sha256"]))
    assert main(["audit", "verify", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"FAILED: event {seq_of(db, 'AuditCertified')} (AuditCertified): "
                          "the stored signature image")
    assert "changed after it was signed" in err


def test_verify_names_the_payment_whose_receipt_signature_was_swapped(night, capsys):
    # slots rule 44 (super 9 rule 26, poker rule 55): the winner signs for receipt; the chain
    # proves which image, so a receipt swapped in the store is named by its payment
    db, _ = night
    receipt = hashlib.sha256(receipt_png()).hexdigest()
    with by_hand(db) as con:
        con.execute("UPDATE signatures SET png = ? WHERE sha256 = ?", (signature_png(60), receipt))
    assert main(["audit", "verify", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"FAILED: event {seq_of(db, 'PrizePaid')} (PrizePaid): the stored "
                          f"signature image {receipt[:12]}… does not hash to that SHA-256")


def test_verify_holds_for_a_night_with_prizes_paid(night, capsys):
    db, _ = night
    assert main(["audit", "verify", "--db", str(db)]) == 0, capsys.readouterr().err


def test_verify_names_the_event_whose_signature_image_is_gone(certified, capsys):
    db, signature = certified
    with by_hand(db) as con:
        con.execute("DELETE FROM signatures WHERE sha256 = ?", (signature["sha256"],))
    assert main(["audit", "verify", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"FAILED: event {seq_of(db, 'AuditCertified')} (AuditCertified): "
                          "the signature image it names")


# SQLite's file: a release's .db fixture, upgraded in place
def test_the_release_0_1_log_still_verifies_and_reports(tmp_path, capsys):
    db = tmp_path / "release-0.1.db"
    shutil.copyfile(FIXTURE, db)  # opening may upgrade it in place
    assert main(["audit", "verify", "--db", str(db)]) == 0
    for promotion in ("wildcard", "slots", "roulette", "super9", "poker"):
        out = tmp_path / f"{promotion}.pdf"
        assert main(["audit", "report", "--db", str(db), "--promotion", promotion,
                     "--out", str(out)]) == 0
        assert out.read_bytes().startswith(b"%PDF")
    assert "No signature" not in text_of(tmp_path / "wildcard.pdf")
    assert "The decline-to-attend register" in text_of(tmp_path / "wildcard.pdf")
    assert "Numbers called" in text_of(tmp_path / "super9.pdf")
    assert "not signed" in text_of(tmp_path / "slots.pdf")  # no score was acknowledged then


# SQLite's file: a release's .db fixture and its checkpoints beside it
def test_the_release_0_2_log_reports_with_its_signed_checkpoints(tmp_path):
    # a fixture of the release before this one: every promotion reports, and the chain page
    # says its checkpoints verify with their public key
    fixtures = FIXTURE.parent
    for name in ("release-0.2.db", "release-0.2.db.checkpoints",
                 "release-0.2.db.checkpoints.pub"):
        shutil.copyfile(fixtures / name, tmp_path / name)
    db = tmp_path / "release-0.2.db"
    checkpoints = ["--checkpoint", str(tmp_path / "release-0.2.db.checkpoints")]
    assert main(["audit", "verify", "--db", str(db), *checkpoints]) == 0
    for promotion in ("wildcard", "slots", "roulette", "super9", "poker"):
        out = tmp_path / f"{promotion}.pdf"
        assert main(["audit", "report", "--db", str(db), "--promotion", promotion,
                     "--out", str(out), *checkpoints]) == 0
        text = text_of(out)
        assert "signed checkpoints in release-0.2.db.checkpoints verify" in text, promotion


# SQLite's file: written on top of a release's .db fixture
def test_a_signed_score_sheet_a_dispute_and_a_ticket_change_are_in_the_report(tmp_path):
    # roulette rules 17-18 (a dispute within the spin, the score sheet signed at the heat's
    # end), poker 20/35/51, super 9 rule 23 (a ticket change signed off by the Director):
    # the events helper "sig" records, read by type name as the log holds them
    db = tmp_path / "release-0.1.db"
    shutil.copyfile(FIXTURE, db)
    ref = keep_signature(db, signature_png())
    at = 1_721_040_000_000  # 15 July 2024, in the roulette heats' day
    with open_log(db) as log:
        append(log, "ack-R1", "mc-thabo", at, [("TournamentScoreAcknowledged", 1, {
            "promotion": "roulette", "entry": "R1", "score": 2000, "signature": ref,
            "at_ms": at})])
        append(log, "dispute", "mc-thabo", at, [("RouletteDisputeRecorded", 1, {
            "heat": "Heat 1", "spin": 3, "card": "1000001", "what": "the chips were on 17",
            "decision": "rejected", "decided_by": "td-naledi",
            "signature": ref, "at_ms": at})])
        append(log, "change", "td-naledi", 1_749_024_000_000, [("Super9TicketChanged", 1, {
            "ticket": "0421", "old": [1, 2, 3, 4, 5, 6, 7, 8, 9],
            "new": [1, 2, 3, 4, 5, 6, 7, 8, 10], "director": "td-naledi", "signature": ref,
            "at_ms": 1_749_024_000_000})])
    roulette, super9 = tmp_path / "roulette.pdf", tmp_path / "super9.pdf"
    for promotion, out in (("roulette", roulette), ("super9", super9)):
        assert main(["audit", "report", "--db", str(db), "--promotion", promotion,
                     "--out", str(out)]) == 0
    text = text_of(roulette)
    assert " signed" in text.replace("not signed", "") and "not signed" in text
    assert "spin 3" in text and "the chips were on 17" in text
    assert "Decided by td-naledi: rejected." in text
    assert len(signature_images(roulette)) == 2  # R1's on the score sheet, and the dispute's
    text = text_of(super9)
    assert "1 2 3 4 5 6 7 8 9 -> 1 2 3 4 5 6 7 8 10" in text
    assert "signed off by td-naledi (rule 23)" in text
    assert len(signature_images(super9)) == 1


def test_a_prize_paid_through_the_service_is_in_the_report_with_its_signature(tmp_path,
                                                                              log_at):
    # slots rules 43-45: the prize, its deadline and its payment; rule 44: the winner's
    # signature, kept in the store by POST /signatures, is the image on the prize page
    busy = Busy(log_at)
    busy.service.record("test:award", [cash_prize(
        "slots-final-1", "slots", "1000001", 120_000, "Slots PAYOFF Final, place 1",
        "slots rules 43-45", busy.now, 15)])
    signature = kept_signature(busy.log, busy.now)
    ack, _ = busy.send("prizes.pay", {
        "prize": "slots-final-1", "card": "1000001", "cents": 120_000, "method": "eft",
        "id_type": "SA ID", "id_last4": "0087", "signature": signature})
    assert ack["ok"], ack
    out = tmp_path / "slots.pdf"
    assert main(["audit", "report", "--db", busy.log.address, "--promotion", "slots",
                 "--out", str(out)]) == 0
    busy.log.close()
    text = text_of(out)
    assert "Thandi M. (\u2022\u2022\u2022\u2022 0001)" in text
    assert "R1 200 (Slots PAYOFF Final, place 1)" in text  # rand (its no-break space read as one)
    assert "eft, by operator-1; SA ID \u2022\u2022\u20220087" in text
    assert signature["sha256"] in text
    images = [row for row in images_of(out) if row[2] == "image"]
    assert [row[3:5] for row in images if row[3:5] == ["600", "200"]] == [["600", "200"]]
    page = next(int(row[0]) for row in images if row[3:5] == ["600", "200"])
    on_page = subprocess.run(["pdftotext", "-raw", "-f", str(page), "-l", str(page), str(out),
                              "-"], capture_output=True, check=True, text=True).stdout
    assert "Prizes" in on_page  # the image is on the prize page


def test_a_super9_session_is_named_in_words_never_by_its_id(tmp_path, log_at):
    # super9 rule 4: the Wednesday 19h00 session; the auditor reads it as the floor names it
    # ("Wednesday 4 June 19:00", the venue's clock), in its sessions and its wins (rule 20)
    busy = Busy(log_at)
    numbers = list(range(1, 10))
    for command, payload in (
            ("super9.enter_ticket", {"ticket": "0421", "original": numbers,
                                     "duplicate": numbers}),
            ("super9.start_session", {"session": SESSION}),
            *(("super9.spin", {"number": n}) for n in numbers),
            ("super9.confirm_win", {})):
        if command == "super9.start_session":
            busy.now = ms(SESSION.replace("T", " "))
        ack, _ = busy.send(command, payload)
        assert ack["ok"], (command, ack)
    out = tmp_path / "super9.pdf"
    assert main(["audit", "report", "--db", busy.log.address, "--promotion", "super9",
                 "--out", str(out)]) == 0
    busy.log.close()
    text = text_of(out)
    assert text.count("Wednesday 4 June 19:00") == 3  # the session, its win and its prize
    assert SESSION not in text and "2025-06-04T" not in text  # never the id, nor a part of it
