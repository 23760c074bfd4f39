"""Media that travel: how fast a technician's upload is kept and a screen's cache fetches and
checks it, over loopback.

    python bench/media.py --mb 200 --json

Runs a real controller process on a temporary SQLite file, uploads a file of random bytes (an
MP4 header, so it is kept as a video) with `POST /media` as the CLI does, enrols and authorises
a screen, and lets a `MediaCache` with the screen's key fetch it (download, SHA-256 check,
rename). Prints one JSON object: `upload_s` and `upload_mb_s` (sent, hashed, written, fsynced,
named by the `media.add` command), `fetch_s` and `fetch_mb_s` (until the cache holds it,
checked). Loopback on a shared machine: the figures say where the time goes, not a network's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.access.keys import issue_key
from controller.application.child_process import ControllerProcess
from controller.http.client import add_media, enrol, send
from controller.store.sqlite import EventLog
from showrunner.engine.mediacache import MediaCache


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200, help="the file's size in MiB")
    parser.add_argument("--json", action="store_true", help="JSON only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        source = folder / "intro.mp4"
        with source.open("wb") as out:
            out.write(b"\x00\x00\x00\x18ftypisom")
            for _ in range(args.mb):
                out.write(os.urandom(2**20))
        size = source.stat().st_size
        db = folder / "show.db"
        log = EventLog.open(db)
        tech = issue_key(log, "technician", "bench", 0)
        log.close()
        controller = ControllerProcess(db)
        url = controller.start()
        try:
            began = time.perf_counter()
            status, added = add_media(url, tech, source)
            upload_s = time.perf_counter() - began
            assert status == 200, added
            key, ack = enrol(url, tech, "bench-1", "bench")
            assert ack["ok"] and send(url, tech, "screens.authorise", {"screen": "bench-1"})["ok"]
            cache = MediaCache(folder / "cache", url, "bench-1", key)
            cache.want({added["sha256"]: {"name": "intro.mp4", "size": size}})
            began = time.perf_counter()
            cache.start()
            while not cache.has(added["sha256"]):
                if time.perf_counter() - began > 600:
                    raise SystemExit("the cache did not fetch the file in 10 minutes")
                time.sleep(0.01)
            fetch_s = time.perf_counter() - began
            cache.stop()
            with (folder / "cache" / added["sha256"]).open("rb") as got:
                assert hashlib.file_digest(got, "sha256").hexdigest() == added["sha256"]
        finally:
            controller.stop()
    result = {"mib": args.mb, "upload_s": round(upload_s, 2),
              "upload_mb_s": round(size / 2**20 / upload_s, 1), "fetch_s": round(fetch_s, 2),
              "fetch_mb_s": round(size / 2**20 / fetch_s, 1)}
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
