"""The media of a PostgreSQL log, kept in its database too, so that every controller on it
can send a screen what a technician added at another (each keeps its files in a folder of its
own, on its own PC: controller/store/media.py).

A file is kept in chunks of `CHUNK` bytes, all in one transaction with its whole-file row
last, so a row in `media_files` always means the whole file is there. A controller without
the file copies it down into its folder the first time a screen asks (a temporary file,
checked against its SHA-256, then renamed), and sends its own copy from then on. Each call
uses a connection of its own: they run in worker threads, beside the log's connection.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import psycopg

CHUNK = 1 << 20
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS media_chunks (sha256 TEXT NOT NULL, n INTEGER NOT NULL, "
    "bytes BYTEA NOT NULL, PRIMARY KEY (sha256, n))",
    "CREATE TABLE IF NOT EXISTS media_files (sha256 TEXT PRIMARY KEY, size BIGINT NOT NULL)",
)


class SharedMedia:
    def __init__(self, url: str) -> None:
        self.url = url
        self._made = False

    def _connect(self) -> psycopg.Connection[tuple[object, ...]]:
        conn = psycopg.connect(self.url)
        if not self._made:
            with conn.transaction():
                for statement in SCHEMA:
                    conn.execute(statement)
            self._made = True
        return conn

    def put(self, sha256: str, path: Path) -> None:
        """Keep the file at `path` under its SHA-256 (kept already: nothing changes)."""
        with self._connect() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (sha256,))
            if conn.execute("SELECT 1 FROM media_files WHERE sha256 = %s",
                            (sha256,)).fetchone():
                return
            size = 0
            with path.open("rb") as file, conn.cursor() as cursor:
                for n, chunk in enumerate(iter(lambda: file.read(CHUNK), b"")):
                    cursor.execute("INSERT INTO media_chunks (sha256, n, bytes) "
                                   "VALUES (%s, %s, %s)", (sha256, n, chunk))
                    size += len(chunk)
            conn.execute("INSERT INTO media_files (sha256, size) VALUES (%s, %s)",
                         (sha256, size))

    def copy_down(self, sha256: str, target: Path) -> bool:
        """Write the kept file to `target` (whole and checked, or not at all); False if the
        database holds no such file."""
        with self._connect() as conn:
            if not conn.execute("SELECT 1 FROM media_files WHERE sha256 = %s",
                                (sha256,)).fetchone():
                return False
            target.parent.mkdir(parents=True, exist_ok=True)
            handle, name = tempfile.mkstemp(dir=target.parent, prefix=".copy-")
            digest = hashlib.sha256()
            try:
                with os.fdopen(handle, "wb") as file, conn.cursor(name="chunks") as cursor:
                    cursor.execute("SELECT bytes FROM media_chunks WHERE sha256 = %s "
                                   "ORDER BY n", (sha256,))
                    for (chunk,) in cursor:
                        assert isinstance(chunk, bytes)  # BYTEA
                        file.write(chunk)
                        digest.update(chunk)
                    file.flush()
                    os.fsync(file.fileno())
                if digest.hexdigest() != sha256:
                    raise OSError(f"the database's copy of {sha256} does not hash to it")
                os.replace(name, target)
            finally:
                Path(name).unlink(missing_ok=True)
        return True
