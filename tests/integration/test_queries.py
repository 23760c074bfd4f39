"""The read-only queries on /control through a real controller: each checked for its role and
its payload before it runs, and refused in the shape of a refused command."""

from __future__ import annotations

from tests.support.live import live_controller


async def test_queries_check_role_then_payload_and_refuse_like_commands(log_at):
    async with live_controller(log_at) as ctl, \
            ctl.client("operator") as mc, ctl.client("technician") as tech:
        catalogue = await mc.call("catalogue", {})
        roles = {q["name"]: q["roles"] for q in catalogue["queries"]}
        assert roles == {"check_playlist": ["technician"], "screens": ["technician"],
                         "prize_register": ["auditor", "operator"],
                         "prize_card_check": ["operator"],
                         "screenshot_request": ["technician"],
                         "group_playlists": ["technician"],
                         "find_entries": ["auditor", "operator", "technician"],
                         "verify_chain": ["auditor", "operator"]}
        for name in ("screens", "check_playlist", "screenshot_request", "group_playlists"):
            assert await mc.call(name, {"screen": "x"}) == {"ok": False, "error": {
                "code": "forbidden", "message": "Only technicians may look after the screens."}}
        assert await mc.call("find_entries", {"promotion": "slots", "query": 5}) == {
            "ok": False, "error": {"code": "bad_payload", "message": "Query must be text."}}
        assert await mc.call("find_entries", {"promotion": "slots", "query": "x",
                                              "page": 2}) == {
            "ok": False, "error": {"code": "bad_payload", "message": "Unknown field(s): page."}}
        assert await mc.call("find_entries", {"promotion": "slots", "query": "nobody"}) == {
            "ok": True, "entries": []}
        assert await tech.call("screenshot_request", {"screen": "stage-9"}) == {
            "ok": False, "error": {"code": "offline",
                                   "message": "Screen 'stage-9' is not connected."}}
        assert (await tech.call("check_playlist", {"yaml": "x"}))["error"] == {
            "code": "bad_payload", "message": "File is required."}
        report = await tech.call("screens", {})
        assert report["ok"] and report["screens"] == []
        assert await tech.call("group_playlists", {}) == {"ok": True, "groups": []}
