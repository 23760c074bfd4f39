"""The rooms of /display, in one place.

Operators (/control) get every view; cue pages and viewer keys on /display get every public
view (room `views`). On /display each view also has a room named after it, and an enrolled
screen sits in the rooms of the views it receives. Which views those are is the floor's
audience policy (controller/screens/audience.py), computed from the screen's own view alone,
so a fan-out process holding only the views can compute it.
"""

from __future__ import annotations

from controller.screens.audience import is_public
from controller.screens.views import VIEW_PREFIX

VIEWS_ROOM = "views"  # every public view: /cue pages, /control, viewer keys on /display


def on_display(name: str) -> bool:
    """Does a change to view `name` go to /display at all (to its room, and to viewers if
    it is public)?"""
    return name.startswith(VIEW_PREFIX) or is_public(name)
