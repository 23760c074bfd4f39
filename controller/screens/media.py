"""The media catalogue: which pictures and videos the controller holds, by name, folded from
`MediaAdded` events (a technician added media X).

A file is kept once by its SHA-256 (controller/store/media.py); a name means the content last
added under it, so adding `intro.mp4` again with new content is its new version, and the same
content added under two names is one file with two names. A playlist names media by name; at
assignment each name the catalogue holds is resolved to {sha256, size, kind} and kept in the
`PlaylistAssigned` event, so a screen fetches exactly that content and a later version of a
name changes no playlist already assigned (assign it again to play the new one).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypeAlias

from pydantic import Field, StrictInt, StrictStr

from controller.domain.commands import Command, Context, payload
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.feature import Handler
from showrunner.contract.fields import PRINTABLE
from showrunner.contract.media import (
    PARAM_KINDS,
    PICTURE_SUFFIXES,
    VIDEO_SUFFIXES,
    kind_of,
    playlist_names,
)

MEDIA_VIEW = "ops:media"
MAX_NAME = 100
#: the largest file kept: a minute of 4K H.264 at 50 Mbit/s is about 375 MB
MAX_MEDIA_BYTES = 1024 * 1024 * 1024

MediaName: TypeAlias = Annotated[StrictStr, Field(min_length=1, max_length=MAX_NAME), PRINTABLE]
Sha256: TypeAlias = Annotated[StrictStr, Field(pattern=r"^[0-9a-f]{64}$")]


@dataclass(frozen=True)
class MediaAdded(DomainEvent, type_name="MediaAdded"):
    name: str
    sha256: str
    size: int
    kind: str
    added_ms: int
    added_by: str


@payload
class Upload:
    """A file the controller received and keeps (the service checks it holds it)."""

    sha256: Sha256
    size: Annotated[StrictInt, Field(ge=1)]
    kind: StrictStr


@payload
class AddMedia:
    name: MediaName
    upload: Upload


def check_name(name: str) -> str:
    """The kind the name says, or `Rejected` in words: a file name, no folders, with the
    suffix of a picture or a video."""
    if "/" in name or "\\" in name or name.startswith(".") or name != name.strip():
        raise Rejected("bad_media_name", f"{name!r} is not a media name: give a plain file "
                       "name, without folders or a leading dot (e.g. intro.mp4).")
    kind = kind_of(name)
    if kind is None:
        raise Rejected("unknown_kind", f"{name!r} is neither a picture "
                       f"({', '.join(PICTURE_SUFFIXES)}) nor a video "
                       f"({', '.join(VIDEO_SUFFIXES)}).")
    return kind


class MediaCatalogue:
    """A mixin of the screens feature: the catalogue, its command and its event."""

    media: dict[str, dict[str, Any]]  # name -> {name, sha256, size, kind, added_ms, added_by}
    media_files: dict[str, str]  # sha256 of every file ever named -> its kind

    def media_commands(self) -> Iterable[Command[Any]]:
        return (Command("media.add", "technician", AddMedia, self.add_media,
                        "Name a picture or video the controller received (POST /media)."),)

    def media_handlers(self) -> Mapping[type[DomainEvent], Handler]:
        return {MediaAdded: self._media_added}

    def add_media(self, p: AddMedia, ctx: Context) -> list[DomainEvent]:
        kind = check_name(p.name)
        if p.upload.kind != kind:
            raise Rejected("wrong_kind", f"{p.name!r} is named as a {kind} but the file is "
                           f"{_a(p.upload.kind)}: give it the suffix of what it is.")
        if p.upload.size > MAX_MEDIA_BYTES:
            raise Rejected("too_large", f"{p.name!r} is larger than "
                           f"{MAX_MEDIA_BYTES // 2**20} MiB, the most a screen is sent.")
        known = self.media.get(p.name)
        if known is not None and known["sha256"] == p.upload.sha256:
            return []  # the same file under the same name: nothing new
        return [MediaAdded(p.name, p.upload.sha256, p.upload.size, kind, ctx.now_ms,
                           ctx.actor)]

    def _media_added(self, event: MediaAdded) -> Iterable[str]:
        self.media[event.name] = {"name": event.name, "sha256": event.sha256,
                                  "size": event.size, "kind": event.kind,
                                  "added_ms": event.added_ms, "added_by": event.added_by}
        self.media_files[event.sha256] = event.kind
        return (MEDIA_VIEW,)

    def catalogue(self) -> dict[str, Any]:
        """Every name with the file it means now, by name (GET /media, the ops:media view)."""
        return {"media": [dict(self.media[name]) for name in sorted(self.media)]}

    def resolve_media(self, playlist: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """{name: {sha256, size, kind}} for each media name of the playlist the catalogue
        holds; `Rejected` if a scene's parameter names media of the other kind (a video as
        an attract picture). Names it does not hold are left to the screen's own disk."""
        resolved: dict[str, dict[str, Any]] = {}
        for param, name in playlist_names(playlist):
            found = self.media.get(name)
            if found is None:
                continue
            wanted = PARAM_KINDS[param]
            if found["kind"] != wanted:
                raise Rejected("wrong_kind", f"The playlist has errors; no screen was changed: "
                               f"{name!r} is {_a(found['kind'])}, and `{param}` takes "
                               f"{wanted}s.")
            resolved[name] = {k: found[k] for k in ("sha256", "size", "kind")}
        return resolved


def _a(kind: str) -> str:
    return {"picture": "a picture", "video": "a video"}.get(kind, "neither a picture nor a video")
