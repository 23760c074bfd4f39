"""The service over a real log (each store): replay rebuilds views, the clock emits due events,
command ids are bound to the principal that sent them."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from controller.access.keys import Principal
from controller.application.features import build_features
from controller.application.service import Service
from controller.application.show import Show
from controller.domain.events import DomainEvent
from controller.domain.feature import Feature
from controller.store.log import StoredLog
from controller.store.principal_ids import CLOCK
from controller.store.target import open_log
from tests.promotions.wildcard_show import CLOSE, OPEN

MC = Principal("operator", "MC tablet", "key:" + "a" * 64)
TD = Principal("operator", "MC tablet", "key:" + "b" * 64)  # another key, the same label
PA = Principal("announcer", "PA desk", "key:" + "c" * 64)
THANDI = {"card": "1234567", "display_name": "Thandi Mokoena"}


@dataclass(frozen=True)
class AlarmRang(DomainEvent, type_name="AlarmRang"):
    at_ms: int


class Alarm(Feature):
    """Rings once at 5 000 ms: the shape of a reveal or an expiry."""

    name = "alarm"

    def __init__(self) -> None:
        self.rang = False

    def events(self):
        return (AlarmRang,)

    def due(self, now_ms: int) -> list[DomainEvent]:
        return [AlarmRang(now_ms)] if now_ms >= 5000 and not self.rang else []

    def apply(self, event):
        self.rang = True
        return ("alarm",)

    def view_names(self):
        return ("alarm",)

    def view(self, name):
        return {"rang": self.rang}


def test_due_events_are_logged_once_and_published(log_at):
    now = [1000]
    log = open_log(log_at)
    service = Service(log, Show([Alarm()]), lambda: now[0])
    service.replay()
    assert service.tick() == []
    now[0] = 5001
    (view,) = service.tick()
    assert view.doc == {"rang": True} and view.revision == 1
    assert service.tick() == []
    assert [(e.type, e.actor) for e in log.read()] == [("AlarmRang", "controller")]


def test_replay_rebuilds_the_same_views(log_at):
    log = open_log(log_at)
    live = Service(log, Show(build_features()))
    live.replay()
    for type_, payload in [
        ("register_member", {"card": "1234567", "display_name": "Thandi Mokoena"}),
        ("slots.enter", {"card": "1234567"}),
        ("slots.record_score", {"entry": "S1", "score": 50}),
    ]:
        ack, _, _ = live.execute({"type": type_, "payload": payload, "command_id": type_}, MC)
        assert ack["ok"], ack
    restarted = Service(log, Show(build_features()))
    assert restarted.replay() == 3
    assert restarted.show.views == live.show.views


# -- command ids ------------------------------------------------------------------------------
def envelope(type_: str, payload: dict, command_id: str = "press-1") -> dict:
    return {"type": type_, "payload": payload, "command_id": command_id}


def rows(log: StoredLog) -> list[tuple]:
    """The log's events as a reader sees them, from the store (not the service's memory)."""
    return [(e.seq, e.command_id, e.type, e.data, e.actor) for e in log.read()]


@pytest.fixture
def service(log_at) -> Service:
    service = Service(open_log(log_at), Show(build_features()))
    service.replay()
    return service


def test_a_retry_gets_the_stored_ack_and_applies_nothing(service):
    first, _, _ = service.execute(envelope("register_member", THANDI), MC)
    assert first["ok"]
    again, views, _ = service.execute(envelope("register_member", dict(THANDI)), MC)
    assert again == first and views == []
    assert len(rows(service.log)) == 1


def test_a_different_command_with_an_applied_id_is_refused(service):
    service.execute(envelope("register_member", THANDI), MC)
    before = rows(service.log), dict(service.show.views)
    other = {"card": "7654321", "display_name": "Sipho Ndlovu"}
    ack, views, _ = service.execute(envelope("register_member", other), MC)
    assert ack["ok"] is False and ack["command_id"] == "press-1" and views == []
    assert ack["error"]["code"] == "command_id_reused"
    assert ack["error"]["message"] == (
        "Command id 'press-1' was already used for a different command, so this one was not "
        "applied and nothing changed. Send it again as a new command.")
    assert (rows(service.log), service.show.views) == before


def test_another_principal_reusing_an_id_sends_its_own_command(service):
    mine, _, _ = service.execute(envelope("register_member", THANDI), MC)
    other = {"card": "7654321", "display_name": "Sipho Ndlovu"}
    theirs, _, _ = service.execute(envelope("register_member", other), TD)
    assert theirs["ok"] and theirs["seq"] == 2 and theirs["events"] != mine["events"]
    assert [(r[2], r[3]["card"]) for r in rows(service.log)] == [
        ("MemberRegistered", "1234567"), ("MemberRegistered", "7654321")]
    # each retry gets its own ack back, never the other's
    assert service.execute(envelope("register_member", THANDI), MC)[0] == mine
    assert service.execute(envelope("register_member", other), TD)[0] == theirs


def test_an_announcer_resending_an_operators_id_learns_nothing(service):
    mine, _, _ = service.execute(envelope("register_member", THANDI), MC)
    # the very same envelope: refused for the announcer's role, not answered with the ack
    ack, _, _ = service.execute(envelope("register_member", THANDI), PA)
    assert ack == {"ok": False, "command_id": "press-1", "error": {
        "code": "forbidden", "message": "Only the operator role may send 'register_member'."}}
    # a command the announcer may send, with the operator's id: its own, new command
    ack, _, _ = service.execute(envelope("cue.acknowledge", {"cue_id": "nope"}), PA)
    assert ack["error"]["code"] == "unknown_cue" and "events" not in ack
    assert len(rows(service.log)) == 1 and mine["ok"]


def test_clock_events_use_ids_no_client_can_send(log_at):
    now = [5001]
    log = open_log(log_at)
    service = Service(log, Show([Alarm()]), lambda: now[0])
    service.replay()
    assert len(service.tick()) == 1
    (stored,) = log.read()
    assert stored.command_id == "clock:5001:0" and stored.actor == "controller"
    assert log.ack_for(CLOCK, "clock:5001:0") is not None
    assert log.ack_for(MC.id, "clock:5001:0") is None
    ack, _, _ = service.execute(envelope("register_member", THANDI, "clock:5001:0"), MC)
    assert ack["error"] == {"code": "bad_envelope", "message": "Command ids starting 'clock:' "
                                                                "are the controller's own; "
                                                                "choose another."}
    assert len(list(log.read())) == 1


class BrokenClock(Feature):
    """A feature whose countdown check raises: a bug in one promotion."""

    name = "broken"

    def due(self, now_ms: int) -> list[DomainEvent]:
        raise RuntimeError("corrupt deadline")


def test_a_failing_feature_does_not_hold_back_another_features_due_events(log_at, caplog):
    now = [5001]
    log = open_log(log_at)
    service = Service(log, Show([BrokenClock(), Alarm()]), lambda: now[0])
    service.replay()
    (view,) = service.tick()
    assert view.doc == {"rang": True}
    assert "The broken clock failed" in caplog.text


def test_an_envelope_limit_is_its_commands_own(service):
    """A command's envelope is refused above 16 KiB unless its command allows more: a bank's
    heat end lists every machine's credits (300 machines, ~26 KB), a member's name never needs
    it. The limit is checked before any rule, so nothing is logged either way here."""
    before = service.log.last_seq
    bank = Principal("device", "bank-1", "key:" + "d" * 64)
    finals = [{"machine": f"{100 + i}", "credits": 1000 + i} for i in range(300)]
    readings = [{**f, "at_ms": 1_700_000_000_000} for f in finals]
    heat_end = {"type": "slots.feed_heat_ended", "command_id": "end",
                "payload": {"bank": "bank-1", "feed_heat": "F-1", "finals": finals,
                            "last_readings": readings}}
    ack, _, _ = service.execute(heat_end, bank)
    assert ack["error"]["code"] == "unknown_feed_heat"  # read, and refused by its rule
    padded = {"type": "register_member", "command_id": "big",
              "payload": {**THANDI, "display_name": "x" * 20_000}}
    ack, _, _ = service.execute(padded, MC)
    assert ack["error"]["code"] == "too_large" and "16384" in ack["error"]["message"]
    assert service.log.last_seq == before


def test_a_live_view_changes_at_the_same_revision_and_a_sync_always_gets_it(service):
    """Machines' live credits are no events: their view keeps the log's last sequence while its
    document changes (docs/slots-feed.md), so a client that synced at that revision is sent it
    again, whole; an unchanged document is not pushed at all."""
    show, seq = service.show, service.log.last_seq
    first = show.put_live("live_heat:slots", {"rows": [1]}, seq)
    assert first is not None and first.revision == seq
    assert show.put_live("live_heat:slots", {"rows": [1]}, seq) is None
    changed = show.put_live("live_heat:slots", {"rows": [2]}, seq)
    assert changed is not None and changed.revision == seq
    held = {name: view.revision for name, view in show.views.items()}
    assert [v.doc for v in show.views_since(held) if v.name == "live_heat:slots"] == \
        [{"rows": [2]}]
    assert all(v.name == "live_heat:slots" for v in show.views_since(held))


def test_a_follower_folds_what_the_writer_appends_while_it_replays_once(log_at):
    """A fan-out process or a standby opens the log, replays it, then follows it: events the
    writer appends between the open and the replay's read are folded once, by `catch_up`."""
    writer = Service(open_log(log_at), Show(build_features()))
    writer.replay()
    for n in range(3):
        ack, _, _ = writer.execute(envelope("register_member",
                                            {"card": f"100000{n}", "display_name": f"P{n}"},
                                            f"before-{n}"), MC)
        assert ack["ok"], ack
    follower = Service(open_log(log_at), Show(build_features()))
    ack, _, _ = writer.execute(envelope("slots.enter", {"card": "1000001"}, "between"), MC)
    assert ack["ok"], ack  # appended after the follower opened, before it replays
    assert follower.replay() == 3
    events, _ = follower.catch_up()
    assert [e.type_name for e in events] == ["TournamentEntered"]
    assert follower.catch_up() == ([], [])
    assert follower.show.views == writer.show.views


