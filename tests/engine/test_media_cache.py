"""The screen's media cache on disk: least recently used files go first, never one the
program needs, and a file whose SHA-256 is wrong is never used."""

import hashlib
import time
from pathlib import Path

from showrunner.engine.mediacache import Held, MediaCache, MediaTimings, evictions


def held(name: str, size: int, used: float) -> Held:
    return Held(name, name * 64, size, used)


def test_the_least_recently_used_go_first():
    files = [held("a", 40, used=3.0), held("b", 40, used=1.0), held("c", 40, used=2.0)]
    chosen = evictions(files, keep=set(), needed=50, limit=130)
    assert [f.file for f in chosen] == ["b"]  # 120 + 50 > 130: the oldest use goes
    chosen = evictions(files, keep=set(), needed=90, limit=130)
    assert [f.file for f in chosen] == ["b", "c"]


def test_what_the_program_needs_is_never_evicted():
    files = [held("a", 40, used=3.0), held("b", 40, used=1.0), held("c", 40, used=2.0)]
    chosen = evictions(files, keep={"b" * 64}, needed=50, limit=130)
    assert [f.file for f in chosen] == ["c"]
    assert evictions(files, keep={"a" * 64, "b" * 64, "c" * 64}, needed=50, limit=130) is None
    assert evictions(files, keep=set(), needed=10, limit=130) == []  # room enough already


def test_a_cached_file_whose_hash_is_wrong_is_deleted_and_never_used(tmp_path: Path):
    body = b"the real picture"
    sha = hashlib.sha256(body).hexdigest()
    (tmp_path / sha).write_bytes(b"something else")  # changed on the screen's disk
    cache = MediaCache(tmp_path, "http://127.0.0.1:9", "s1", "key",
                       timings=MediaTimings(retry_first_s=0.05, read_s=1))
    cache.want({sha: {"name": "promo.png", "size": len(body)}})
    cache.start()
    try:
        deadline = time.monotonic() + 10
        while (tmp_path / sha).exists() and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        cache.stop()
    assert not (tmp_path / sha).exists() and not cache.has(sha)
    assert cache.progress() == {"missing": ["promo.png"], "done_bytes": 0,
                                "total_bytes": len(body)}
