"""The prize register on a real controller: prizes decided by a roulette final, read by the
operator and the auditor with `prize_register`, refused to a technician in words; a payment
refused for someone else's card changes nothing."""

from __future__ import annotations

from controller.application.settings import CONFIG_DIR_ENV
from tests.support.live import live_controller
from tests.support.prize_night import roulette_prizes
from tests.support.signatures import signed
from tests.support.stores import by_hand
from tests.support.tables import write_tables_config


def last_seq(db) -> int:
    with by_hand(db) as con:  # only reads
        return con.execute("SELECT MAX(seq) FROM events").fetchone()[0]


async def test_the_register_is_for_operators_and_auditors_only(tmp_path, log_at, monkeypatch):
    write_tables_config(tmp_path / "config")
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client() as mc, \
            ctl.client("auditor") as auditor, ctl.client("technician") as tech:
        prizes = await roulette_prizes(mc)
        # roulette rule 27: the top 5 share the pool; two players, two prizes (R400 pool)
        assert [(p["prize"], p["cents"]) for p in prizes] == [("roulette-final-1", 20_000),
                                                              ("roulette-final-2", 8_000)]
        answer = await mc.call("prize_register", {})
        assert answer["ok"] and [r["prize"] for r in answer["prizes"]] == [
            "roulette-final-1", "roulette-final-2"]
        first = answer["prizes"][0]
        assert (first["name"], first["card"], first["amount_text"], first["state"]) == (
            "Sipho N.", "\u2022\u2022\u2022\u2022 0002", "R200", "owed")
        assert await auditor.call("prize_register", {}) == answer
        # personal information (ID digits, signatures) goes to operators and auditors only
        assert await tech.call("prize_register", {}) == {"ok": False, "error": {
            "code": "forbidden", "message": "Only operators and auditors may see the prize "
            "register: it holds the winners' identity details and signatures."}}

        signature = await signed(ctl.url, ctl.keys["operator"])
        before = last_seq(ctl.db_path)
        refused = await mc.send("prizes.pay", {
            "prize": "roulette-final-1", "card": "1000001", "cents": 20_000, "method": "cash",
            "id_type": "SA ID", "id_last4": "0087", "signature": signature})
        # slots rule 44, super9 rule 26: a prize is paid to its winner only; the refusal
        # names neither card's digits (the one who presented it is at the desk)
        refusal = {"code": "wrong_card", "message": (
            "This card is not the winner's: Sipho N.'s prize (Roulette Spin-Off Final, place "
            "1: 50% of R400) is paid only to the member it was won by (prizes are not "
            "transferable: slots rule 44, super9 rule 26).")}
        assert refused["error"] == refusal
        assert last_seq(ctl.db_path) == before
        assert await mc.call("prize_register", {}) == answer
        # the same answer before the winner signs, asked of the card alone; the winner's card
        # is answered yes in words; an auditor pays nothing, so may not ask
        assert await mc.call("prize_card_check", {"prize": "roulette-final-1",
                                                  "card": "1000001"}) == {
            "ok": False, "error": refusal}
        assert await mc.call("prize_card_check", {"prize": "roulette-final-1",
                                                  "card": "1000002"}) == {
            "ok": True, "sentence": "The card is Sipho N.'s: the winner signs next."}
        assert (await auditor.call("prize_card_check", {"prize": "roulette-final-1",
                                                        "card": "1000002"}))["error"] == {
            "code": "forbidden", "message": "Only operators pay prizes."}
        assert last_seq(ctl.db_path) == before
