"""The media store: each picture or video kept once, as a file named by its SHA-256, in a
folder beside the log (`show.db` -> `show.db.media/`).

Files, not rows: a video is hundreds of megabytes, and a screen fetching one is sent the file
itself with HTTP ranges (aiohttp's FileResponse), so a cut download resumes. What the store
holds is named by the log: a `MediaAdded` event gives a name, the size and the kind of a
SHA-256 here (controller/screens/media.py). An upload is written to a temporary file in the
same folder while it is hashed, and only a complete, checked file is renamed to its SHA-256,
so the store never holds half a file under a real name.

A PostgreSQL log's media are kept in its database too (controller/store/shared_media.py):
the controllers on it are on PCs of their own, and a screen may fetch from any of them.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import psycopg

from controller.store.log import StoredLog
from controller.store.postgres import PostgresEventLog
from controller.store.shared_media import SharedMedia
from showrunner.contract.media import PICTURE, VIDEO

log = logging.getLogger(__name__)
SHA256 = re.compile(r"[0-9a-f]{64}")
SNIFF_BYTES = 16


def media_dir(db_path: Path) -> Path:
    """The store's folder for the log at `db_path`."""
    return db_path.with_name(db_path.name + ".media")


def sniff(head: bytes) -> str | None:
    """The kind of a file by its first bytes: PNG, JPEG or WebP pictures; MP4/QuickTime
    (`ftyp`) or Matroska/WebM (EBML) videos; None for anything else."""
    if head.startswith((b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff")) or (
            head[:4] == b"RIFF" and head[8:12] == b"WEBP"):
        return PICTURE
    if head[4:8] == b"ftyp" or head.startswith(b"\x1a\x45\xdf\xa3"):
        return VIDEO
    return None


@dataclass(frozen=True)
class Kept:
    """A file the store holds: its SHA-256, size in bytes and kind (from its content)."""

    sha256: str
    size: int
    kind: str | None


class Upload:
    """A file being received: written to a temporary file in the store's folder and hashed
    as it comes; `keep()` files it under its SHA-256, `discard()` (or leaving the `with`)
    removes what is left."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(dir=folder, prefix=".upload-")
        self.path = Path(name)
        self._file: BinaryIO = os.fdopen(handle, "wb")
        self._hash = hashlib.sha256()
        self.size = 0
        self.head = b""

    def write(self, chunk: bytes) -> None:
        if len(self.head) < SNIFF_BYTES:
            self.head = (self.head + chunk)[:SNIFF_BYTES]
        self._file.write(chunk)
        self._hash.update(chunk)
        self.size += len(chunk)

    def received(self) -> None:
        """All of it is in: flushed to its file, so a check that opens the file reads it all
        (a small picture otherwise still sits in the write buffer)."""
        self._file.flush()

    @property
    def sha256(self) -> str:
        return self._hash.hexdigest()

    def keep(self, store: MediaStore) -> Kept:
        """File the upload under its SHA-256 (made durable first); the same content kept
        already stays as it was."""
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
        target = store.path(self.sha256)
        os.replace(self.path, target)
        if store.shared is not None:
            try:
                store.shared.put(self.sha256, target)
            except psycopg.Error as exc:
                raise OSError(0, f"the show's database cannot keep it: {exc}") from exc
        return Kept(self.sha256, self.size, sniff(self.head))

    def discard(self) -> None:
        self._file.close()
        self.path.unlink(missing_ok=True)

    def __enter__(self) -> Upload:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.path.exists():
            self.discard()


class MediaStore:
    """The folder of one log's media (and, for a PostgreSQL log, its database's copies)."""

    def __init__(self, folder: Path, shared: SharedMedia | None = None) -> None:
        self.folder = folder
        self.shared = shared

    @classmethod
    def of(cls, log: StoredLog) -> MediaStore:
        shared = SharedMedia(log.address) if isinstance(log, PostgresEventLog) else None
        return cls(media_dir(log.path), shared)

    def bring(self, sha256: str) -> None:
        """Copy the file down from the database if this folder lacks it (another controller
        of the log kept it); blocking: run it in a thread."""
        if self.shared is not None and SHA256.fullmatch(sha256) and self.kept(sha256) is None:
            try:
                self.shared.copy_down(sha256, self.folder / sha256)
            except (psycopg.Error, OSError) as exc:
                log.warning("media %s could not be copied from the database: %s", sha256, exc)

    def upload(self) -> Upload:
        return Upload(self.folder)

    def path(self, sha256: str) -> Path:
        if not SHA256.fullmatch(sha256):
            raise ValueError("a media file is named by its SHA-256: 64 lowercase hex digits")
        return self.folder / sha256

    def kept(self, sha256: object) -> Kept | None:
        """What the store holds under `sha256`, or None (no such file, or not a SHA-256)."""
        if not isinstance(sha256, str) or not SHA256.fullmatch(sha256):
            return None
        path = self.folder / sha256
        try:
            with path.open("rb") as file:
                head = file.read(SNIFF_BYTES)
                size = os.fstat(file.fileno()).st_size
        except OSError:
            return None
        return Kept(sha256, size, sniff(head))
