"""Events evolve: stable stored names, schema versions, upcasters from old data."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from controller.domain.events import DomainEvent, EventDataError, event_from, upcaster
from controller.domain.members import MemberRegistered


@dataclass(frozen=True)
class PrizePaid(DomainEvent, type_name="TestPrizePaid", version=3):
    """Version 1 held `amount` in rand; version 2 renamed it to cents; version 3 added `by`."""

    card: str
    amount_cents: int
    by: str
    note: str = ""
    tags: list[str] = field(default_factory=list)


@upcaster("TestPrizePaid", 1)
def _rand_to_cents(data):
    data["amount_cents"] = data.pop("amount") * 100
    return data


@upcaster("TestPrizePaid", 2)
def _paid_by_someone(data):
    return {**data, "by": "unknown"}


@dataclass(frozen=True)
class WinnerAnnounced(DomainEvent, type_name="TestWinnerNamed"):
    """Once called WinnerNamed: the class was renamed, the stored name kept."""

    card: str


def test_upcasters_turn_each_old_version_into_the_current_event():
    old = event_from("TestPrizePaid", 1, {"card": "1234567", "amount": 500})
    assert old == PrizePaid("1234567", 50_000, "unknown")
    middle = event_from("TestPrizePaid", 2, {"card": "1234567", "amount_cents": 7, "by": "mc"})
    assert middle == PrizePaid("1234567", 7, "unknown")  # version 2's `by` is replaced
    current = event_from("TestPrizePaid", 3, {"card": "1", "amount_cents": 7, "by": "mc"})
    assert current == PrizePaid("1", 7, "mc")
    assert current.record() == ("TestPrizePaid", 3, {"card": "1", "amount_cents": 7, "by": "mc",
                                                     "note": "", "tags": []})


def test_a_renamed_class_keeps_its_stored_name():
    assert WinnerAnnounced("1").record() == ("TestWinnerNamed", 1, {"card": "1"})
    assert event_from("TestWinnerNamed", 1, {"card": "1"}) == WinnerAnnounced("1")
    with pytest.raises(LookupError, match="unknown event type 'WinnerAnnounced'"):
        event_from("WinnerAnnounced", 1, {"card": "1"})


def test_missing_fields_with_defaults_are_filled_and_unknown_ones_refused():
    assert event_from("TestPrizePaid", 3, {"card": "1", "amount_cents": 7, "by": "mc"}).tags == []
    with pytest.raises(EventDataError, match=r"TestPrizePaid version 3: unknown field\(s\) colour"):
        event_from("TestPrizePaid", 3, {"card": "1", "amount_cents": 7, "by": "mc",
                                        "colour": "red"})
    with pytest.raises(EventDataError, match=r"TestPrizePaid version 3: missing field\(s\) by"):
        event_from("TestPrizePaid", 3, {"card": "1", "amount_cents": 7})


def test_a_version_newer_than_the_code_is_refused():
    with pytest.raises(LookupError, match="TestPrizePaid version 4 is newer"):
        event_from("TestPrizePaid", 4, {})


def test_every_event_declares_a_unique_stable_name():
    with pytest.raises(TypeError, match="must declare the stable name"):
        type("Nameless", (DomainEvent,), {})
    with pytest.raises(TypeError, match="two event classes are stored as 'MemberRegistered'"):
        type("Impostor", (DomainEvent,), {}, type_name="MemberRegistered")
    assert MemberRegistered.type_name == "MemberRegistered" and MemberRegistered.version == 1


def test_a_version_needs_an_upcaster_from_each_older_one():
    @dataclass(frozen=True)
    class Gap(DomainEvent, type_name="TestGap", version=2):
        n: int

    with pytest.raises(LookupError, match="no upcaster turns TestGap version 1 into version 2"):
        event_from("TestGap", 1, {"n": 1})
    assert event_from("TestGap", 2, {"n": 1}) == Gap(1)
