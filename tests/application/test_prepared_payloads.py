"""controller/http/app.py builds every command's payload checker after start-up, one per loop
turn, so no command's first use builds one inside its callback."""

from __future__ import annotations

from controller.application.features import build_features
from controller.application.show import Show
from controller.domain import commands
from controller.http.app import _prepare_payloads


async def test_every_command_payload_checker_is_built_before_any_command_runs():
    show = Show(build_features())
    commands._adapter.cache_clear()
    await _prepare_payloads(show)
    payloads = {c.payload for c in show.commands.values()}
    assert commands._adapter.cache_info().currsize == len(payloads)
    before = commands._adapter.cache_info().misses
    commands.parse_payload(show.commands["playlists.assign"].payload,
                           {"file": "a.yaml", "yaml": "x", "groups": ["floor"]})
    assert commands._adapter.cache_info().misses == before  # taken ready-made
