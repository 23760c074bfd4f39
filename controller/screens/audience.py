"""What views the floor's screens receive: the one policy the connections and the rules ask.

Views named `ops:...` may carry internal ids and go to operators (/control) only; a screen's
own view `screen:<id>` goes to that screen only. Every other view is public: cue pages and
viewer keys get them all, and an authorised screen gets those its program reads (its
playlists' scenes, its group's running takeover, the default scene and the overlays:
showrunner.contract.playlist.schedule.program_views). A takeover or a playlist whose scene
reads a view no screen receives is refused here, before any screen sees it: it would draw an
empty scene on the floor.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.domain.errors import Rejected
from controller.screens.views import AUTHORISED, VIEW_PREFIX, screen_view
from showrunner.contract.playlist.schedule import program_views
from showrunner.contract.playlist.validate import validate
from showrunner.contract.scenes import default_view, scene_view

OPERATOR_ONLY_PREFIX = "ops:"


def is_public(name: str) -> bool:
    """May view `name` leave /control? (`ops:` views are the operators' own.)"""
    return not name.startswith(OPERATOR_ONLY_PREFIX)


def visible(name: str) -> bool:
    """Is view `name` one a public client (a cue page, a viewer key) and the floor's screens
    may receive? Screens' own views are not: each goes to its screen only."""
    return is_public(name) and not name.startswith(VIEW_PREFIX)


def screen_views(screen: str, doc: Mapping[str, Any] | None) -> set[str]:
    """The views screen `screen` receives, given its view `doc` (None: not published yet):
    its own, and, once authorised, the public views its program reads."""
    own = screen_view(screen)
    if doc is None or doc.get("status") != AUTHORISED:
        return {own}
    return {own} | {name for name in program_views(doc) if visible(name)}


def unreceived(scene: str, params: Mapping[str, Any]) -> str | None:
    """Why a scene with these parameters cannot be shown on the floor, or None: the view it
    reads is not one the floor's screens receive."""
    name = scene_view(scene, params)
    if name is None or visible(name):
        return None
    default = default_view(scene)
    instead = f"; leave view out to show {default!r}" if default else ""
    return (f"scene {scene!r} reads view {name!r}, which is not a view the floor's screens "
            f"receive (the 'ops:' views are the operators' own, a 'screen:' view its screen's)"
            f"{instead}")


def check_takeover(scene: str, params: Mapping[str, Any]) -> None:
    """Rejected if a takeover's scene reads a view no screen receives."""
    why = unreceived(scene, params)
    if why is not None:
        raise Rejected("not_on_the_floor", f"The takeover cannot be shown: {why}.")


def floor_playlist(text: str, file: str) -> dict[str, Any]:
    """The checked playlist, or PlaylistError with every problem: the format's
    (showrunner.contract.playlist.validate) and each scene whose view no screen receives."""
    return validate(text, file, scene_check=unreceived)
