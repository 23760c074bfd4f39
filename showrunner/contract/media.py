"""Media a playlist names: which scene parameters hold media names, a name's kind, and a
playlist's names swapped for the files a screen holds.

A playlist names media as a technician added them to the controller (`media: intro.mp4`,
attract `images: [a.jpg, b.jpg]`); the controller resolves each name it holds to its SHA-256
and sends that with the playlist (`media` of a program entry: {name: {sha256, size, kind}}), so
a screen fetches and checks the file by its content, never by its name. A name the controller
does not hold stays as written: the screen looks for it on its own disk, as before.
Pure (no I/O): both sides import it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

PICTURE, VIDEO = "picture", "video"
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
VIDEO_SUFFIXES = (".mp4", ".m4v", ".mov", ".mkv", ".webm")
#: scene parameters whose value (a text, or a list of texts) names media
MEDIA_PARAMS = ("media", "images")
#: the kind each media parameter takes: a video scene's `media`, the attract loop's `images`
PARAM_KINDS = {"media": VIDEO, "images": PICTURE}

Entry = Mapping[str, Any]


def kind_of(name: str) -> str | None:
    """"picture" or "video" by the name's suffix, or None for any other file."""
    lower = name.lower()
    if lower.endswith(PICTURE_SUFFIXES):
        return PICTURE
    if lower.endswith(VIDEO_SUFFIXES):
        return VIDEO
    return None


def param_names(params: Mapping[str, Any]) -> Iterable[tuple[str, str]]:
    """(parameter, name) for every media name in one scene's parameters."""
    for param in MEDIA_PARAMS:
        value = params.get(param)
        values = value if isinstance(value, list) else [value]
        for name in values:
            if isinstance(name, str) and name:
                yield param, name


def scenes_of(playlist: Entry) -> list[Mapping[str, Any]]:
    """The parameters of every scene a playlist may show: its items and its fallback."""
    found = [item.get("params", {}) for item in playlist.get("items", [])]
    fallback = playlist.get("fallback")
    if fallback:
        found.append(fallback.get("params", {}))
    return found


def playlist_names(playlist: Entry) -> list[tuple[str, str]]:
    """(parameter, name) of every media name a playlist uses, each once, in order."""
    return list(dict.fromkeys(pair for params in scenes_of(playlist)
                              for pair in param_names(params)))


def needed(entry: Entry) -> dict[str, Mapping[str, Any]]:
    """sha256 -> {name, size, kind} of the media the controller resolved for a program entry."""
    found: dict[str, Mapping[str, Any]] = {}
    for name, ref in (entry.get("media") or {}).items():
        if isinstance(ref, Mapping) and isinstance(ref.get("sha256"), str):
            found.setdefault(ref["sha256"], {**ref, "name": name})
    return found


def with_files(entry: Entry, file_of: Callable[[str], str]) -> dict[str, Any]:
    """A copy of the entry whose scenes name, instead of each resolved media name, the file
    `file_of(sha256)` that holds it on this screen."""
    refs = {name: ref["sha256"] for name, ref in (entry.get("media") or {}).items()
            if isinstance(ref, Mapping) and isinstance(ref.get("sha256"), str)}
    if not refs:
        return dict(entry)

    def swap(params: Mapping[str, Any]) -> dict[str, Any]:
        out = dict(params)
        for param in MEDIA_PARAMS:
            value = out.get(param)
            if isinstance(value, str) and value in refs:
                out[param] = file_of(refs[value])
            elif isinstance(value, list):
                out[param] = [file_of(refs[v]) if isinstance(v, str) and v in refs else v
                              for v in value]
        return out

    copy = dict(entry)
    copy["items"] = [{**item, "params": swap(item.get("params", {}))}
                     for item in entry.get("items", [])]
    if entry.get("fallback"):
        copy["fallback"] = {**entry["fallback"], "params": swap(entry["fallback"]["params"])}
    return copy
