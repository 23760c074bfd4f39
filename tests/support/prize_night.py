"""A roulette Spin-Off played to its final through a real controller, so the prize register
holds real prizes (roulette rule 27: the top 5 share the pool). Give the controller
`tests.support.tables.write_tables_config` (today a qualifying day) before it starts."""

from __future__ import annotations

from typing import Any

PLAYERS = (("1000001", "Thandi Mokoena"), ("1000002", "Sipho Ndlovu"))


async def sent(mc: Any, type_: str, payload: dict[str, Any]) -> dict[str, Any]:
    ack = await mc.send(type_, payload)
    assert ack["ok"], (type_, payload, ack)
    return ack


async def play_heat(mc: Any, stage: str, heat: str) -> None:
    for _ in range(3):  # rule 7: three spins
        await sent(mc, "roulette.open_betting", {"stage": stage, "heat": heat})
        await sent(mc, "roulette.spin", {"stage": stage, "heat": heat})


async def roulette_prizes(mc: Any,
                          players: tuple[tuple[str, str], ...] = PLAYERS) -> list[dict[str, Any]]:
    """Each player enters Heat 1 and scores; qualifying and the final are played and closed.
    The PrizeAwarded events' data, first place first."""
    entries = []
    for card, name in players:
        await sent(mc, "register_member", {"card": card, "display_name": name})
        ack = await sent(mc, "roulette.enter", {"card": card, "heat": "Heat 1"})
        entries.append(ack["events"][-1]["data"]["entry"])
    await play_heat(mc, "qualifying", "Heat 1")
    for i, entry in enumerate(entries):
        await sent(mc, "roulette.record_score", {"entry": entry, "score": 1_000 + 100 * i})
    ack = await sent(mc, "roulette.close_stage", {"stage": "qualifying"})
    final = [e["data"] for e in ack["events"] if e["type"] == "TournamentEntered"]
    for heat in sorted({f["heat"] for f in final}):
        await play_heat(mc, "final", heat)
    for i, f in enumerate(final):
        await sent(mc, "roulette.record_score", {"entry": f["entry"], "score": 2_000 - 10 * i})
    ack = await sent(mc, "roulette.close_stage", {"stage": "final"})
    return [e["data"] for e in ack["events"] if e["type"] == "PrizeAwarded"]
