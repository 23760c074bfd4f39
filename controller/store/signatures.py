"""The `signatures` table: signature images (PNG) kept by their SHA-256, beside the log.

An event names a signature by its reference (`controller/domain/signatures.py`: sha256, size,
strokes); the image itself is personal information and lives only here, so the hash chain
proves which image was signed while no event, view or cue carries it. Content-addressed: the
same image received twice is one row (the first receipt's time and person are kept). Rows are
written by `POST /signatures` (controller/http/signatures.py) and read by the operator's and
auditor's `GET /signatures/<sha256>.png`, the audit report and the retention pack
(docs/signatures.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.store.dialect import Database

SCHEMA = """CREATE TABLE IF NOT EXISTS signatures (
    sha256      TEXT PRIMARY KEY,
    media_type  TEXT NOT NULL,
    width       INTEGER NOT NULL,
    height      INTEGER NOT NULL,
    strokes     INTEGER NOT NULL,
    bytes       INTEGER NOT NULL,
    png         {blob} NOT NULL,
    received_ms {big} NOT NULL,
    received_by TEXT NOT NULL
)"""


@dataclass(frozen=True)
class StoredSignature:
    """One row: the image and what the controller measured of it when it was received."""

    sha256: str
    media_type: str
    width: int
    height: int
    strokes: int
    png: bytes
    received_ms: int
    received_by: str

    def ref(self) -> dict[str, Any]:
        """The reference an event stores (`SignatureRef.data()`): the same fields, same names."""
        return {"sha256": self.sha256, "media_type": self.media_type, "bytes": len(self.png),
                "width": self.width, "height": self.height, "strokes": self.strokes}


_COLUMNS = "sha256, media_type, width, height, strokes, png, received_ms, received_by"


def put(db: Database, row: StoredSignature) -> StoredSignature:
    """Keep `row` unless an image with its SHA-256 is kept already; the row the table holds."""
    db.execute(f"INSERT INTO signatures ({_COLUMNS}, bytes) VALUES (?,?,?,?,?,?,?,?,?) "
               "ON CONFLICT (sha256) DO NOTHING",
               (row.sha256, row.media_type, row.width, row.height, row.strokes, row.png,
                row.received_ms, row.received_by, len(row.png)))
    found = get(db, row.sha256)
    assert found is not None
    return found


def get(db: Database, sha256: str) -> StoredSignature | None:
    """The signature kept under `sha256` (lowercase hex), or None."""
    found = db.execute(f"SELECT {_COLUMNS} FROM signatures WHERE sha256 = ?",
                       (sha256,)).fetchone()
    return _row(found) if found else None


def read_all(db: Database) -> list[StoredSignature]:
    """Every signature kept, oldest receipt first (the retention pack's list)."""
    return [_row(found) for found in db.execute(
        f"SELECT {_COLUMNS} FROM signatures ORDER BY received_ms, sha256")]


def _row(found: tuple[Any, ...]) -> StoredSignature:
    sha, media_type, width, height, strokes, png, received_ms, received_by = found
    return StoredSignature(sha, media_type, width, height, strokes, bytes(png), received_ms,
                           received_by)
