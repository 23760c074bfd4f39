"""A playlist plays on this screen only once its media are here; until then the screen keeps
what it had.

The screen's program (its `screen:<id>` view) lists playlist entries, each with the media the
controller resolved for it (`media`: {name: {sha256, size, kind}}). An entry whose files are
not all in the cache (showrunner.engine.mediacache) is held back: the screen plays what the
rest of its program says, and an older version of the same playlist that the held one was to
replace goes on. An entry that was held and whose media then arrive starts at the next scene
boundary of what the screen shows (at once if that is no playlist's scene), on its own
timeline, so it shows what the rest of its group shows. An entry that was never held (its
media were here when it was first seen, e.g. after a restart) plays as the schedule says. The
entries that play name, for each resolved media name, the cached file itself, so a scene never
looks a name up: it opens the file whose SHA-256 was checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from showrunner.contract.media import needed, with_files
from showrunner.contract.playlist.schedule import Entry, program_slot

Key = tuple[str, str, int, str]


class Files(Protocol):
    """What the gate asks the cache (showrunner.engine.mediacache.MediaCache)."""

    def has(self, sha256: str) -> bool: ...

    def path(self, sha256: str) -> Any: ...

    def used(self, sha256: str) -> None: ...


def key_of(entry: Entry) -> Key:
    return (str(entry.get("name")), str(entry.get("file")), int(entry.get("anchor_ms", 0)),
            str(entry.get("sha256")))


class MediaGate:
    def __init__(self, files: Files) -> None:
        self.files = files
        self._waited: set[Key] = set()  # entries seen without their media
        self._from: dict[Key, int] = {}  # when an entry that waited may start
        self._playing: frozenset[Key] = frozenset()

    def view(self, view: Mapping[str, Any], now_ms: int) -> Mapping[str, Any]:
        """The screen's view as it may play at `now_ms`: entries without their media held
        back, the rest naming their cached files."""
        entries = view.get("playlists") or []
        if not any(entry.get("media") for entry in entries):
            return view
        arriving: list[Key] = []
        held: dict[Key, Entry] = {}
        for entry in entries:
            key = key_of(entry)
            if not all(self.files.has(sha) for sha in needed(entry)):
                self._waited.add(key)
                held[key] = entry
            elif key in self._waited and key not in self._from:
                arriving.append(key)
                held[key] = entry
            elif now_ms < self._from.get(key, now_ms):
                held[key] = entry
        playing = self._program(entries, held)
        if arriving:  # from the next boundary of what shows without them
            slot = program_slot(playing, now_ms)
            start = slot.end_ms if slot.source.startswith("playlist:") else now_ms
            for key in arriving:
                self._from[key] = start
                if start <= now_ms:
                    del held[key]
            playing = self._program(entries, held)
        self._note_use(entries, held)
        return {**view, "playlists": playing}

    def _program(self, entries: list[Entry], held: Mapping[Key, Entry]) -> list[dict[str, Any]]:
        """The entries not held, naming their files; an entry a held one replaces goes on."""
        replaced_by = {(e.get("name"), e.get("anchor_ms")): e for e in held.values()}
        program = []
        for entry in entries:
            if key_of(entry) in held:
                continue
            until = entry.get("until_ms")
            while (successor := replaced_by.get((entry.get("name"), until))) is not None:
                until = successor.get("until_ms")  # the held one's end (None: none yet)
            if until != entry.get("until_ms"):
                entry = {**entry, "until_ms": until}
            program.append(with_files(entry, lambda sha: str(self.files.path(sha))))
        return program

    def _note_use(self, entries: list[Entry], held: Mapping[Key, Entry]) -> None:
        """Mark the files of the entries that newly play as used (the cache evicts the least
        recently used)."""
        playing = frozenset(key_of(e) for e in entries) - set(held)
        for entry in entries:
            if key_of(entry) in playing - self._playing:
                for sha in needed(entry):
                    self.files.used(sha)
        self._playing = playing
