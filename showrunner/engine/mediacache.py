"""The screen's media cache: the pictures and videos its playlists need, fetched from the
controller by SHA-256, checked, and kept on disk within a size limit.

The render loop never waits for a download: a worker thread fetches what `want()` was last
told the program needs and is not here yet, one file at a time, into `<sha256>.part`; a cut
download resumes from what the part holds (an HTTP Range request). A finished file is hashed
and used only if its SHA-256 is the one asked for: a wrong or tampered file is deleted and
fetched again. A file found on disk at start is hashed the same way before it is first used.
The cache keeps at most `limit_bytes` on disk: the least recently used files go first, never
one the current program needs (a program that needs more than the limit waits, and says so in
the log and the telemetry). When a file becomes usable the worker calls `arrived()`, so the
loop draws again (the playlist that waited may now play: showrunner.engine.media_gate).
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import logging
import os
import re
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from showrunner.engine.logonce import warn_once

log = logging.getLogger(__name__)

SHA256 = re.compile(r"[0-9a-f]{64}")
PART = ".part"
CHUNK = 256 * 1024
KEY_HEADER = "X-Showrunner-Key"
SCREEN_HEADER = "X-Showrunner-Screen"
DEFAULT_LIMIT_BYTES = 8 * 2**30


@dataclass(frozen=True)
class MediaTimings:
    """How long the worker waits; tests shorten them."""

    read_s: float = 10.0  # no byte for this long: the download is cut (and resumed)
    retry_first_s: float = 1.0
    retry_max_s: float = 30.0

    def retry(self, failures: int) -> float:
        return min(self.retry_max_s, self.retry_first_s * 2 ** min(failures, 10))


@dataclass(frozen=True)
class Wanted:
    """One file the program needs: its name (for the telemetry) and size."""

    name: str
    size: int


class MediaCache:
    """Files named by their SHA-256 in `folder`; see the module's docstring."""

    def __init__(self, folder: Path, url: str, screen: str, key: str,
                 limit_bytes: int = DEFAULT_LIMIT_BYTES,
                 arrived: Callable[[], None] = lambda: None,
                 timings: MediaTimings | None = None) -> None:
        self.folder = folder
        self.url = url.rstrip("/")
        self.screen = screen
        self.key = key
        self.limit_bytes = limit_bytes
        self.arrived = arrived
        self.timings = timings or MediaTimings()
        self._lock = threading.Lock()
        self._work = threading.Event()
        self._stopping = threading.Event()
        self._wanted: dict[str, Wanted] = {}
        self._ready: set[str] = set()  # checked: its SHA-256 is its name
        self._receiving: tuple[str, int] | None = None  # (sha256, bytes held so far)
        self._thread: threading.Thread | None = None
        # no proxy from the environment: the screen talks to its controller directly
        self._http = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    # -- the render thread's side ------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="media", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._work.set()
        if self._thread is not None:
            self._thread.join(5)

    def want(self, needed: Mapping[str, Mapping[str, Any]]) -> None:
        """The files the program needs now (sha256 -> {name, size}): fetched if missing, and
        never evicted while they are wanted."""
        wanted = {sha: Wanted(str(ref.get("name", "")), int(ref.get("size", 0)))
                  for sha, ref in needed.items() if SHA256.fullmatch(sha)}
        with self._lock:
            changed = wanted != self._wanted
            self._wanted = wanted
        if changed:
            self._work.set()

    def has(self, sha256: str) -> bool:
        """Is the file here and checked?"""
        with self._lock:
            return sha256 in self._ready

    def path(self, sha256: str) -> Path:
        return self.folder / sha256

    def used(self, sha256: str) -> None:
        """The file was put to use now (least recently used go first)."""
        with contextlib.suppress(OSError):
            os.utime(self.path(sha256))

    def progress(self) -> dict[str, Any] | None:
        """{missing: [name, ...], done_bytes, total_bytes} of what the program needs, or None
        when all of it is here (the heartbeat's `media`)."""
        with self._lock:
            missing = {sha: w for sha, w in self._wanted.items() if sha not in self._ready}
            if not missing:
                return None
            total = sum(w.size for w in self._wanted.values())
            done = sum(w.size for sha, w in self._wanted.items() if sha in self._ready)
            if self._receiving is not None and self._receiving[0] in missing:
                done += self._receiving[1]
        return {"missing": sorted({w.name or sha[:12] for sha, w in missing.items()}),
                "done_bytes": done, "total_bytes": total}

    # -- the worker ----------------------------------------------------------------------------
    def _run(self) -> None:
        failures = 0
        while not self._stopping.is_set():
            self._work.wait()
            self._work.clear()
            while not self._stopping.is_set():
                try:
                    sha = self._next()
                    if sha is None:
                        failures = 0
                        break
                    self._obtain(sha)
                    failures = 0
                except (OSError, http.client.HTTPException, ValueError) as exc:
                    failures += 1
                    log.warning("media: %s; trying again", exc)
                    if self._stopping.wait(self.timings.retry(failures - 1)):
                        return

    def _next(self) -> str | None:
        """The next wanted file not here yet (or not checked), or None."""
        with self._lock:
            for sha in self._wanted:
                if sha not in self._ready:
                    return sha
        return None

    def _obtain(self, sha: str) -> None:
        """Check the file if it is on disk already, else fetch it; usable once checked."""
        path = self.path(sha)
        if not path.exists():
            self._fetch(sha)
            os.replace(self._part(sha), path)
        if _sha256(path) != sha:
            path.unlink(missing_ok=True)
            raise ValueError(f"the file fetched for {self._name(sha)} is not the one asked for "
                             "(its SHA-256 differs): deleted, fetching it again")
        with self._lock:
            self._ready.add(sha)
            self._receiving = None
        self.used(sha)
        log.info("media: %s is here", self._name(sha))
        self.arrived()

    def _fetch(self, sha: str) -> None:
        """Download into the part file, resuming from what it holds."""
        self.folder.mkdir(parents=True, exist_ok=True)  # made when first needed
        part = self._part(sha)
        held = part.stat().st_size if part.exists() else 0
        with self._lock:
            size = self._wanted[sha].size if sha in self._wanted else 0
        self._make_room(max(0, size - held), sha)
        request = urllib.request.Request(f"{self.url}/media/{sha}", headers={
            KEY_HEADER: self.key, SCREEN_HEADER: self.screen,
            **({"Range": f"bytes={held}-"} if held else {})})
        try:
            response = self._http.open(request, timeout=self.timings.read_s)
        except urllib.error.HTTPError as exc:
            if exc.code == 416 and held:  # the part holds it all already
                return
            if exc.code == 404:
                raise ValueError(f"the controller holds no {self._name(sha)} "
                                 "(it may have been removed)") from None
            raise
        with response:
            mode = "ab" if response.status == 206 else "wb"  # 200: the whole file again
            held = held if mode == "ab" else 0
            with part.open(mode) as file:
                while not self._stopping.is_set():
                    chunk = response.read(CHUNK)
                    if not chunk:
                        break
                    file.write(chunk)
                    held += len(chunk)
                    with self._lock:
                        self._receiving = (sha, held)
                    if size and held > size:
                        raise ValueError(f"the controller sent more of {self._name(sha)} than "
                                         "its size")
        if size and held < size:
            raise OSError(f"the download of {self._name(sha)} stopped at {held} of {size} "
                          "bytes")

    def _make_room(self, needed: int, fetching: str) -> None:
        """Delete the least recently used files the program does not need until `needed`
        more bytes fit in the limit; if they cannot, wait (ValueError, retried)."""
        with self._lock:
            keep = set(self._wanted) | {fetching}
        files = []
        for path in self.folder.iterdir():
            sha = _sha_of(path)
            with contextlib.suppress(OSError):
                if sha is not None:
                    info = path.stat()
                    files.append(Held(path.name, sha, info.st_size, info.st_mtime))
        victims = evictions(files, keep, needed, self.limit_bytes)
        if victims is None:
            warn_once(log, "media-full", "media: the playlists need more than the cache holds "
                      "(%d MiB); raise --media-cache-mb", self.limit_bytes // 2**20)
            raise ValueError(f"no room for {self._name(fetching)} within the cache's limit")
        for victim in victims:
            (self.folder / victim.file).unlink(missing_ok=True)
            with self._lock:
                self._ready.discard(victim.file)
            log.info("media: %s removed from the cache (least recently used)", victim.file)

    def _part(self, sha: str) -> Path:
        return self.folder / f"{sha}{PART}"

    def _name(self, sha: str) -> str:
        with self._lock:
            wanted = self._wanted.get(sha)
        return wanted.name if wanted and wanted.name else sha[:12]


@dataclass(frozen=True)
class Held:
    """A file in the cache's folder (a part file too), as eviction sees it."""

    file: str
    sha256: str
    size: int
    used: float  # when it was last used (its mtime)


def evictions(files: list[Held], keep: set[str], needed: int, limit: int) -> list[Held] | None:
    """The files to delete, least recently used first, so that `needed` more bytes fit in
    `limit`; never one whose SHA-256 is in `keep`. None if even that would not make room."""
    used = sum(f.size for f in files)
    chosen: list[Held] = []
    for held in sorted((f for f in files if f.sha256 not in keep), key=lambda f: f.used):
        if used + needed <= limit:
            break
        chosen.append(held)
        used -= held.size
    return chosen if used + needed <= limit else None


def _sha_of(path: Path) -> str | None:
    """The SHA-256 a cache file is named by (a part file's too), or None for another file."""
    name = path.name.removesuffix(PART)
    return name if SHA256.fullmatch(name) else None


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(1024 * 1024):
            digest.update(chunk)
    return digest.hexdigest()
