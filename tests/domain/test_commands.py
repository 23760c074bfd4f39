"""describe_payload: what the tablet builds its forms from."""

from __future__ import annotations

from controller.domain.commands import describe_payload
from controller.domain.members import RegisterMember


def test_optional_fields_carry_the_default_the_server_assumes():
    assert describe_payload(RegisterMember) == [
        {"name": "card", "type": "string", "required": True},
        {"name": "display_name", "type": "string", "required": True},
        {"name": "rewards_member", "type": "boolean", "required": False, "default": True},
        {"name": "flags", "type": "list", "required": False, "default": []},
    ]
