"""Example views for every scene: the golden-image cases, the benchmark and docs/scenes.md.

Each case is a named moment: the views, the scene parameters and the time `at` (seconds after
the scene enters, on a show clock that starts at BASE_MS). `busy` marks the case the frame
benchmark measures: the scene's most animated moment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from showrunner.contract.fields import MAX_WHEEL_NUMBER
from showrunner.contract.wheel import colour

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
    #: the frame's real size when not 1080p (a 4K screen); `portrait` turns the default
    size: tuple[int, int] | None = None
    #: the views after a typical update, for bench/frames.py's view-change frames (by default
    #: the same documents arrive again, which every scene but the leaderboard redraws in full)
    updated: dict[str, dict[str, Any]] | None = None

    @property
    def frame_size(self) -> tuple[int, int]:
        """The real pixels the case is rendered at."""
        return self.size or ((1080, 1920) if self.portrait else (1920, 1080))


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


DIGEST = "9f2c4e1b7a0d3c5e8f6a1b2c3d4e5f60718293a4b5c6d7e8f9012345678abc"


def wildcard(phase: str) -> dict[str, Any]:
    """The "draw:wildcard" view in `phase`; the winner is in it from the `claim` phase on."""
    drawn = phase in ("drawing", "claim", "finalist")
    winner = {"name": "Mpho D.", "masked_card": "•••• 4821", "ticket": 31_337,
              "in_register": False}
    return {"title": "Wild Card draw", "subtitle": "Slots PAYOFF – one seat in the Final",
            "phase": phase, "round": 1, "activated": 9_120,
            "bins_open_at": BASE_MS - 7_200_000, "bins_close_at": BASE_MS - 60_000,
            "pool": {"members": 9_120, "tickets": 48_211, "digest": DIGEST},
            "reel": ([{"name": n, "ticket": 1 + i * 3_211} for i, n in enumerate(NAMES)]
                     if phase != "entries" else []),  # fixed at the freeze
            "spin_started_at": BASE_MS if drawn else None,
            "reveal_at": BASE_MS + 6_000 if drawn else None,
            "claim_deadline": BASE_MS + 96_000 if phase != "drawing" and drawn else None,
            "winner": winner if phase in ("claim", "finalist") else None,
            "finalist": ({"name": "Mpho D.", "masked_card": "•••• 4821", "present": True,
                          "stand_in": None, "prize_claim_by": BASE_MS + 15 * 86_400_000}
                         if phase == "finalist" else None),
            "redraws": []}


REDRAWN = {**wildcard("frozen"), "round": 2, "redraws": [
    {"round": 1, "name": "Mpho D.", "masked_card": "•••• 4821",
     "cause": "not claimed within 90 seconds and not in the decline-to-attend register "
              "(rule 40)"}]}


def pool(name: str, title: str, amount: int, previous: int, target: int | None,
         note: str) -> dict[str, Any]:
    """One entry of a "pools:<promotion>" or "jackpot:super9" view (cents)."""
    return {"name": name, "title": title, "amount": amount, "previous": previous,
            "amount_text": "", "target": target, "target_text": None,
            "progress_percent": None if not target else min(100, amount * 100 // target),
            "note": note}


SUPER9_JACKPOT = {"title": "Super 9", "subtitle": "All nine numbers within 18 spins wins the "
                  "jackpot", "jackpot": "R1 287 500", "jackpot_cents": 1_287_500_00,
                  "ticket_price": "R50", "pools": [
                      pool("jackpot", "Super 9 jackpot", 1_287_500_00, 1_212_500_00, None,
                           "Tickets R50 · next game Wednesday 24 January 19:00")]}

POKER_POOLS = {"title": "Heads-Up Poker Showdown", "subtitle": "Prize pools", "pools": [
    pool("overall", "Overall prize pool", 96_400_00, 94_200_00, 150_000_00,
         "80% of every buy-in"),
    pool("top_score", "Top score progressive", 24_100_00, 23_550_00, None,
         "20% of every buy-in")]}

def board(called: list[int]) -> dict[str, Any]:
    """The "board:super9" view's numbers and calls: each pocket, its colour and its order."""
    order = {n: i for i, n in enumerate(dict.fromkeys(called), 1)}
    last = called[-1]
    return {"numbers": [{"number": n, "colour": colour(n), "order": order.get(n)}
                        for n in range(MAX_WHEEL_NUMBER + 1)],
            "called": called, "last": {"number": last, "colour": colour(last), "repeat": False}}


SUPER9 = {"title": "Super 9", "session": "Wednesday 17 January 19:00", "status": "playing",
          **board([17, 4, 32, 0, 21, 9, 28]),
          "counted_spins": 7, "jackpot_spins": 18, "jackpot_cents": 1_287_500_00,
          "consolation_cents": 31_250_00, "playing_for": "jackpot",
          "message": "Shout SUPER 9 when all nine of your numbers are called"}