def test_an_ack_says_in_words_what_its_command_did_and_a_refusal_offers_its_missing_step(
        log_at):
    """`said`: the desk's Wild Card activation answers with the member's name and the card's
    last four digits, kept with the ack (a retry gets it again); `error.next`: the freeze
    refused while Slots qualifying is open (slots rule 17) offers to close it."""
    now = [OPEN + 60_000]
    service = Service(open_log(log_at), Show(build_features()), lambda: now[0])
    service.replay()
    service.execute(envelope("register_member", THANDI, "press-1"), MC)
    activate = envelope("wildcard.activate", {"card": THANDI["card"]}, "press-2")
    ack, _, _ = service.execute(activate, MC)
    assert ack["said"] == "Thandi M.: 1 Wild Card ticket activated (card ending 4567)."
    assert service.execute(activate, MC)[0] == ack
    now[0] = CLOSE + 1_000
    refused, _, _ = service.execute(envelope("wildcard.freeze", {}, "press-3"), MC)
    assert refused["error"]["code"] == "qualifying_open"
    step = refused["error"]["next"]
    assert (step["type"], step["payload"]) == ("slots.close_stage", {"stage": "qualifying"})
    assert service.show.authorise(step["type"], MC.role)  # a command the MC may send
    closed, _, _ = service.execute(envelope("slots.close_stage", step["payload"], "press-4"), MC)
    assert closed["ok"] and "said" not in closed  # a command without words of its own
