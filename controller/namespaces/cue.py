"""/cue: announcers follow the cues view here."""

from __future__ import annotations

from controller.namespaces.base import AudienceNamespace


class CueNamespace(AudienceNamespace):
    path = "/cue"
    roles = frozenset({"announcer", "operator"})