#: after 18 counted spins nobody can win the jackpot: the consolation is played for (rule 16)
SUPER9_CONSOLATION = {**SUPER9, **board([17, 4, 32, 0, 21, 9, 28, 1, 5, 12, 33, 14, 35, 6,
                                         19, 2, 26, 11, 30]),
                      "counted_spins": 19, "playing_for": "consolation"}


def betting(no_spin: bool) -> dict[str, Any]:
    """The "spins:roulette" view with Heat 12 taking bets (after a no spin: 30 s more)."""
    opened = BASE_MS + 120_000 if no_spin else BASE_MS
    heat = {"stage": "qualifying", "heat": "Heat 12", "title": "Roulette Spin-Off",
            "subtitle": "Qualifying · Heat 12", "spin": 2, "spins": 3, "betting": True,
            "betting_opened_at": opened,
            "betting_closes_at": opened + (30_000 if no_spin else 120_000), "no_spin": no_spin}
    return {"title": "Roulette Spin-Off", "heats": [heat], "buy_in_text": "R200",
            "chips": "5 stacks of R10 chips"}


def betting_heat(**wheel: Any) -> dict[str, Any]:
    """The "spins:roulette" view with Heat 12 marked by the wheel's reader: `bets_closed` (its
    "no more bets" stops the countdown) or, between spins, the `number` and `colour` landed."""
    doc = betting(False)
    heat = {**doc["heats"][0], **wheel}
    if "number" in wheel:  # between spins: no bets are being taken
        heat.update(betting=False, betting_opened_at=None, betting_closes_at=None, spin=2)
    return {**doc, "heats": [heat]}


LIVE_CREDITS = [2_140, 1_985, 1_760, 1_610, 1_455, 1_230, 1_040, 880]  # by rank


def live_heat(status: str = "live", silent: tuple[int, ...] = (), swap: bool = False,
              seats: int = 8) -> dict[str, Any]:
    """The "live_heat:slots" view of Heat 3 on bank 1 (machines 101-108, seats 1-8, slots
    rule 11): credits by rank, where each would place on the 45-row qualifying leaderboard
    (rule 14). `silent` seats have sent no reading for a while (rule 27); `swap` has the 4th
    and 5th change places (5th's credits now top 4th's); the heat ends 4 min 12 s after
    BASE_MS."""
    rows = []
    for i in range(seats):
        seat = (i * 5) % seats + 1  # ranks do not follow the seats
        credits = LIVE_CREDITS[i] if i < len(LIVE_CREDITS) else 900 - i * 10
        if status == "ended" and credits is None:
            credits = 1_000  # the feed's last reading: the start credits
        rows.append({"seat": seat, "machine": str(100 + seat), "name": NAMES[(i * 7) % 15],
                     "credits": credits, "rank": i + 1 if credits is not None else None,
                     "place": (3 + i * 5 if 3 + i * 5 <= 45 else None)
                     if credits is not None else None,
                     "silent": seat in silent})
    if swap:
        rows[3], rows[4] = {**rows[4], "credits": 1_655, "rank": 4, "place": rows[3]["place"]}, \
            {**rows[3], "rank": 5, "place": rows[4]["place"]}
    idle = status == "idle"
    return {"title": "Slots PAYOFF", "stage": "Qualifying", "heat": "" if idle else "Heat 3",
            "status": status, "started_at_ms": None if idle else BASE_MS - 48_000,
            "ends_at_ms": None if idle else BASE_MS + 252_000, "rows": [] if idle else rows,
            "leaderboard_rows": 45}


PRIZES = {"title": "Roulette Spin-Off", "subtitle": "Final: the top 5 share the prize pool",
          "pool": 150_000_00, "pool_text": "R150 000", "split": [50, 20, 15, 10, 5],
          "settled": False, "places": [
              {"place": i + 1, "percent": pct, "amount": 150_000_00 * pct // 100,
               "amount_text": "", "name": name, "claim": None}
              for i, (pct, name) in enumerate(zip([50, 20, 15, 10, 5],
                                                  ["Thandi M.", "Sipho K.", None, None, None],
                                                  strict=True))]}

SEATING = {"title": "Slots PAYOFF", "stages": [
    {"stage": "semi", "title": "Semi-final", "heats": []},
    {"stage": "final", "title": "Final", "heats": [
        {"heat": "Heat 1", "started": False,
         "seats": [{"seat": i + 1, "name": NAMES[i], "proxy": None, "status": "active",
                    "note": ""} for i in range(6)]},
        {"heat": "Heat 2", "started": False,
         "seats": [{"seat": i + 1, "name": NAMES[i + 6], "proxy": None, "status": "active",
                    "note": ""} for i in range(5)]
         + [{"seat": 6, "name": "Mpho D.", "proxy": "Lerato N.", "status": "active",
             "note": "Wild Card, played by Kabelo R."}]}]}]}

