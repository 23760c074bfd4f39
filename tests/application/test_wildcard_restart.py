"""The Wild Card claim window across a controller outage (issue 12; slots rules 2, 39-40), with
the real service over a real log (each store) and a fake clock on the draw's date: an outage is
time passing without ticks; a restart is a fresh Service replaying the same log."""

from __future__ import annotations

import json
from typing import Any

from controller.access.keys import Principal
from controller.application.features import build_features
from controller.application.service import Service
from controller.application.show import Show
from controller.audit.verify import check_draws, export, utc
from controller.store.target import LogAt, open_log
from tests.promotions.wildcard_show import CLOSE, CONFIG, OPEN

MC = Principal("operator", "MC tablet", "key:" + "a" * 64)
LEAD = CONFIG.reveal_lead_ms
MEMBERS = {"1000001": "Thandi Mokoena", "1000002": "Sipho Ndlovu", "1000003": "Lerato Dlamini"}


class Controller:
    """One controller process: a Service on the log, on a clock the test moves."""

    def __init__(self, db: LogAt, now: list[int]) -> None:
        self.now = now
        self.log = open_log(db)
        self.service = Service(self.log, Show(build_features()), lambda: self.now[0])
        self.service.replay()

    def send(self, type_: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
        envelope = {"type": type_, "payload": payload or {},
                    "command_id": f"c{self.log.last_seq}-{self.now[0]}-{type_}"}
        ack, _, _ = self.service.execute(envelope, MC)
        return ack

    def tick(self) -> list[str]:
        before = self.log.last_seq
        self.service.tick()
        return [e.type for e in self.log.read() if e.seq > before]

    def view(self, name: str = "draw:wildcard") -> dict[str, Any]:
        return self.service.show.views[name].doc

    def events(self, type_: str) -> list[dict[str, Any]]:
        return [e.data for e in self.log.read() if e.type == type_]

    def stop(self) -> None:
        self.log.close()


def drawn_show(db: LogAt) -> tuple[Controller, list[int], dict[str, Any]]:
    """Three activated members, the pool frozen at 18:00 and one ticket drawn."""
    now = [OPEN + 60_000]
    c = Controller(db, now)
    for card, name in MEMBERS.items():
        assert c.send("register_member", {"card": card, "display_name": name})["ok"]
        assert c.send("wildcard.activate", {"card": card})["ok"]
    now[0] = CLOSE
    assert c.send("slots.close_stage", {"stage": "qualifying"})["ok"]  # rule 17
    assert c.send("wildcard.freeze")["ok"]
    ack = c.send("wildcard.draw")
    assert ack["ok"], ack
    return c, now, ack["events"][0]["data"]


def test_outage_from_the_draw_past_the_deadline_re_reveals_with_a_fresh_window(tmp_path,
                                                                             log_at):
    # rules 39-40: the winner was never on screen nor called, so the 90 s have not started
    c, now, draw = drawn_show(log_at)
    c.stop()  # killed right after the draw, down past the planned deadline
    now[0] = draw["claim_deadline_ms"] + 120_000
    c = Controller(log_at, now)
    assert c.view()["phase"] == "drawing"
    assert c.send("wildcard.redraw")["error"]["code"] == "not_revealed"
    assert c.tick() == ["WildcardRevealed"]
    (reveal,) = c.events("WildcardRevealed")
    shown = now[0] + LEAD
    assert reveal == {"round": 1, "at_ms": shown, "claim_deadline_ms": shown + 90_000,
                      "cause": "after_outage"}
    assert c.view()["reveal_at"] == shown and c.view()["claim_deadline"] == shown + 90_000
    cue = next(x for x in c.view("cues")["cues"] if x["id"] == "wildcard-r1-winner")
    assert cue["at_ms"] == shown and "technical interruption" in cue["text"]
    now[0] = shown + 89_999
    assert c.send("wildcard.redraw")["error"]["code"] == "claim_open"  # no redraw yet
    now[0] = shown + 90_000
    assert c.tick() == ["WildcardClaimExpired"]
    assert c.send("wildcard.redraw")["ok"]
    # the auditor's export shows the window that actually ran, and the draw still verifies
    assert check_draws(c.log.read()) is None
    export(c.log.read(), tmp_path / "audit")
    (row,) = json.loads((tmp_path / "audit" / "draws.json").read_text())
    assert row["reveal_at_utc"] == utc(shown) and row["claim_deadline_utc"] == utc(shown + 90_000)


def test_outage_during_the_claim_window_calls_the_winner_again(log_at):
    # rule 40: a redraw only when the winner had their 90 s with someone able to record a claim
    c, now, draw = drawn_show(log_at)
    now[0] = draw["reveal_at_ms"] - LEAD
    assert c.tick() == ["WildcardRevealed"]
    now[0] = draw["reveal_at_ms"] + 30_000
    c.stop()  # killed 30 s into the window, back 5 minutes later
    now[0] = draw["claim_deadline_ms"] + 300_000
    c = Controller(log_at, now)
    assert c.send("wildcard.redraw")["error"]["code"] == "claim_restarted"
    assert c.tick() == ["WildcardRevealed"]
    first, again = c.events("WildcardRevealed")
    assert first["cause"] == "scheduled" and first["at_ms"] == draw["reveal_at_ms"]
    assert again["cause"] == "after_outage" and again["claim_deadline_ms"] == now[0] + LEAD + 90_000
    ids = {x["id"] for x in c.view("cues")["cues"]}
    assert {"wildcard-r1-call2", "wildcard-r1-call2-remind-60"} <= ids
    now[0] += LEAD + 45_000
    claimed = c.send("wildcard.claim", {"card_checked": True, "id_checked": True})
    assert claimed["ok"] and claimed["events"][-1]["type"] == "WildcardFinalist"
    # a third start replays the same show: no further reveal
    c.stop()
    c = Controller(log_at, now)
    assert c.tick() == [] and c.view()["phase"] == "finalist"


def test_self_excluded_winner_never_reaches_the_final(log_at):
    # rule 2: drawn, then self-excluded, then claiming in time: refused, disqualified, redrawn
    c, now, draw = drawn_show(log_at)
    now[0] = draw["reveal_at_ms"]
    c.tick()
    assert c.send("flag_member", {"card": draw["card"], "flag": "self_excluded",
                                  "reason": "signed the self-exclusion form"})["ok"]
    now[0] += 5_000
    refused = c.send("wildcard.claim", {"card_checked": True, "id_checked": True})
    assert refused["error"]["code"] == "ineligible"
    assert c.tick() == ["WildcardRedrawStarted", "WildcardPoolFrozen"]
    assert c.events("WildcardRedrawStarted")[0]["reason"] == "ineligible"
    names = str(c.view("qualifiers:slots"))
    assert MEMBERS[draw["card"]].split()[0] not in names
    assert c.view()["phase"] == "frozen" and c.view()["round"] == 2
