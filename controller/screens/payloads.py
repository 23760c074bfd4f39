"""Command payloads of the floor's screens."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from controller.domain.commands import payload
from showrunner.contract.fields import PlaylistText, Ref, Refs, ShortText


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
class Revoke:
    screen: Ref
    reason: ShortText = ""


@payload
class Assign:
    file: ShortText
    yaml: PlaylistText  # the file's text as written
    screens: Refs = field(default_factory=list)
    groups: Refs = field(default_factory=list)


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