ANNOUNCEMENT = {"title": "Semi-finals tonight", "body": "Positions 3 to 32 play the semi-finals "
                "on 18 January. Please register at the tournament desk by 17h30 with your "
                "Rewards card and ID."}

SCHEDULE = {"title": "Coming up", "events": [
    {"id": "2024-01-18T19:00", "name": "Super 9", "label": "Thursday 18 January 19:00",
     "starts_at": BASE_MS + 754_000},
    {"id": "2024-01-18T21:00", "name": "Super 9", "label": "Thursday 18 January 21:00",
     "starts_at": BASE_MS + 7_954_000}]}

CASES: list[Case] = [
    Case("leaderboard", "page1", {"leaderboard:slots": leaderboard(45, False)}, 2.0),
    Case("leaderboard", "moving", {"leaderboard:slots": leaderboard(45, True)}, 1.0, busy=True,
         updated={"leaderboard:slots": leaderboard(45, False)}),
    Case("leaderboard", "settled", {"leaderboard:slots": leaderboard(45, True)}, 3.0),
    Case("leaderboard", "empty", {"leaderboard:slots": leaderboard(0, False)}, 1.0),
    Case("leaderboard", "portrait", {"leaderboard:slots": leaderboard(45, True)}, 3.0,
         portrait=True),
    Case("jackpot_ticker", "rolling", {"pools:poker": POKER_POOLS}, 1.2,
         {"view": "pools:poker"}, busy=True),
    Case("jackpot_ticker", "landed", {"jackpot:super9": SUPER9_JACKPOT}, 4.0),
    Case("wildcard_draw", "spinning", {"draw:wildcard": wildcard("drawing")}, 3.5, busy=True),
    Case("wildcard_draw", "frozen", {"draw:wildcard": wildcard("frozen")}, 1.0),
    Case("wildcard_draw", "countdown", {"draw:wildcard": wildcard("claim")}, 75.0),
    Case("wildcard_draw", "claimed", {"draw:wildcard": wildcard("finalist")}, 30.0),
    Case("wildcard_draw", "portrait", {"draw:wildcard": wildcard("claim")}, 40.0, portrait=True),
    Case("claim_countdown", "amber", {"draw:wildcard": wildcard("claim")}, 70.0, busy=True),
    Case("claim_countdown", "redraw", {"draw:wildcard": REDRAWN}, 99.0),
    Case("super9_board", "board", {"board:super9": SUPER9}, 1.0, busy=True),
    Case("super9_board", "consolation", {"board:super9": SUPER9_CONSOLATION}, 1.0),
    Case("roulette_countdown", "betting", {"spins:roulette": betting(False)}, 25.0, busy=True),
    Case("roulette_countdown", "no_spin", {"spins:roulette": betting(True)}, 125.0),
    Case("roulette_countdown", "closed", {"spins:roulette": betting(False)}, 121.0),
    Case("roulette_countdown", "no_more_bets",
         {"spins:roulette": betting_heat(bets_closed=True)}, 25.0),
    Case("roulette_countdown", "number",
         {"spins:roulette": betting_heat(number=32, colour="red")}, 2.0),
    Case("live_heat", "live", {"live_heat:slots": live_heat(silent=(8,))}, 2.0, busy=True,
         updated={"live_heat:slots": live_heat(silent=(8,), swap=True)}),
    Case("live_heat", "live_4k", {"live_heat:slots": live_heat(silent=(8,))}, 2.0,
         size=(3840, 2160)),
    Case("live_heat", "portrait", {"live_heat:slots": live_heat(silent=(8,), seats=12)}, 2.0,
         portrait=True),
    Case("live_heat", "portrait_4k", {"live_heat:slots": live_heat(silent=(8,), seats=12)},
         2.0, portrait=True, size=(2160, 3840)),
    Case("live_heat", "ended", {"live_heat:slots": live_heat("ended")}, 1.0),
    Case("live_heat", "idle", {"live_heat:slots": live_heat("idle")}, 1.0),
    Case("prize_table", "spin_off", {"prizes:roulette": PRIZES}, 2.0,
         {"view": "prizes:roulette"}, busy=True),
    Case("seating_chart", "final", {"seating:slots": SEATING}, 1.0, busy=True),
    Case("announcement", "body", {}, 2.0, ANNOUNCEMENT, busy=True),
    Case("announcement", "portrait", {}, 2.0, ANNOUNCEMENT, portrait=True),
    Case("attract", "placeholder", {}, 3.0, {"images": ["missing.png", "also-missing.jpg"]},
         busy=True),
    Case("next_event", "super9", {"schedule:super9": SCHEDULE}, 0.0, busy=True),
    # the stand-in a headless render of a missing clip shows (a screen skips the scene);
    # the frames of real clips are checked in tests/scenes/test_video.py
    Case("video", "missing_file", {}, 1.0, {"media": "missing.mp4"}),
]
