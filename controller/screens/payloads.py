"""Command payloads of the floor's screens."""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, Any, TypeAlias

from pydantic import Field

from controller.domain.commands import payload
from showrunner.contract.fields import PlaylistText, Ref, Refs, ShortText

MAX_AT_ONCE = 1000
ScreenRefs: TypeAlias = Annotated[list[Ref], Field(min_length=1, max_length=MAX_AT_ONCE)]
"""The screens a technician ticked on /screens: a whole floor at once."""


@payload
class Enrol:
    screen: Ref
    group: Ref
    key_hash: ShortText
    name: ShortText = ""


@payload
class ScreenOnly:
    screen: Ref


@payload
class Move:
    screen: Ref
    group: Ref


@payload
class MoveMany:
    screens: ScreenRefs
    group: Ref


@payload
class Revoke:
    screen: Ref
    reason: ShortText = ""


@payload
class Assign:
    file: ShortText
    yaml: PlaylistText  # the file's text as written
    screens: Annotated[list[Ref], Field(max_length=MAX_AT_ONCE)] = field(default_factory=list)
    groups: Refs = field(default_factory=list)
    #: the playlist this one is an edit of (/screens): renamed, the old name stops with it
    replaces: ShortText = ""


@payload
class Unassign:
    name: ShortText
    screens: Refs = field(default_factory=list)
    groups: Refs = field(default_factory=list)


@payload
class StartTakeover:
    group: Ref
    scene: Ref
    params: dict[str, Any] = field(default_factory=dict)


@payload
class EndTakeover:
    group: Ref
