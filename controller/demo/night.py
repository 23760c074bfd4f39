"""The demo's scripted night: every live moment on the floor screen, sent as an MC would.

The script is a real /control client with an operator key. It takes the demo group's screens
over for each live moment and hands them back, and it yields to the MC: a refusal (the MC got
there first, or changed something) is printed as its sentence and the script carries on.
Made-up scores and numbers come from `secrets` (an auditor scans for `random`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import secrets
import time
import uuid
from collections.abc import Callable
from typing import Any

import aiohttp
import socketio

from controller.demo.autographs import autograph
from controller.demo.devices import Devices
from controller.demo.kiosk import Kiosk
from controller.demo.venue import Pace

GROUP = "demo"
PLAYERS = (
    "Thandi Mokoena", "Sipho Dlamini", "Lerato Khumalo", "Johan van Wyk", "Ayesha Patel",
    "Themba Nkosi", "Marietjie Botha", "Kagiso Molefe", "Nomvula Zulu", "Pieter Steyn",
    "Zanele Mthembu", "Rajesh Naidoo",
)
HEAT = "Heat 1"
KIOSK_MEMBERS = 2  # the first players swipe at the kiosk


class MC:
    """A real /control client holding the views it is sent, like the MC's tablet."""

    def __init__(self, say: Callable[[str], None]) -> None:
        # the demo handles Ctrl-C itself; the client's own handler would cancel every task
        self.sio = socketio.AsyncClient(handle_sigint=False, reconnection=False)
        self.views: dict[str, dict[str, Any]] = {}
        self.revisions: dict[str, int] = {}
        self.say = say
        self.sio.on("views", self._on_views, namespace="/control")

    async def connect(self, url: str, key: str) -> None:
        self.url, self.key = url, key
        await self.sio.connect(url, namespaces=["/control"], auth={"key": key},
                               transports=["websocket"], wait_timeout=10)
        await self._on_views(await self.sio.call("sync", {"revisions": {}},
                                                 namespace="/control"))

    async def _on_views(self, message: dict[str, Any]) -> None:
        for view in message["views"]:
            if view["revision"] >= self.revisions.get(view["name"], -1):
                self.views[view["name"]] = view["doc"]
                self.revisions[view["name"]] = view["revision"]

    async def command(self, type_: str, payload: dict[str, Any] | None = None) -> dict | None:
        """Send one command and return at its ack (the views it changed follow): the ack's
        first event's data when it was done; None (and the refusal printed) when it was
        refused: the MC may have done it already, or differently."""
        envelope = {"type": type_, "payload": payload or {}, "command_id": uuid.uuid4().hex}
        ack = await self.sio.call("command", envelope, namespace="/control", timeout=10)
        if not ack["ok"]:
            self.say(f"  refused {type_}: {ack['error']['message']} (carrying on)")
            return None
        return ack["events"][0]["data"] if ack["events"] else {}

    async def send(self, type_: str, payload: dict[str, Any] | None = None) -> dict | None:
        """`command`, then sync: the ack goes before the views it changed (the fan-out runs
        behind it), and the script reads the state its command made."""
        data = await self.command(type_, payload)
        if data is None:
            return None
        await self._on_views(await self.sio.call("sync", {"revisions": self.revisions},
                                                 namespace="/control", timeout=10))
        return data

    async def sign(self, name: str) -> dict[str, Any] | None:
        """`name` signs on the pad: the image goes to POST /signatures as the console sends it,
        and the reference a signed command carries comes back (None, and the sentence printed,
        if it was refused)."""
        png, strokes = autograph(name)
        headers = {"X-Showrunner-Key": self.key, "Content-Type": "image/png",
                   "X-Signature-Strokes": str(strokes)}
        async with aiohttp.ClientSession() as http, http.post(
                f"{self.url}/signatures", data=png, headers=headers) as answer:
            reply = await answer.json()
        if not reply.get("ok"):
            self.say(f"  signature refused: {reply['error']['message']} (carrying on)")
            return None
        return reply["signature"]

    async def query(self, name: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
        """One /control query's answer ({} when refused, its sentence printed)."""
        answer = await self.sio.call(name, payload or {}, namespace="/control", timeout=10)
        if not answer.get("ok"):
            self.say(f"  {name} refused: {answer['error']['message']} (carrying on)")
            return {}
        return answer

    def view(self, name: str) -> dict[str, Any]:
        return self.views.get(name) or {}

    async def until(self, name: str, predicate: Callable[[dict], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not predicate(self.view(name)):
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.2)
        return True

    async def close(self) -> None:
        await self.sio.disconnect()


class Night:
    """One cycle of the show; `cycle` goes into card and ticket numbers. With `devices`, the
    first slots heat is played by the bank's machines and Super 9 is called by the wheel's
    reader (controller/demo/devices.py); without, the MC types every score and number."""

    def __init__(self, mc: MC, pace: Pace, cycle: int, super9_at: dt.datetime,
                 devices: Devices | None = None, kiosk: Kiosk | None = None) -> None:
        self.mc, self.pace, self.cycle, self.super9_at = mc, pace, cycle, super9_at
        self.devices, self.kiosk = devices, kiosk
        self.say = mc.say
        self.tickets: dict[str, list[int]] = {}
        self.slots_entries: dict[str, str] = {}
        self.slots_heats: dict[str, str] = {}  # entry id -> its qualifying heat

    def card(self, i: int) -> str:
        return self.card_of(self.cycle, i)

    @staticmethod
    def card_of(cycle: int, i: int) -> str:
        """The card of PLAYERS[i] in `cycle`."""
        return f"8{cycle % 100:02d}{i:04d}"

    async def run(self) -> None:
        await self.register()
        await self.slots()
        await self.roulette()
        await self.wildcard()
        await self.super9()
        await self.poker()
        self.say(f"cycle {self.cycle} done")

    async def moment(self, scene: str, params: dict[str, Any], title: str) -> None:
        self.say(f"{title}: the screens show {scene}")
        await self.mc.send("takeover.start", {"group": GROUP, "scene": scene, "params": params})

    async def hand_back(self) -> None:
        await self.mc.send("takeover.end", {"group": GROUP})

    async def register(self) -> None:
        for i, name in enumerate(PLAYERS):
            await self.mc.send("register_member", {"card": self.card(i), "display_name": name})
        # rule 36: tickets are activated while the bins are open; two members at the kiosk
        # themselves (rule 18.3), the others at the Rewards desk
        at_kiosk = KIOSK_MEMBERS if self.kiosk is not None else 0
        if self.kiosk is not None:
            await self.kiosk.swipe(self.mc.url, [self.card(i) for i in range(at_kiosk)],
                                   self.say)
        for i in range(at_kiosk, len(PLAYERS)):
            await self.mc.send("wildcard.activate", {"card": self.card(i)})
        await self.sell_super9_tickets()

    async def slots(self) -> None:
        entries = self.slots_entries  # entry id -> the name the leaderboard shows
        sent: dict[str, list[int]] = {}  # every score the script gave each entry
        for i, name in enumerate(PLAYERS):
            data = await self.mc.send("slots.enter", {"card": self.card(i)})
            if data:
                entries[data["entry"]] = f"{name.split()[0]} {name.split()[-1][0]}."
                self.slots_heats[data["entry"]] = data.get("heat") or ""
        if self.devices is not None:
            await self.live_heat(sent)
        for entry in entries:
            if entry not in sent:
                await self.record(entry, 9_000 + secrets.randbelow(10_000), sent)
        await self.moment("leaderboard", {"view": "leaderboard:slots", "rows_per_page": 12},
                          "Slots PAYOFF leaderboard")
        await self.feed_scores(entries, sent, self.pace.hold_s)
        await self.moment("jackpot_ticker", {"view": "pools:slots"}, "Prize pool")
        await self.feed_scores(entries, sent, self.pace.hold_s)
        await self.hand_back()

    async def live_heat(self, sent: dict[str, list[int]]) -> None:
        """Heat 1 played on the bank: the machines' live credits on the floor (slots rule 14),
        then their final credits accepted by the tournament director with one tap."""
        assert self.devices is not None
        seated = [e for e, heat in self.slots_heats.items() if heat == HEAT]
        self.say(f"  {HEAT} plays on {len(seated)} machines; their tournament system feeds "
                 "the credits")
        play = asyncio.create_task(self.devices.play_bank(len(seated), self.pace.heat_s))
        live = "live_heat:slots"
        if await self.mc.until(live, lambda d: d.get("status") == "live", 20):
            await self.moment("live_heat", {}, "Slots PAYOFF heat, live from the machines")
        await play
        if not await self.mc.until(live, lambda d: d.get("status") == "ended", 20):
            return  # the MC restarted or accepted it already
        self.say("  the heat is over: the director accepts the machines' final credits")
        await asyncio.sleep(self.pace.hold_s / 4)
        if await self.mc.send("slots.accept_feed", {"stage": "qualifying", "heat": HEAT}):
            banks: list[dict[str, Any]] = self.mc.view("ops:feed").get("banks", [])
            bank = next((b for b in banks if b.get("heat") == HEAT), {})
            for row in bank.get("rows", []):
                if row.get("entry") and row.get("credits") is not None:
                    sent[row["entry"]] = [row["credits"]]
        await asyncio.sleep(self.pace.hold_s / 2)  # "Scores recorded" on the floor

    async def record(self, entry: str, score: int, sent: dict[str, list[int]]) -> bool:
        sent.setdefault(entry, []).append(score)
        return await self.mc.send("slots.record_score",
                                  {"entry": entry, "score": score}) is not None

    async def feed_scores(self, entries: dict[str, str], sent: dict[str, list[int]],
                          seconds: float) -> None:
        """Raise a score now and then; an entry whose score the MC typed (one the script never
        sent) or whose score was refused is the MC's from then on, and left alone."""
        end = time.monotonic() + seconds
        while entries and time.monotonic() < end:
            await asyncio.sleep(self.pace.score_every_s)
            shown = {r.get("name"): r.get("score")
                     for r in self.mc.view("leaderboard:slots").get("rows", [])}
            for entry, name in list(entries.items()):
                if name in shown and shown[name] not in sent.get(entry, []):
                    self.say(f"  {name}'s score was changed by the MC: left alone")
                    entries.pop(entry)
            if entries:
                entry = secrets.choice(list(entries))
                score = sent[entry][-1] + 500 + 10 * secrets.randbelow(350)
                if not await self.record(entry, score, sent):
                    entries.pop(entry)

    async def roulette(self) -> None:
        entries: dict[str, str] = {}  # entry id -> the player's name
        for i in range(6):
            data = await self.mc.send("roulette.enter", {"card": self.card(i), "heat": HEAT})
            if data:
                entries[data["entry"]] = PLAYERS[i]
        heat = {"stage": "qualifying", "heat": HEAT}
        await self.mc.send("roulette.open_betting", heat)
        await self.moment("roulette_countdown", {"betting_seconds":
                          self.pace.betting_window_ms / 1000, "heat": HEAT},
                          "Roulette Spin-Off: betting closes")
        await asyncio.sleep(self.pace.hold_s)
        self.say("  no spin: the ball left the wheel; more time to bet (rule 25)")
        await self.mc.send("roulette.no_spin", heat)
        await asyncio.sleep(self.pace.hold_s)
        await self.mc.send("roulette.spin", {**heat, "missed": [],
                                             "number": secrets.randbelow(37)})
        for _ in range(2):  # rule 7: three spins a heat
            await self.mc.send("roulette.open_betting", heat)
            await asyncio.sleep(self.pace.hold_s / 2)
            await self.mc.send("roulette.spin", {**heat, "missed": [],
                                                 "number": secrets.randbelow(37)})
        await self.hand_back()
        await self.score_sheet(entries)

    async def score_sheet(self, entries: dict[str, str]) -> None:
        """Rule 18: at the heat's end each player signs the score sheet for their score."""
        self.say("  the heat's score sheet: each player signs for their score (rule 18)")
        for entry, name in entries.items():
            score = 10 * (40 + secrets.randbelow(160))  # chips left, in R10 colour chips
            if await self.mc.send("roulette.record_score",
                                  {"entry": entry, "score": score}) is None:
                continue
            signature = await self.mc.sign(name)
            if signature is not None:
                await self.mc.send("roulette.acknowledge_score",
                                   {"entry": entry, "signature": signature, "score": score})

    async def wildcard(self) -> None:
        draw = "draw:wildcard"
        await self.moment("wildcard_draw", {"claim_seconds": self.pace.claim_seconds},
                          "Wild Card draw")
        self.say("  waiting for the entry bins to close")
        await self.mc.until(draw, lambda d: d.get("bins_close_at", 0) <= time.time() * 1000,
                            self.pace.bins_close_s + 30)
        if self.mc.view(draw).get("phase") == "entries":
            self.say("  qualifying closes: its two highest scores go straight to the final "
                     "(rule 17), out of the pool")
            await self.mc.send("slots.close_stage", {"stage": "qualifying"})
            await self.mc.send("wildcard.freeze")
        for round_ in (1, 2):
            if self.mc.view(draw).get("phase") == "frozen":
                await self.mc.send("wildcard.draw")
            if not await self.mc.until(draw, lambda d: d.get("phase") != "drawing", 30):
                break
            if self.mc.view(draw).get("phase") != "claim":
                break  # the MC settled it already
            await asyncio.sleep(self.pace.hold_s)  # the reveal, on the draw scene
            await self.moment("claim_countdown", {"claim_seconds": self.pace.claim_seconds},
                              f"Wild Card round {round_}: the {self.pace.claim_seconds} s claim")
            deadline = self.mc.view(draw).get("claim_deadline") or 0
            if round_ == 1:
                await asyncio.sleep(max(0.0, deadline / 1000 - time.time()) + 0.5)
                self.say("  nobody came forward: redraw (rule 40)")
                await self.mc.send("wildcard.redraw", {"note": "demo"})
                await self.moment("wildcard_draw", {"claim_seconds": self.pace.claim_seconds},
                                  "Wild Card redraw")
            else:
                await asyncio.sleep(min(self.pace.hold_s, 20))
                if self.mc.view(draw).get("phase") == "claim":
                    self.say("  the winner is at the stage: claimed")
                    await self.mc.send("wildcard.claim", {"card_checked": True,
                                                          "id_checked": True})
                await asyncio.sleep(self.pace.hold_s / 2)
        await self.hand_back()

    async def sell_super9_tickets(self) -> None:
        """Rule 6: tickets are sold and handed in before the session starts."""
        for i in range(4):
            serial = f"{self.cycle % 100:02d}{i:02d}"
            numbers = _sample(9, 37)
            self.tickets[serial] = numbers
            if await self.mc.send("super9.sell_ticket", {"ticket": serial,
                                                         "card": self.card(i)}) is not None:
                await self.mc.send("super9.enter_ticket", {"ticket": serial, "original": numbers,
                                                           "duplicate": numbers[::-1]})

    async def super9(self) -> None:
        wait = (self.super9_at - dt.datetime.now(dt.UTC)).total_seconds()
        self.say(f"Super 9: the session starts in {max(0, round(wait))} s")
        await asyncio.sleep(max(0.0, wait) + 0.5)
        schedule = self.mc.view("schedule:super9").get("events") or []
        if schedule:
            await self.mc.send("super9.start_session", {"session": schedule[0]["id"]})
        await self.moment("super9_board", {}, "Super 9 board")
        winning = secrets.choice(list(self.tickets.values())) if self.tickets else _sample(9, 37)
        calls = _shuffled(winning)
        calls.insert(3, secrets.choice([n for n in range(37) if n not in winning]))
        if self.devices is not None:
            self.say("  the wheel's reader calls the numbers: no keypad (super9 rule 12)")
            await self.devices.spin_wheel(calls)
            await self.mc.until("board:super9", lambda d: d.get("status") != "playing", 10)
        for number in calls if self.devices is None else ():
            if self.mc.view("board:super9").get("status") != "playing":
                break
            await self.mc.send("super9.spin", {"number": number})
            await asyncio.sleep(self.pace.spin_every_s)
        if self.mc.view("board:super9").get("status") == "super9":
            self.say("  SUPER 9! the call is checked and confirmed")
            await asyncio.sleep(self.pace.hold_s / 2)
            await self.mc.send("super9.confirm_win")
        await asyncio.sleep(self.pace.hold_s)
        await self.hand_back()

    async def poker(self) -> None:
        for i in range(8):
            data = await self.mc.send("poker.enter", {"card": self.card(i)})
            if data:  # distinct made-up chip counts: no tie to break before the semi
                await self.mc.send("poker.record_score", {
                    "entry": data["entry"], "score": 100 * (5 + 13 * i + secrets.randbelow(12)),
                    "hands": 10})
        if await self.mc.send("poker.close_stage", {"stage": "qualifying"}) is not None:
            await self.mc.until("ops:poker", lambda d: any(
                r["stage"] == "semi" for r in d.get("entries", [])), 10)
            semi = [r for r in self.mc.view("ops:poker").get("entries", [])
                    if r["stage"] == "semi"]
            for i, row in enumerate(semi):  # rule 27: heat and seat chosen at registration
                await self.mc.send("poker.choose_seat", {
                    "entry": row["entry"], "heat": f"Semi {i % 2 + 1}", "seat": i // 2 + 1})
        await self.moment("seating_chart", {"view": "seating:poker"}, "Poker seating")
        await asyncio.sleep(self.pace.hold_s)
        await self.moment("prize_table", {"view": "prizes:poker"}, "Poker prize table")
        await asyncio.sleep(self.pace.hold_s)
        await self.hand_back()
        await self.pay_a_prize()

    async def pay_a_prize(self) -> None:
        """The night's top qualifying score collects its prize at the desk and signs for it
        (poker rule 55): the card and ID are checked, only the ID's last four are kept."""
        cards = {name: self.card(i) for i, name in enumerate(PLAYERS)}
        shown = {f"{name.split()[0]} {name.split()[-1][0]}.": name for name in PLAYERS}
        rows = (await self.mc.query("prize_register")).get("prizes", [])
        owed = [r for r in rows if r["state"] == "owed" and r["kind"] == "cash"
                and r["name"] in shown and r["prize"].startswith("poker-")]
        if not owed:
            return
        prize = owed[0]
        name = shown[prize["name"]]
        self.say(f"  {name} collects {prize['amount_text']} ({prize['what']}) and signs for it")
        signature = await self.mc.sign(name)
        if signature is not None:
            await self.mc.send("prizes.pay", {
                "prize": prize["prize"], "card": cards[name], "cents": prize["cents"],
                "method": "cash", "id_type": "SA ID", "id_last4": cards[name][-4:],
                "signature": signature})


def _sample(count: int, below: int) -> list[int]:
    return _shuffled(list(range(below)))[:count]


def _shuffled(items: list[int]) -> list[int]:
    items = list(items)
    for i in range(len(items) - 1, 0, -1):  # Fisher-Yates with the secrets generator
        j = secrets.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]
    return items
