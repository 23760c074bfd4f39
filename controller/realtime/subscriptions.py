"""Who receives which view: the rooms of /display, in one place.

Operators (/control) get every view; cue pages and viewer keys on /display get every public
view (room `views`). An enrolled screen gets only what its program can show: the views read by
its playlists' scenes, its group's running takeover, the default scene and the overlays
(showrunner.contract.playlist.schedule.program_views), plus its own view `screen:<id>`; a
screen not authorised gets its own view only. On /display each view has a room named after it,
and a screen sits in the rooms of the views it needs. Membership is computed from the screen's
own view alone (`screen_views`), so a fan-out process holding only the views can compute it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.application.show import is_public
from controller.screens.feature import AUTHORISED, VIEW_PREFIX
from showrunner.contract.playlist.schedule import program_views

VIEWS_ROOM = "views"  # every public view: /cue pages, /control, viewer keys on /display


def screen_room(screen: str) -> str:
    """The room (and the view) of one screen."""
    return f"{VIEW_PREFIX}{screen}"


def visible(name: str, screen: str | None = None, authorised: bool = True) -> bool:
    """May a public client (a viewer, a cue page) see view `name`?"""
    if name.startswith(VIEW_PREFIX):
        return screen is not None and name == screen_room(screen)
    return authorised and is_public(name)


def screen_views(screen: str, doc: Mapping[str, Any] | None) -> set[str]:
    """The views (= /display rooms) screen `screen` receives, given its view `doc` (None:
    not published yet)."""
    own = screen_room(screen)
    if doc is None or doc.get("status") != AUTHORISED:
        return {own}
    return {own} | {name for name in program_views(doc) if visible(name)}


def on_display(name: str) -> bool:
    """Does a change to view `name` go to /display at all (to its room, and to viewers if
    it is public)?"""
    return name.startswith(VIEW_PREFIX) or is_public(name)
