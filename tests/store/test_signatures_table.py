"""The `signatures` table beside the log (controller/store/signatures.py): content-addressed,
and added to an older log (format 3) when it is opened, its chain untouched."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from controller.store.signatures import StoredSignature
from controller.store.sqlite import SCHEMA_VERSION, EventLog
from controller.store.target import LogAt, open_log
from tests.support.signatures import signature_png


def row(png: bytes, by: str = "Thandi", at_ms: int = 1) -> StoredSignature:
    return StoredSignature(hashlib.sha256(png).hexdigest(), "image/png", 600, 200, 2, png,
                           at_ms, by)


def test_the_same_image_twice_is_one_row_and_reads_back_whole(log_at: LogAt) -> None:
    with open_log(log_at) as log:
        png = signature_png()
        first = log.put_signature(row(png))
        again = log.put_signature(row(png, by="Sipho", at_ms=2))
        assert again == first and first.received_by == "Thandi"  # the first receipt is kept
        other = log.put_signature(row(signature_png(seed=7), at_ms=5))
        assert [s.sha256 for s in log.signatures()] == [first.sha256, other.sha256]
        assert log.signature(first.sha256) == first and first.png == png
        assert first.ref() == {"sha256": first.sha256, "media_type": "image/png",
                               "bytes": len(png), "width": 600, "height": 200, "strokes": 2}
        assert log.signature("0" * 64) is None


# SQLite's file: a format-3 file (its user_version) upgraded in place
def test_an_older_log_gains_the_table_and_still_verifies(tmp_path: Path) -> None:
    path = tmp_path / "show.db"
    with EventLog.open(path) as log:
        log.append("c1", "mc", 1, [("Something", 1, {"x": 1})], {"ok": True},
                   principal="p", digest=None)
    with sqlite3.connect(path) as db:  # as format 3 left it: no signatures table
        db.execute("DROP TABLE signatures")
        db.execute("PRAGMA user_version = 3")
    with EventLog.open(path) as log:
        assert log.first_broken_link() is None and log.signatures() == []
        log.put_signature(row(signature_png()))
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,) == (4,)
