"""Whole tournaments through the real controller: qualifying -> semi -> final -> prizes.

Each script is what the Tournament Director's tablet sends over Socket.IO; the expected winners
and amounts follow from the rules and the shipped YAML (the Wild Card draw's day is moved to
today so its bins are open while the test runs; roulette and poker qualify today, at 16:xx).
"""

from __future__ import annotations

import asyncio
from typing import Any

from controller.application.service import wall_clock_ms
from tests.support.live import live_controller
from tests.support.tables import write_tables_config
from tests.support.wildcard import freeze_when_bins_close, write_wildcard_config

ZONE = "Africa/Johannesburg"


async def ok(mc, type_: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
    ack = await mc.send(type_, payload or {})
    assert ack["ok"], (type_, payload, ack)
    return ack


async def entry_of(mc, type_: str, payload: dict[str, Any]) -> str:
    return (await ok(mc, type_, payload))["events"][0]["data"]["entry"]


async def register(mc, n: int, start: int) -> list[tuple[str, str]]:
    people = [(str(start + i), f"Player{i} Surname{i}") for i in range(n)]
    for card, name in people:
        await ok(mc, "register_member", {"card": card, "display_name": name})
    return people


async def ops_rows(mc, promotion: str, stage: str, count: int,
                   seated: bool = False) -> list[dict[str, Any]]:
    """The operator's list of a stage's seats (entry ids), once `count` are there."""
    def ready(doc: dict[str, Any]) -> bool:
        rows = [r for r in doc["entries"] if r["stage"] == stage]
        return len(rows) == count and (not seated or all(r["heat"] for r in rows))

    doc = await mc.wait_view(f"ops:{promotion}", ready)
    return [r for r in doc["entries"] if r["stage"] == stage]


async def wild_card_from_the_register(mc) -> None:
    """Freeze once the bins close, draw, and accept the (only) winner from the register."""
    ack = await freeze_when_bins_close(mc)
    assert ack["ok"], ack
    drawn = (await ok(mc, "wildcard.draw"))["events"][0]["data"]
    while wall_clock_ms() < drawn["reveal_at_ms"]:
        await asyncio.sleep(0.1)
    ack = await ok(mc, "wildcard.accept_registered")
    assert ack["events"][-1]["type"] == "WildcardFinalist"


async def test_slots_payoff_from_qualifying_to_prizes(tmp_path, log_at, monkeypatch):
    # the bins close 15 s after this: a loaded machine takes seconds to start a controller
    write_wildcard_config(tmp_path / "config", close_in_ms=15_000, reveal_delay_ms=1000)
    monkeypatch.setenv("SHOWRUNNER_CONFIG_DIR", str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        await ok(mc, "register_member", {"card": "2000000", "display_name": "Wanda Wildcard"})
        await ok(mc, "wildcard.activate", {"card": "2000000"})
        await ok(mc, "wildcard.register_decline", {"card": "2000000", "in_person": True,
                                                   "id_checked": True, "id_document": "SA ID"})
        people = await register(mc, 34, 1_000_000)
        entries = [await entry_of(mc, "slots.enter", {"card": card}) for card, _ in people]
        for i, entry in enumerate(entries):  # places 32 and 33 tie on 6 900
            score = 10_000 - 100 * i if i < 32 else 6_900 - 100 * (i - 32)
            await ok(mc, "slots.record_score", {"entry": entry, "score": score})
        board = await mc.wait_view("leaderboard:slots", lambda d: d["entries"] == 34)
        assert board["rows"][0]["name"] == "Player0 S." and len(board["rows"]) == 34
        refused = await mc.send("slots.close_stage", {"stage": "qualifying"})
        assert refused["error"]["code"] == "tie_unresolved"  # rule 26
        await ok(mc, "slots.tie_break", {"stage": "qualifying", "entries": entries[31:33],
                                         "cards": ["2\u2663", "K\u2660"]})
        await ok(mc, "slots.close_stage", {"stage": "qualifying"})
        again = await mc.send("slots.close_stage", {"stage": "qualifying"})
        assert again["error"]["message"] == "The Qualifying is already closed."

        await wild_card_from_the_register(mc)  # rule 18: before the semi-final

        await ok(mc, "slots.draw_seats", {"stage": "semi"})  # rule 16
        semi = await ops_rows(mc, "slots", "semi", 30, seated=True)
        assert semi[-1]["name"] == "Player32 S."  # won the card draw for place 32
        for i, row in enumerate(semi):
            await ok(mc, "slots.record_score", {"entry": row["entry"], "score": 5_000 - 10 * i})
        await ok(mc, "slots.close_stage", {"stage": "semi"})

        final = await ops_rows(mc, "slots", "final", 12)
        # rule 19: the 2 best single entries, the semi's top 9 and the Wild Card winner
        assert sorted(r["via"] for r in final) == [
            "Qualifying place 1", "Qualifying place 2",
            *sorted(f"Semi-final place {n}" for n in range(1, 10)), "Wild Card"]
        wild = next(r["entry"] for r in final if r["via"] == "Wild Card")
        seated = (await ok(mc, "slots.draw_seats", {"stage": "final"}))["events"][0]["data"]
        assert seated["seats"][-1][0] == wild  # rule 41: absent, so the last seat
        final = await ops_rows(mc, "slots", "final", 12, seated=True)
        scores = {r["entry"]: 9_000 if r["entry"] == wild else 1_000 + 10 * i
                  for i, r in enumerate(final)}
        for entry, score in scores.items():
            await ok(mc, "slots.record_score", {"entry": entry, "score": score})
        runner_up = max((r for r in final if r["entry"] != wild), key=lambda r: scores[r["entry"]])
        await ok(mc, "slots.close_stage", {"stage": "final"})

        prizes = await mc.wait_view("prizes:slots", lambda d: d["settled"])
        # rules 5, 7: 34 x R50 = R1 700, all of it in the pool; shipped split 35/20/15/12/10/8
        assert prizes["pool"] == 170_000
        assert [p["amount"] for p in prizes["places"]] == [59_500, 34_000, 25_500, 20_400,
                                                           17_000, 13_600]
        assert [p["name"] for p in prizes["places"][:2]] == ["Wanda W.", runner_up["name"]]
        seating = await mc.wait_view("seating:slots", lambda d: len(d["stages"][1]["heats"]) == 2)
        assert [len(h["seats"]) for h in seating["stages"][1]["heats"]] == [6, 6]


async def play_heat(mc, stage: str, heat: str, missed: list[str] | None = None) -> None:
    for spin in range(3):
        await ok(mc, "roulette.open_betting", {"stage": stage, "heat": heat})
        await ok(mc, "roulette.spin", {"stage": stage, "heat": heat,
                                       "missed": (missed or []) if spin == 0 else []})


async def test_roulette_spin_off_from_qualifying_to_prizes(tmp_path, log_at, monkeypatch):
    write_tables_config(tmp_path / "config")  # today a qualifying day, now in table hours
    monkeypatch.setenv("SHOWRUNNER_CONFIG_DIR", str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        people = await register(mc, 12, 1_000_000)
        entries = []
        for i, (card, _) in enumerate(people):
            entries.append(await entry_of(mc, "roulette.enter",
                                          {"card": card, "heat": f"Heat {i // 4 + 1}"}))
        await ok(mc, "roulette.rebuy", {"entry": entries[0]})
        for heat in ("Heat 1", "Heat 2", "Heat 3"):
            await play_heat(mc, "qualifying", heat)
        for i, entry in enumerate(entries):
            await ok(mc, "roulette.record_score", {"entry": entry, "score": 1_000 + 100 * i})
        # rule 12: Player0 re-enters; rule 19: only their best score counts, once
        again = await entry_of(mc, "roulette.enter", {"card": people[0][0], "heat": "Heat 4"})
        await play_heat(mc, "qualifying", "Heat 4")
        await ok(mc, "roulette.record_score", {"entry": again, "score": 5_000})
        board = await mc.wait_view("leaderboard:roulette", lambda d: d["rows"] and (
            d["rows"][0]["score"] == 5_000))
        assert board["entries"] == 12 and board["rows"][0]["name"] == "Player0 S."
        pool = (await mc.wait_view("pools:roulette"))["pools"][0]
        assert (pool["amount"], pool["progress_percent"]) == (13 * 20_000 + 10_000, 1)
        await ok(mc, "roulette.close_stage", {"stage": "qualifying"})
        assert (await mc.send("roulette.enter", {"card": people[1][0]}))["error"]["code"] == (
            "stage_closed")  # rule 21

        final = await ops_rows(mc, "roulette", "final", 10, seated=True)  # rules 13, 22
        assert {r["heat"] for r in final} == {"Group 1", "Group 2"}
        absent = final[-1]
        await ok(mc, "roulette.start_heat", {"stage": "final", "heat": absent["heat"],
                                             "absent": [absent["entry"]]})  # rule 13
        for group in ("Group 1", "Group 2"):
            await play_heat(mc, "final", group)
        players = final[:-1]
        for i, row in enumerate(players):  # the first two tie for first place
            score = 3_000 if i < 2 else 2_000 - 10 * i
            await ok(mc, "roulette.record_score", {"entry": row["entry"], "score": score})
        assert (await mc.send("roulette.close_stage", {"stage": "final"}))["error"]["code"] == (
            "tie_unresolved")
        await ok(mc, "roulette.tie_break", {"stage": "final", "entries": [
            players[0]["entry"], players[1]["entry"]], "scores": [100, 400]})  # rule 26
        await ok(mc, "roulette.close_stage", {"stage": "final"})
        prizes = await mc.wait_view("prizes:roulette", lambda d: d["settled"])
        # rule 27: top 5 share 50/20/15/10/5 of R2 700
        assert [p["amount"] for p in prizes["places"]] == [135_000, 54_000, 40_500, 27_000,
                                                           13_500]
        assert [p["name"] for p in prizes["places"][:3]] == [
            players[1]["name"], players[0]["name"], players[2]["name"]]


async def test_heads_up_poker_showdown_from_qualifying_to_prizes(tmp_path, log_at, monkeypatch):
    write_tables_config(tmp_path / "config")  # today a qualifying day, now in its hours
    monkeypatch.setenv("SHOWRUNNER_CONFIG_DIR", str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        people = await register(mc, 14, 1_000_000)
        entries = [await entry_of(mc, "poker.enter", {"card": card}) for card, _ in people]
        short = await mc.send("poker.record_score", {"entry": entries[0], "score": 1, "hands": 9})
        assert short["error"]["code"] == "hands"  # rules 14-15
        for i, entry in enumerate(entries):
            await ok(mc, "poker.record_score", {"entry": entry, "score": 1_000 + 100 * i,
                                                "hands": 10})
        await ok(mc, "poker.close_stage", {"stage": "qualifying"})
        prizes = await mc.wait_view("prizes:poker", lambda d: d["top_score"]["places"][0]["name"])
        # rule 18: 20% of 14 x R100 to the top-score progressive, for the top 3 scores
        assert [(p["name"], p["amount"]) for p in prizes["top_score"]["places"]] == [
            ("Player13 S.", 14_000), ("Player12 S.", 8_400), ("Player11 S.", 5_600)]

        semi = await ops_rows(mc, "poker", "semi", 12)  # rules 21, 24
        for i, row in enumerate(semi):  # rule 27: heat and seat chosen at registration
            await ok(mc, "poker.choose_seat", {"entry": row["entry"], "heat": f"Semi {i % 2 + 1}",
                                               "seat": i // 2 + 1})
        for i, row in enumerate(semi):
            await ok(mc, "poker.record_score", {"entry": row["entry"], "score": 4_000 - 100 * i,
                                                "hands": 12})
        await ok(mc, "poker.close_stage", {"stage": "semi"})

        await ok(mc, "poker.draw_seats")  # rule 40
        final = await ops_rows(mc, "poker", "final", 6, seated=True)
        assert sorted(r["seat"] for r in final) == [1, 2, 3, 4, 5, 6]
        for i, row in enumerate(final):  # rule 46: the last finalist keeps all 3 markers
            await ok(mc, "poker.record_score", {"entry": row["entry"], "score": 2_000 + 100 * i,
                                                "hands": 12, "markers_unused": 3 if i == 5 else 0})
        await ok(mc, "poker.close_stage", {"stage": "final"})
        prizes = await mc.wait_view("prizes:poker", lambda d: d["settled"])
        # rule 52: 60/10/9/8/7/6 of the 80% pool (14 x R80 = R1 120)
        assert prizes["pool"] == 112_000
        assert [p["amount"] for p in prizes["places"]] == [67_200, 11_200, 10_080, 8_960, 7_840,
                                                           6_720]
        assert prizes["places"][0]["name"] == final[5]["name"]
        top = (await mc.wait_view("leaderboard:poker:final"))["rows"][0]
        assert top["score"] == 2_500 + 1_500
