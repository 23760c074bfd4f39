"""`python -m controller.store.keep_snapshot DB SEQ HASH FORMAT AT_MS FILE`: keep the snapshot
in FILE (then removed) in the log DB, a file or a PostgreSQL URL. The controller's forked child
execs this once it has written FILE: a fresh process, so no connection of the controller's
crosses the fork (controller/application/snapshots.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from controller.store.snapshots import write_beside
from controller.store.target import db_arg, is_database, open_log


def main(argv: list[str]) -> int:
    db, seq, hash_, format_, at_ms, file = argv
    blob_file = Path(file)
    try:
        where = db_arg(db)
        if is_database(where):
            with open_log(where, create=False) as log:
                log.put_snapshot(int(seq), hash_, format_, int(at_ms), blob_file.read_bytes())
        else:
            write_beside(Path(db), int(seq), hash_, format_, int(at_ms), blob_file.read_bytes())
    finally:
        blob_file.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
