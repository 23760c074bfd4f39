"""`find_entries` on /control against a real controller: the console's search for a player."""

from __future__ import annotations

from tests.support.live import live_controller


async def test_the_console_finds_a_scored_player_the_operators_view_no_longer_holds(log_at):
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        for n in range(10):  # heat 1, every seat scored
            card = f"{1_000_000 + n}"
            assert (await mc.send("register_member", {"card": card,
                                                      "display_name": f"Player{n} Surname"}))["ok"]
            assert (await mc.send("slots.enter", {"card": card}))["ok"]
            assert (await mc.send("slots.record_score",
                                  {"entry": f"S{n + 1}", "score": 500 + n}))["ok"]
        await mc.wait_view("ops:slots", lambda d: d["entries"] == [])
        answer = await mc.call("find_entries", {"promotion": "slots", "query": "player3"})
        assert answer["ok"] and [(r["entry"], r["score"]) for r in answer["entries"]] == \
            [("S4", 503)]
        refused = await mc.call("find_entries", {"promotion": "bingo", "query": "x"})
        assert not refused["ok"] and refused["error"]["message"].startswith("Say which")
