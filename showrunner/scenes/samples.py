"""Example views for every scene: the golden-image cases, the benchmark and docs/scenes.md.

Each case is a named moment: the views, the scene parameters and the time `at` (seconds after
the scene enters, on a show clock that starts at BASE_MS). `busy` marks the case the frame
benchmark measures: the scene's most animated moment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

BASE_MS = 1_705_593_600_000  # 2024-01-18 16:00 UTC = 18h00 SAST, the Wild Card draw


@dataclass(frozen=True)
class Case:
    scene: str
    name: str
    views: dict[str, dict[str, Any]]
    at: float
    params: dict[str, Any] = field(default_factory=dict)
    busy: bool = False
    portrait: bool = False


NAMES = ["Thandi M.", "Sipho K.", "Johan van der Merwe", "Lerato N.", "Pieter B.", "Naledi Z.",
         "Bongani S.", "Anele T.", "Chris P.", "Zanele M.", "Themba D.", "Ayesha K.",
         "Riaan V.", "Nomsa G.", "Kagiso L."]


def leaderboard(rows: int, moved: bool) -> dict[str, Any]:
    """A board where (if `moved`) Naledi climbed from 9th to 3rd and 3rd-8th slipped one."""
    out = []
    for i in range(rows):
        movement = 0
        if moved and i == 2:
            movement = 6
        elif moved and 3 <= i <= 8:
            movement = -1
        out.append({"position": i + 1, "name": NAMES[(i * 7) % len(NAMES)],
                    "score": 98_450 - i * 1_375, "movement": movement,
                    "new": moved and i == 11})
    return {"title": "Slots PAYOFF", "subtitle": "Qualifying", "rows": out, "entries": rows}


def wildcard(phase: str) -> dict[str, Any]:
    return {"title": "Wild Card Draw", "subtitle": "Slots PAYOFF – one seat in the Final",
            "phase": phase, "draw_number": 1,
            "pool": {"tickets": 48_211, "entrants": 9_120,
                     "digest": "9f2c4e1b7a0d3c5e8f6a1b2c3d4e5f60718293a4b5c6d7e8f9012345678abc"},
            "reel": [{"name": n, "ticket": f"T-{1000 + i * 977:06d}"}
                     for i, n in enumerate(NAMES)],
            "winner": {"name": "Mpho Dlamini", "ticket": "T-031337", "card": "•••• 4821"},
            "spin_started_at": BASE_MS, "reveal_at": BASE_MS + 8_000,
            "claim_deadline": BASE_MS + 98_000}


JACKPOTS = {"title": "Jackpots", "subtitle": "Growing every session", "jackpots": [
    {"name": "Super 9 Jackpot", "amount_cents": 1_287_500_00, "previous_cents": 1_212_500_00,
     "target_cents": 2_000_000_00, "note": "Wednesday 21h00"},
    {"name": "Spin-Off Prize Pool", "amount_cents": 96_400_00, "previous_cents": 94_200_00,
     "target_cents": 150_000_00},
]}

SUPER9 = {"title": "Super 9", "subtitle": "Wednesday 19h00", "jackpot_cents": 1_287_500_00,
          "consolation_cents": 31_250_00, "jackpot_spins": 18,
          "spins": [{"number": n} for n in (17, 4, 32, 0, 21, 9, 28)],
          "message": "Shout SUPER 9 when all nine of your numbers are called"}

ROULETTE = {"title": "American Roulette Spin-Off", "subtitle": "Heat 12 · Table AR14",
            "spin": 2, "spins": 3, "betting_opened_at": BASE_MS,
            "betting_closes_at": BASE_MS + 120_000, "no_spin": False}

PRIZES = {"title": "Spin-Off Prizes", "subtitle": "Top 5 share the pool",
          "pool_cents": 150_000_00, "prizes": [
              {"place": "1st", "amount_cents": 75_000_00, "share": "50%"},
              {"place": "2nd", "amount_cents": 30_000_00, "share": "20%"},
              {"place": "3rd", "amount_cents": 22_500_00, "share": "15%"},
              {"place": "4th", "amount_cents": 15_000_00, "share": "10%"},
              {"place": "5th", "amount_cents": 7_500_00, "share": "5%"}]}

SEATING = {"title": "Slots PAYOFF Final", "subtitle": "Seats drawn at 18h30", "groups": [
    {"name": "Heat 1", "seats": [{"seat": i + 1, "name": NAMES[i]} for i in range(6)]},
    {"name": "Heat 2", "seats": [{"seat": i + 1, "name": NAMES[i + 6]} for i in range(5)]
     + [{"seat": 6, "name": "Mpho Dlamini", "note": "Wild Card, proxy"}]}]}

ANNOUNCEMENT = {"title": "Semi-finals tonight", "body": "Positions 3 to 32 play the semi-finals "
                "on 18 January. Please register at the tournament desk by 17h30 with your "
                "Rewards card and ID."}

SCHEDULE = {"title": "Coming up", "events": [
    {"name": "Super 9", "starts_at": BASE_MS + 754_000, "where": "Main floor, Table AR14"},
    {"name": "Super 9", "starts_at": BASE_MS + 7_954_000},
    {"name": "Slots PAYOFF Final", "starts_at": BASE_MS + 9_000_000}]}

CASES: list[Case] = [
    Case("leaderboard", "page1", {"leaderboard:slots": leaderboard(45, False)}, 2.0),
    Case("leaderboard", "moving", {"leaderboard:slots": leaderboard(45, True)}, 1.0, busy=True),
    Case("leaderboard", "settled", {"leaderboard:slots": leaderboard(45, True)}, 3.0),
    Case("leaderboard", "empty", {"leaderboard:slots": leaderboard(0, False)}, 1.0),
    Case("leaderboard", "portrait", {"leaderboard:slots": leaderboard(45, True)}, 3.0,
         portrait=True),
    Case("jackpot_ticker", "rolling", {"jackpots": JACKPOTS}, 1.2, busy=True),
    Case("jackpot_ticker", "landed", {"jackpots": JACKPOTS}, 4.0),
    Case("wildcard_draw", "spinning", {"wildcard": wildcard("drawing")}, 5.0, busy=True),
    Case("wildcard_draw", "frozen", {"wildcard": {**wildcard("frozen"), "spin_started_at": None,
                                                  "reveal_at": None}}, 1.0),
    Case("wildcard_draw", "countdown", {"wildcard": wildcard("drawing")}, 75.0),
    Case("wildcard_draw", "claimed", {"wildcard": wildcard("claimed")}, 30.0),
    Case("wildcard_draw", "portrait", {"wildcard": wildcard("drawing")}, 40.0, portrait=True),
    Case("claim_countdown", "amber", {"wildcard": wildcard("drawing")}, 70.0, busy=True),
    Case("claim_countdown", "redraw", {"wildcard": wildcard("redraw")}, 99.0),
    Case("super9_board", "board", {"board:super9": SUPER9}, 1.0, busy=True),
    Case("roulette_countdown", "betting", {"roulette": ROULETTE}, 25.0, busy=True),
    Case("roulette_countdown", "no_spin", {"roulette": {**ROULETTE, "no_spin": True,
                                                        "betting_closes_at": BASE_MS + 150_000}},
         125.0),
    Case("roulette_countdown", "closed", {"roulette": ROULETTE}, 121.0),
    Case("prize_table", "spin_off", {"prizes": PRIZES}, 2.0, busy=True),
    Case("seating_chart", "final", {"seating": SEATING}, 1.0, busy=True),
    Case("announcement", "body", {"announcement": ANNOUNCEMENT}, 2.0, busy=True),
    Case("announcement", "portrait", {"announcement": ANNOUNCEMENT}, 2.0, portrait=True),
    Case("attract", "placeholder", {}, 3.0, {"images": "missing.png,also-missing.jpg"},
         busy=True),
    Case("next_event", "super9", {"schedule": SCHEDULE}, 0.0, busy=True),
]
