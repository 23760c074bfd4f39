"""/display: floor screens only read views; a display key cannot send commands."""

from __future__ import annotations

from controller.namespaces.base import AudienceNamespace


class DisplayNamespace(AudienceNamespace):
    path = "/display"
    roles = frozenset({"display"})
